/* daws_common.c: DAWS footprint prediction and load gating shared by
 * Profiled- and Detected-DAWS (Rogers et al., MICRO 2013, Sections 4 and 5.1;
 * SPEC-policies 4.3, 4.4, 4.6).  See daws_common.h and docs/daws.md. */
#include "policy/daws_common.h"

#include <string.h>

#include "analysis/analysis.h"
#include "stats/stats.h"

void daws_core_init(struct daws_core *c, double assoc_factor)
{
    memset(c, 0, sizeof *c);
    c->assoc_factor = assoc_factor;
    for (uint32_t s = 0; s < SCHED_MAX_WARPS; s++)
        c->pred_loop[s] = DAWS_NONE;
}

void daws_core_kernel(struct daws_core *c, const struct analysis *an, uint32_t ninsts,
                      uint32_t l1d_lines)
{
    c->an = an;
    c->ninsts = an ? ninsts : 0;
    c->l1d_lines = l1d_lines;
    c->nloads = 0;
    for (uint32_t s = 0; s < SCHED_MAX_WARPS; s++) {
        c->pred[s] = 0;
        c->pred_loop[s] = DAWS_NONE;
    }
}

void daws_clear_slot(struct daws_core *c, int32_t slot)
{
    if (slot < 0 || slot >= SCHED_MAX_WARPS)
        return;
    c->pred[slot] = 0;
    c->pred_loop[slot] = DAWS_NONE;
}

uint32_t daws_footprint(const struct daws_core *c, uint32_t loop, uint32_t lanes)
{
    uint32_t lines = 0;
    for (uint32_t i = 0; i < c->nloads; i++) {
        const struct daws_load *l = &c->loads[i];
        if (l->loop != loop)
            continue;
        int first = 1, div = 0;
        for (uint32_t j = 0; j < c->nloads; j++) {
            const struct daws_load *o = &c->loads[j];
            if (o->loop != loop || o->repid != l->repid)
                continue;
            if (j < i)
                first = 0;
            div |= o->is_div; /* mixed classification in a group: diverged */
        }
        if (!first)
            continue; /* each RepID once */
        if (lanes == 0)
            continue;
        lines += div ? lanes : lanes > 1 ? 2u : 1u;
    }
    return lines;
}

uint32_t daws_loop_at_header(const struct daws_core *c, uint32_t pc)
{
    if (!c->an || pc >= c->ninsts)
        return DAWS_NONE;
    uint32_t l = c->an->pc[pc].loop;
    /* the innermost loop containing a header PC is that header's loop, unless
     * loops share a header: then walk outwards */
    while (l != PTX_NO_INDEX && l < c->an->nloops) {
        if (c->an->loops[l].header_pc == pc)
            return l;
        l = c->an->loops[l].parent;
    }
    return DAWS_NONE;
}

int daws_loop_inside(const struct daws_core *c, uint32_t inner, uint32_t outer)
{
    if (!c->an || inner >= c->an->nloops || outer >= c->an->nloops)
        return 0;
    for (uint32_t l = c->an->loops[inner].parent; l != PTX_NO_INDEX && l < c->an->nloops;
         l = c->an->loops[l].parent)
        if (l == outer)
            return 1;
    return 0;
}

static uint32_t daws_outermost(const struct daws_core *c, uint32_t loop)
{
    while (c->an->loops[loop].parent != PTX_NO_INDEX && c->an->loops[loop].parent < c->an->nloops)
        loop = c->an->loops[loop].parent;
    return loop;
}

uint32_t daws_on_loop_begin(struct daws_core *c, int32_t slot, uint32_t loop, uint32_t lanes,
                            daws_loop_enabled_fn en, const void *ctx)
{
    if (slot < 0 || slot >= SCHED_MAX_WARPS || !c->an || loop >= c->an->nloops)
        return 0;
    uint32_t cur = c->pred_loop[slot], use = loop;
    /* Inner-loop rule (SPEC 4.3): the entry holds a loop nested inside this
     * one (the warp ran an inner loop on an earlier trip): this is an outer
     * loop's next trip, so predict from the inner loop's loads. */
    if (cur != DAWS_NONE && cur != loop && daws_loop_inside(c, cur, loop))
        use = cur;
    uint32_t p = en && !en(ctx, use) ? 0 : daws_footprint(c, use, lanes);
    c->pred_loop[slot] = use;
    c->pred[slot] = p;
    c->st_predicted_lines += p;
    c->st_predictions++;
    return p;
}

static int daws_pc_inside(const struct daws_core *c, uint32_t loop, uint32_t pc)
{
    const struct loop_info *L = &c->an->loops[daws_outermost(c, loop)];
    return pc >= L->first_pc && pc <= L->last_pc;
}

void daws_check_left(struct daws_core *c, const struct sched_view *v)
{
    if (!c->an)
        return;
    uint32_t n = v->nslots < SCHED_MAX_WARPS ? v->nslots : SCHED_MAX_WARPS;
    for (uint32_t s = 0; s < n; s++) {
        if (c->pred_loop[s] == DAWS_NONE || !(v->valid >> s & 1))
            continue;
        if (!daws_pc_inside(c, c->pred_loop[s], v->pc[s]))
            daws_clear_slot(c, (int32_t)s);
    }
}

void daws_core_event(struct daws_core *c, const struct sched_event *ev, daws_loop_enabled_fn en,
                     const void *ctx)
{
    switch (ev->kind) {
    case SCHED_EV_WARP_LAUNCH:
    case SCHED_EV_WARP_EXIT:
    case SCHED_EV_BARRIER: /* cleared at a barrier, to avoid deadlock (SPEC 4.3) */
        daws_clear_slot(c, ev->slot);
        break;
    case SCHED_EV_ISSUE: {
        if (ev->slot < 0 || ev->slot >= SCHED_MAX_WARPS || !c->an)
            break;
        uint32_t loop = daws_loop_at_header(c, ev->pc);
        if (loop != DAWS_NONE) {
            uint32_t lanes = ev->lanes ? ev->lanes : c->lanes[ev->slot];
            daws_on_loop_begin(c, ev->slot, loop, lanes, en, ctx);
        } else if (c->pred_loop[ev->slot] != DAWS_NONE && ev->pc < c->ninsts &&
                   !daws_pc_inside(c, c->pred_loop[ev->slot], ev->pc)) {
            daws_clear_slot(c, ev->slot); /* issued outside the loop: it left */
        }
        break;
    }
    default:
        break;
    }
}

/* Closest loop after pc in program order (same function), DAWS_NONE if none. */
static uint32_t daws_next_loop(const struct daws_core *c, uint32_t pc)
{
    const struct analysis *an = c->an;
    uint32_t func = an->bbs[an->pc[pc].bb].func, best = DAWS_NONE;
    for (uint32_t l = 0; l < an->nloops; l++) {
        const struct loop_info *L = &an->loops[l];
        if (L->func != func || L->header_pc <= pc)
            continue;
        if (best == DAWS_NONE || L->header_pc < an->loops[best].header_pc)
            best = l;
    }
    return best;
}

uint64_t daws_allowed(struct daws_core *c, const struct sched_view *v, daws_loop_enabled_fn en,
                      const void *ctx)
{
    uint32_t n = v->nslots < SCHED_MAX_WARPS ? v->nslots : SCHED_MAX_WARPS;
    uint64_t slots = n >= 64 ? ~0ull : (1ull << n) - 1;
    uint64_t valid = v->valid & slots;
    uint32_t p[SCHED_MAX_WARPS] = {0};
    uint64_t total = 0;
    int any = 0;
    for (uint32_t s = 0; s < n; s++)
        if (valid >> s & 1) {
            p[s] = c->pred[s];
            any |= p[s] != 0;
        }
    /* Outside-loop rule: while any prediction is non-zero, a load outside any
     * loop is predicted as if in the next loop in program order. */
    if (any && c->an)
        for (uint32_t s = 0; s < n; s++) {
            if (!((valid & v->next_is_load) >> s & 1) || p[s] || v->pc[s] >= c->ninsts)
                continue;
            if (c->an->pc[v->pc[s]].loop != PTX_NO_INDEX)
                continue;
            uint32_t l = daws_next_loop(c, v->pc[s]);
            if (l != DAWS_NONE && (!en || en(ctx, l)))
                p[s] = daws_footprint(c, l, v->active[s]);
        }
    int override = 0;
    for (uint32_t s = 0; s < n; s++) {
        total += p[s];
        if (p[s] > c->l1d_lines)
            override = 1; /* a single warp's set exceeds the whole L1D (SPEC 4.4.5) */
    }
    uint64_t allowed = 0;
    if (override || !c->an) {
        allowed = valid;
    } else {
        /* age order, oldest first (insertion sort, at most 64 slots) */
        uint32_t order[SCHED_MAX_WARPS], k = 0;
        for (uint32_t s = 0; s < n; s++) {
            if (!(valid >> s & 1))
                continue;
            uint32_t j = k++;
            while (j > 0 && v->age[order[j - 1]] > v->age[s]) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = s;
        }
        double eff = c->assoc_factor * (double)c->l1d_lines;
        uint64_t prefix = 0;
        for (uint32_t i = 0; i < k; i++) {
            uint32_t s = order[i];
            prefix += p[s];
            /* equal allowed [CHOICE]; a warp is never held back by its own
             * prediction alone (older warps predict nothing): deadlock guard */
            if ((double)prefix <= eff || prefix == p[s])
                allowed |= 1ull << s;
        }
    }
    c->gauge_footprint = total;
    c->gauge_allowed = (uint64_t)__builtin_popcountll(allowed);
    return allowed;
}

int daws_pick(struct daws_core *c, const struct sched_view *v, daws_loop_enabled_fn en,
              const void *ctx)
{
    uint32_t n = v->nslots < SCHED_MAX_WARPS ? v->nslots : SCHED_MAX_WARPS;
    for (uint32_t s = 0; s < n; s++)
        c->lanes[s] = v->active ? v->active[s] : 0;
    daws_check_left(c, v);
    uint64_t slots = n >= 64 ? ~0ull : (1ull << n) - 1;
    uint64_t ready = v->ready & v->valid & slots;
    uint64_t allowed = daws_allowed(c, v, en, ctx);
    uint64_t cand = ready & ~(v->next_is_load & ~allowed);
    if (cand != ready)
        c->st_gated_cycles++;
    if (v->last_issued >= 0 && v->last_issued < 64 && (cand >> v->last_issued & 1))
        return v->last_issued;
    return sched_oldest(v, cand);
}

void daws_core_stats(void *priv, size_t core_off, struct stats *s, uint32_t instances,
                     size_t stride)
{
    struct daws_core *c = (struct daws_core *)((char *)priv + core_off);
    stats_counter(s, "sched_daws_predicted_lines",
                  "DAWS: sum of the footprint predictions made at loop entries (lines)",
                  &c->st_predicted_lines, instances, stride);
    stats_counter(s, "sched_daws_predictions", "DAWS: footprint predictions made",
                  &c->st_predictions, instances, stride);
    stats_ratio(s, "sched_daws_avg_prediction", "DAWS: average prediction (lines)",
                "sched_daws_predicted_lines", "sched_daws_predictions", 1.0);
    stats_counter(s, "sched_daws_gated_cycles",
                  "DAWS: scheduler cycles in which a ready warp's load was held back",
                  &c->st_gated_cycles, instances, stride);
    stats_counter(s, "sched_daws_loads_diverged", "DAWS: loads classified diverged",
                  &c->st_loads_div, instances, stride);
    stats_counter(s, "sched_daws_loads_converged", "DAWS: loads classified converged",
                  &c->st_loads_conv, instances, stride);
    stats_timeline_column(s, "sched_daws_footprint", &c->gauge_footprint, instances, stride);
    stats_timeline_column(s, "sched_daws_load_warps", &c->gauge_allowed, instances, stride);
}
