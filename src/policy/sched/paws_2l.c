/* paws_2l.c: the two-level scheduler of the Phase-aware paper (Awatramani,
 * Zhu, Zambreno, Rover, PACT 2015, Fig. 8; SPEC-policies 5.2 and 9.6) with its
 * three priority logics: prio=rr, gto or phase (the paper compares two-level
 * with two-level: its Fig. 9).
 *
 * Three queues per scheduler unit:
 *   ready   at most `ready` warps (the fetch group, 6 in the paper); only they
 *           issue, round robin (the issuing warp moves to the back);
 *   pending warps waiting on long-latency instructions;
 *   active  every other warp, in priority order.
 * Each pick:
 *   1. a ready warp whose next instruction depends on a long-latency result
 *      (sched_view.next_waits_long), or that waits at a barrier ([CHOICE]: a
 *      barrier is a long-latency instruction in the paper's list), moves to
 *      pending;
 *   2. a pending warp that no longer waits (no load outstanding, not at a
 *      barrier) moves to the tail of active (several in one pick: oldest
 *      first) and active is sorted: rr does not sort, gto sorts by launch
 *      order (dynamic warp id), phase by the length of the phase that starts
 *      at the warp's PC, shortest first (SPEC 5.2 [CHOICE]: the length of the
 *      phase at the current PC), older first on equal lengths [CHOICE];
 *   3. the head of active fills each free ready slot.
 * New warps join the tail of active (then sorted), so the first `ready`
 * launched warps form the first fetch group. */
#include "policy/sched/sched.h"

#include <string.h>

#include "analysis/phase.h"
#include "ptx/ir.h"
#include "stats/stats.h"

enum { P2L_RR, P2L_GTO, P2L_PHASE };

struct p2l {
    uint32_t limit, prio;
    uint32_t nready, nact;
    uint64_t ready_mask, act_mask, pend_mask;
    uint8_t ready[SCHED_MAX_WARPS]; /* rotation order */
    uint8_t act[SCHED_MAX_WARPS];   /* priority order, head first */
    const struct pc_phase *phase;
    uint32_t ninsts;
    uint64_t to_pending, to_ready; /* counters */
};

static const struct param_desc p2l_params[] = {
    {"ready", PARAM_INT, "6", "warps in the ready queue (fetch group; Awatramani PACT 2015: 6)"},
    {"prio", PARAM_STR, "phase",
     "priority logic of the active queue: rr (no sort), gto (launch order) or phase (shortest "
     "next phase first)"},
    {NULL, PARAM_INT, NULL, NULL},
};

static int p2l_init(void *priv, const struct param_set *p, const struct sched_init *in,
                    struct err *e)
{
    struct p2l *t = priv;
    (void)in;
    memset(t, 0, sizeof *t);
    int64_t r = param_int(p, "ready");
    if (r < 1 || r > SCHED_MAX_WARPS)
        return err_set(e, WS_ERR_INVALID,
                       "policy 'paws_2l': parameter 'ready' must be 1..%d, got %lld",
                       SCHED_MAX_WARPS, (long long)r);
    t->limit = (uint32_t)r;
    const char *s = param_str(p, "prio");
    if (!strcmp(s, "rr"))
        t->prio = P2L_RR;
    else if (!strcmp(s, "gto"))
        t->prio = P2L_GTO;
    else if (!strcmp(s, "phase"))
        t->prio = P2L_PHASE;
    else
        return err_set(e, WS_ERR_INVALID,
                       "policy 'paws_2l': parameter 'prio' must be rr, gto or phase, got '%s'", s);
    return WS_OK;
}

static void p2l_remove(uint8_t *list, uint32_t *n, uint32_t s)
{
    for (uint32_t i = 0; i < *n; i++)
        if (list[i] == s) {
            memmove(list + i, list + i + 1, *n - i - 1);
            (*n)--;
            return;
        }
}

static void p2l_forget(struct p2l *t, uint32_t s)
{
    uint64_t bit = 1ull << s;
    if (t->ready_mask & bit)
        p2l_remove(t->ready, &t->nready, s);
    if (t->act_mask & bit)
        p2l_remove(t->act, &t->nact, s);
    t->ready_mask &= ~bit;
    t->act_mask &= ~bit;
    t->pend_mask &= ~bit;
}

static uint32_t p2l_len(const struct p2l *t, const struct sched_view *v, uint32_t s)
{
    uint32_t pc = v->pc[s];
    return t->phase && pc < t->ninsts ? t->phase[pc].len : PHASE_SATURATE;
}

/* 1 when slot a goes before slot b in the active queue. */
static int p2l_before(const struct p2l *t, const struct sched_view *v, uint32_t a, uint32_t b)
{
    if (t->prio == P2L_PHASE) {
        uint32_t la = p2l_len(t, v, a), lb = p2l_len(t, v, b);
        if (la != lb)
            return la < lb;
    }
    return v->age[a] < v->age[b];
}

/* Append s to active; gto and phase keep the queue sorted (insertion). */
static void p2l_activate(struct p2l *t, const struct sched_view *v, uint32_t s)
{
    uint32_t at = t->nact;
    if (t->prio != P2L_RR)
        while (at > 0 && p2l_before(t, v, s, t->act[at - 1]))
            at--;
    memmove(t->act + at + 1, t->act + at, t->nact - at);
    t->act[at] = (uint8_t)s;
    t->nact++;
    t->act_mask |= 1ull << s;
}

/* The event kinds p2l_on_event reads. */
enum {
    P2L_EVENTS =
        SCHED_EV_BIT(SCHED_EV_KERNEL_START) | SCHED_EV_BIT(SCHED_EV_WARP_EXIT) |
        SCHED_EV_BIT(SCHED_EV_ISSUE)
};

static void p2l_on_event(void *priv, const struct sched_event *ev)
{
    struct p2l *t = priv;
    if (ev->kind == SCHED_EV_KERNEL_START && ev->kernel) {
        t->phase = ev->kernel->phase;
        t->ninsts = ev->kernel->m ? ev->kernel->m->ninsts : 0;
        return;
    }
    if (ev->slot < 0 || ev->slot >= SCHED_MAX_WARPS)
        return;
    uint32_t s = (uint32_t)ev->slot;
    if (ev->kind == SCHED_EV_WARP_EXIT)
        p2l_forget(t, s);
    else if (ev->kind == SCHED_EV_ISSUE && (t->ready_mask >> s & 1)) {
        p2l_remove(t->ready, &t->nready, s);
        t->ready[t->nready++] = (uint8_t)s;
    }
}

/* Bits of `set` in ascending age order, appended to active. */
static void p2l_activate_set(struct p2l *t, const struct sched_view *v, uint64_t set)
{
    while (set) {
        int s = sched_oldest(v, set);
        set &= ~(1ull << s);
        p2l_activate(t, v, (uint32_t)s);
    }
}

static int p2l_pick(void *priv, const struct sched_view *v)
{
    struct p2l *t = priv;
    uint64_t slots = v->nslots >= 64 ? ~0ull : (1ull << v->nslots) - 1;
    uint64_t valid = v->valid & slots;
    uint64_t known = t->ready_mask | t->act_mask | t->pend_mask;
    uint64_t gone = known & ~valid;
    while (gone) {
        uint32_t s = (uint32_t)__builtin_ctzll(gone);
        gone &= gone - 1;
        p2l_forget(t, s);
    }
    uint64_t waits = v->at_barrier | v->next_waits_long;

    /* 1. ready warps that wait go to pending */
    uint64_t out = t->ready_mask & waits;
    if (out) {
        uint32_t keep = 0;
        for (uint32_t i = 0; i < t->nready; i++)
            if (!(out >> t->ready[i] & 1))
                t->ready[keep++] = t->ready[i];
        t->nready = keep;
        t->ready_mask &= ~out;
        t->pend_mask |= out;
        t->to_pending += (uint64_t)__builtin_popcountll(out);
    }
    /* 2. pending warps that no longer wait, and new warps, join active */
    uint64_t back = t->pend_mask & ~(v->long_op_pending | v->at_barrier);
    t->pend_mask &= ~back;
    p2l_activate_set(t, v, back | (valid & ~known));
    /* 3. fill the ready queue from the head of active */
    while (t->nready < t->limit && t->nact) {
        uint32_t s = t->act[0];
        p2l_remove(t->act, &t->nact, s);
        t->act_mask &= ~(1ull << s);
        t->ready[t->nready++] = (uint8_t)s;
        t->ready_mask |= 1ull << s;
        t->to_ready++;
    }
    /* round robin inside the ready queue */
    uint64_t cand = t->ready_mask & v->ready & valid;
    for (uint32_t i = 0; i < t->nready && cand; i++)
        if (cand >> t->ready[i] & 1)
            return t->ready[i];
    return -1;
}

static void p2l_stats(void *priv, struct stats *s, uint32_t n, size_t stride)
{
    struct p2l *t = priv;
    stats_counter(s, "sched_paws_to_pending",
                  "Phase-aware two-level: ready warps moved to the pending queue", &t->to_pending,
                  n, stride);
    stats_counter(s, "sched_paws_to_ready",
                  "Phase-aware two-level: warps moved from active into the ready queue",
                  &t->to_ready, n, stride);
}

SCHED_POLICY(paws_2l,
             .desc = "two-level pending/active/ready queues, RR in the ready queue, active sorted "
                     "by rr, gto or next-phase length (Awatramani PACT 2015)",
             .priv_size = sizeof(struct p2l), .params = p2l_params, .init = p2l_init,
             .pick = p2l_pick, .on_event = p2l_on_event, .events = P2L_EVENTS, .stats = p2l_stats);
