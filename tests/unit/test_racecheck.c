/* test_racecheck.c: the shared-memory hazard check (option racecheck,
 * src/func/racecheck.c) and the functional mode's interleaved order
 * (func_order).
 *
 * The kernels (hand-written PTX, 64 threads = 2 warps unless noted):
 *   neighbour(out): buf[t] = t; out[t] = buf[(t + 1) % 64], with a barrier
 *     between the store and the load only when the parameter `sync` is 1.
 *     Without it, thread 31 (warp 0) reads the slot thread 32 (warp 1)
 *     writes and thread 63 (warp 1) reads the slot thread 0 (warp 0) writes:
 *     two hazards.  In the serial functional order warp 0 runs to its end
 *     first, so thread 31's read comes before thread 32's write (write after
 *     read) and thread 63's after thread 0's (read after write).
 *   count(out): every thread atom.shared.add buf[0], 1; barrier; thread 0
 *     stores buf[0]: atomics never race with each other.
 *   dl(): warp 0 waits at barrier 1, warp 1 at barrier 2 (deadlock). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "warpsim.h"

static const char race_ptx[] =
    ".version 7.0\n"
    ".target sm_70\n"
    ".address_size 64\n"
    ".visible .entry neighbour(.param .u64 out, .param .u32 sync)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<10>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  .shared .align 4 .b8 buf[256];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  shl.b32 %r2, %r1, 2;\n"
    "  mov.u32 %r3, buf;\n"
    "  add.u32 %r4, %r3, %r2;\n"
    "  st.shared.u32 [%r4], %r1;\n"                 /* line 14 */
    "  ld.param.u32 %r7, [sync];\n"
    "  setp.eq.u32 %p1, %r7, 0;\n"
    "  @%p1 bra NOSYNC;\n"
    "  bar.sync 0;\n"
    "NOSYNC:\n"
    "  add.u32 %r5, %r2, 4;\n"
    "  and.b32 %r5, %r5, 255;\n"
    "  add.u32 %r5, %r3, %r5;\n"
    "  ld.shared.u32 %r6, [%r5];\n"                 /* line 23 */
    "  ld.param.u64 %rd1, [out];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.u64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r6;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry count(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<6>;\n"
    "  .reg .b64 %rd<3>;\n"
    "  .shared .align 4 .b8 cnt[4];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, cnt;\n"
    "  atom.shared.add.u32 %r3, [%r2], 1;\n"
    "  bar.sync 0;\n"
    "  setp.ne.u32 %p1, %r1, 0;\n"
    "  @%p1 bra DONE;\n"
    "  ld.shared.u32 %r4, [%r2];\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  st.global.u32 [%rd1], %r4;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n"
    ".visible .entry dl()\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<3>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.lt.u32 %p1, %r1, 32;\n"
    "  @%p1 bra W0;\n"
    "  bar.sync 2;\n"
    "  ret;\n"
    "W0:\n"
    "  bar.sync 1;\n"
    "  ret;\n"
    "}\n";

struct fx {
    ws_gpu *gpu;
    ws_module *mod;
    ws_devptr out;
};

static void open_gpu(struct fx *f, const char *mode, const char *order, int racecheck)
{
    assert_int_equal(ws_gpu_new(&f->gpu), WS_OK);
    assert_int_equal(ws_gpu_set(f->gpu, "mode", mode), WS_OK);
    assert_int_equal(ws_gpu_set(f->gpu, "func_order", order), WS_OK);
    assert_int_equal(ws_gpu_set(f->gpu, "racecheck", racecheck ? "1" : "0"), WS_OK);
    assert_int_equal(ws_module_load_string(f->gpu, race_ptx, "race.ptx", &f->mod), WS_OK);
    assert_int_equal(ws_malloc(f->gpu, 64 * 4, &f->out), WS_OK);
    assert_int_equal(ws_memset(f->gpu, f->out, 0xff, 64 * 4), WS_OK);
}

/* Launch neighbour; its stderr (the racecheck report) into report. */
static void run_neighbour(struct fx *f, uint32_t sync, uint32_t res[64], char *report,
                          size_t len)
{
    void *args[] = {&f->out, &sync};
    FILE *tmp = tmpfile();
    assert_non_null(tmp);
    fflush(stderr);
    int saved = dup(fileno(stderr));
    dup2(fileno(tmp), fileno(stderr));
    int rc = ws_launch(f->mod, "neighbour", ws_dim(1, 1, 1), ws_dim(64, 1, 1), 0, args);
    fflush(stderr);
    dup2(saved, fileno(stderr));
    close(saved);
    assert_int_equal(rc, WS_OK);
    rewind(tmp);
    size_t n = fread(report, 1, len - 1, tmp);
    report[n] = 0;
    fclose(tmp);
    assert_int_equal(ws_memcpy_dtoh(f->gpu, res, f->out, 64 * 4), WS_OK);
}

static uint64_t stat(const struct fx *f, const char *name)
{
    uint64_t v = 0;
    assert_int_equal(ws_stat(f->gpu, name, &v), WS_OK);
    return v;
}

/* Serial order: one write-after-read and one read-after-write hazard, each
 * naming both threads, warps and PCs; the results are the serial order's. */
static void test_hazards_functional(void **state)
{
    (void)state;
    struct fx f;
    open_gpu(&f, "functional", "serial", 1);
    uint32_t res[64];
    char rep[4096];
    run_neighbour(&f, 0, res, rep, sizeof rep);
    assert_int_equal(stat(&f, "racecheck_hazards"), 2);
    assert_non_null(strstr(rep, "kernel 'neighbour': 2 shared-memory hazards"));
    assert_non_null(strstr(rep, "write after read hazard x1, first at shared byte 0x80"));
    assert_non_null(strstr(rep, "read by thread (31,0,0) of warp 0 at PC 12 (race.ptx:23: ld)"));
    assert_non_null(strstr(rep, "written by thread (32,0,0) of warp 1 at PC 4 (race.ptx:14: st)"));
    assert_non_null(strstr(rep, "read after write hazard x1, first at shared byte 0x0 "));
    assert_non_null(strstr(rep, "written by thread (0,0,0) of warp 0 at PC 4"));
    assert_non_null(strstr(rep, "then read by thread (63,0,0) of warp 1 at PC 12"));
    /* warp 0 ran before warp 1 wrote: thread 31 read the zeroed slot */
    for (uint32_t t = 0; t < 64; t++)
        assert_int_equal(res[t], t == 31 ? 0 : (t + 1) % 64);
    ws_gpu_free(f.gpu);
}

/* The barrier separates the accesses: no hazard, correct results; nothing
 * is reported without the option either. */
static void test_barrier_no_hazard(void **state)
{
    (void)state;
    for (int mode = 0; mode < 2; mode++) {
        struct fx f;
        open_gpu(&f, mode ? "timing" : "functional", "serial", 1);
        uint32_t res[64];
        char rep[4096];
        run_neighbour(&f, 1, res, rep, sizeof rep);
        assert_int_equal(stat(&f, "racecheck_hazards"), 0);
        assert_string_equal(rep, "");
        for (uint32_t t = 0; t < 64; t++)
            assert_int_equal(res[t], (t + 1) % 64);
        ws_gpu_free(f.gpu);
    }
    struct fx f;
    open_gpu(&f, "functional", "serial", 0);
    uint32_t res[64];
    char rep[4096];
    run_neighbour(&f, 0, res, rep, sizeof rep);
    assert_int_equal(stat(&f, "racecheck_hazards"), 0);
    assert_string_equal(rep, "");
    ws_gpu_free(f.gpu);
}

/* The timing model issues the warps' stores before their loads: the same two
 * racing accesses are found, both read after write (one instruction pair,
 * counted twice). */
static void test_hazards_timing(void **state)
{
    (void)state;
    struct fx f;
    open_gpu(&f, "timing", "serial", 1);
    uint32_t res[64];
    char rep[4096];
    run_neighbour(&f, 0, res, rep, sizeof rep);
    assert_int_equal(stat(&f, "racecheck_hazards"), 2);
    assert_non_null(strstr(rep, "read after write hazard x2, first at shared byte 0x80"));
    assert_non_null(strstr(rep, "then read by thread (31,0,0) of warp 0"));
    ws_gpu_free(f.gpu);
}

/* Atomics from every warp on one word, then a barrier: no hazard; the count
 * is right. */
static void test_atomics_no_hazard(void **state)
{
    (void)state;
    struct fx f;
    open_gpu(&f, "functional", "serial", 1);
    void *args[] = {&f.out};
    assert_int_equal(ws_launch(f.mod, "count", ws_dim(2, 1, 1), ws_dim(96, 1, 1), 0, args),
                     WS_OK);
    uint32_t v;
    assert_int_equal(ws_memcpy_dtoh(f.gpu, &v, f.out, 4), WS_OK);
    assert_int_equal(v, 96);
    assert_int_equal(stat(&f, "racecheck_hazards"), 0);
    ws_gpu_free(f.gpu);
}

/* Interleaved order: warp 1 stores before warp 0 loads, so the racy read
 * sees the value the serial order missed; a race-free launch gives the same
 * results and instruction counts in both orders; deadlocks are still found. */
static void test_interleaved_order(void **state)
{
    (void)state;
    uint64_t insn[2];
    for (int o = 0; o < 2; o++) {
        struct fx f;
        open_gpu(&f, "functional", o ? "interleaved" : "serial", 0);
        uint32_t res[64];
        char rep[64];
        run_neighbour(&f, 0, res, rep, sizeof rep);
        assert_int_equal(res[31], o ? 32 : 0);
        run_neighbour(&f, 1, res, rep, sizeof rep);
        for (uint32_t t = 0; t < 64; t++)
            assert_int_equal(res[t], (t + 1) % 64);
        /* a grid larger than the window: CTAs are replaced as they finish */
        void *args[] = {&f.out};
        assert_int_equal(ws_gpu_set(f.gpu, "func_window", "3"), WS_OK);
        assert_int_equal(
            ws_launch(f.mod, "count", ws_dim(7, 1, 1), ws_dim(96, 1, 1), 0, args), WS_OK);
        assert_int_equal(stat(&f, "ctas_launched"), 1 + 1 + 7);
        insn[o] = stat(&f, "warp_insn");
        int rc = ws_launch(f.mod, "dl", ws_dim(1, 1, 1), ws_dim(64, 1, 1), 0, NULL);
        assert_int_equal(rc, WS_ERR_DEADLOCK);
        assert_non_null(strstr(ws_last_error(f.gpu), "warp 0 waits at barrier 1"));
        ws_gpu_free(f.gpu);
    }
    assert_true(insn[0] == insn[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hazards_functional), cmocka_unit_test(test_barrier_no_hazard),
        cmocka_unit_test(test_hazards_timing),     cmocka_unit_test(test_atomics_no_hazard),
        cmocka_unit_test(test_interleaved_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
