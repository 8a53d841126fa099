/* two_level_fg.c: two-level warp scheduling with fixed fetch groups
 * (Narasiman et al., "Improving GPU Performance via Large Warps and Two-Level
 * Warp Scheduling", MICRO 2011; SPEC-policies 6.2 and 6.3).
 *
 * The unit's warp slots are split into fixed fetch groups of `group` slots
 * (slot / group).  One group holds priority: its ready warps issue round
 * robin (starting after the last issued warp).  Priority moves to another
 * group only when every live warp of the prioritised group is stalled, i.e.
 * waits on a long-latency load or at a barrier (SPEC 6.2 [CHOICE]), or when
 * the unit has issued `timeout` instructions since the group took priority
 * (the 32K-instruction timeout of the slides; SPEC 6.3 [CHOICE]: every
 * instruction this scheduler unit issues, seen through SCHED_EV_ISSUE; a
 * large-warp instruction counts once, not once per sub-warp).
 * The next group is chosen round robin (outer=lrr) or as the group of the oldest unstalled warp (outer=gto).
 * Priority is priority, not exclusion: when the prioritised group has no
 * ready warp in a cycle (e.g. a short ALU dependence) a warp of another group
 * issues, in group priority order, and priority does not move. */
#include "policy/sched/sched.h"

#include <string.h>

#include "stats/stats.h"

struct tlfg {
    uint32_t group;     /* warps per fetch group */
    uint32_t outer_gto; /* 0: round robin between groups, 1: oldest group */
    uint64_t timeout;   /* instructions before a forced switch, 0 = never */
    uint32_t cur;       /* prioritised group */
    uint64_t issued;    /* instructions issued since cur took priority */
    uint64_t switches_stall, switches_timeout;
};

static const struct param_desc tlfg_params[] = {
    {"group", PARAM_INT, "8", "warps per fetch group (8 is best, Narasiman MICRO 2011 slides)"},
    {"outer", PARAM_STR, "lrr", "order between fetch groups: lrr (round robin) or gto (oldest)"},
    {"timeout", PARAM_INT, "32768",
     "instructions issued by the prioritised group before a forced switch (slides: 32K; 0 = off)"},
    {NULL, PARAM_INT, NULL, NULL},
};

static int tlfg_init(void *priv, const struct param_set *p, const struct sched_init *in,
                     struct err *e)
{
    struct tlfg *t = priv;
    (void)in;
    memset(t, 0, sizeof *t);
    int64_t g = param_int(p, "group");
    if (g < 1 || g > SCHED_MAX_WARPS)
        return err_set(e, WS_ERR_INVALID,
                       "policy 'two_level_fg': parameter 'group' must be 1..%d, got %lld",
                       SCHED_MAX_WARPS, (long long)g);
    int64_t to = param_int(p, "timeout");
    if (to < 0)
        return err_set(e, WS_ERR_INVALID,
                       "policy 'two_level_fg': parameter 'timeout' must be >= 0, got %lld",
                       (long long)to);
    const char *outer = param_str(p, "outer");
    if (strcmp(outer, "lrr") && strcmp(outer, "gto"))
        return err_set(e, WS_ERR_INVALID,
                       "policy 'two_level_fg': parameter 'outer' must be lrr or gto, got '%s'",
                       outer);
    t->group = (uint32_t)g;
    t->outer_gto = !strcmp(outer, "gto");
    t->timeout = (uint64_t)to;
    return WS_OK;
}

static uint64_t tlfg_group_mask(const struct tlfg *t, uint32_t g)
{
    uint32_t lo = g * t->group;
    if (lo >= 64)
        return 0;
    uint64_t m = t->group >= 64 ? ~0ull : (1ull << t->group) - 1;
    return m << lo;
}

/* The event kinds tlfg_on_event reads. */
enum { TLFG_EVENTS = SCHED_EV_BIT(SCHED_EV_KERNEL_START) | SCHED_EV_BIT(SCHED_EV_ISSUE) };

static void tlfg_on_event(void *priv, const struct sched_event *ev)
{
    struct tlfg *t = priv;
    if (ev->kind == SCHED_EV_ISSUE && !ev->cont)
        t->issued++;
    else if (ev->kind == SCHED_EV_KERNEL_START) {
        t->cur = 0;
        t->issued = 0;
    }
}

/* Choose a new prioritised group other than cur whose warps are not all
 * stalled; returns cur when there is none. */
static uint32_t tlfg_next_group(const struct tlfg *t, const struct sched_view *v,
                                uint64_t unstalled, uint32_t ngroups)
{
    if (t->outer_gto) {
        int s = sched_oldest(v, unstalled & ~tlfg_group_mask(t, t->cur));
        return s < 0 ? t->cur : (uint32_t)s / t->group;
    }
    for (uint32_t k = 1; k < ngroups; k++) {
        uint32_t g = (t->cur + k) % ngroups;
        if (unstalled & tlfg_group_mask(t, g))
            return g;
    }
    return t->cur;
}

static int tlfg_pick(void *priv, const struct sched_view *v)
{
    struct tlfg *t = priv;
    if (!t->group) /* not initialised: behave as a one-group scheduler */
        t->group = SCHED_MAX_WARPS;
    uint64_t slots = v->nslots >= 64 ? ~0ull : (1ull << v->nslots) - 1;
    uint64_t valid = v->valid & slots;
    uint64_t ready = v->ready & valid;
    uint32_t ngroups = v->nslots ? (v->nslots + t->group - 1) / t->group : 1;
    if (t->cur >= ngroups)
        t->cur = 0;

    uint64_t unstalled = valid & ~(v->long_op_pending | v->at_barrier);
    int stalled = !(unstalled & tlfg_group_mask(t, t->cur));
    int timed_out = t->timeout && t->issued >= t->timeout;
    if (stalled || timed_out) {
        uint32_t g = tlfg_next_group(t, v, unstalled, ngroups);
        if (g != t->cur) {
            t->cur = g;
            if (stalled)
                t->switches_stall++;
            else
                t->switches_timeout++;
        }
        t->issued = 0;
    }

    uint64_t mine = ready & tlfg_group_mask(t, t->cur);
    uint32_t after_last = v->last_issued < 0 ? 0 : (uint32_t)v->last_issued + 1;
    if (mine)
        return sched_round_robin(mine, v->nslots, after_last);
    /* the prioritised group cannot issue this cycle: lower-priority groups */
    uint64_t others = ready & ~tlfg_group_mask(t, t->cur);
    if (!others)
        return -1;
    if (t->outer_gto)
        return sched_oldest(v, others);
    return sched_round_robin(others, v->nslots, (t->cur + 1) * t->group);
}

static void tlfg_stats(void *priv, struct stats *s, uint32_t n, size_t stride)
{
    struct tlfg *t = priv;
    stats_counter(s, "sched_fg_switches_stall",
                  "two-level: priority moved because every warp of the group stalled",
                  &t->switches_stall, n, stride);
    stats_counter(s, "sched_fg_switches_timeout",
                  "two-level: priority moved by the instruction timeout (Narasiman: 32K)",
                  &t->switches_timeout, n, stride);
}

SCHED_POLICY(two_level_fg,
             .desc = "two-level scheduling over fixed fetch groups with a 32K-instruction "
                     "timeout (Narasiman MICRO 2011)",
             .priv_size = sizeof(struct tlfg), .params = tlfg_params, .init = tlfg_init,
             .pick = tlfg_pick, .on_event = tlfg_on_event,
             .events = TLFG_EVENTS, .stats = tlfg_stats);
