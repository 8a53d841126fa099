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
 *    running module are ignored; the loop comes from warpsim's analysis. */
#include "policy/sched/sched.h"

#include <string.h>

#include "analysis/analysis.h"
#include "policy/daws_common.h"
#include "profile/profile.h"
#include "ptx/ir.h"

struct dprof {
    struct daws_core core;
    int has_profile;
    int count_stats; /* instance (sm 0, unit 0) counts the classification */
    struct load_profile prof;
};

static const struct param_desc dprof_params[] = {
    {"profile", PARAM_STR, "none",
     "load profile written by `warpsim profile` (path < 64 chars; none: runs as GTO)"},
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
        if (l->kernel != (uint32_t)ki || l->pc >= k->m->ninsts)
            continue;
        const struct pc_info *pi = &k->an->pc[l->pc];
        if (pi->loop == PTX_NO_INDEX ||
            (pi->iclass != ICLASS_LOAD_GLOBAL && pi->iclass != ICLASS_LOAD_LOCAL))
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
             .pick = dprof_pick, .on_event = dprof_on_event, .stats = dprof_stats);
