/* test_lwm.c: the Large Warp Microarchitecture issue model
 * (sm.issue_model=lwm, timing/issue_lwm.c; Narasiman et al. MICRO 2011,
 * SPEC-policies 6.1-6.3) on kernels whose timing is known:
 *  - the slides' sub-warp example: 8 warps whose active threads fill half of
 *    every lane column issue 8 warp instructions per instruction on the
 *    baseline and 4 sub-warps as one large warp (twice the speed, full SIMD
 *    utilisation instead of half);
 *  - an unconditional branch issues as one sub-warp, a conditional one as
 *    many as its active threads need;
 *  - the sub-warps of an instruction issue in consecutive cycles (round
 *    robin chooses per large-warp instruction), so two large warps fill
 *    each other's branch holds;
 *  - sm.barrel: a warp's next instruction waits for the previous one to
 *    complete, a load's data included, for a warp and for a large warp;
 *  - barriers inside large warps (several rows, a CTA of two large warps, a
 *    CTA whose last large warp has fewer rows) do not deadlock and give the
 *    CPU answer, in the same cycles with and without idle-cycle skipping;
 *  - LWM with two-level scheduling over fetch groups of one large warp
 *    (two_level_fg:group=8): the forced switch after `timeout` large-warp
 *    instructions happens when no large warp ever stalls. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "warpsim.h"

static const char *const lwm_keys[][2] = {
    {"mode", "timing"},         {"sm.count", "1"},     {"sm.schedulers", "1"},
    {"sm.warps", "32"},         {"sm.threads", "1024"}, {"sp.units", "1"},
    {"sp.ii", "1"},             {"sp.latency", "4"},   {"int.latency", "4"},
    {"sm.issue_interval", "1"}, {"sm.sched", "lrr"},
};

static ws_gpu *gpu_open(const char *model, const char *sched)
{
    ws_gpu *gpu;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    for (size_t i = 0; i < sizeof lwm_keys / sizeof lwm_keys[0]; i++)
        assert_int_equal(ws_gpu_set(gpu, lwm_keys[i][0], lwm_keys[i][1]), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "sm.issue_model", model), WS_OK);
    if (sched)
        assert_int_equal(ws_gpu_set(gpu, "sm.sched", sched), WS_OK);
    return gpu;
}

static uint64_t stat(ws_gpu *gpu, const char *name)
{
    uint64_t v = 0;
    assert_int_equal(ws_stat(gpu, name, &v), WS_OK);
    return v;
}

/* Threads whose (lane + row) is even run `iters` iterations of `d`
 * independent adds and `nbra` unconditional branches; every thread stores
 * its count of adds to out[tid]. */
static char *half_ptx(unsigned d, unsigned nbra)
{
    size_t cap = 4096 + (size_t)(d + nbra) * 64;
    char *p = malloc(cap);
    assert_non_null(p);
    int n = snprintf(p, cap,
                     ".version 7.0\n.target sm_70\n.address_size 64\n"
                     ".visible .entry k(.param .u64 out, .param .u32 iters)\n{\n"
                     ".reg .pred %%p<3>;\n.reg .b32 %%r<64>;\n.reg .b64 %%rd<4>;\n"
                     "ld.param.u64 %%rd1, [out];\nld.param.u32 %%r60, [iters];\n"
                     "mov.u32 %%r50, %%tid.x;\nand.b32 %%r51, %%r50, 31;\n"
                     "shr.u32 %%r52, %%r50, 5;\nadd.s32 %%r53, %%r51, %%r52;\n"
                     "and.b32 %%r54, %%r53, 1;\nmov.u32 %%r61, 0;\nmov.u32 %%r1, 0;\n"
                     "setp.ne.u32 %%p2, %%r54, 0;\n@%%p2 bra $L_skip;\n"
                     "$L_loop:\nadd.s32 %%r61, %%r61, 1;\n");
    for (unsigned i = 0; i < d; i++)
        n += snprintf(p + n, cap - (size_t)n, "add.s32 %%r1, %%r1, 1;\n");
    for (unsigned i = 0; i < nbra; i++)
        n += snprintf(p + n, cap - (size_t)n, "bra.uni $L_b%u;\n$L_b%u:\n", i, i);
    snprintf(p + n, cap - (size_t)n,
             "setp.lt.u32 %%p1, %%r61, %%r60;\n@%%p1 bra $L_loop;\n"
             "$L_skip:\nmul.wide.u32 %%rd2, %%r50, 4;\nadd.s64 %%rd3, %%rd1, %%rd2;\n"
             "st.global.u32 [%%rd3], %%r1;\nret;\n}\n");
    return p;
}

struct run {
    uint64_t cycles, subwarps, insn, warp_insn, issued, lanes;
};

static struct run half_run(const char *model, unsigned d, unsigned nbra, unsigned iters)
{
    ws_gpu *gpu = gpu_open(model, NULL);
    char *ptx = half_ptx(d, nbra);
    ws_module *mod;
    if (ws_module_load_string(gpu, ptx, "half.ptx", &mod) != WS_OK)
        fail_msg("%s", ws_last_error(gpu));
    free(ptx);
    ws_devptr out;
    assert_int_equal(ws_malloc(gpu, 256 * 4, &out), WS_OK);
    void *args[] = {&out, &iters};
    if (ws_launch(mod, "k", ws_dim(1, 1, 1), ws_dim(256, 1, 1), 0, args) != WS_OK)
        fail_msg("%s", ws_last_error(gpu));
    uint32_t v[256];
    assert_int_equal(ws_memcpy_dtoh(gpu, v, out, sizeof v), WS_OK);
    for (uint32_t t = 0; t < 256; t++)
        assert_int_equal(v[t], ((t % 32 + t / 32) % 2) ? 0 : iters * d);
    struct run r = {stat(gpu, "gpu_sim_cycle"), 0, 0, stat(gpu, "warp_insn"),
                    stat(gpu, "sched_issued_insn"), stat(gpu, "sched_issued_lanes")};
    if (!strcmp(model, "lwm")) {
        r.subwarps = stat(gpu, "lwm_subwarps");
        r.insn = stat(gpu, "lwm_insn");
    }
    ws_gpu_free(gpu);
    return r;
}

/* Cycles per added instruction of the loop body, from differences of body
 * sizes and of iteration counts (the prologue, epilogue, loop overhead and
 * cold instruction misses cancel out). */
static double cycles_per_body_insn(const char *model)
{
    const unsigned i1 = 20, i2 = 60, d1 = 8, d2 = 24;
    double c11 = (double)half_run(model, d1, 0, i1).cycles;
    double c12 = (double)half_run(model, d1, 0, i2).cycles;
    double c21 = (double)half_run(model, d2, 0, i1).cycles;
    double c22 = (double)half_run(model, d2, 0, i2).cycles;
    return ((c22 - c21) - (c12 - c11)) / (double)((i2 - i1) * (d2 - d1));
}

static void test_subwarp_example(void **state)
{
    (void)state;
    /* baseline: 8 warps, each with 16 active threads, one issue each */
    double base = cycles_per_body_insn("warp");
    print_message("baseline %.3f cycles per body instruction\n", base);
    assert_true(base > 7.9 && base < 8.1);
    /* LWM: each column holds 4 active threads: 4 sub-warps */
    double lwm = cycles_per_body_insn("lwm");
    print_message("lwm %.3f cycles per body instruction\n", lwm);
    assert_true(lwm > 3.9 && lwm < 4.1);
    struct run a = half_run("lwm", 8, 0, 40), b = half_run("lwm", 24, 0, 40);
    assert_int_equal(b.insn - a.insn, 40 * 16);
    assert_int_equal(b.subwarps - a.subwarps, 40 * 16 * 4);
    /* SIMD utilisation of the added instructions: full sub-warps under LWM,
     * half-full warps on the baseline */
    assert_int_equal((b.lanes - a.lanes) / (b.issued - a.issued), 32);
    struct run x = half_run("warp", 8, 0, 40), y = half_run("warp", 24, 0, 40);
    assert_int_equal(y.issued - x.issued, 40 * 16 * 8);
    assert_int_equal((y.lanes - x.lanes) / (y.issued - x.issued), 16);
}

static void test_unconditional_branch_one_subwarp(void **state)
{
    (void)state;
    const unsigned iters = 30, nbra = 5;
    struct run a = half_run("lwm", 4, 0, iters), b = half_run("lwm", 4, nbra, iters);
    /* every bra.uni: one large-warp instruction, one sub-warp */
    assert_int_equal(b.insn - a.insn, iters * nbra);
    assert_int_equal(b.subwarps - a.subwarps, iters * nbra);
    /* while an add of the same threads needs 4 */
    struct run c = half_run("lwm", 4 + nbra, 0, iters);
    assert_int_equal(c.subwarps - a.subwarps, iters * nbra * 4);
    /* the baseline issues it once per warp: 8 */
    struct run x = half_run("warp", 4, 0, iters), y = half_run("warp", 4, nbra, iters);
    assert_int_equal(y.warp_insn - x.warp_insn, iters * nbra * 8);
}

/* Every thread runs `iters` iterations of a loop: with `ld` a shared-memory
 * load whose value nothing reads, then `d` adds into 8 registers in turn (at
 * most one in 8 depends on the one before); out[tid] = iters. */
static char *full_ptx(unsigned d, int ld)
{
    size_t cap = 2048 + (size_t)d * 40;
    char *p = malloc(cap);
    assert_non_null(p);
    int n = snprintf(p, cap,
                     ".version 7.0\n.target sm_70\n.address_size 64\n"
                     ".visible .entry k(.param .u64 out, .param .u32 iters)\n{\n"
                     ".reg .pred %%p<2>;\n.reg .b32 %%r<64>;\n.reg .b64 %%rd<4>;\n"
                     ".shared .align 4 .b32 sh[32];\n"
                     "ld.param.u64 %%rd1, [out];\nld.param.u32 %%r60, [iters];\n"
                     "mov.u32 %%r50, %%tid.x;\nmov.u32 %%r61, 0;\nmov.u32 %%r40, sh;\n"
                     "$L_loop:\nadd.s32 %%r61, %%r61, 1;\n");
    if (ld)
        n += snprintf(p + n, cap - (size_t)n, "ld.shared.u32 %%r41, [%%r40];\n");
    for (unsigned i = 0; i < d; i++)
        n += snprintf(p + n, cap - (size_t)n, "add.s32 %%r%u, %%r%u, 1;\n", 10 + i % 8,
                      10 + i % 8);
    snprintf(p + n, cap - (size_t)n,
             "setp.lt.u32 %%p1, %%r61, %%r60;\n@%%p1 bra $L_loop;\n"
             "mul.wide.u32 %%rd2, %%r50, 4;\nadd.s64 %%rd3, %%rd1, %%rd2;\n"
             "st.global.u32 [%%rd3], %%r61;\nret;\n}\n");
    return p;
}

/* Cycles of one CTA of `threads` threads (large warps of 8 rows under lwm)
 * running full_ptx(d, ld) for `iters` iterations. */
static uint64_t full_run(const char *model, const char *barrel, uint32_t threads, unsigned d,
                         int ld, uint32_t iters)
{
    ws_gpu *gpu = gpu_open(model, NULL);
    assert_int_equal(ws_gpu_set(gpu, "sm.barrel", barrel), WS_OK);
    char *ptx = full_ptx(d, ld);
    ws_module *mod;
    if (ws_module_load_string(gpu, ptx, "full.ptx", &mod) != WS_OK)
        fail_msg("%s", ws_last_error(gpu));
    free(ptx);
    ws_devptr out;
    assert_int_equal(ws_malloc(gpu, threads * 4, &out), WS_OK);
    void *args[] = {&out, &iters};
    if (ws_launch(mod, "k", ws_dim(1, 1, 1), ws_dim(threads, 1, 1), 0, args) != WS_OK)
        fail_msg("%s", ws_last_error(gpu));
    uint32_t *v = malloc(threads * 4);
    assert_non_null(v);
    assert_int_equal(ws_memcpy_dtoh(gpu, v, out, threads * 4), WS_OK);
    for (uint32_t t = 0; t < threads; t++)
        assert_int_equal(v[t], iters);
    free(v);
    uint64_t c = stat(gpu, "gpu_sim_cycle");
    ws_gpu_free(gpu);
    return c;
}

/* Cycles per loop iteration, from two iteration counts. */
static double per_iter(const char *model, const char *barrel, uint32_t threads, unsigned d,
                       int ld)
{
    const uint32_t i1 = 20, i2 = 60;
    uint64_t a = full_run(model, barrel, threads, d, ld, i1);
    uint64_t b = full_run(model, barrel, threads, d, ld, i2);
    return (double)(b - a) / (double)(i2 - i1);
}

/* The paper's pipeline issues the sub-warps of a fetched large-warp
 * instruction in consecutive cycles (the instruction sits in the
 * sub-warping stage); round robin chooses among large warps per
 * instruction, not per sub-warp.  Two large warps of 8 full rows then keep
 * the single 32-lane pipeline busy every cycle: while one waits for the
 * last sub-warp of its loop branch to complete (4 cycles), the other issues
 * its 8 sub-warps of the next instruction.  Interleaving sub-warps of the
 * two large warps would finish both branches together and leave both
 * waiting. */
static void test_subwarps_consecutive(void **state)
{
    (void)state;
    const unsigned d = 6;
    double c = per_iter("lwm", "0", 512, d, 0);
    /* counter add, d adds, setp, branch: 8 sub-warps each, 2 large warps */
    double want = 2.0 * 8.0 * (d + 3);
    print_message("%.2f cycles per iteration (%.0f without bubbles)\n", c, want);
    assert_true(c > want - 0.01 && c < want + 0.01);
}

/* sm.barrel: a warp issues its next instruction only once the previous one
 * completed.  One warp of independent adds issues one a cycle with a
 * scoreboard and one per ALU latency (4) under barrel processing; a load
 * whose value nothing reads holds the next instruction back until its data
 * returned, for a warp and for a large warp of one row (its busy bits free
 * it a cycle after the hand-off to the LD/ST unit otherwise). */
static void test_barrel(void **state)
{
    (void)state;
    const unsigned d = 16;
    double sb = per_iter("warp", "0", 32, d, 0), br = per_iter("warp", "1", 32, d, 0);
    print_message("one warp: %.2f cycles per iteration, %.2f under barrel\n", sb, br);
    /* d adds: 2 of 8 registers written back to back at most once */
    assert_true(sb < d + 3 + 4);
    /* every instruction (counter add, d adds, setp, branch) waits 4 cycles */
    assert_true(br > 4.0 * (d + 3) - 0.01 && br < 4.0 * (d + 3) + 0.01);
    for (int m = 0; m < 2; m++) {
        const char *model = m ? "lwm" : "warp";
        double a0 = per_iter(model, "0", 32, d, 0), a1 = per_iter(model, "0", 32, d, 1);
        double b0 = per_iter(model, "1", 32, d, 0), b1 = per_iter(model, "1", 32, d, 1);
        print_message("%s: the load adds %.2f cycles per iteration, %.2f under barrel\n",
                      model, a1 - a0, b1 - b0);
        /* one more instruction; under barrel, one whose data returns
         * smem.latency (3) cycles after its issue */
        assert_true(a1 - a0 > 0.99 && a1 - a0 < 1.01);
        assert_true(b1 - b0 > 2.99 && b1 - b0 < 3.01);
    }
}

/* out[t] = sum over rounds of sh[(t + round) % n] where every thread writes
 * sh[t] = t * (round + 1) between two barriers. */
static const char bar_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u32 rounds)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<6>;\n"
    ".shared .align 4 .b32 sh[1024];\n"
    "ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [rounds];\n"
    "mov.u32 %r2, %tid.x;\nmov.u32 %r3, %ntid.x;\nmov.u32 %r4, 0;\nmov.u32 %r5, 0;\n"
    "mov.u32 %r10, sh;\n"
    "$L_loop:\nadd.s32 %r6, %r4, 1;\nmul.lo.u32 %r7, %r2, %r6;\n"
    "shl.b32 %r8, %r2, 2;\nadd.s32 %r8, %r10, %r8;\nst.shared.u32 [%r8], %r7;\n"
    "bar.sync 0;\n"
    "add.s32 %r9, %r2, %r4;\nrem.u32 %r9, %r9, %r3;\nshl.b32 %r9, %r9, 2;\n"
    "add.s32 %r9, %r10, %r9;\nld.shared.u32 %r11, [%r9];\nadd.s32 %r5, %r5, %r11;\n"
    "bar.sync 0;\n"
    "add.s32 %r4, %r4, 1;\nsetp.lt.u32 %p1, %r4, %r1;\n@%p1 bra $L_loop;\n"
    "mov.u32 %r12, %ctaid.x;\nmad.lo.u32 %r13, %r12, %r3, %r2;\n"
    "mul.wide.u32 %rd2, %r13, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r5;\n"
    "ret;\n}\n";

static uint64_t bar_case(uint32_t threads, uint32_t ctas, const char *rows, const char *skip)
{
    ws_gpu *gpu = gpu_open("lwm", NULL);
    assert_int_equal(ws_gpu_set(gpu, "lwm.rows", rows), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "skip_idle_cycles", skip), WS_OK);
    ws_module *mod;
    if (ws_module_load_string(gpu, bar_ptx, "bar.ptx", &mod) != WS_OK)
        fail_msg("%s", ws_last_error(gpu));
    uint32_t rounds = 5, n = threads * ctas;
    ws_devptr out;
    assert_int_equal(ws_malloc(gpu, n * 4, &out), WS_OK);
    void *args[] = {&out, &rounds};
    if (ws_launch(mod, "k", ws_dim(ctas, 1, 1), ws_dim(threads, 1, 1), 0, args) != WS_OK)
        fail_msg("threads %u rows %s: %s", threads, rows, ws_last_error(gpu));
    uint32_t *v = malloc(n * 4);
    assert_non_null(v);
    assert_int_equal(ws_memcpy_dtoh(gpu, v, out, n * 4), WS_OK);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t t = i % threads, want = 0;
        for (uint32_t r = 0; r < rounds; r++)
            want += ((t + r) % threads) * (r + 1);
        assert_int_equal(v[i], want);
    }
    free(v);
    assert_true(stat(gpu, "lwm_insn") > 0);
    uint64_t cycles = stat(gpu, "gpu_sim_cycle");
    ws_gpu_free(gpu);
    return cycles;
}

static void test_barriers_in_large_warps(void **state)
{
    (void)state;
    bar_case(256, 1, "8", "1");  /* one large warp: the whole CTA */
    uint64_t a = bar_case(512, 2, "8", "1"); /* two large warps per CTA, two CTAs */
    bar_case(320, 1, "8", "1");  /* 10 warps: large warps of 8 and 2 rows */
    bar_case(256, 3, "3", "1");  /* 8 warps in rows of 3, 3 and 2 */
    /* every wake-up of a large warp is an event: skipping idle cycles changes
     * nothing */
    assert_int_equal(bar_case(512, 2, "8", "0"), a);
}

/* LWM + two-level: fetch groups of one large warp (8 slots).  The half
 * kernel never waits on memory inside its loop, so only the timeout moves
 * priority between the 4 large warps of 4 CTAs. */
static void test_lwm_two_level_timeout(void **state)
{
    (void)state;
    uint64_t sw[2];
    for (int i = 0; i < 2; i++) {
        ws_gpu *gpu = gpu_open("lwm", i ? "two_level_fg:group=8,timeout=64"
                                        : "two_level_fg:group=8,timeout=0");
        char *ptx = half_ptx(16, 0);
        ws_module *mod;
        if (ws_module_load_string(gpu, ptx, "half.ptx", &mod) != WS_OK)
            fail_msg("%s", ws_last_error(gpu));
        free(ptx);
        ws_devptr out;
        assert_int_equal(ws_malloc(gpu, 1024 * 4, &out), WS_OK);
        uint32_t iters = 20;
        void *args[] = {&out, &iters};
        if (ws_launch(mod, "k", ws_dim(4, 1, 1), ws_dim(256, 1, 1), 0, args) != WS_OK)
            fail_msg("%s", ws_last_error(gpu));
        sw[i] = stat(gpu, "sched_fg_switches_timeout");
        ws_gpu_free(gpu);
    }
    assert_int_equal(sw[0], 0);
    /* 4 large warps x (20 x 18 + prologue) instructions, a switch every 64
     * large-warp instructions (not every 64 of their 4 sub-warps each) */
    print_message("%llu forced switches\n", (unsigned long long)sw[1]);
    assert_true(sw[1] >= 4 * 20 * 18 / 64 - 2);
    assert_true(sw[1] <= 4 * (20 * 18 + 30) / 64 + 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_subwarp_example),
        cmocka_unit_test(test_unconditional_branch_one_subwarp),
        cmocka_unit_test(test_subwarps_consecutive),
        cmocka_unit_test(test_barrel),
        cmocka_unit_test(test_barriers_in_large_warps),
        cmocka_unit_test(test_lwm_two_level_timeout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
