/* two_level_active.c: Gebhart-style two-level scheduler (Gebhart et al.
 * ISCA 2011) as GPGPU-Sim's two_level_active:A:inner:outer (SPEC-policies 2.4
 * and 9.6), and as GPGPU-Sim 3.2.0's tl:A (release=3.2.0, below).
 *
 * At most `active` warps are in the active vector; the rest wait in a FIFO
 * pending queue.  Every pick, before choosing:
 *   1. demote: every active warp that is waiting (at a barrier) or waits on a
 *      long-latency load (view->long_op_pending) moves to the back of the
 *      pending queue;
 *   2. promote: pending warps fill the active vector again, taken from the
 *      front of the FIFO (outer=lrr, GPGPU-Sim's SRR outer level, which may
 *      promote a warp that is still waiting) or oldest first (outer=gto,
 *      preferring pending warps that are not waiting [CHOICE]).
 * Only active warps may issue: a ready pending warp is held back.  Inner
 * order: lrr keeps the active vector in rotation order (an issuing warp moves
 * to the end, on SCHED_EV_ISSUE), gto prefers the last issued warp, then the
 * oldest active one.  New warps (launch event, or a valid slot not yet seen)
 * enter at the back of the pending queue, so initially the first `active`
 * warps are active.
 *
 * release=3.2.0 is the two-level scheduler of GPGPU-Sim 3.1.1-3.2.0
 * (`-gpgpu_scheduler tl:A`; the 3.2.0 GTX480 config's comment gives tl:16),
 * whose long-op test 3.2.1 fixed ("Previously testing if an instruction was
 * dependent on a long latency operation was broken", its CHANGES file).  In
 * 3.2.0 the scoreboard recorded a long-latency load's operand slots (0-3)
 * instead of its registers, and the test asks about registers numbered from
 * 1: a scalar load never matches, and a vector or texture load only against
 * the function's first three declared registers.  So an active warp leaves
 * the active set when it waits (barrier; 3.2.0 also counts a memory barrier,
 * atomics in flight and the warp's end), not on its loads.  Each cycle 3.2.0
 * demotes at most one waiting warp (the first in active order) and promotes
 * at most one, the first pending warp that is not waiting; all warps start
 * pending.  [CHOICE]s: the long-op test never matches; only barrier waits
 * demote (the view has no membar or atomic wait; a finished warp leaves at
 * once); the policy runs only in cycles where a warp of its unit is ready, so
 * a pick demotes and promotes up to one warp per core cycle since the
 * previous pick (or since the unit's first warp launch), judged by the state
 * of this pick; outer=lrr only. */
#include "policy/sched/sched.h"

#include <string.h>

enum { TLA_LRR, TLA_GTO };

struct tla {
    uint32_t limit;             /* A */
    uint32_t inner, outer;      /* TLA_LRR or TLA_GTO */
    uint8_t v320;               /* release=3.2.0 */
    uint8_t started;            /* last_now is set */
    uint64_t last_now;          /* core cycle of the previous pick or first launch */
    uint32_t nact, npend;
    uint64_t act_mask, pend_mask;
    uint8_t act[SCHED_MAX_WARPS];  /* active vector, rotation order */
    uint8_t pend[SCHED_MAX_WARPS]; /* pending FIFO, front first */
};

static const struct param_desc tla_params[] = {
    {"active", PARAM_INT, "6",
     "active warps per scheduler (GPGPU-Sim GTX480 comment two_level_active:6:0:1)"},
    {"inner", PARAM_STR, "lrr", "order inside the active set: lrr or gto"},
    {"outer", PARAM_STR, "lrr", "promotion order from the pending set: lrr (FIFO) or gto (oldest)"},
    {"release", PARAM_STR, "3.2.1",
     "3.2.1: SPEC 2.4; 3.2.0: GPGPU-Sim 3.2.0's tl:N (its broken long-op test: only barrier "
     "waits demote; one warp demoted and one promoted a cycle)"},
    {NULL, PARAM_INT, NULL, NULL},
};

static int tla_order(const char *s, uint32_t *out)
{
    if (!strcmp(s, "lrr"))
        *out = TLA_LRR;
    else if (!strcmp(s, "gto"))
        *out = TLA_GTO;
    else
        return -1;
    return 0;
}

static int tla_init(void *priv, const struct param_set *p, const struct sched_init *in,
                    struct err *e)
{
    struct tla *t = priv;
    memset(t, 0, sizeof *t);
    int64_t a = param_int(p, "active");
    if (a < 1 || a > SCHED_MAX_WARPS)
        return err_set(e, WS_ERR_INVALID,
                       "policy 'two_level_active': parameter 'active' must be 1..%d, got %lld",
                       SCHED_MAX_WARPS, (long long)a);
    t->limit = (uint32_t)a;
    (void)in;
    if (tla_order(param_str(p, "inner"), &t->inner) != 0)
        return err_set(e, WS_ERR_INVALID,
                       "policy 'two_level_active': parameter 'inner' must be lrr or gto, got '%s'",
                       param_str(p, "inner"));
    if (tla_order(param_str(p, "outer"), &t->outer) != 0)
        return err_set(e, WS_ERR_INVALID,
                       "policy 'two_level_active': parameter 'outer' must be lrr or gto, got '%s'",
                       param_str(p, "outer"));
    const char *rel = param_str(p, "release");
    if (strcmp(rel, "3.2.1") && strcmp(rel, "3.2.0"))
        return err_set(e, WS_ERR_INVALID,
                       "policy 'two_level_active': parameter 'release' must be 3.2.1 or 3.2.0, "
                       "got '%s'",
                       rel);
    t->v320 = !strcmp(rel, "3.2.0");
    if (t->v320 && t->outer != TLA_LRR)
        return err_set(e, WS_ERR_INVALID,
                       "policy 'two_level_active': release=3.2.0 needs outer=lrr (3.2.0 "
                       "promotes from a FIFO)");
    return WS_OK;
}

/* Remove slot s from an ordered list (it must be there). */
static void tla_list_remove(uint8_t *list, uint32_t *n, uint32_t s)
{
    for (uint32_t i = 0; i < *n; i++) {
        if (list[i] == s) {
            memmove(list + i, list + i + 1, *n - i - 1);
            (*n)--;
            return;
        }
    }
}

static void tla_forget(struct tla *t, uint32_t s)
{
    uint64_t bit = 1ull << s;
    if (t->act_mask & bit) {
        tla_list_remove(t->act, &t->nact, s);
        t->act_mask &= ~bit;
    }
    if (t->pend_mask & bit) {
        tla_list_remove(t->pend, &t->npend, s);
        t->pend_mask &= ~bit;
    }
}

static void tla_push_pending(struct tla *t, uint32_t s)
{
    t->pend[t->npend++] = (uint8_t)s;
    t->pend_mask |= 1ull << s;
}

/* The event kinds tla_on_event reads. */
enum {
    TLA_EVENTS =
        SCHED_EV_BIT(SCHED_EV_WARP_LAUNCH) | SCHED_EV_BIT(SCHED_EV_WARP_EXIT) |
        SCHED_EV_BIT(SCHED_EV_ISSUE)
};

static void tla_on_event(void *priv, const struct sched_event *ev)
{
    struct tla *t = priv;
    if (ev->slot < 0 || ev->slot >= SCHED_MAX_WARPS)
        return;
    uint32_t s = (uint32_t)ev->slot;
    switch (ev->kind) {
    case SCHED_EV_WARP_LAUNCH:
        tla_forget(t, s);
        tla_push_pending(t, s);
        if (!t->started) { /* 3.2.0 promotes from the first cycle on */
            t->started = 1;
            t->last_now = ev->now;
        }
        break;
    case SCHED_EV_WARP_EXIT:
        tla_forget(t, s);
        break;
    case SCHED_EV_ISSUE:
        if (t->inner == TLA_LRR && (t->act_mask >> s & 1)) {
            tla_list_remove(t->act, &t->nact, s);
            t->act[t->nact++] = (uint8_t)s;
        }
        break;
    default:
        break;
    }
}

static int tla_pick(void *priv, const struct sched_view *v)
{
    struct tla *t = priv;
    uint64_t slots = v->nslots >= 64 ? ~0ull : (1ull << v->nslots) - 1;
    uint64_t valid = v->valid & slots;

    /* keep membership in step with the view */
    uint64_t gone = (t->act_mask | t->pend_mask) & ~valid;
    while (gone) {
        uint32_t s = (uint32_t)__builtin_ctzll(gone);
        gone &= gone - 1;
        tla_forget(t, s);
    }
    uint64_t fresh = valid & ~(t->act_mask | t->pend_mask);
    while (fresh) {
        uint32_t s = (uint32_t)__builtin_ctzll(fresh);
        fresh &= fresh - 1;
        tla_push_pending(t, s);
    }

    /* release=3.2.0: one demotion and one promotion per core cycle since the
     * previous pick (the skipped cycles judged by this pick's state), and only
     * barrier waits demote */
    uint64_t steps = UINT64_MAX;
    uint64_t waits = v->long_op_pending | v->at_barrier;
    if (t->v320) {
        steps = t->started && v->now > t->last_now ? v->now - t->last_now : 1;
        t->started = 1;
        t->last_now = v->now;
        waits = v->at_barrier;
    }

    /* 1. demote waiting warps, in active-vector order */
    uint64_t demote = t->act_mask & waits;
    if (demote) {
        uint32_t keep = 0;
        uint64_t moved = 0;
        for (uint32_t i = 0; i < t->nact; i++) {
            uint32_t s = t->act[i];
            if ((demote >> s & 1) && moved < steps) {
                tla_push_pending(t, s);
                t->act_mask &= ~(1ull << s);
                moved++;
            } else
                t->act[keep++] = (uint8_t)s;
        }
        t->nact = keep;
    }

    /* 2. promote */
    for (uint64_t moved = 0; t->nact < t->limit && t->npend && moved < steps; moved++) {
        uint32_t s;
        if (t->outer == TLA_GTO) {
            /* oldest pending warp that is not itself waiting, else the oldest */
            uint64_t cand = t->pend_mask & ~waits;
            s = (uint32_t)sched_oldest(v, cand ? cand : t->pend_mask);
        } else if (t->v320) {
            /* 3.2.0: the first pending warp that is not waiting, if any */
            uint32_t i = 0;
            while (i < t->npend && (waits >> t->pend[i] & 1))
                i++;
            if (i == t->npend)
                break;
            s = t->pend[i];
        } else
            s = t->pend[0];
        tla_list_remove(t->pend, &t->npend, s);
        t->pend_mask &= ~(1ull << s);
        t->act[t->nact++] = (uint8_t)s;
        t->act_mask |= 1ull << s;
    }

    /* 3. choose among the active warps */
    uint64_t cand = t->act_mask & v->ready & valid;
    if (!cand)
        return -1;
    if (t->inner == TLA_GTO) {
        if (v->last_issued >= 0 && v->last_issued < 64 && (cand >> v->last_issued & 1))
            return v->last_issued;
        return sched_oldest(v, cand);
    }
    for (uint32_t i = 0; i < t->nact; i++)
        if (cand >> t->act[i] & 1)
            return t->act[i];
    return -1;
}

SCHED_POLICY(two_level_active,
             .desc = "two-level active set of A warps, demoted on long-latency waits "
                     "(Gebhart ISCA 2011; GPGPU-Sim two_level_active, or 3.2.0's tl:A)",
             .priv_size = sizeof(struct tla), .params = tla_params, .init = tla_init,
             .pick = tla_pick, .on_event = tla_on_event, .events = TLA_EVENTS);
