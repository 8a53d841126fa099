/* test_order.c: the parallel engine reproduces the single-thread order of
 * device-memory operations across SMs (docs/parallel.md).  A kernel whose
 * results record that order: 16 times, every thread takes a ticket with a
 * global atomicAdd, stores its id into one of 64 cells and loads the cell its
 * ticket names (a value another SM may have stored in the same cycle); it
 * writes a hash of its tickets and one of its loaded values, and optionally
 * %globaltimer (a count of the launch's warp instructions, which makes the
 * kernel run on one thread).  Checked at 1, 2 and 3 host threads: the same
 * hashes, timers and cycle count.  The hashes do catch a different order:
 * applying the SMs' deferred operations in reverse SM order fails this test.
 * With max_warp_insn the run stops with the same message (SM, warp slot, PC)
 * at any thread count. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "warpsim.h"

/* order_head, then the %globaltimer read (timer_ptx) or nothing (a module
 * that reads it anywhere runs on one thread), then order_tail. */
static const char timer_ptx[] = "mov.u64 %rd8, %globaltimer;\ncvt.u32.u64 %r10, %rd8;\n";
static const char order_head[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry order(.param .u64 ctr, .param .u64 cells, .param .u64 out)\n{\n"
    ".reg .pred %p<3>;\n.reg .b32 %r<20>;\n.reg .b64 %rd<16>;\n"
    "ld.param.u64 %rd1, [ctr];\n"
    "ld.param.u64 %rd2, [cells];\n"
    "ld.param.u64 %rd3, [out];\n"
    "mov.u32 %r1, %ctaid.x;\n"
    "mov.u32 %r2, %ntid.x;\n"
    "mov.u32 %r3, %tid.x;\n"
    "mad.lo.u32 %r4, %r1, %r2, %r3;\n"      /* gid */
    "mov.u32 %r11, 0;\n"                    /* i */
    "mov.u32 %r12, 0;\n"                    /* hash of the tickets */
    "mov.u32 %r13, 0;\n"                    /* hash of the loaded values */
    "$L:\n"
    "atom.global.add.u32 %r5, [%rd1], 1;\n" /* ticket */
    "mad.lo.u32 %r12, %r12, 31, %r5;\n"
    "mad.lo.u32 %r6, %r11, 5, %r4;\n"
    "and.b32 %r6, %r6, 63;\n"
    "mul.wide.u32 %rd4, %r6, 4;\n"
    "add.s64 %rd5, %rd2, %rd4;\n"
    "st.global.u32 [%rd5], %r4;\n"          /* my id into a cell */
    "add.u32 %r7, %r5, 7;\n"
    "and.b32 %r7, %r7, 63;\n"
    "mul.wide.u32 %rd6, %r7, 4;\n"
    "add.s64 %rd7, %rd2, %rd6;\n"
    "ld.global.u32 %r8, [%rd7];\n"          /* another thread's id, or 0 */
    "mad.lo.u32 %r13, %r13, 17, %r8;\n"
    "add.u32 %r11, %r11, 1;\n"
    "setp.lt.u32 %p2, %r11, 16;\n"
    "@%p2 bra $L;\n"
    "mov.u32 %r10, 0;\n";
static const char order_tail[] =
    "mul.wide.u32 %rd9, %r4, 12;\n"
    "add.s64 %rd10, %rd3, %rd9;\n"
    "st.global.u32 [%rd10], %r12;\n"
    "st.global.u32 [%rd10+4], %r13;\n"
    "st.global.u32 [%rd10+8], %r10;\n"
    "ret;\n"
    "}\n";

#define CTAS 60u
#define THREADS 64u
#define ITERS 16u
#define N (CTAS * THREADS)

struct run {
    int rc;
    char err[512];
    uint64_t cycles;
    uint32_t tickets; /* the counter at the end */
    uint32_t out[N * 3];
};

static void run_order(uint32_t threads, uint32_t timer, const char *max_insn, struct run *r)
{
    ws_gpu *g;
    char tv[16];
    snprintf(tv, sizeof tv, "%u", threads);
    assert_int_equal(ws_gpu_new(&g), WS_OK);
    assert_int_equal(ws_gpu_load_config(g, "gtx480"), WS_OK);
    assert_int_equal(ws_gpu_set(g, "threads", tv), WS_OK);
    if (max_insn)
        assert_int_equal(ws_gpu_set(g, "max_warp_insn", max_insn), WS_OK);
    char ptx[sizeof order_head + sizeof timer_ptx + sizeof order_tail];
    snprintf(ptx, sizeof ptx, "%s%s%s", order_head, timer ? timer_ptx : "", order_tail);
    ws_module *mod;
    if (ws_module_load_string(g, ptx, "order.ptx", &mod) != WS_OK)
        fail_msg("%s", ws_last_error(g));
    ws_devptr ctr, cells, out;
    assert_int_equal(ws_malloc(g, 4, &ctr), WS_OK);
    assert_int_equal(ws_malloc(g, 64 * 4, &cells), WS_OK);
    assert_int_equal(ws_malloc(g, sizeof r->out, &out), WS_OK);
    void *args[] = {&ctr, &cells, &out};
    memset(r, 0, sizeof *r);
    r->rc = ws_launch(mod, "order", ws_dim(CTAS, 1, 1), ws_dim(THREADS, 1, 1), 0, args);
    if (r->rc != WS_OK) {
        snprintf(r->err, sizeof r->err, "%s", ws_last_error(g));
    } else {
        assert_int_equal(ws_memcpy_dtoh(g, r->out, out, sizeof r->out), WS_OK);
        assert_int_equal(ws_memcpy_dtoh(g, &r->tickets, ctr, 4), WS_OK);
        assert_int_equal(ws_stat(g, "gpu_sim_cycle", &r->cycles), WS_OK);
    }
    ws_gpu_free(g);
}

static void same_at_any_thread_count(uint32_t timer)
{
    static struct run one, many;
    run_order(1, timer, NULL, &one);
    assert_int_equal(one.rc, WS_OK);
    assert_int_equal(one.tickets, N * ITERS);
    for (uint32_t n = 2; n <= 3; n++) {
        run_order(n, timer, NULL, &many);
        assert_int_equal(many.rc, WS_OK);
        assert_int_equal(many.cycles, one.cycles);
        assert_memory_equal(many.out, one.out, sizeof one.out);
    }
}

static void test_atomics_stores_loads(void **state)
{
    (void)state;
    same_at_any_thread_count(0);
}

static void test_globaltimer_runs_serially(void **state)
{
    (void)state;
    same_at_any_thread_count(1);
}

static void test_instruction_limit(void **state)
{
    (void)state;
    static struct run one, many;
    run_order(1, 0, "3000", &one);
    assert_int_not_equal(one.rc, WS_OK);
    assert_non_null(strstr(one.err, "exceeded the limit of 3000 warp instructions"));
    for (uint32_t n = 2; n <= 3; n++) {
        run_order(n, 0, "3000", &many);
        assert_int_equal(many.rc, one.rc);
        assert_string_equal(many.err, one.err);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_atomics_stores_loads),
        cmocka_unit_test(test_globaltimer_runs_serially),
        cmocka_unit_test(test_instruction_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
