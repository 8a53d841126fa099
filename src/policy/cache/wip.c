/* wip.c: MeDiC's warp-type-aware cache insertion policy, WIP
 * (Ausavarungnirun et al., HPCA 2016, Section 4.3; SPEC-policies 7.4): each
 * line keeps the type of the warp that brought it; the victim is the LRU
 * line among the mostly-miss lines of the set, else among the balanced ones,
 * else among the mostly-hit and all-hit ones; a mostly-miss warp's line is
 * inserted at LRU, every other at MRU.  The types come from a classifier
 * (sm.classifier=medic).  Alone (the paper's WIP) it ignores the bypass bit;
 * with bypass=1 it also bypasses as wbyp does (the cache policy medic is the
 * same).  [CHOICE]s: src/policy/medic_l2.h. */
#include "policy/cache/cache_policy.h"

#include "policy/medic_l2.h"

static const struct param_desc wip_params[] = {
    {"bypass", PARAM_INT, "0", "1: also obey the bypass and no-allocate bits (WIP + WByp)"},
    {"strict", PARAM_INT, "1",
     "1: victims by type class first, LRU within (SPEC 7.4); 0: LRU, type sets insertion only"},
    {NULL, PARAM_INT, NULL, NULL},
};

static int wip_init(void *priv, const struct param_set *p, const struct cache_policy_init *in,
                    struct err *e)
{
    (void)e;
    medic_l2_init(priv, in, 1, param_int(p, "bypass") != 0, param_int(p, "strict") != 0);
    return WS_OK;
}

CACHE_POLICY(wip, .desc = "warp-type-aware insertion, mostly-miss lines evicted first (MeDiC WIP)",
             .priv_size = medic_l2_size, .params = wip_params, .init = wip_init,
             .victim = medic_l2_victim, .on_insert = medic_l2_insert, .on_hit = medic_l2_hit,
             .place = medic_l2_place, .bypass = medic_l2_bypass, .stats = medic_l2_stats);
