/* cpl.c: CAWA's Criticality Prediction Logic (Lee, Arunkumar, Wu, "CAWA:
 * Coordinated Warp Scheduling and Cache Prioritization for Critical Warp
 * Acceleration of GPGPU Workloads", ISCA 2015, Section 3.1, Algorithms 2-3,
 * Equation 1; SPEC-policies 8.1) as a request classifier.
 *
 * Per SM warp slot it keeps
 *   nInst   instruction disparity: + the length of the basic block a warp is
 *           about to run, - 1 per issued instruction;
 *   nStall  stall cycles: on each issue, the gap since the warp's previous
 *           issue (Algorithm 3);
 *   CPI_avg cycles resident (launch to now, inclusive) / instructions issued;
 * and criticality = nInst x CPI_avg + nStall (Equation 1), published as the
 * warp's score after every issue (schedulers read it as warp_score: gCAWS,
 * or any other).  All three reset when a warp is launched into the slot.
 * A warp is critical when its criticality is strictly above the median of
 * the live warps of its CTA; its memory requests then carry tag 1 (0
 * otherwise), which the L1D policy sees (CACP, cache/cacp.c), and the same
 * tag is published for the schedulers.
 *
 * [CHOICE]s (SPEC 8.1 leaves them open):
 *  - nInst adds, after every instruction that ends a basic block (a branch,
 *    a fall-through into a labelled block, or the SIMT stack switching to the
 *    other side of a diverged branch), the instructions from the next PC to
 *    the end of its block; the first issue of a warp adds its entry block.
 *    So after the branch of the paper's Algorithm 2 a warp adds 1 (taken,
 *    PC4) or 2 (not taken, PC2-PC3), and a diverged warp adds both in turn.
 *  - nStall adds now - previous issue - 1 (the normal back-to-back gap is
 *    not a stall); the first issue adds the cycles since the launch cycle.
 *  - CPI_avg = (now - launch + 1) / issued, per warp, integer arithmetic
 *    (a warp issuing every cycle from its launch has CPI 1): criticality =
 *    nInst x (now - launch + 1) / issued + nStall.
 *  - The criticality is updated when the warp issues (Algorithm 3 adds the
 *    stall when the warp is selected); a waiting warp's score is the value
 *    of its last issue.
 *  - Median test: critical iff 2 x (warps of the CTA with a smaller
 *    criticality) > (live warps of the CTA) - 1; with all equal none is.
 *  - An ISSUE event is one instruction (a wide warp's sub-warps each count).
 *
 * Prediction accuracy (CAWA Fig. 7, Section 5.2): the paper calls the CTA's
 * warp of the longest execution time the critical one, and counts "the
 * frequency that the critical warp is identified as a slow warp" (criticality
 * above half its CTA's warps) over periodic predictions.  Here a prediction
 * is taken of every live warp when a rank interval opens (below); when a
 * CTA's last warp exits, its slowest warp's predictions are added up:
 * classify_cpl_slowest_frequency.  [CHOICE]s: the period is rank_interval
 * (the paper gives none); a warp alone in its CTA (the others have exited) is
 * not sampled, since the median test needs two warps to compare.  Two per-CTA views are kept beside it:
 * classify_cpl_accuracy (every warp: critical after most of its issues
 * exactly when slower than the CTA median) and
 * classify_cpl_slowest_accuracy (the slowest warp critical after most of its
 * issues).
 *
 * The critical warp's scheduling rank over time (CAWA Fig. 12): time is cut
 * into intervals of rank_interval core cycles.  When an interval opens (at
 * the first issue on the SM at or after its start), each CTA's most critical
 * warp is marked: the highest criticality among its warps CPL calls
 * critical, the lowest slot on ties (none when no warp is above the median).
 * When it closes, the marked warp, if still live, is ranked by the
 * instructions it issued in the interval against the other warps of its CTA
 * that were live for the whole interval: rank = (peers that issued fewer +
 * half the peers that issued as many) / peers, 0 = it issued least, 1 = it
 * issued most, 0.5 = an even share.  classify_cpl_crit_rank averages the
 * ranks (x 15 is the paper's y-axis for a CTA of 16 warps); the timeline
 * columns of the rank sum (millionths) and sample count give it per
 * --timeline interval.
 * [CHOICE]s: the rank is read from the issues the warp received (what the
 * scheduler's priority order gave it), not from a scheduler's internal order,
 * so it means the same under every scheduler (RR gives about 0.5); intervals
 * of 1000 cycles by default; warps that exit or launch during an interval
 * are not its peers; an interval is ranked when the SM's next issue comes
 * after its end, so the last one of a run is not. */
#include "policy/classify/classify.h"

#include "analysis/analysis.h"
#include "ptx/ir.h"
#include "stats/stats.h"

#define CPL_MAX_SLOTS (4 * SCHED_MAX_WARPS)

struct cpl_warp {
    int64_t ninst, nstall, crit;
    uint64_t launch, last_issue, issued;
    uint64_t crit_issues; /* issues after which it was predicted critical */
    uint64_t exec;        /* launch to exit, once done */
    uint64_t ivl_issues;  /* issues in the current rank interval */
    uint64_t samples, crit_samples; /* intervals opened while it was live, of them
                                       those in which CPL called it critical */
    uint32_t cta;
    uint8_t live, done;   /* done: exited, its CTA not yet evaluated */
    uint8_t in_ivl, marked; /* live when the interval opened; its CTA's critical warp */
};

struct cpl {
    const struct classify_board *board;
    const struct analysis *an;
    uint32_t ninsts, nslots;
    struct cpl_warp w[CPL_MAX_SLOTS];
    uint64_t reqs, reqs_critical; /* memory instructions classified, as critical */
    uint64_t acc_warps, acc_correct;    /* warps evaluated, prediction = outcome */
    uint64_t acc_ctas, acc_slowest_hit; /* CTAs evaluated, slowest warp predicted */
    uint64_t slow_samples, slow_crit;   /* the slowest warps' periodic predictions, critical */
    uint64_t rank_interval, ivl_end;    /* Fig. 12: interval length, end of the open one */
    uint64_t rank_samples, rank_sum;    /* ranks taken, their sum in millionths */
};

static const struct param_desc cpl_params[] = {
    {"rank_interval", PARAM_INT, "1000",
     "cycles per interval of the critical warp's scheduling rank (Fig. 12) and of the periodic "
     "predictions (Fig. 7); 0 = off"},
    {NULL, PARAM_INT, NULL, NULL},
};

static int cpl_init(void *priv, const struct param_set *p, const struct classify_init *in,
                    struct err *e)
{
    struct cpl *c = priv;
    int64_t ri = param_int(p, "rank_interval");
    if (ri < 0)
        return err_set(e, WS_ERR_INVALID,
                       "classifier 'cpl': rank_interval must be 0 or more cycles, got %lld",
                       (long long)ri);
    c->rank_interval = (uint64_t)ri;
    if (in->nslots > CPL_MAX_SLOTS)
        return err_set(e, WS_ERR_INVALID, "classifier 'cpl': at most %d warp slots per SM, got %u",
                       CPL_MAX_SLOTS, in->nslots);
    c->board = in->board;
    c->nslots = in->nslots;
    return WS_OK;
}

/* 1 when warp `s` is critical: strictly above its CTA's median; *live gets
 * the live warps of its CTA. */
static int cpl_critical_of(const struct cpl *c, uint32_t s, uint32_t *live)
{
    const struct cpl_warp *me = &c->w[s];
    uint32_t n = 0, below = 0;
    for (uint32_t i = 0; i < c->nslots; i++) {
        const struct cpl_warp *o = &c->w[i];
        if (!o->live || o->cta != me->cta)
            continue;
        n++;
        below += o->crit < me->crit;
    }
    *live = n;
    return n > 0 && 2 * below > n - 1;
}

static int cpl_is_critical(const struct cpl *c, uint32_t s)
{
    uint32_t n;
    return cpl_critical_of(c, s, &n);
}

static uint32_t cpl_tag(void *priv, const struct classify_req *r)
{
    struct cpl *c = priv;
    if (r->slot >= c->nslots || !c->w[r->slot].live)
        return 0;
    uint32_t t = (uint32_t)cpl_is_critical(c, r->slot);
    c->reqs++;
    c->reqs_critical += t;
    return t;
}

/* Instructions from `pc` to the end of its basic block (0 without facts). */
static int64_t cpl_rest_of_block(const struct cpl *c, uint32_t pc)
{
    if (!c->an || pc >= c->ninsts || !c->an->pc[pc].bb_len)
        return 0;
    const struct basic_block *b = &c->an->bbs[c->an->pc[pc].bb];
    return (int64_t)b->last_pc - (int64_t)pc + 1;
}

static int cpl_ends_block(const struct cpl *c, uint32_t pc)
{
    if (!c->an || pc >= c->ninsts || !c->an->pc[pc].bb_len)
        return 0;
    return c->an->bbs[c->an->pc[pc].bb].last_pc == pc;
}

static void cpl_issue(struct cpl *c, uint32_t s, const struct sched_event *ev)
{
    struct cpl_warp *w = &c->w[s];
    if (w->issued == 0)
        w->ninst += cpl_rest_of_block(c, ev->pc);
    if (w->issued == 0)
        w->nstall += (int64_t)(ev->now - w->launch);
    else if (ev->now > w->last_issue)
        w->nstall += (int64_t)(ev->now - w->last_issue - 1);
    w->last_issue = ev->now;
    w->issued++;
    w->ninst--;
    if (ev->next_pc != PC_EXIT && cpl_ends_block(c, ev->pc))
        w->ninst += cpl_rest_of_block(c, ev->next_pc);
    int64_t resident = (int64_t)(ev->now - w->launch + 1);
    w->crit = w->ninst * resident / (int64_t)w->issued + w->nstall;
    int critical = cpl_is_critical(c, s);
    w->crit_issues += (uint64_t)critical;
    classify_publish(c->board, s, (uint32_t)critical, w->crit);
}

/* Every warp of CTA slot `cta` has exited: score the predictions (Fig. 7).
 * A warp was slow when its execution time is strictly above its CTA's
 * median; predicted slow when CPL called it critical after most of its
 * issues.  The slowest warp (the oldest slot on ties) was found when it was
 * predicted slow. */
static void cpl_evaluate(struct cpl *c, uint32_t cta)
{
    uint32_t n = 0, slowest = 0;
    for (uint32_t i = 0; i < c->nslots; i++) {
        const struct cpl_warp *w = &c->w[i];
        if (!w->done || w->cta != cta)
            continue;
        if (n == 0 || w->exec > c->w[slowest].exec)
            slowest = i;
        n++;
    }
    for (uint32_t i = 0; i < c->nslots; i++) {
        struct cpl_warp *w = &c->w[i];
        if (!w->done || w->cta != cta)
            continue;
        uint32_t below = 0;
        for (uint32_t j = 0; j < c->nslots; j++)
            below += c->w[j].done && c->w[j].cta == cta && c->w[j].exec < w->exec;
        int slow = 2 * below > n - 1;
        int predicted = 2 * w->crit_issues > w->issued;
        c->acc_warps++;
        c->acc_correct += (uint64_t)(slow == predicted);
        if (i == slowest) {
            c->acc_ctas++;
            c->acc_slowest_hit += (uint64_t)predicted;
            c->slow_samples += w->samples;
            c->slow_crit += w->crit_samples;
        }
    }
    for (uint32_t i = 0; i < c->nslots; i++)
        if (c->w[i].done && c->w[i].cta == cta)
            c->w[i].done = 0;
}

/* Fig. 12: rank each marked warp still live by its issues in the interval
 * that ends, against its CTA's peers live for the whole interval. */
static void cpl_rank_close(struct cpl *c)
{
    for (uint32_t s = 0; s < c->nslots; s++) {
        const struct cpl_warp *w = &c->w[s];
        if (!w->marked || !w->live)
            continue;
        uint64_t peers = 0, fewer = 0, same = 0;
        for (uint32_t i = 0; i < c->nslots; i++) {
            const struct cpl_warp *o = &c->w[i];
            if (i == s || !o->live || !o->in_ivl || o->cta != w->cta)
                continue;
            peers++;
            fewer += o->ivl_issues < w->ivl_issues;
            same += o->ivl_issues == w->ivl_issues;
        }
        if (!peers)
            continue;
        c->rank_samples++;
        c->rank_sum += (2 * fewer + same) * 500000 / peers;
    }
}

/* Open the interval holding `now`: clear the issue counts and mark each
 * CTA's most critical warp. */
static void cpl_rank_open(struct cpl *c, uint64_t now)
{
    c->ivl_end = now - now % c->rank_interval + c->rank_interval;
    for (uint32_t s = 0; s < c->nslots; s++) {
        struct cpl_warp *w = &c->w[s];
        w->ivl_issues = 0;
        w->in_ivl = w->live;
        w->marked = 0;
    }
    for (uint32_t s = 0; s < c->nslots; s++) {
        struct cpl_warp *w = &c->w[s];
        uint32_t n;
        if (!w->live)
            continue;
        int critical = cpl_critical_of(c, s, &n);
        if (n < 2)
            continue; /* alone in its CTA: nothing to compare */
        w->samples++;
        w->crit_samples += (uint64_t)critical;
    }
    for (uint32_t s = 0; s < c->nslots; s++) {
        struct cpl_warp *w = &c->w[s];
        if (!w->live || !cpl_is_critical(c, s))
            continue;
        int top = 1;
        for (uint32_t i = 0; i < c->nslots && top; i++) {
            const struct cpl_warp *o = &c->w[i];
            if (i != s && o->live && o->cta == w->cta &&
                (o->crit > w->crit || (o->crit == w->crit && i < s)))
                top = 0;
        }
        w->marked = (uint8_t)top;
    }
}

static void cpl_exit(struct cpl *c, uint32_t s, uint64_t now)
{
    struct cpl_warp *w = &c->w[s];
    w->live = 0;
    w->done = 1;
    w->exec = now - w->launch;
    for (uint32_t i = 0; i < c->nslots; i++)
        if (c->w[i].live && c->w[i].cta == w->cta)
            return;
    cpl_evaluate(c, w->cta);
}

/* The event kinds cpl_event reads. */
enum {
    CPL_EVENTS =
        SCHED_EV_BIT(SCHED_EV_KERNEL_START) | SCHED_EV_BIT(SCHED_EV_WARP_LAUNCH) |
        SCHED_EV_BIT(SCHED_EV_WARP_EXIT) | SCHED_EV_BIT(SCHED_EV_ISSUE)
};

static void cpl_event(void *priv, const struct sched_event *ev)
{
    struct cpl *c = priv;
    if (ev->kind == SCHED_EV_KERNEL_START && ev->kernel) {
        c->an = ev->kernel->an;
        c->ninsts = ev->kernel->m ? ev->kernel->m->ninsts : 0;
        return;
    }
    if (ev->slot < 0 || (uint32_t)ev->slot >= c->nslots)
        return;
    uint32_t s = (uint32_t)ev->slot;
    struct cpl_warp *w = &c->w[s];
    if (ev->kind == SCHED_EV_WARP_LAUNCH) {
        *w = (struct cpl_warp){.launch = ev->now, .cta = ev->cta, .live = 1};
        classify_publish(c->board, s, 0, 0);
    } else if (ev->kind == SCHED_EV_WARP_EXIT && w->live) {
        cpl_exit(c, s, ev->now);
    } else if (ev->kind == SCHED_EV_ISSUE && w->live) {
        if (c->rank_interval && ev->now >= c->ivl_end) {
            cpl_rank_close(c);
            cpl_rank_open(c, ev->now);
        }
        cpl_issue(c, s, ev);
        w->ivl_issues++;
    }
}

static void cpl_stats(void *priv, struct stats *s, uint32_t instances, size_t stride)
{
    struct cpl *c = priv;
    stats_counter(s, "classify_cpl_reqs", "memory instructions CPL classified", &c->reqs,
                  instances, stride);
    stats_counter(s, "classify_cpl_reqs_critical",
                  "memory instructions of warps CPL predicted critical (above the CTA median)",
                  &c->reqs_critical, instances, stride);
    stats_counter(s, "classify_cpl_acc_warps", "warps whose CTA finished (CPL accuracy base)",
                  &c->acc_warps, instances, stride);
    stats_counter(s, "classify_cpl_acc_correct",
                  "of those, warps CPL called critical after most of their issues exactly when "
                  "their execution time was above the CTA median",
                  &c->acc_correct, instances, stride);
    stats_ratio(s, "classify_cpl_accuracy",
                "share of warps CPL called critical after most of their issues exactly when "
                "slower than their CTA's median",
                "classify_cpl_acc_correct", "classify_cpl_acc_warps", 1.0);
    stats_counter(s, "classify_cpl_acc_ctas", "CTAs that finished", &c->acc_ctas, instances,
                  stride);
    stats_counter(s, "classify_cpl_slowest_predicted",
                  "CTAs whose slowest warp CPL called critical after most of its issues",
                  &c->acc_slowest_hit, instances, stride);
    stats_ratio(s, "classify_cpl_slowest_accuracy", "share of CTAs whose slowest warp CPL predicted",
                "classify_cpl_slowest_predicted", "classify_cpl_acc_ctas", 1.0);
    stats_counter(s, "classify_cpl_slowest_samples",
                  "periodic predictions (one per rank_interval) of CTAs' slowest warps",
                  &c->slow_samples, instances, stride);
    stats_counter(s, "classify_cpl_slowest_samples_critical",
                  "of those, predictions that called the warp critical (above its CTA's median)",
                  &c->slow_crit, instances, stride);
    stats_ratio(s, "classify_cpl_slowest_frequency",
                "CPL prediction accuracy as CAWA Fig. 7 counts it: how often the periodic "
                "prediction called the CTA's slowest warp slow (paper: 73%)",
                "classify_cpl_slowest_samples_critical", "classify_cpl_slowest_samples", 1.0);
    stats_counter(s, "classify_cpl_rank_samples",
                  "intervals x CTAs in which the CTA's most critical warp was ranked (Fig. 12)",
                  &c->rank_samples, instances, stride);
    stats_counter(s, "classify_cpl_rank_sum",
                  "sum of those ranks in millionths (0 = issued least in its CTA, 1e6 = most)",
                  &c->rank_sum, instances, stride);
    stats_ratio(s, "classify_cpl_crit_rank",
                "mean scheduling rank of the CTA's most critical warp by issues per interval, 0 "
                "(least) to 1 (most); 0.5 = even share (CAWA Fig. 12)",
                "classify_cpl_rank_sum", "classify_cpl_rank_samples", 1e-6);
    stats_timeline_column(s, "classify_cpl_rank_sum", &c->rank_sum, instances, stride);
    stats_timeline_column(s, "classify_cpl_rank_samples", &c->rank_samples, instances, stride);
}

CLASSIFY_POLICY(cpl,
                .desc = "CAWA criticality prediction: nInst x CPI_avg + nStall per warp, tag 1 "
                        "above the CTA median (Lee ISCA 2015)",
                .priv_size = sizeof(struct cpl), .params = cpl_params, .init = cpl_init,
                .tag = cpl_tag,
                .on_event = cpl_event, .events = CPL_EVENTS, .stats = cpl_stats);
