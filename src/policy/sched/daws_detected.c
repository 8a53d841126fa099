/* daws_detected.c: Detected Divergence-Aware Warp Scheduling (Rogers,
 * O'Connor, Aamodt, "Divergence-Aware Warp Scheduling", MICRO 2013,
 * Sections 4 and 5.2; SPEC-policies 4.5, with the prediction and decision of
 * 4.3, 4.4 and 4.6 in daws_common.c).
 *
 * No profile: the load classification table is filled at run time.
 *  - Sampling warp table (one entry per loop, DDET_MAX_LOOPS): the first warp
 *    that issues a loop's first instruction with > 2 active lanes samples it
 *    until its next PC leaves the loop (or it exits); then the next such warp
 *    takes over.  HasLocality: saturating signed 8-bit counter from 0, +1 for
 *    each load instruction of the sampler (inside the sampled loop) of which
 *    some access captured intra-warp locality (a hit on a line the same warp
 *    allocated) or lost it (a miss that hits the warp's victim tag array), -1
 *    for any other load (the paper's "on each load issued", Sec. 5.2.1).  A
 *    load opens at its SCHED_EV_MEM_ISSUE and closes when its coalesced
 *    accesses have all reached the L1D (or at the sampler's next load).
 *  - VTA (policy/vta.h, as CCWS's, SPEC 3.1): per warp slot, 16 entries, 2 sets
 *    x 8 ways, FIFO, fed by SCHED_EV_L1D_EVICT (allocating warp), invalidated by
 *    global stores (SCHED_EV_STORE).
 *  - Memory-divergence detector per load PC: 2-bit saturating counter (0..3,
 *    from 0), on every global/local load issued with > 2 lanes (any warp):
 *    +1 if the coalescer produced > 2 accesses, else -1; diverged when > 1.
 *  - ILRD: 64 entries, 8 sets x 8 ways, LRU; tag = line, PC_Load, WID.  Every
 *    L1D access of a sampler's load inside its loop probes it: miss -> insert;
 *    hit by a different PC -> both PCs share one RepID.  A sampler's entries
 *    are cleared when it issues its loop's first instruction again.
 *  - Classification entries (DDET_MAX_PCS per-PC records) join the table
 *    only once the load's (innermost) loop has HasLocality > 0; predictions
 *    are made only for loops with HasLocality > 0.
 *  - Kernel launches (keep=module, the default): the tables are keyed by PC
 *    and loop, and the paper never says they are cleared: Profiled-DAWS
 *    "populates this table when a kernel is launched" from earlier runs,
 *    Detected-DAWS fills it at run time and otherwise "operates with
 *    incomplete information about the loops until the dynamic load
 *    classifier has filled" it (Sec. 5.1, 5.2).  So a launch from the same
 *    module keeps HasLocality, the divergence counters, RepIDs and the
 *    classification (GC and BFS relaunch their kernels once per level);
 *    only what belongs to the warps is dropped (sampling warps, their open
 *    loads, ILRD entries) and the victim tags are cleared (the released
 *    CCWS simulator flushes them with the L1D at a kernel boundary).  A
 *    launch from another module starts afresh.  keep=none resets everything
 *    at every launch.
 * [CHOICE]s: "> 2 active lanes" to become sampler (SPEC 4.5); counter widths
 * as suggested; the classification count statistics count entries created,
 * per SM, by the detector's state at creation; keep=module (above). */
#include "policy/sched/sched.h"

#include <string.h>

#include "analysis/analysis.h"
#include "policy/daws_common.h"
#include "policy/vta.h"
#include "ptx/ir.h"
#include "stats/stats.h"

#define DDET_MAX_LOOPS 8
#define DDET_MAX_PCS 64
#define DDET_ILRD_SETS 8
#define DDET_ILRD_WAYS 8

struct ddet_sampler {
    uint32_t loop;   /* DAWS_NONE: entry free */
    int32_t wid;     /* sampling slot, -1: none now */
    int32_t has_loc; /* saturating signed 8-bit counter */
    /* the sampler's load in flight through the L1D */
    uint32_t load_left;   /* its accesses not yet seen */
    uint8_t load_open;    /* a load is open */
    uint8_t load_loc;     /* one of its accesses had intra-warp locality */
};

struct ddet_pc {
    uint32_t pc;
    uint32_t loop;   /* innermost loop */
    uint32_t repid;
    uint8_t div_ctr; /* 0..3 */
    uint8_t classified;
};

struct ddet_ilrd {
    uint64_t tag;
    uint64_t lru;
    uint32_t pc;
    int32_t wid;
    uint8_t valid;
};

struct ddet {
    struct daws_core core;
    double assoc_factor;
    int keep_module;               /* keep=module */
    const struct ptx_module *last_m; /* module of the previous launch */
    int dirty; /* classification changed since core.loads was rebuilt */
    struct ddet_sampler samp[DDET_MAX_LOOPS];
    struct ddet_pc pcs[DDET_MAX_PCS];
    uint32_t npcs, next_repid;
    struct vta vta[SCHED_MAX_WARPS];
    struct ddet_ilrd ilrd[DDET_ILRD_SETS * DDET_ILRD_WAYS];
    uint64_t ilrd_clock;
    /* statistics */
    uint64_t st_vta_hits, st_captured, st_ilrd_repeats, st_samples;
};

static const struct param_desc ddet_params[] = {
    {"assoc_factor", PARAM_DOUBLE, "0.6",
     "kAssocFactor: EffCacheSize = factor x L1D lines (DAWS MICRO 2013 Sec. 5.1, Fig. 15: 0.6)"},
    {"keep", PARAM_STR, "module",
     "module: a launch from the same module keeps the load classification (HasLocality, "
     "divergence, RepIDs); none: every launch starts afresh"},
    {NULL, PARAM_INT, NULL, NULL},
};

/* A new kernel of the same module: drop what belongs to the warps (sampling
 * warps, open loads, ILRD) and the victim tags; keep the classification. */
static void ddet_new_launch(struct ddet *d)
{
    for (uint32_t i = 0; i < DDET_MAX_LOOPS; i++) {
        d->samp[i].wid = -1;
        d->samp[i].load_open = 0;
    }
    for (uint32_t w = 0; w < SCHED_MAX_WARPS; w++)
        vta_clear(&d->vta[w], VTA_DEFAULT_SETS, VTA_DEFAULT_WAYS);
    memset(d->ilrd, 0, sizeof d->ilrd);
    d->dirty = 1;
}

static void ddet_reset(struct ddet *d)
{
    for (uint32_t i = 0; i < DDET_MAX_LOOPS; i++) {
        d->samp[i].loop = DAWS_NONE;
        d->samp[i].wid = -1;
        d->samp[i].has_loc = 0;
        d->samp[i].load_open = 0;
    }
    d->npcs = 0;
    d->next_repid = 0;
    for (uint32_t w = 0; w < SCHED_MAX_WARPS; w++)
        vta_clear(&d->vta[w], VTA_DEFAULT_SETS, VTA_DEFAULT_WAYS);
    memset(d->ilrd, 0, sizeof d->ilrd);
    d->dirty = 1;
}

static int ddet_init(void *priv, const struct param_set *p, const struct sched_init *in,
                     struct err *e)
{
    struct ddet *d = priv;
    (void)in;
    memset(d, 0, sizeof *d);
    double f = param_double(p, "assoc_factor");
    if (!(f > 0.0 && f <= 16.0))
        return err_set(e, WS_ERR_INVALID,
                       "policy 'daws_detected': parameter 'assoc_factor' must be in (0, 16], "
                       "got %g",
                       f);
    const char *keep = param_str(p, "keep");
    if (strcmp(keep, "module") != 0 && strcmp(keep, "none") != 0)
        return err_set(e, WS_ERR_INVALID,
                       "policy 'daws_detected': parameter 'keep' must be module or none, got "
                       "'%s'",
                       keep);
    d->keep_module = strcmp(keep, "module") == 0;
    daws_core_init(&d->core, f);
    ddet_reset(d);
    return WS_OK;
}

/* ---- sampling warp table -------------------------------------------------- */

static struct ddet_sampler *ddet_sampler(struct ddet *d, uint32_t loop)
{
    for (uint32_t i = 0; i < DDET_MAX_LOOPS; i++)
        if (d->samp[i].loop == loop)
            return &d->samp[i];
    return NULL;
}

/* The sampler's open load is complete: HasLocality +1 if it had intra-warp
 * locality, else -1. */
static void ddet_close_load(struct ddet_sampler *s)
{
    if (!s->load_open)
        return;
    s->load_open = 0;
    if (s->load_loc) {
        if (s->has_loc < 127)
            s->has_loc++;
    } else if (s->has_loc > -128) {
        s->has_loc--;
    }
}

static int ddet_enabled(const void *ctx, uint32_t loop)
{
    const struct ddet *d = ctx;
    for (uint32_t i = 0; i < DDET_MAX_LOOPS; i++)
        if (d->samp[i].loop == loop)
            return d->samp[i].has_loc > 0;
    return 0;
}

static int ddet_in_loop(const struct ddet *d, uint32_t loop, uint32_t pc)
{
    const struct loop_info *L = &d->core.an->loops[loop];
    return pc >= L->first_pc && pc <= L->last_pc;
}

/* ---- per-PC records (divergence detector, RepID, classification) ---------- */

static struct ddet_pc *ddet_pc(struct ddet *d, uint32_t pc, int create)
{
    for (uint32_t i = 0; i < d->npcs; i++)
        if (d->pcs[i].pc == pc)
            return &d->pcs[i];
    if (!create || d->npcs == DDET_MAX_PCS || !d->core.an || pc >= d->core.ninsts)
        return NULL;
    struct ddet_pc *r = &d->pcs[d->npcs++];
    memset(r, 0, sizeof *r);
    r->pc = pc;
    r->loop = d->core.an->pc[pc].loop;
    r->repid = d->next_repid++;
    return r;
}

/* Join the classification table once the load's loop has locality. */
static void ddet_maybe_classify(struct ddet *d, struct ddet_pc *r)
{
    if (r->classified || r->loop == PTX_NO_INDEX || !ddet_enabled(d, r->loop))
        return;
    r->classified = 1;
    d->dirty = 1;
    if (r->div_ctr > 1)
        d->core.st_loads_div++;
    else
        d->core.st_loads_conv++;
}

static void ddet_merge_rep(struct ddet *d, uint32_t pc_a, uint32_t pc_b)
{
    struct ddet_pc *a = ddet_pc(d, pc_a, 1), *b = ddet_pc(d, pc_b, 1);
    if (!a || !b || a->repid == b->repid)
        return;
    uint32_t keep = a->repid < b->repid ? a->repid : b->repid;
    uint32_t drop = a->repid < b->repid ? b->repid : a->repid;
    for (uint32_t i = 0; i < d->npcs; i++)
        if (d->pcs[i].repid == drop)
            d->pcs[i].repid = keep;
    d->st_ilrd_repeats++;
    d->dirty = 1;
}

static void ddet_rebuild(struct ddet *d)
{
    if (!d->dirty)
        return;
    d->dirty = 0;
    struct daws_core *c = &d->core;
    c->nloads = 0;
    for (uint32_t i = 0; i < d->npcs && c->nloads < DAWS_MAX_LOADS; i++) {
        const struct ddet_pc *r = &d->pcs[i];
        if (!r->classified)
            continue;
        struct daws_load *l = &c->loads[c->nloads++];
        l->pc = r->pc;
        l->loop = r->loop;
        l->repid = r->repid;
        l->is_div = r->div_ctr > 1;
    }
}

/* ---- ILRD ----------------------------------------------------------------- */

static void ddet_ilrd_access(struct ddet *d, int32_t wid, uint64_t line, uint32_t pc)
{
    uint32_t set = (uint32_t)(line % DDET_ILRD_SETS);
    struct ddet_ilrd *s = &d->ilrd[set * DDET_ILRD_WAYS], *victim = NULL;
    d->ilrd_clock++;
    for (uint32_t w = 0; w < DDET_ILRD_WAYS; w++)
        if (s[w].valid && s[w].tag == line) {
            s[w].lru = d->ilrd_clock;
            if (s[w].pc != pc)
                ddet_merge_rep(d, s[w].pc, pc);
            return;
        }
    for (uint32_t w = 0; w < DDET_ILRD_WAYS; w++) {
        if (!s[w].valid) {
            victim = &s[w];
            break;
        }
        if (!victim || s[w].lru < victim->lru)
            victim = &s[w];
    }
    victim->valid = 1;
    victim->tag = line;
    victim->pc = pc;
    victim->wid = wid;
    victim->lru = d->ilrd_clock;
}

static void ddet_ilrd_clear_wid(struct ddet *d, int32_t wid)
{
    for (uint32_t i = 0; i < DDET_ILRD_SETS * DDET_ILRD_WAYS; i++)
        if (d->ilrd[i].valid && d->ilrd[i].wid == wid)
            d->ilrd[i].valid = 0;
}

/* ---- events --------------------------------------------------------------- */

static void ddet_release_slot(struct ddet *d, int32_t slot)
{
    for (uint32_t i = 0; i < DDET_MAX_LOOPS; i++)
        if (d->samp[i].wid == slot)
            d->samp[i].wid = -1;
}

static void ddet_loop_begin(struct ddet *d, int32_t slot, uint32_t loop, uint32_t lanes)
{
    struct ddet_sampler *s = ddet_sampler(d, loop);
    if (!s && lanes > 2)
        for (uint32_t i = 0; i < DDET_MAX_LOOPS && !s; i++)
            if (d->samp[i].loop == DAWS_NONE) {
                s = &d->samp[i];
                s->loop = loop;
                s->wid = -1;
                s->has_loc = 0;
            }
    if (!s)
        return;
    if (s->wid < 0 && lanes > 2) {
        s->wid = slot;
        s->load_open = 0; /* a load of the previous sampler no longer counts */
    }
    if (s->wid == slot)
        ddet_ilrd_clear_wid(d, slot); /* the sampler branched back to the loop start */
}

static void ddet_l1d_access(struct ddet *d, const struct sched_event *ev)
{
    if (ev->is_write || ev->slot < 0 || ev->slot >= SCHED_MAX_WARPS || !d->core.an ||
        ev->pc >= d->core.ninsts)
        return;
    int sampled = 0;
    for (uint32_t i = 0; i < DDET_MAX_LOOPS; i++) {
        struct ddet_sampler *s = &d->samp[i];
        if (s->loop == DAWS_NONE || s->wid != ev->slot || !ddet_in_loop(d, s->loop, ev->pc))
            continue;
        sampled = 1;
        int captured = ev->hit && ev->own_line;
        int lost = !ev->hit && vta_find(&d->vta[ev->slot], ev->addr);
        d->st_captured += (uint64_t)captured;
        d->st_vta_hits += (uint64_t)lost;
        d->st_samples++;
        if (s->load_open) {
            s->load_loc |= (uint8_t)(captured || lost);
            if (s->load_left > 0 && --s->load_left == 0)
                ddet_close_load(s);
        }
    }
    if (sampled)
        ddet_ilrd_access(d, ev->slot, ev->addr, ev->pc);
    struct ddet_pc *r = ddet_pc(d, ev->pc, 0);
    if (r)
        ddet_maybe_classify(d, r);
}

static void ddet_mem_issue(struct ddet *d, const struct sched_event *ev)
{
    if (ev->is_write || (ev->space != PTX_SPACE_GLOBAL && ev->space != PTX_SPACE_LOCAL) ||
        !d->core.an || ev->pc >= d->core.ninsts || d->core.an->pc[ev->pc].loop == PTX_NO_INDEX)
        return;
    for (uint32_t i = 0; i < DDET_MAX_LOOPS; i++) {
        struct ddet_sampler *s = &d->samp[i];
        if (s->loop == DAWS_NONE || s->wid != ev->slot || !ddet_in_loop(d, s->loop, ev->pc))
            continue;
        ddet_close_load(s); /* its accesses did not all reach the L1D */
        s->load_open = 1;
        s->load_loc = 0;
        s->load_left = ev->accesses;
    }
    struct ddet_pc *r = ddet_pc(d, ev->pc, 1);
    if (!r)
        return;
    if (ev->lanes > 2) {
        uint8_t before = r->div_ctr > 1;
        if (ev->accesses > 2) {
            if (r->div_ctr < 3)
                r->div_ctr++;
        } else if (r->div_ctr > 0) {
            r->div_ctr--;
        }
        if ((r->div_ctr > 1) != before && r->classified)
            d->dirty = 1;
    }
    ddet_maybe_classify(d, r);
}

/* The event kinds ddet_on_event reads. */
enum {
    DDET_EVENTS =
        SCHED_EV_BIT(SCHED_EV_KERNEL_START) | SCHED_EV_BIT(SCHED_EV_WARP_LAUNCH) |
        SCHED_EV_BIT(SCHED_EV_WARP_EXIT) | SCHED_EV_BIT(SCHED_EV_BARRIER) |
        SCHED_EV_BIT(SCHED_EV_ISSUE) | SCHED_EV_BIT(SCHED_EV_L1D_ACCESS) |
        SCHED_EV_BIT(SCHED_EV_L1D_EVICT) | SCHED_EV_BIT(SCHED_EV_STORE) |
        SCHED_EV_BIT(SCHED_EV_MEM_ISSUE)
};

static void ddet_on_event(void *priv, const struct sched_event *ev)
{
    struct ddet *d = priv;
    int slot_ok = ev->slot >= 0 && ev->slot < SCHED_MAX_WARPS;
    switch (ev->kind) {
    case SCHED_EV_KERNEL_START: {
        const struct sched_kernel *k = ev->kernel;
        const struct ptx_module *m = k && k->an ? k->m : NULL;
        if (m)
            daws_core_kernel(&d->core, k->an, m->ninsts, k->l1d_lines);
        else
            daws_core_kernel(&d->core, NULL, 0, 0);
        if (d->keep_module && m && m == d->last_m)
            ddet_new_launch(d);
        else
            ddet_reset(d);
        d->last_m = m;
        ddet_rebuild(d);
        return;
    }
    case SCHED_EV_WARP_LAUNCH:
    case SCHED_EV_WARP_EXIT:
        if (slot_ok) {
            ddet_release_slot(d, ev->slot);
            vta_clear(&d->vta[ev->slot], VTA_DEFAULT_SETS, VTA_DEFAULT_WAYS);
            ddet_ilrd_clear_wid(d, ev->slot);
        }
        break;
    case SCHED_EV_ISSUE:
        if (slot_ok && d->core.an && ev->pc < d->core.ninsts) {
            for (uint32_t i = 0; i < DDET_MAX_LOOPS; i++)
                if (d->samp[i].wid == ev->slot && !ddet_in_loop(d, d->samp[i].loop, ev->pc))
                    d->samp[i].wid = -1; /* the sampler left its loop */
            uint32_t loop = daws_loop_at_header(&d->core, ev->pc);
            if (loop != DAWS_NONE)
                ddet_loop_begin(d, ev->slot, loop,
                                ev->lanes ? ev->lanes : d->core.lanes[ev->slot]);
        }
        break;
    case SCHED_EV_L1D_ACCESS:
        ddet_l1d_access(d, ev);
        break;
    case SCHED_EV_L1D_EVICT:
        if (slot_ok)
            vta_insert(&d->vta[ev->slot], ev->addr, NULL);
        break;
    case SCHED_EV_STORE:
        for (int32_t s = 0; s < SCHED_MAX_WARPS; s++)
            vta_remove(&d->vta[s], ev->addr);
        break;
    case SCHED_EV_MEM_ISSUE:
        ddet_mem_issue(d, ev);
        break;
    default:
        break;
    }
    ddet_rebuild(d);
    daws_core_event(&d->core, ev, ddet_enabled, d);
}

static int ddet_pick(void *priv, const struct sched_view *v)
{
    struct ddet *d = priv;
    if (d->core.an && v->pc) {
        for (uint32_t i = 0; i < DDET_MAX_LOOPS; i++) {
            int32_t w = d->samp[i].wid;
            if (w >= 0 && ((uint32_t)w >= v->nslots || !(v->valid >> w & 1) ||
                           !ddet_in_loop(d, d->samp[i].loop, v->pc[w])))
                d->samp[i].wid = -1;
        }
    }
    ddet_rebuild(d);
    return daws_pick(&d->core, v, ddet_enabled, d);
}

static void ddet_stats(void *priv, struct stats *s, uint32_t instances, size_t stride)
{
    struct ddet *d = priv;
    daws_core_stats(priv, offsetof(struct ddet, core), s, instances, stride);
    stats_counter(s, "sched_daws_vta_hits", "Detected-DAWS: victim-tag hits of sampling warps",
                  &d->st_vta_hits, instances, stride);
    stats_counter(s, "sched_daws_captured", "Detected-DAWS: own-line L1D hits of sampling warps",
                  &d->st_captured, instances, stride);
    stats_counter(s, "sched_daws_sampled_accesses",
                  "Detected-DAWS: L1D accesses of sampling warps inside their loop",
                  &d->st_samples, instances, stride);
    stats_counter(s, "sched_daws_ilrd_repeats",
                  "Detected-DAWS: ILRD hits that merged two loads into one RepID",
                  &d->st_ilrd_repeats, instances, stride);
}

SCHED_POLICY(daws_detected,
             .desc = "Detected-DAWS: sampling warps, divergence detector and ILRD classify "
                     "loads at run time; footprint-gated loads (Rogers MICRO 2013 Sec. 5.2)",
             .priv_size = sizeof(struct ddet), .params = ddet_params, .init = ddet_init,
             .pick = ddet_pick, .on_event = ddet_on_event,
             .events = DDET_EVENTS, .stats = ddet_stats);
