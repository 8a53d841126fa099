/* medic.c: MeDiC's L2 (Ausavarungnirun et al., HPCA 2016, Sections 4.2-4.3;
 * SPEC-policies 7.3-7.4): warp-type-aware bypassing (as wbyp) and insertion
 * (as wip) together.  With sm.classifier=medic and dram.sched=wms this is the
 * whole of MeDiC.  [CHOICE]s: src/policy/medic_l2.h. */
#include "policy/cache/cache_policy.h"

#include "policy/medic_l2.h"

static const struct param_desc medic_params[] = {
    {"strict", PARAM_INT, "1",
     "1: victims by type class first, LRU within (SPEC 7.4); 0: LRU, type sets insertion only"},
    {NULL, PARAM_INT, NULL, NULL},
};

static int medic_init(void *priv, const struct param_set *p, const struct cache_policy_init *in,
                      struct err *e)
{
    (void)e;
    medic_l2_init(priv, in, 1, 1, param_int(p, "strict") != 0);
    return WS_OK;
}

CACHE_POLICY(medic, .desc = "MeDiC L2: warp-type bypass and insertion (WByp + WIP, HPCA 2016)",
             .priv_size = medic_l2_size, .params = medic_params, .init = medic_init, .victim = medic_l2_victim,
             .on_insert = medic_l2_insert, .on_hit = medic_l2_hit, .place = medic_l2_place,
             .bypass = medic_l2_bypass, .stats = medic_l2_stats);
