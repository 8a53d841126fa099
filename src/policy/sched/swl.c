/* swl.c: static warp limiting on top of GTO, as GPGPU-Sim's
 * warp_limiting:2:K (SPEC-policies 2.5; the SWL and Best-SWL baselines of
 * Rogers et al., CCWS MICRO 2012 and DAWS MICRO 2013, Section 5 / Table 3).
 *
 * Every pick the GTO-ordered list is truncated and only its warps may issue
 * ANY instruction: the greedy (last issued) warp — the unit's first slot
 * before anything issued — plus the oldest warps of the sorted list, skipping
 * the greedy one, K slots visited in total.  So exactly K warps are eligible
 * when the greedy warp is among the K oldest, K + 1 otherwise.  The sorted
 * list puts live warps first (oldest first), then warps waiting at a barrier
 * (oldest first), then empty slots, so waiting warps use up slots only when
 * fewer than K live warps remain.  Among the eligible warps the greedy one
 * issues if ready, else the oldest ready one.
 *
 * Parameters: limit = K; scope = core (default, [CHOICE] SPEC 2.5: the CCWS and
 * DAWS baselines had one scheduler per core) or scheduler (GPGPU-Sim: K per
 * unit).  With scope=core and n units, unit u gets floor(K / n) plus one if
 * u < K mod n, at least 1 (so a limit below the unit count still lets every
 * unit issue); with one unit per SM both scopes agree. */
#include "policy/sched/sched.h"

#include <string.h>

#include "stats/stats.h"

struct swl {
    uint32_t k;      /* slots visited in this unit */
    uint64_t st_eligible_sum, st_cycles, st_eligible_now;
};

static const struct param_desc swl_params[] = {
    {"limit", PARAM_INT, "32", "warp limit K (DAWS Table 3 Best-SWL sweeps 1..32)"},
    {"scope", PARAM_STR, "core",
     "core: K per SM, divided among its scheduler units; scheduler: K per unit (GPGPU-Sim)"},
    {NULL, PARAM_INT, NULL, NULL},
};

static int swl_init(void *priv, const struct param_set *p, const struct sched_init *in,
                    struct err *e)
{
    struct swl *w = priv;
    memset(w, 0, sizeof *w);
    int64_t k = param_int(p, "limit");
    const char *scope = param_str(p, "scope");
    if (k < 1)
        return err_set(e, WS_ERR_INVALID, "policy 'swl': parameter 'limit' must be >= 1, got %lld",
                       (long long)k);
    if (!strcmp(scope, "core")) {
        uint32_t n = in->n_units ? in->n_units : 1;
        uint64_t per = (uint64_t)k / n + ((uint64_t)in->unit < (uint64_t)k % n ? 1u : 0u);
        k = per ? (int64_t)per : 1;
    } else if (strcmp(scope, "scheduler") != 0) {
        return err_set(e, WS_ERR_INVALID,
                       "policy 'swl': parameter 'scope' must be core or scheduler, got '%s'",
                       scope);
    }
    w->k = k > SCHED_MAX_WARPS ? SCHED_MAX_WARPS : (uint32_t)k;
    return WS_OK;
}

/* Oldest slot of `set`, ties impossible (ages are unique); -1 if empty. */
static int swl_take_oldest(const struct sched_view *v, uint64_t *set)
{
    int s = sched_oldest(v, *set);
    if (s >= 0)
        *set &= ~(1ull << s);
    return s;
}

/* The warps that may issue this pick (SPEC 2.5 truncation). */
static uint64_t swl_eligible(const struct swl *w, const struct sched_view *v)
{
    uint32_t n = v->nslots < SCHED_MAX_WARPS ? v->nslots : SCHED_MAX_WARPS;
    uint64_t all = n == 64 ? ~0ull : (1ull << n) - 1;
    int greedy = v->last_issued >= 0 && (uint32_t)v->last_issued < n ? v->last_issued : 0;
    uint64_t elig = n ? 1ull << greedy : 0;
    uint64_t live = v->valid & ~v->at_barrier & all;
    uint64_t waiting = v->valid & v->at_barrier & all;
    uint64_t empty = all & ~v->valid;
    for (uint32_t visited = 0; visited < w->k && visited < n; visited++) {
        int s = swl_take_oldest(v, &live);
        if (s < 0)
            s = swl_take_oldest(v, &waiting);
        if (s < 0) {
            if (!empty)
                break;
            s = __builtin_ctzll(empty);
            empty &= empty - 1;
        }
        elig |= 1ull << s; /* the greedy warp again: counted, no new warp */
    }
    return elig;
}

static int swl_pick(void *priv, const struct sched_view *v)
{
    struct swl *w = priv;
    uint64_t elig = swl_eligible(w, v);
    uint32_t ne = (uint32_t)__builtin_popcountll(elig & v->valid);
    w->st_cycles++;
    w->st_eligible_sum += ne;
    w->st_eligible_now = ne;
    uint64_t ok = v->ready & v->valid & elig;
    if (v->last_issued >= 0 && v->last_issued < SCHED_MAX_WARPS && (ok >> v->last_issued & 1))
        return v->last_issued;
    return sched_oldest(v, ok);
}

static void swl_stats(void *priv, struct stats *s, uint32_t n, size_t stride)
{
    struct swl *w = priv;
    stats_counter(s, "sched_policy_cycles", "SWL: scheduler cycles the policy evaluated",
                  &w->st_cycles, n, stride);
    stats_counter(s, "sched_allowed_warps_sum",
                  "SWL: live warps allowed to issue, summed over evaluated cycles",
                  &w->st_eligible_sum, n, stride);
    stats_ratio(s, "sched_allowed_warps_avg", "SWL: average live warps allowed to issue",
                "sched_allowed_warps_sum", "sched_policy_cycles", 1.0);
    stats_timeline_column(s, "sched_allowed_warps", &w->st_eligible_now, n, stride);
}

SCHED_POLICY(swl,
             .desc = "static warp limiting: only the first K warps of the GTO order issue "
                     "(GPGPU-Sim warp_limiting; Rogers MICRO 2012/2013 SWL, Best-SWL)",
             .priv_size = sizeof(struct swl), .params = swl_params, .init = swl_init,
             .pick = swl_pick, .stats = swl_stats);
