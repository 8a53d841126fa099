/* test_classify.c: request classifiers (src/policy/classify/classify.h) end
 * to end through the timing model, with the test-only policies of
 * tests/policy/fixtures/: the test_odd classifier's tags (odd SM warp slots
 * 1, even 0) arrive at the L1D, L2 and DRAM policies, and what it publishes
 * per warp reaches the schedulers of both units under the right slot; with
 * the default classifier none every tag is 0.  The same run checks what the
 * classifier is given: the class latency table, phase lengths, a zeroed
 * per-kernel scratch area at every kernel start, and the ISSUE event's
 * next PC and taken flag on a loop of known trip count.  The L1D counts the
 * reads whose tag is non-zero (l1d_tagged_reads, CAWA's critical-warp hit
 * rate). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "policy/fixtures/taglog.h"
#include "warpsim.h"

/* out[i] = a[i] + n: each warp loads its own 128-byte line, loops n times
 * (the bra at PC 11 jumps back to PC 8 n-1 times), stores its own line. */
static const char tagk_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry tagk(.param .u64 a, .param .u64 out, .param .u32 n)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [a];\n"        /* 0 */
    "ld.param.u64 %rd2, [out];\n"      /* 1 */
    "ld.param.u32 %r1, [n];\n"         /* 2 */
    "mov.u32 %r2, %tid.x;\n"           /* 3 */
    "mul.wide.u32 %rd3, %r2, 4;\n"     /* 4 */
    "add.s64 %rd4, %rd1, %rd3;\n"      /* 5 */
    "ld.global.u32 %r3, [%rd4];\n"     /* 6 */
    "mov.u32 %r4, 0;\n"                /* 7 */
    "$L1:\n"
    "add.s32 %r3, %r3, 1;\n"           /* 8 */
    "add.s32 %r4, %r4, 1;\n"           /* 9 */
    "setp.lt.u32 %p1, %r4, %r1;\n"     /* 10 */
    "@%p1 bra $L1;\n"                  /* 11 */
    "add.s64 %rd5, %rd2, %rd3;\n"      /* 12 */
    "st.global.u32 [%rd5], %r3;\n"     /* 13 */
    "ret;\n"                           /* 14 */
    "}\n";

#define WARPS 4
#define TRIPS 5u

struct logs {
    struct taglog cls, sched, l1d, l2, dram;
    uint64_t tagged_reads, tagged_read_hits; /* l1d_tagged_* counters */
    uint64_t tagged_evictions, tagged_evictions_unused;
};

static void set_policy(ws_gpu *gpu, const char *key, const char *name, struct taglog *log)
{
    char spec[128];
    snprintf(spec, sizeof spec, "%s:log=%llu", name, (unsigned long long)(uintptr_t)log);
    if (ws_gpu_set(gpu, key, spec) != WS_OK)
        fail_msg("%s: %s", key, ws_last_error(gpu));
}

/* Two launches of tagk on one SM with the logging policies and `classifier`
 * ("test_odd" logs into L->cls; "none" logs nothing); one_line_l1: an L1D
 * of a single line, so that every miss evicts the line before. */
static void run_l1(const char *classifier, struct logs *L, int one_line_l1)
{
    memset(L, 0, sizeof *L);
    ws_gpu *gpu;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_load_config(gpu, "gtx480"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "mode", "timing"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "sm.count", "1"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "sfu.latency", "17"), WS_OK);
    if (one_line_l1) {
        assert_int_equal(ws_gpu_set(gpu, "l1d.sets", "1"), WS_OK);
        assert_int_equal(ws_gpu_set(gpu, "l1d.assoc", "1"), WS_OK);
    }
    if (strcmp(classifier, "none") == 0)
        assert_int_equal(ws_gpu_set(gpu, "sm.classifier", "none"), WS_OK);
    else
        set_policy(gpu, "sm.classifier", classifier, &L->cls);
    set_policy(gpu, "sm.sched", "test_parity", &L->sched);
    set_policy(gpu, "l1d.policy", "test_taglog", &L->l1d);
    set_policy(gpu, "l2.policy", "test_taglog", &L->l2);
    set_policy(gpu, "dram.sched", "test_taglog", &L->dram);
    ws_module *mod;
    if (ws_module_load_string(gpu, tagk_ptx, "tagk.ptx", &mod) != WS_OK)
        fail_msg("%s", ws_last_error(gpu));
    enum { N = WARPS * 32 };
    ws_devptr a, out;
    assert_int_equal(ws_malloc(gpu, N * 4u, &a), WS_OK);
    assert_int_equal(ws_malloc(gpu, N * 4u, &out), WS_OK);
    uint32_t host[N], got[N];
    for (uint32_t i = 0; i < N; i++)
        host[i] = i * 7u;
    assert_int_equal(ws_memcpy_htod(gpu, a, host, sizeof host), WS_OK);
    uint32_t n = TRIPS;
    void *args[] = {&a, &out, &n};
    for (int launch = 0; launch < 2; launch++)
        if (ws_launch(mod, "tagk", ws_dim(1, 1, 1), ws_dim(N, 1, 1), 0, args) != WS_OK)
            fail_msg("%s", ws_last_error(gpu));
    assert_int_equal(ws_memcpy_dtoh(gpu, got, out, sizeof got), WS_OK);
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(got[i], i * 7u + TRIPS);
    assert_int_equal(ws_stat(gpu, "l1d_tagged_reads", &L->tagged_reads), WS_OK);
    assert_int_equal(ws_stat(gpu, "l1d_tagged_read_hits", &L->tagged_read_hits), WS_OK);
    assert_int_equal(ws_stat(gpu, "l1d_tagged_evictions", &L->tagged_evictions), WS_OK);
    assert_int_equal(ws_stat(gpu, "l1d_tagged_evictions_unused", &L->tagged_evictions_unused),
                     WS_OK);
    ws_gpu_free(gpu);
}

static void run(const char *classifier, struct logs *L) { run_l1(classifier, L, 0); }

static void test_tags_reach_every_policy(void **state)
{
    (void)state;
    struct logs L;
    run("test_odd", &L);
    /* both parities send requests, and every level sees both tags (how many
     * of each reach the L2 and DRAM depends on MSHR merging and timing) */
    const struct taglog *where[] = {&L.l1d, &L.l2, &L.dram};
    for (int k = 0; k < 3; k++) {
        assert_true(where[k]->tags[0] > 0);
        assert_true(where[k]->tags[1] > 0);
        assert_int_equal(where[k]->tags[2] + where[k]->tags[3], 0);
    }
    /* each warp fills its own L1D line: two odd and two even warps */
    assert_int_equal(L.l1d.tags[0], L.l1d.tags[1]);
    /* the L1D counts the tagged reads: the load of each odd warp, per launch */
    assert_int_equal(L.tagged_reads, 2 * (WARPS / 2));
    assert_true(L.tagged_read_hits <= L.tagged_reads);
    /* at the L1D the tag is the parity of the requesting warp's slot */
    assert_int_equal(L.l1d.parity_checked, L.l1d.tags[0] + L.l1d.tags[1]);
    assert_int_equal(L.l1d.parity_mismatch, 0);
    /* both scheduler units read the published tag and score of each slot */
    assert_true(L.sched.parity_checked > 0);
    assert_int_equal(L.sched.parity_mismatch, 0);
}

static void test_default_tags_zero(void **state)
{
    (void)state;
    struct logs L;
    run("none", &L);
    const struct taglog *where[] = {&L.l1d, &L.l2, &L.dram};
    for (int k = 0; k < 3; k++) {
        assert_true(where[k]->tags[0] > 0);
        assert_int_equal(where[k]->tags[1] + where[k]->tags[2] + where[k]->tags[3], 0);
    }
    assert_int_equal(L.tagged_reads, 0);
    /* the odd warps' accesses now carry tag 0 */
    assert_int_equal(L.l1d.parity_mismatch, L.l1d.parity_checked / 2);
    assert_true(L.sched.parity_mismatch > 0);
}

static void test_kernel_facts_and_issue_events(void **state)
{
    (void)state;
    struct logs L;
    run("test_odd", &L);
    const struct taglog *c = &L.cls;
    assert_int_equal(c->kernels, 2);
    assert_int_equal(c->scratch_ok, 2); /* zeroed again for the second launch */
    assert_int_equal(c->sfu_latency, 17);
    /* phase 0 = PCs 0-7: 3 ld.param, mov, mul.wide, add, mov at 4 cycles, the
     * load at its issue cost 1 */
    assert_int_equal(c->phase0_len, 7 * 4 + 1);
    /* the scratch counts restart with each kernel: every warp issues PC 0
     * once and the loop body TRIPS times */
    assert_int_equal(c->issues_at[0], WARPS);
    assert_int_equal(c->issues_at[8], WARPS * TRIPS);
    assert_int_equal(c->issues_at[14], WARPS);
    assert_int_equal(c->issues, 2 * WARPS * (8 + 4 * TRIPS + 3));
    /* the back edge is taken TRIPS - 1 times per warp, to PC 8 */
    assert_int_equal(c->taken, 2 * WARPS * (TRIPS - 1));
    assert_int_equal(c->taken_to[8], c->taken);
    assert_int_equal(c->bad_next, 0);
}

/* A one-line L1D: each warp's line is evicted by the next warp's miss,
 * unused; the odd warps' lines (tag 1) are 4 of the 8 filled over the two
 * launches, and all but possibly the last one filled are evicted. */
static void test_tagged_evictions(void **state)
{
    (void)state;
    struct logs L;
    run_l1("test_odd", &L, 1);
    assert_true(L.tagged_evictions >= 3 && L.tagged_evictions <= 4);
    assert_int_equal(L.tagged_evictions_unused, L.tagged_evictions);
    assert_int_equal(L.tagged_read_hits, 0);
    run_l1("none", &L, 1);
    assert_int_equal(L.tagged_evictions, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tags_reach_every_policy),
        cmocka_unit_test(test_default_tags_zero),
        cmocka_unit_test(test_kernel_facts_and_issue_events),
        cmocka_unit_test(test_tagged_evictions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
