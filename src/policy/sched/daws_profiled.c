/* daws_profiled.c: Profiled Divergence-Aware Warp Scheduling (Rogers,
 * O'Connor, Aamodt, "Divergence-Aware Warp Scheduling", MICRO 2013,
 * Sections 4 and 5.1; SPEC-policies 4.2-4.4, 4.6).
 *
 * The static load classification table (loop, IsDiv, RepID per global/local
 * load inside a loop) is filled at kernel launch from a load profile that
 * `warpsim profile` wrote from an earlier run (src/profile/profile.h,
 * docs/daws.md).  Each warp's L1D footprint is predicted from its active
 * lanes whenever it issues a loop's first instruction (the header PC of
 * warpsim's loop analysis: no hand markers); loads are gated so that the
 * inclusive prefix sum of predictions in age order stays within
 * EffCacheSize = assoc_factor x L1D lines, on GTO order (daws_common.c).
 *
 * Choices (SPEC [CHOICE]s, asserted in tests/policy/test_daws.c):
 *  - EffCacheSize is not floored (0.6 x 256 = 153.6 lines);
 *  - a prefix sum equal to EffCacheSize is allowed;
 *  - the override compares a single prediction with the total L1D lines;
 *  - a warp is never held back by its own prediction alone (older warps
 *    predict nothing): a deadlock guard the paper does not discuss;
 *  - profile=none (the default) or a kernel without profile entries: no
 *    predictions, the kernel runs unthrottled (plain GTO);
 *  - entries whose PC is not a global/local load inside a loop of the
 *    running module are ignored; the loop comes from warpsim's analysis;
 *  - so are loads the configuration reads through the texture cache
 *    (texture fetches, ld.global.nc under tex.nc): the paper's SPMV reads x
 *    through it, and only L1D lines make the footprint;
 *  - locality=profile (the default): only loops with intra-warp locality
 *    are predicted for (Sec. 5.1: "Profiling similar to the analysis in
 *    Section 3 is performed to determine which loops in the code have
 *    locality"): a loop has locality when, summed over its profiled loads,
 *    the executions that re-touched a line the same warp touched on this or
 *    the previous trip outnumber those that did not
 *    (profile_loop_has_locality, the sign rule of Detected-DAWS's
 *    HasLocality counter); the loads of other loops do not enter the table.
 *    locality=all predicts for every loop with profiled loads. */
#include "policy/sched/sched.h"

#include <string.h>

#include "analysis/analysis.h"
#include "policy/daws_common.h"
#include "profile/profile.h"
#include "ptx/ir.h"

struct dprof {
    struct daws_core core;
    int has_profile;
    int all_loops; /* locality=all */
    int count_stats; /* instance (sm 0, unit 0) counts the classification */
    struct load_profile prof;
};

static const struct param_desc dprof_params[] = {
    {"profile", PARAM_STR, "none",
     "load profile written by `warpsim profile` (path < 64 chars; none: runs as GTO)"},
    {"locality", PARAM_STR, "profile",
     "profile: predict only for loops whose profiled loads show intra-warp locality (Sec. "
     "5.1); all: for every loop with profiled loads"},
    {"assoc_factor", PARAM_DOUBLE, "0.6",
     "kAssocFactor: EffCacheSize = factor x L1D lines (DAWS MICRO 2013 Sec. 5.1, Fig. 15: 0.6)"},
    {NULL, PARAM_INT, NULL, NULL},
};

static int dprof_init(void *priv, const struct param_set *p, const struct sched_init *in,
                      struct err *e)
{
    struct dprof *d = priv;
    memset(d, 0, sizeof *d);
    double f = param_double(p, "assoc_factor");
    if (!(f > 0.0 && f <= 16.0))
        return err_set(e, WS_ERR_INVALID,
                       "policy 'daws_profiled': parameter 'assoc_factor' must be in (0, 16], "
                       "got %g",
                       f);
    const char *loc = param_str(p, "locality");
    if (strcmp(loc, "profile") != 0 && strcmp(loc, "all") != 0)
        return err_set(e, WS_ERR_INVALID,
                       "policy 'daws_profiled': parameter 'locality' must be profile or all, "
                       "got '%s'",
                       loc);
    d->all_loops = strcmp(loc, "all") == 0;
    daws_core_init(&d->core, f);
    d->count_stats = in->sm == 0 && in->unit == 0;
    const char *path = param_str(p, "profile");
    if (strcmp(path, "none") != 0) {
        int rc = profile_read(path, &d->prof, e);
        if (rc != WS_OK)
            return rc;
        d->has_profile = 1;
    }
    return WS_OK;
}

/* A profile entry of kernel ki that is a global/local load inside a loop of
 * the running module and reads through the L1D (a load the configuration
 * sends to the texture cache has no L1D footprint). */
static int dprof_usable(const struct sched_kernel *k, const struct profile_load *l,
                        uint32_t ki)
{
    if (l->kernel != ki || l->pc >= k->m->ninsts)
        return 0;
    const struct pc_info *pi = &k->an->pc[l->pc];
    return pi->loop != PTX_NO_INDEX &&
           (pi->iclass == ICLASS_LOAD_GLOBAL || pi->iclass == ICLASS_LOAD_LOCAL) &&
           (!k->path || k->path[l->pc] == LOAD_PATH_L1D);
}

/* Does `loop` have intra-warp locality by its profiled loads' counts? */
static int dprof_loop_local(const struct dprof *d, const struct sched_kernel *k, uint32_t loop,
                            uint32_t ki)
{
    uint64_t execs = 0, reuse = 0;
    for (uint32_t i = 0; i < d->prof.nloads; i++) {
        const struct profile_load *l = &d->prof.loads[i];
        if (dprof_usable(k, l, ki) && k->an->pc[l->pc].loop == loop) {
            execs += l->execs;
            reuse += l->reuse;
        }
    }
    return profile_loop_has_locality(execs, reuse);
}

static void dprof_kernel(struct dprof *d, const struct sched_kernel *k)
{
    struct daws_core *c = &d->core;
    if (!k || !k->an || !k->m) {
        daws_core_kernel(c, NULL, 0, 0);
        return;
    }
    daws_core_kernel(c, k->an, k->m->ninsts, k->l1d_lines);
    int ki = d->has_profile && k->name ? profile_find_kernel(&d->prof, k->name) : -1;
    if (ki < 0)
        return; /* no entry: unthrottled */
    for (uint32_t i = 0; i < d->prof.nloads && c->nloads < DAWS_MAX_LOADS; i++) {
        const struct profile_load *l = &d->prof.loads[i];
        if (!dprof_usable(k, l, (uint32_t)ki))
            continue;
        const struct pc_info *pi = &k->an->pc[l->pc];
        if (!d->all_loops && !dprof_loop_local(d, k, pi->loop, (uint32_t)ki))
            continue;
        struct daws_load *dl = &c->loads[c->nloads++];
        dl->pc = l->pc;
        dl->loop = pi->loop;
        dl->repid = l->repid;
        dl->is_div = l->is_div;
        if (d->count_stats) {
            if (l->is_div)
                c->st_loads_div++;
            else
                c->st_loads_conv++;
        }
    }
}

/* The event kinds dprof_on_event reads. */
enum {
    DPROF_EVENTS =
        SCHED_EV_BIT(SCHED_EV_KERNEL_START) | SCHED_EV_BIT(SCHED_EV_WARP_LAUNCH) |
        SCHED_EV_BIT(SCHED_EV_WARP_EXIT) | SCHED_EV_BIT(SCHED_EV_BARRIER) |
        SCHED_EV_BIT(SCHED_EV_ISSUE)
};

static void dprof_on_event(void *priv, const struct sched_event *ev)
{
    struct dprof *d = priv;
    if (ev->kind == SCHED_EV_KERNEL_START) {
        dprof_kernel(d, ev->kernel);
        return;
    }
    daws_core_event(&d->core, ev, NULL, NULL);
}

static int dprof_pick(void *priv, const struct sched_view *v)
{
    struct dprof *d = priv;
    return daws_pick(&d->core, v, NULL, NULL);
}

static void dprof_stats(void *priv, struct stats *s, uint32_t instances, size_t stride)
{
    daws_core_stats(priv, offsetof(struct dprof, core), s, instances, stride);
}

SCHED_POLICY(daws_profiled,
             .desc = "Profiled-DAWS: footprint prediction from a load profile, loads gated to "
                     "kAssocFactor x L1D lines (Rogers MICRO 2013 Sec. 5.1)",
             .priv_size = sizeof(struct dprof), .params = dprof_params, .init = dprof_init,
             .pick = dprof_pick, .on_event = dprof_on_event,
             .events = DPROF_EVENTS, .stats = dprof_stats);
