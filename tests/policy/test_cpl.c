/* test_cpl.c: CAWA's criticality prediction (src/policy/classify/cpl.c,
 * SPEC-policies 8.1) on the paper's Algorithm 2 example, driven event by
 * event: nInst follows the block the warp is about to run (1 after the taken
 * branch, 2 after the fall-through, both in turn for a diverged warp), the
 * issue-to-issue gaps add to nStall and CPI_avg scales nInst, a warp above
 * its CTA's median is tagged critical, a relaunch resets the slot, and the
 * accuracy statistics compare predictions with the CTA's slowest warps (per
 * CTA, and periodically as the paper's Fig. 7 counts), and
 * the scheduling rank of the CTA's most critical warp (Fig. 12) follows the
 * issues it receives per interval. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/analysis.h"
#include "policy/classify/classify.h"
#include "policy/registry.h"
#include "ptx/ir.h"
#include "stats/stats.h"

/* Algorithm 2, 0-based PCs:
 *   0 (PC1)  @p0 bra $L2      block A = {0}
 *   1 (PC2)  add              block B = {1, 2}
 *   2 (PC3)  bra $L3
 *   3 (PC4)  $L2: sub         block C = {3}
 *   4 (PC5)  $L3: mov         block D = {4, 5}
 *   5        ret */
#define NI 6
static const uint32_t blk_of[NI] = {0, 1, 1, 2, 3, 3};
static const uint32_t blk_first[4] = {0, 1, 3, 4}, blk_last[4] = {0, 2, 3, 5};

struct h {
    const struct classify_ops *ops;
    void *priv;
    uint32_t tag[SCHED_MAX_WARPS];
    int64_t score[SCHED_MAX_WARPS];
    struct classify_board board;
    struct pc_info pc[NI];
    struct basic_block bbs[4];
    struct analysis an;
    struct ptx_module m;
    struct sched_kernel k;
};

static void h_open_spec(struct h *h, uint32_t nslots, const char *spec)
{
    memset(h, 0, sizeof *h);
    struct param_set ps;
    struct err e;
    err_clear(&e);
    assert_int_equal(registry_classify(spec, &h->ops, &ps, &e), WS_OK);
    h->priv = calloc(1, h->ops->priv_size);
    h->board = (struct classify_board){1, h->tag, h->score};
    struct classify_init in = {.nslots = nslots, .n_units = 1, .board = &h->board};
    assert_int_equal(h->ops->init(h->priv, &ps, &in, &e), WS_OK);
    for (uint32_t i = 0; i < NI; i++) {
        uint32_t b = blk_of[i];
        h->pc[i] = (struct pc_info){.bb = b, .bb_len = blk_last[b] - blk_first[b] + 1};
    }
    for (uint32_t b = 0; b < 4; b++)
        h->bbs[b] = (struct basic_block){.first_pc = blk_first[b], .last_pc = blk_last[b]};
    h->an = (struct analysis){.pc = h->pc, .bbs = h->bbs, .nbbs = 4};
    h->m.ninsts = NI;
    h->k = (struct sched_kernel){.name = "alg2", .m = &h->m, .an = &h->an};
    struct sched_event ev = {.kind = SCHED_EV_KERNEL_START, .slot = -1, .kernel = &h->k};
    h->ops->on_event(h->priv, &ev);
}

static void h_open(struct h *h, uint32_t nslots)
{
    h_open_spec(h, nslots, "cpl");
}

static void h_launch(struct h *h, uint32_t slot, uint32_t cta, uint64_t now)
{
    struct sched_event ev = {.kind = SCHED_EV_WARP_LAUNCH, .slot = (int32_t)slot, .cta = cta,
                             .now = now};
    h->ops->on_event(h->priv, &ev);
}

/* Issue `pc` for `slot` at `now`, continuing at `next`; returns the score. */
static int64_t h_issue(struct h *h, uint32_t slot, uint32_t pc, uint32_t next, uint64_t now)
{
    struct sched_event ev = {.kind = SCHED_EV_ISSUE, .slot = (int32_t)slot, .pc = pc,
                             .next_pc = next, .now = now};
    h->ops->on_event(h->priv, &ev);
    return h->score[slot];
}

static uint32_t h_tag(struct h *h, uint32_t slot, uint32_t cta)
{
    struct classify_req r = {.slot = slot, .cta = cta};
    return h->ops->tag(h->priv, &r);
}

/* Back-to-back issue from the launch cycle: CPI_avg = 1 and nStall = 0, so
 * the score is nInst. */
static void test_algorithm2_ninst(void **state)
{
    (void)state;
    struct h h;
    h_open(&h, 3);
    for (uint32_t s = 0; s < 3; s++)
        h_launch(&h, s, 0, 0);
    /* the branch: +1 for its own block, -1 for itself, then the next block */
    assert_int_equal(h_issue(&h, 0, 0, 3, 0), 1); /* taken: PC4 only */
    assert_int_equal(h_issue(&h, 1, 0, 1, 0), 2); /* not taken: PC2, PC3 */
    assert_int_equal(h_issue(&h, 2, 0, 1, 0), 2); /* diverged, PC2 path first */
    /* taken warp: PC4, then block D (2) */
    assert_int_equal(h_issue(&h, 0, 3, 4, 1), 2);
    /* fall-through warp: PC2, PC3 jumps to D */
    assert_int_equal(h_issue(&h, 1, 1, 2, 1), 1);
    assert_int_equal(h_issue(&h, 1, 2, 4, 2), 2);
    /* diverged warp runs PC2, PC3, then the stack switches to PC4 (+1),
     * then D (+2): m + n instructions in all */
    assert_int_equal(h_issue(&h, 2, 1, 2, 1), 1);
    assert_int_equal(h_issue(&h, 2, 2, 3, 2), 1);
    assert_int_equal(h_issue(&h, 2, 3, 4, 3), 2);
    assert_int_equal(h_issue(&h, 2, 4, 5, 4), 1);
    assert_int_equal(h_issue(&h, 2, 5, PC_EXIT, 5), 0);
    free(h.priv);
}

/* Gaps add now - last - 1 to nStall; CPI_avg = resident cycles / issued. */
static void test_stall_and_cpi(void **state)
{
    (void)state;
    struct h h;
    h_open(&h, 1);
    h_launch(&h, 0, 0, 100);
    /* first issue 4 cycles after launch: 4 stall cycles; resident 5, 1
     * issued: nInst 2 x CPI 5 + 4 */
    assert_int_equal(h_issue(&h, 0, 0, 1, 104), 2 * 5 + 4);
    /* next cycle: no new stall; nInst 1, resident 6 / 2 issued = 3 */
    assert_int_equal(h_issue(&h, 0, 1, 2, 105), 1 * 3 + 4);
    /* 10 cycles later: +9 stall; nInst 2 x 16 resident / 3 issued = 10 */
    assert_int_equal(h_issue(&h, 0, 2, 4, 115), 10 + 13);
    /* a relaunch of the slot starts from zero */
    h_launch(&h, 0, 0, 200);
    assert_int_equal(h.score[0], 0);
    assert_int_equal(h_issue(&h, 0, 0, 3, 200), 1);
    free(h.priv);
}

/* Critical = strictly above the median of the warp's own CTA. */
static void test_critical_above_cta_median(void **state)
{
    (void)state;
    struct h h;
    h_open(&h, 6);
    for (uint32_t s = 0; s < 4; s++)
        h_launch(&h, s, 0, 0);
    h_launch(&h, 4, 1, 0);
    h_launch(&h, 5, 1, 0);
    /* all equal (0): nobody is critical */
    for (uint32_t s = 0; s < 6; s++)
        assert_int_equal(h_tag(&h, s, s < 4 ? 0 : 1), 0);
    /* CTA 0 scores: slot 0 = 1 (taken), 1 = 2 (fall-through), 2 = 2 + 8 stall
     * cycles (issued at 8, resident 9, nInst 2 -> 2 x 9 + 8), 3 = 0 */
    h_issue(&h, 0, 0, 3, 0);
    h_issue(&h, 1, 0, 1, 0);
    assert_int_equal(h_issue(&h, 2, 0, 1, 8), 2 * 9 + 8);
    assert_int_equal(h_tag(&h, 0, 0), 0);
    assert_int_equal(h_tag(&h, 1, 0), 1);
    assert_int_equal(h_tag(&h, 2, 0), 1);
    assert_int_equal(h_tag(&h, 3, 0), 0);
    /* the issuing warp's tag is published with its score */
    assert_int_equal(h.tag[2], 1);
    /* CTA 1 is judged on its own: slot 4 ahead of slot 5 */
    h_issue(&h, 4, 0, 3, 0);
    assert_int_equal(h_tag(&h, 4, 1), 1);
    assert_int_equal(h_tag(&h, 5, 1), 0);
    /* an exited warp leaves the median: with slot 2 gone, slot 1 (2) is
     * still above the median of {1, 2, 0} */
    struct sched_event ex = {.kind = SCHED_EV_WARP_EXIT, .slot = 2};
    h.ops->on_event(h.priv, &ex);
    assert_int_equal(h_tag(&h, 1, 0), 1);
    assert_int_equal(h_tag(&h, 0, 0), 0);
    free(h.priv);
}

static uint64_t stat_of(struct h *h, const char *name)
{
    struct stats *s = stats_new();
    h->ops->stats(h->priv, s, 1, 0);
    uint64_t v = UINT64_MAX;
    assert_int_equal(stats_get_u64(s, name, &v), 0);
    stats_free(s);
    return v;
}

/* A ratio statistic the classifier publishes. */
static double ratio_of(struct h *h, const char *name)
{
    struct stats *s = stats_new();
    h->ops->stats(h->priv, s, 1, 0);
    double v = -1;
    assert_int_equal(stats_get(s, name, &v), 0);
    stats_free(s);
    return v;
}

static void h_exit(struct h *h, uint32_t slot, uint64_t now)
{
    struct sched_event ev = {.kind = SCHED_EV_WARP_EXIT, .slot = (int32_t)slot, .now = now};
    h->ops->on_event(h->priv, &ev);
}

/* Accuracy (Fig. 7): once a CTA's warps have all exited, each warp's
 * prediction (critical after most of its issues) is compared with its
 * outcome (execution time above the CTA median). */
static void test_prediction_accuracy(void **state)
{
    (void)state;
    struct h h;
    h_open(&h, 6);
    for (uint32_t s = 0; s < 4; s++)
        h_launch(&h, s, 0, 0);
    h_launch(&h, 4, 1, 0);
    h_launch(&h, 5, 1, 0);
    /* CTA 0: slots 2 and 3 take the longer path and are predicted critical */
    h_issue(&h, 2, 0, 1, 0);
    h_issue(&h, 3, 0, 1, 0);
    h_issue(&h, 0, 0, 3, 0);
    h_issue(&h, 1, 0, 3, 0);
    assert_int_equal(h.tag[2] + h.tag[3], 2);
    assert_int_equal(h.tag[0] + h.tag[1], 0);
    h_exit(&h, 0, 10);
    h_exit(&h, 1, 10);
    h_exit(&h, 2, 30);
    assert_int_equal(stat_of(&h, "classify_cpl_acc_warps"), 0); /* slot 3 still runs */
    h_exit(&h, 3, 40);
    assert_int_equal(stat_of(&h, "classify_cpl_acc_warps"), 4);
    assert_int_equal(stat_of(&h, "classify_cpl_acc_correct"), 4);
    assert_int_equal(stat_of(&h, "classify_cpl_slowest_predicted"), 1);
    /* CTA 1: slot 4 is predicted critical but finishes first */
    h_issue(&h, 4, 0, 1, 0);
    h_issue(&h, 5, 0, 3, 0);
    assert_int_equal(h.tag[4], 1);
    assert_int_equal(h.tag[5], 0);
    h_exit(&h, 4, 5);
    h_exit(&h, 5, 50);
    assert_int_equal(stat_of(&h, "classify_cpl_acc_warps"), 6);
    assert_int_equal(stat_of(&h, "classify_cpl_acc_correct"), 4);
    assert_int_equal(stat_of(&h, "classify_cpl_acc_ctas"), 2);
    assert_int_equal(stat_of(&h, "classify_cpl_slowest_predicted"), 1);
    free(h.priv);
}

/* Fig. 12 on a CTA of 4 warps, intervals of 10 cycles.  [0,10): first
 * issues, slot 2 eight cycles late (criticality 2 x 9 + 8 = 26).  [10,20)
 * opens with slot 2 the most critical; it issues 3 times, slots 0 and 1
 * once, slot 3 never: rank 1.  [20,30) opens with slot 0 the most critical
 * (20, tied with slot 1: the lower slot; 13 and 8 below); every warp issues
 * once: rank 0.5.  Mean 0.75. */
static void test_critical_rank(void **state)
{
    (void)state;
    struct h h;
    h_open_spec(&h, 4, "cpl:rank_interval=10");
    for (uint32_t s = 0; s < 4; s++)
        h_launch(&h, s, 0, 0);
    h_issue(&h, 0, 0, 3, 0);
    h_issue(&h, 1, 0, 1, 1);
    h_issue(&h, 3, 0, 1, 2);
    assert_int_equal(h_issue(&h, 2, 0, 1, 8), 26);
    assert_int_equal(stat_of(&h, "classify_cpl_rank_samples"), 0); /* nobody marked yet */
    h_issue(&h, 0, 3, 4, 10); /* opens [10,20) */
    h_issue(&h, 2, 1, 2, 11);
    h_issue(&h, 2, 2, 4, 12);
    h_issue(&h, 2, 4, 5, 13);
    h_issue(&h, 1, 1, 2, 14);
    assert_int_equal(stat_of(&h, "classify_cpl_rank_samples"), 0); /* still open */
    assert_int_equal(h.score[0], 20);
    assert_int_equal(h.score[1], 20);
    assert_int_equal(h.score[2], 13);
    assert_int_equal(h.score[3], 8);
    h_issue(&h, 3, 1, 2, 20); /* closes [10,20): slot 2 ranked 1 */
    assert_int_equal(stat_of(&h, "classify_cpl_rank_samples"), 1);
    assert_int_equal(stat_of(&h, "classify_cpl_rank_sum"), 1000000);
    h_issue(&h, 0, 4, 5, 21);
    h_issue(&h, 1, 2, 4, 22);
    h_issue(&h, 2, 5, PC_EXIT, 23);
    h_issue(&h, 0, 5, PC_EXIT, 30); /* closes [20,30): slot 0 ranked 0.5 */
    assert_int_equal(stat_of(&h, "classify_cpl_rank_samples"), 2);
    assert_int_equal(stat_of(&h, "classify_cpl_rank_sum"), 1500000);
    double mean = ratio_of(&h, "classify_cpl_crit_rank");
    assert_true(mean > 0.7499 && mean < 0.7501);
    free(h.priv);
}

/* The marked warp exits before the interval closes, peers launched during
 * an interval do not count, and rank_interval=0 takes no sample. */
static void test_critical_rank_exit_and_off(void **state)
{
    (void)state;
    struct h h;
    h_open_spec(&h, 3, "cpl:rank_interval=10");
    h_launch(&h, 0, 0, 0);
    h_launch(&h, 1, 0, 0);
    h_issue(&h, 0, 0, 1, 0);
    h_issue(&h, 1, 0, 1, 5); /* slot 1 critical: 2 x 6 + 5 */
    h_issue(&h, 0, 1, 2, 10); /* opens [10,20), marks slot 1 */
    h_exit(&h, 1, 12);
    h_launch(&h, 2, 0, 13);
    h_issue(&h, 2, 0, 1, 14);
    h_issue(&h, 0, 2, 4, 20); /* closes: slot 1 gone, no sample */
    assert_int_equal(stat_of(&h, "classify_cpl_rank_samples"), 0);
    /* [20,30) marks slot 0 (14 against 5); slot 2 was live all along */
    h_issue(&h, 2, 1, 2, 21);
    h_issue(&h, 0, 4, 5, 30);
    assert_int_equal(stat_of(&h, "classify_cpl_rank_samples"), 1);
    assert_int_equal(stat_of(&h, "classify_cpl_rank_sum"), 500000);
    free(h.priv);

    h_open_spec(&h, 2, "cpl:rank_interval=0");
    h_launch(&h, 0, 0, 0);
    h_launch(&h, 1, 0, 0);
    for (uint64_t t = 0; t < 100; t += 3) {
        h_issue(&h, 0, 0, 1, t);
        h_issue(&h, 1, 0, 1, t + 1);
    }
    assert_int_equal(stat_of(&h, "classify_cpl_rank_samples"), 0);
    free(h.priv);

    struct param_set ps;
    struct err e;
    err_clear(&e);
    const struct classify_ops *ops;
    assert_int_equal(registry_classify("cpl:rank_interval=-1", &ops, &ps, &e), WS_OK);
    void *priv = calloc(1, ops->priv_size);
    struct classify_board b = {1, h.tag, h.score};
    struct classify_init in = {.nslots = 2, .n_units = 1, .board = &b};
    assert_int_not_equal(ops->init(priv, &ps, &in, &e), WS_OK);
    free(priv);
}

/* Fig. 7 as the paper counts it: a prediction of every live warp when an
 * interval of 10 cycles opens; the CTA's slowest warp's are added up when the
 * CTA ends.  The first issue opens [0,10) with every criticality 0 (none
 * critical); slot 1 (criticality 17) is critical at 10, slot 0 (20 after its
 * issue at 10) at 20, slot 1 (29) again at 30.  Slot 1 exits last: 2 of its
 * 4 predictions called it critical (slot 0's were 1 of 4); alone at 40 it is
 * not sampled. */
static void test_slowest_frequency(void **state)
{
    (void)state;
    struct h h;
    h_open_spec(&h, 2, "cpl:rank_interval=10");
    h_launch(&h, 0, 0, 0);
    h_launch(&h, 1, 0, 0);
    assert_int_equal(h_issue(&h, 0, 0, 3, 0), 1);
    assert_int_equal(h_issue(&h, 1, 0, 1, 5), 17);
    assert_int_equal(h_issue(&h, 0, 3, 4, 10), 20); /* opens [10,20) first: slot 1 critical */
    assert_int_equal(h_issue(&h, 1, 1, 2, 20), 29); /* [20,30): slot 0 critical */
    h_issue(&h, 1, 2, 4, 30);                        /* [30,40): slot 1 critical */
    h_exit(&h, 0, 35);
    h_issue(&h, 1, 4, 5, 40); /* [40,50): slot 1 alone, not sampled */
    assert_int_equal(stat_of(&h, "classify_cpl_slowest_samples"), 0); /* CTA still runs */
    h_exit(&h, 1, 50);
    assert_int_equal(stat_of(&h, "classify_cpl_slowest_samples"), 4);
    assert_int_equal(stat_of(&h, "classify_cpl_slowest_samples_critical"), 2);
    double f = ratio_of(&h, "classify_cpl_slowest_frequency");
    assert_true(f > 0.4999 && f < 0.5001);
    free(h.priv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_algorithm2_ninst),
        cmocka_unit_test(test_stall_and_cpi),
        cmocka_unit_test(test_critical_above_cta_median),
        cmocka_unit_test(test_prediction_accuracy),
        cmocka_unit_test(test_critical_rank),
        cmocka_unit_test(test_critical_rank_exit_and_off),
        cmocka_unit_test(test_slowest_frequency),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
