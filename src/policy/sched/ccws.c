/* ccws.c: Cache-Conscious Wavefront Scheduling (Rogers, O'Connor, Aamodt,
 * MICRO 2012), as the authors' released simulator behaves (SPEC-policies 3;
 * DAWS paper, MICRO 2013, Section 2 and Table 3 for the parameters).
 *
 * Detection (SPEC 3.2): each warp slot has a victim tag array (VTA) of
 * vta_sets x vta_ways tags (released config 2 x 8, FIFO, indexed by the line
 * address).  An L1D eviction inserts the victim line into the VTA of the warp
 * that ALLOCATED it (warp-ID-filtered victim tags); a load miss of warp W on a
 * line in W's own VTA is a lost-locality event (the entry is kept).  Only a
 * fresh miss (one that allocated a line) probes the VTA, as the released
 * code (gpu-cache.cc, high_locality_protected_cache::access: the probe sits
 * under status MISS; HIT_RESERVED merges and reservation failures neither
 * probe nor score); vta_probe=merge also probes on MSHR merges.  A global
 * store invalidates its line in every warp's VTA.
 *
 * Scoring (SPEC 3.3): lost-locality score LLS per warp, base B = 100.  On a
 * VTA hit LLDS = k_throttle x (VTAHitsTotal / InstIssuedTotal) x C; the
 * released code caps a score at k_wsc x (same ratio) x C with k_wsc =
 * k_throttle, so a hit SETS LLS to max(B, LLDS) (variant=released).
 * variant=additive is the paper's LLS += LLDS, capped at cap_mult x ratio x C.
 * Every decay_period core cycles (`now` counts cycles of the configured core
 * clock) each score above B loses `decay` points (clamped to [B, cap]).  The
 * released simulator decays 1 point per 325 MHz core cycle
 * (scheduling_point_system::cycle() runs once per shader cycle): at a
 * 325 MHz core that is the default 1/1; at a 1300 MHz core the same rate is
 * decay_period=4.  The policy only runs when called, so decay is applied
 * lazily from the cycle number.  The totals cover resident warps only: a
 * warp's hits and instructions are removed when it exits and its score
 * drops to 0.
 *
 * New warps (new_warp=released, the default): a slot's score starts at B
 * when the core is built and drops to 0 when its warp exits; a warp launched
 * into the slot keeps that 0 (ranked last, adding nothing to the cumulative
 * sum) until its first L1D access that is a hit or a fresh miss (load or
 * store), which raises it to B (released increment_score with 0 points:
 * a score <= B becomes B, one above B is clamped to the cap).
 * new_warp=base starts every launched warp at B (the paper's description).
 *
 * Decision (SPEC 3.4): C = N_active x B; warps sorted by LLS descending (ties:
 * lower slot) are allowed until the running sum of scores reaches C.  A warp
 * that is not allowed may not issue a global/local load (view->next_is_load);
 * everything else issues in GTO order (SPEC 2.2).
 *
 * [CHOICE]s (SPEC 3.3, 11.2): C is evaluated at each pick without the
 * released code's one-cycle lag (the policy is not called every cycle); an
 * eviction of a line whose allocating warp has exited (age differs from the
 * slot's warp) inserts nothing, and a slot's VTA is cleared when a new warp
 * launches into it; atomics and barriers do
 * not count as issued instructions for the ratio (barriers and membars per
 * the released code; atomics are not loads).  State is per scheduler unit:
 * with one unit per SM (the CCWS/DAWS baseline) that is per core.
 *
 * throttle=0 keeps detection and scoring but never gates (plain GTO): it
 * measures lost locality under GTO. */
#include "policy/sched/sched.h"

#include <string.h>

#include "analysis/analysis.h"
#include "policy/vta.h"
#include "stats/stats.h"

enum { CCWS_RELEASED, CCWS_ADDITIVE };
enum { CCWS_NEW_RELEASED, CCWS_NEW_BASE };
enum { CCWS_PROBE_MISS, CCWS_PROBE_MERGE };

struct ccws {
    /* parameters */
    int64_t k_throttle, base, decay, cap_mult;
    uint64_t decay_period;
    uint32_t sets, ways, variant, throttle, new_warp, probe;
    uint32_t nslots;
    /* static facts of the kernel */
    const struct pc_info *pcinfo;
    /* per warp slot */
    uint64_t live;                       /* warp launched and not exited */
    uint64_t age[SCHED_MAX_WARPS];
    int64_t lls[SCHED_MAX_WARPS];
    uint64_t warp_hits[SCHED_MAX_WARPS], warp_insts[SCHED_MAX_WARPS];
    struct vta vta[SCHED_MAX_WARPS];
    /* per unit */
    uint64_t hits_total, insts_total;    /* over resident warps */
    uint64_t last_decay;
    uint64_t allowed;                    /* may issue loads (last evaluation) */
    /* statistics (summed over instances) */
    uint64_t st_vta_hits, st_vta_inserts, st_store_inval;
    uint64_t st_allowed_sum, st_cycles, st_throttled, st_allowed_now;
    uint64_t st_mem_accesses, st_kernels;
};

static const struct param_desc ccws_params[] = {
    {"k_throttle", PARAM_INT, "8", "K_THROTTLE (DAWS Table 3; CCWS code k_vc_add)"},
    {"base", PARAM_INT, "100", "base lost-locality score B (DAWS Table 3)"},
    {"vta_sets", PARAM_INT, "2", "victim tag array sets per warp (released config 2:128:8)"},
    {"vta_ways", PARAM_INT, "8", "victim tag array ways, FIFO (released config 2:128:8)"},
    {"decay", PARAM_INT, "1", "score points lost per decay step (released code: 1)"},
    {"decay_period", PARAM_INT, "1",
     "core cycles per decay step (released: every 325 MHz core cycle; 4 at a 1300 MHz core)"},
    {"new_warp", PARAM_STR, "released",
     "released: a warp launched into a slot scores 0 until its first L1D hit or fresh miss "
     "(then B); base: it starts at B (CCWS paper)"},
    {"vta_probe", PARAM_STR, "miss",
     "miss: only fresh L1D load misses probe the VTA (released code); merge: MSHR merges too"},
    {"variant", PARAM_STR, "released",
     "released: a VTA hit sets LLS to max(B, LLDS); additive: LLS += LLDS (CCWS paper)"},
    {"cap_mult", PARAM_INT, "64",
     "additive variant only: score cap = cap_mult x (VTA hits / insts) x C"},
    {"throttle", PARAM_INT, "1", "0: detect and score only, never gate (measures GTO)"},
    {NULL, PARAM_INT, NULL, NULL},
};

static int ccws_init(void *priv, const struct param_set *p, const struct sched_init *in,
                     struct err *e)
{
    struct ccws *c = priv;
    memset(c, 0, sizeof *c);
    c->k_throttle = param_int(p, "k_throttle");
    c->base = param_int(p, "base");
    c->decay = param_int(p, "decay");
    c->cap_mult = param_int(p, "cap_mult");
    int64_t sets = param_int(p, "vta_sets"), ways = param_int(p, "vta_ways");
    const char *var = param_str(p, "variant");
    int64_t period = param_int(p, "decay_period");
    const char *nw = param_str(p, "new_warp"), *probe = param_str(p, "vta_probe");
    if (c->k_throttle < 0 || c->base < 1 || c->decay < 0 || c->cap_mult < 0 || period < 1)
        return err_set(e, WS_ERR_INVALID,
                       "policy 'ccws': k_throttle, decay and cap_mult must be >= 0, base and "
                       "decay_period >= 1");
    c->decay_period = (uint64_t)period;
    if (!strcmp(nw, "released"))
        c->new_warp = CCWS_NEW_RELEASED;
    else if (!strcmp(nw, "base"))
        c->new_warp = CCWS_NEW_BASE;
    else
        return err_set(e, WS_ERR_INVALID,
                       "policy 'ccws': parameter 'new_warp' must be released or base, got '%s'",
                       nw);
    if (!strcmp(probe, "miss"))
        c->probe = CCWS_PROBE_MISS;
    else if (!strcmp(probe, "merge"))
        c->probe = CCWS_PROBE_MERGE;
    else
        return err_set(e, WS_ERR_INVALID,
                       "policy 'ccws': parameter 'vta_probe' must be miss or merge, got '%s'",
                       probe);
    if (sets < 1 || ways < 1 || sets * ways > VTA_MAX_TAGS)
        return err_set(e, WS_ERR_INVALID,
                       "policy 'ccws': vta_sets x vta_ways must be 1..%d, got %lld x %lld",
                       VTA_MAX_TAGS, (long long)sets, (long long)ways);
    if (!strcmp(var, "released"))
        c->variant = CCWS_RELEASED;
    else if (!strcmp(var, "additive"))
        c->variant = CCWS_ADDITIVE;
    else
        return err_set(e, WS_ERR_INVALID,
                       "policy 'ccws': parameter 'variant' must be released or additive, got '%s'",
                       var);
    c->sets = (uint32_t)sets;
    c->ways = (uint32_t)ways;
    c->throttle = param_int(p, "throttle") != 0;
    c->nslots = in->nslots;
    for (uint32_t w = 0; w < SCHED_MAX_WARPS; w++) {
        vta_clear(&c->vta[w], c->sets, c->ways);
        c->lls[w] = c->base; /* released: every slot starts at B */
    }
    return WS_OK;
}

/* ---- scores ------------------------------------------------------------------ */

static uint32_t ccws_n_active(const struct ccws *c)
{
    return (uint32_t)__builtin_popcountll(c->live);
}

static int64_t ccws_cutoff(const struct ccws *c)
{
    int64_t cut = (int64_t)ccws_n_active(c) * c->base;
    return cut > 0 ? cut : 1;
}

/* mult x (VTAHitsTotal / InstIssuedTotal) x C */
static int64_t ccws_scaled(const struct ccws *c, int64_t mult)
{
    if (!c->insts_total)
        return 0;
    double r = (double)c->hits_total / (double)c->insts_total;
    return (int64_t)((double)mult * r * (double)ccws_cutoff(c));
}

static int64_t ccws_cap(const struct ccws *c)
{
    return ccws_scaled(c, c->variant == CCWS_RELEASED ? c->k_throttle : c->cap_mult);
}

/* Apply the decay steps due since the last call (one per decay_period core
 * cycles, at the cycles that are multiples of it). */
static void ccws_decay(struct ccws *c, uint64_t now)
{
    if (now <= c->last_decay)
        return;
    uint64_t n = now / c->decay_period - c->last_decay / c->decay_period;
    c->last_decay = now;
    if (!n)
        return;
    int64_t cap = ccws_cap(c);
    for (uint64_t m = c->live; m; m &= m - 1) {
        int s = __builtin_ctzll(m);
        if (c->lls[s] <= c->base)
            continue;
        int64_t d = (int64_t)(n > (uint64_t)INT32_MAX ? INT32_MAX : n) * c->decay;
        int64_t v = c->lls[s] - d;
        if (v > cap)
            v = cap;
        c->lls[s] = v < c->base ? c->base : v;
    }
}

/* Released increment_score with 0 points (an L1D hit or fresh miss): a
 * score at or below B (0 for a new warp) becomes B, one above is capped. */
static void ccws_touch(struct ccws *c, uint32_t s)
{
    if (c->lls[s] <= c->base) {
        c->lls[s] = c->base;
        return;
    }
    int64_t cap = ccws_cap(c);
    if (c->lls[s] > cap)
        c->lls[s] = cap < c->base ? c->base : cap;
}

static void ccws_lost_locality(struct ccws *c, uint32_t s)
{
    c->hits_total++;
    c->warp_hits[s]++;
    c->st_vta_hits++;
    int64_t llds = ccws_scaled(c, c->k_throttle);
    int64_t v;
    if (c->variant == CCWS_RELEASED) {
        v = llds; /* min(LLS + LLDS, cap = LLDS) */
    } else {
        int64_t cap = ccws_cap(c);
        v = c->lls[s] + llds;
        if (v > cap)
            v = cap;
    }
    c->lls[s] = v < c->base ? c->base : v;
}

/* Allowed set (SPEC 3.4): by score descending, ties lower slot, until the
 * running sum reaches C. */
static uint64_t ccws_allowed(const struct ccws *c)
{
    int64_t cut = ccws_cutoff(c), sum = 0;
    uint64_t left = c->live, allowed = 0;
    while (left && sum < cut) {
        int best = -1;
        for (uint64_t m = left; m; m &= m - 1) {
            int s = __builtin_ctzll(m);
            if (best < 0 || c->lls[s] > c->lls[best])
                best = s;
        }
        left &= ~(1ull << best);
        allowed |= 1ull << best;
        sum += c->lls[best];
    }
    return allowed;
}

/* ---- the policy ---------------------------------------------------------------- */

static int ccws_pick(void *priv, const struct sched_view *v)
{
    struct ccws *c = priv;
    ccws_decay(c, v->now);
    uint64_t allowed = ccws_allowed(c);
    c->allowed = allowed;
    uint32_t n_allowed = (uint32_t)__builtin_popcountll(allowed);
    c->st_cycles++;
    c->st_allowed_sum += n_allowed;
    c->st_allowed_now = n_allowed;
    if (allowed != c->live)
        c->st_throttled++;
    uint64_t ok = v->ready & v->valid;
    if (c->throttle)
        ok &= ~(v->next_is_load & ~allowed);
    if (v->last_issued >= 0 && v->last_issued < SCHED_MAX_WARPS && (ok >> v->last_issued & 1))
        return v->last_issued;
    return sched_oldest(v, ok);
}

/* The event kinds ccws_event reads. */
enum {
    CCWS_EVENTS =
        SCHED_EV_BIT(SCHED_EV_KERNEL_START) | SCHED_EV_BIT(SCHED_EV_WARP_LAUNCH) |
        SCHED_EV_BIT(SCHED_EV_WARP_EXIT) | SCHED_EV_BIT(SCHED_EV_ISSUE) |
        SCHED_EV_BIT(SCHED_EV_L1D_ACCESS) | SCHED_EV_BIT(SCHED_EV_L1D_EVICT) |
        SCHED_EV_BIT(SCHED_EV_STORE) | SCHED_EV_BIT(SCHED_EV_MEM_ISSUE)
};

static void ccws_event(void *priv, const struct sched_event *ev)
{
    struct ccws *c = priv;
    int own = ev->slot >= 0 && (uint32_t)ev->slot < c->nslots && ev->slot < SCHED_MAX_WARPS;
    uint32_t s = own ? (uint32_t)ev->slot : 0;
    switch (ev->kind) {
    case SCHED_EV_KERNEL_START:
        c->pcinfo = ev->kernel && ev->kernel->an ? ev->kernel->an->pc : NULL;
        c->st_kernels++;
        break;
    case SCHED_EV_WARP_LAUNCH:
        if (!own)
            break;
        ccws_decay(c, ev->now);
        c->live |= 1ull << s;
        c->age[s] = ev->age;
        if (c->new_warp == CCWS_NEW_BASE)
            c->lls[s] = c->base; /* released: the slot keeps 0 (or B if never used) */
        c->warp_hits[s] = 0;
        c->warp_insts[s] = 0;
        vta_clear(&c->vta[s], c->sets, c->ways);
        break;
    case SCHED_EV_WARP_EXIT:
        if (!own || !(c->live >> s & 1))
            break;
        ccws_decay(c, ev->now);
        c->live &= ~(1ull << s);
        c->hits_total -= c->warp_hits[s];
        c->insts_total -= c->warp_insts[s];
        c->warp_hits[s] = 0;
        c->warp_insts[s] = 0;
        c->lls[s] = 0;
        break;
    case SCHED_EV_ISSUE: {
        if (!own)
            break;
        unsigned ic = c->pcinfo ? c->pcinfo[ev->pc].iclass : ICLASS_ALU;
        if (ic == ICLASS_BARRIER || ic == ICLASS_MEMBAR)
            break;
        c->insts_total++;
        c->warp_insts[s]++;
        break;
    }
    case SCHED_EV_L1D_EVICT:
        if (own && (c->live >> s & 1) && c->age[s] == ev->age)
            c->st_vta_inserts += (uint64_t)vta_insert(&c->vta[s], ev->addr, NULL);
        break;
    case SCHED_EV_L1D_ACCESS:
        if (!own || !(c->live >> s & 1))
            break;
        if (!ev->hit && !ev->is_write && (!ev->merged || c->probe == CCWS_PROBE_MERGE) &&
            vta_find(&c->vta[s], ev->addr)) {
            ccws_decay(c, ev->now);
            ccws_lost_locality(c, s);
        }
        if (c->new_warp == CCWS_NEW_RELEASED && !ev->merged) {
            ccws_decay(c, ev->now);
            ccws_touch(c, s);
        }
        break;
    case SCHED_EV_STORE:
        for (uint32_t w = 0; w < c->nslots && w < SCHED_MAX_WARPS; w++)
            c->st_store_inval += (uint64_t)vta_remove(&c->vta[w], ev->addr);
        break;
    case SCHED_EV_MEM_ISSUE:
        c->st_mem_accesses += ev->accesses;
        break;
    default:
        break;
    }
}

static void ccws_stats(void *priv, struct stats *s, uint32_t n, size_t stride)
{
    struct ccws *c = priv;
    stats_counter(s, "sched_vta_hits", "CCWS: victim-tag hits (lost intra-warp locality)",
                  &c->st_vta_hits, n, stride);
    uint64_t dummy;
    if (stats_get_u64(s, "gpu_sim_insn", &dummy) == 0)
        stats_ratio(s, "sched_vta_hits_pki", "CCWS: victim-tag hits per 1000 instructions",
                    "sched_vta_hits", "gpu_sim_insn", 1000.0);
    stats_counter(s, "sched_vta_inserts", "CCWS: L1D victims inserted into a victim tag array",
                  &c->st_vta_inserts, n, stride);
    stats_counter(s, "sched_vta_store_invalidations",
                  "CCWS: victim tags invalidated by global stores", &c->st_store_inval, n,
                  stride);
    stats_counter(s, "sched_policy_cycles", "CCWS: scheduler cycles the policy evaluated",
                  &c->st_cycles, n, stride);
    stats_counter(s, "sched_allowed_warps_sum",
                  "CCWS: warps allowed to issue loads, summed over evaluated cycles",
                  &c->st_allowed_sum, n, stride);
    stats_ratio(s, "sched_allowed_warps_avg",
                "CCWS: average warps allowed to issue loads (SPS_avg_warps_exclusive)",
                "sched_allowed_warps_sum", "sched_policy_cycles", 1.0);
    stats_counter(s, "sched_throttled_cycles",
                  "CCWS: evaluated cycles in which some resident warp may not issue loads",
                  &c->st_throttled, n, stride);
    stats_ratio(s, "sched_throttled_fraction",
                "CCWS: fraction of evaluated cycles with a throttled warp "
                "(SPS_percent_exclusive_cycles)",
                "sched_throttled_cycles", "sched_policy_cycles", 1.0);
    stats_counter(s, "sched_mem_issue_accesses",
                  "CCWS: coalesced accesses of global/local instructions (MEM_ISSUE events)",
                  &c->st_mem_accesses, n, stride);
    stats_counter(s, "sched_kernel_starts", "CCWS: kernel-start events seen (every instance)",
                  &c->st_kernels, n, stride);
    stats_timeline_column(s, "sched_allowed_warps", &c->st_allowed_now, n, stride);
}

SCHED_POLICY(ccws,
             .desc = "cache-conscious wavefront scheduling: victim tags, lost-locality scores, "
                     "load gating on GTO (Rogers MICRO 2012; released code)",
             .priv_size = sizeof(struct ccws), .params = ccws_params, .init = ccws_init,
             .pick = ccws_pick, .on_event = ccws_event, .events = CCWS_EVENTS, .stats = ccws_stats);
