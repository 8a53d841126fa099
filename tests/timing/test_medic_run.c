/* test_medic_run.c: MeDiC through the whole timing model (classifier medic,
 * L2 policies wbyp / medic, DRAM scheduler wms) on a kernel with two kinds of
 * warps: odd warps stream over lines no one reads again (all-miss at the
 * L2), even warps re-read four lines (hits after the first touch).  With the
 * L1D off every load reaches the L2.  Checked: the classifier types every odd
 * warp all-miss and every even warp all-hit or mostly-hit; every request a
 * mostly-miss or all-miss warp sends after its profiling never enters an L2
 * bank queue (requests tagged to bypass = l2_bypasses, bank-queue entries =
 * lookups, lookups + bypasses = the baseline's lookups within 1 %); WIP and
 * WMS alone type the warps and bypass nothing; Rand bypasses its chosen
 * warps, PC-Byp also bypasses the re-reading warps (one PC serves both
 * kinds), PCAL bypasses nothing but refuses lines to warps without a token;
 * results equal the CPU reference under every configuration. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "warpsim.h"

static const char mix_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry mix(.param .u64 a, .param .u64 out, .param .u32 n)\n{\n"
    ".reg .pred %p<3>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [a];\n"
    "ld.param.u64 %rd2, [out];\n"
    "ld.param.u32 %r1, [n];\n"
    "mov.u32 %r2, %ctaid.x;\n"
    "mov.u32 %r3, %ntid.x;\n"
    "mov.u32 %r4, %tid.x;\n"
    "mad.lo.u32 %r5, %r2, %r3, %r4;\n" /* global thread id */
    "mov.u32 %r6, %nctaid.x;\n"
    "mul.lo.u32 %r7, %r6, %r3;\n"
    "shr.u32 %r7, %r7, 5;\n"           /* W: warps in the grid */
    "shr.u32 %r8, %r5, 5;\n"           /* warp */
    "and.b32 %r9, %r5, 31;\n"          /* lane */
    "and.b32 %r10, %r8, 1;\n"
    "setp.eq.u32 %p1, %r10, 1;\n"      /* odd warp: streams */
    "mov.u32 %r11, 0;\n"               /* i */
    "mov.u32 %r12, 0;\n"               /* sum */
    "$L1:\n"
    "mad.lo.u32 %r13, %r11, %r7, %r8;\n" /* odd: line i * W + warp */
    "and.b32 %r14, %r11, 3;\n"           /* even: line i % 4 */
    "selp.b32 %r13, %r13, %r14, %p1;\n"
    "shl.b32 %r13, %r13, 5;\n"
    "add.s32 %r13, %r13, %r9;\n"
    "mul.wide.u32 %rd3, %r13, 4;\n"
    "add.s64 %rd4, %rd1, %rd3;\n"
    "ld.global.u32 %r15, [%rd4];\n"
    "add.s32 %r12, %r12, %r15;\n"
    "add.s32 %r11, %r11, 1;\n"
    "setp.lt.u32 %p2, %r11, %r1;\n"
    "@%p2 bra $L1;\n"
    "mul.wide.u32 %rd5, %r5, 4;\n"
    "add.s64 %rd6, %rd2, %rd5;\n"
    "st.global.u32 [%rd6], %r12;\n"
    "ret;\n"
    "}\n";

#define CTAS 4u
#define THREADS 256u
#define WARPS (CTAS * THREADS / 32u)
#define ITERS 120u
#define ELEMS (ITERS * WARPS * 32u)

struct result {
    uint64_t noalloc, rand_loads, pc_loads;
    uint64_t bypass_tagged, bypasses, accesses, queued, all_miss, all_hit, mostly_hit, others;
};

static uint64_t st(ws_gpu *g, const char *name)
{
    uint64_t v = 0;
    if (ws_stat(g, name, &v) != WS_OK)
        fail_msg("no statistic %s", name);
    return v;
}

static void run(const char *classifier, const char *l2, const char *dram, struct result *R)
{
    ws_gpu *g;
    assert_int_equal(ws_gpu_new(&g), WS_OK);
    assert_int_equal(ws_gpu_load_config(g, "gtx480"), WS_OK);
    const char *kv[][2] = {{"mode", "timing"},         {"sm.count", "2"},
                           {"l1d.enabled", "0"},       {"sm.classifier", classifier},
                           {"l2.policy", l2},          {"dram.sched", dram}};
    for (size_t i = 0; i < sizeof kv / sizeof *kv; i++)
        if (ws_gpu_set(g, kv[i][0], kv[i][1]) != WS_OK)
            fail_msg("%s: %s", kv[i][0], ws_last_error(g));
    ws_module *mod;
    if (ws_module_load_string(g, mix_ptx, "mix.ptx", &mod) != WS_OK)
        fail_msg("%s", ws_last_error(g));
    uint32_t *host = malloc(ELEMS * 4u);
    for (uint32_t i = 0; i < ELEMS; i++)
        host[i] = i * 2654435761u;
    ws_devptr a, out;
    assert_int_equal(ws_malloc(g, ELEMS * 4u, &a), WS_OK);
    assert_int_equal(ws_malloc(g, WARPS * 32u * 4u, &out), WS_OK);
    assert_int_equal(ws_memcpy_htod(g, a, host, ELEMS * 4u), WS_OK);
    uint32_t n = ITERS;
    void *args[] = {&a, &out, &n};
    if (ws_launch(mod, "mix", ws_dim(CTAS, 1, 1), ws_dim(THREADS, 1, 1), 0, args) != WS_OK)
        fail_msg("%s", ws_last_error(g));
    uint32_t got[WARPS * 32u];
    assert_int_equal(ws_memcpy_dtoh(g, got, out, sizeof got), WS_OK);
    for (uint32_t t = 0; t < WARPS * 32u; t++) {
        uint32_t w = t / 32, lane = t % 32, sum = 0;
        for (uint32_t i = 0; i < ITERS; i++) {
            uint32_t line = (w & 1) ? i * WARPS + w : i % 4;
            sum += host[line * 32 + lane];
        }
        assert_int_equal(got[t], sum);
    }
    free(host);
    memset(R, 0, sizeof *R);
    R->bypasses = st(g, "l2_bypasses");
    R->accesses = st(g, "l2_accesses");
    R->queued = st(g, "l2_queue_latency_count");
    if (strncmp(l2, "wbyp", 4) == 0)
        R->noalloc = st(g, "l2_medic_noalloc");
    if (strncmp(classifier, "rand_byp", 8) == 0)
        R->rand_loads = st(g, "classify_rand_byp_loads");
    if (strncmp(classifier, "pc_byp", 6) == 0)
        R->pc_loads = st(g, "classify_pc_byp_loads");
    if (strncmp(classifier, "medic", 5) == 0) {
        R->bypass_tagged = st(g, "classify_medic_req_bypass");
        R->all_miss = st(g, "classify_medic_warps_all_miss");
        R->all_hit = st(g, "classify_medic_warps_all_hit");
        R->mostly_hit = st(g, "classify_medic_warps_mostly_hit");
        R->others = st(g, "classify_medic_warps_balanced") +
                    st(g, "classify_medic_warps_mostly_miss");
    }
    ws_gpu_free(g);
}

/* Equal within 1 %: how many of the even warps' concurrent reads of one line
 * merge before the L2 depends on timing. */
static int near(uint64_t a, uint64_t b)
{
    uint64_t d = a > b ? a - b : b - a;
    return d * 100 <= b;
}

static void test_wbyp_skips_bank_queue(void **state)
{
    (void)state;
    struct result base, byp;
    run("none", "lru", "frfcfs", &base);
    assert_int_equal(base.bypasses, 0);
    assert_int_equal(base.queued, base.accesses);
    run("medic", "wbyp", "frfcfs", &byp);
    /* the types: half the warps stream, half re-read */
    assert_int_equal(byp.all_miss, WARPS / 2);
    assert_int_equal(byp.all_hit + byp.mostly_hit, WARPS / 2);
    assert_int_equal(byp.others, 0);
    /* with the L1D off a warp's 128-byte load goes as four 32-byte requests:
     * every request tagged to bypass skipped the L2, and only lookups
     * entered a bank queue */
    assert_true(byp.bypass_tagged > 0);
    assert_int_equal(byp.bypasses, 4 * byp.bypass_tagged);
    assert_int_equal(byp.queued, byp.accesses);
    assert_true(near(byp.accesses + byp.bypasses, base.accesses));
    /* a streaming warp looks up at least its 30 profiled requests (8 loads),
     * and a little more (loads issued before its 30th lookup came back) */
    assert_true(byp.bypass_tagged <= (WARPS / 2) * (ITERS - 8));
    assert_true(byp.bypass_tagged > (WARPS / 2) * (ITERS - 16));
}

static void test_medic_whole(void **state)
{
    (void)state;
    struct result base, all, wip, wms;
    run("none", "lru", "frfcfs", &base);
    run("medic", "medic", "wms", &all);
    assert_int_equal(all.bypasses, 4 * all.bypass_tagged);
    assert_true(near(all.accesses + all.bypasses, base.accesses));
    /* WIP alone and WMS alone: typed, nothing bypassed */
    run("medic:bypass=0", "wip", "frfcfs", &wip);
    assert_int_equal(wip.bypasses, 0);
    assert_int_equal(wip.bypass_tagged, 0);
    assert_int_equal(wip.all_miss, WARPS / 2);
    run("medic:bypass=0", "lru", "wms", &wms);
    assert_int_equal(wms.bypasses, 0);
    assert_true(near(wms.accesses, base.accesses));
}

/* Rand, PC-Byp and PCAL through the L2 policy wbyp. */
static void test_comparison_points(void **state)
{
    (void)state;
    struct result r, m;
    run("medic", "wbyp", "frfcfs", &m);
    /* Rand at 50 %: the chosen warps' loads bypass (fewer requests than 4 per
     * load where the even warps' reads of one line merge before the L2) */
    run("rand_byp:pct=50", "wbyp", "frfcfs", &r);
    assert_true(r.rand_loads > 0);
    assert_true(r.bypasses <= 4 * r.rand_loads);
    assert_true(r.bypasses * 10 >= 9 * 4 * r.rand_loads);
    /* PC-Byp: one load PC serves both kinds of warps; its first 30 lookups
     * are cold misses, so it bypasses the re-reading warps too, which MeDiC's
     * per-warp types spare */
    run("pc_byp", "wbyp", "frfcfs", &r);
    assert_int_equal(r.bypasses, 4 * r.pc_loads);
    assert_true(r.pc_loads > m.bypass_tagged + (WARPS / 2) * (ITERS / 2));
    /* PCAL: nothing bypasses; the misses of warps without a token are
     * served without a line */
    run("pcal:tokens=4", "wbyp", "frfcfs", &r);
    assert_int_equal(r.bypasses, 0);
    assert_true(r.noalloc > 0);
    /* under MeDiC only the bypassing warps' final stores are refused lines */
    assert_true(m.noalloc > 0 && m.noalloc <= 4 * (WARPS / 2));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wbyp_skips_bank_queue),
        cmocka_unit_test(test_medic_whole),
        cmocka_unit_test(test_comparison_points),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
