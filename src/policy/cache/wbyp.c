/* wbyp.c: MeDiC's warp-type-aware L2 bypassing, WByp (Ausavarungnirun et al.,
 * HPCA 2016, Section 4.2; SPEC-policies 7.3), on an LRU L2.  The warp types
 * come from a classifier (sm.classifier=medic); this policy obeys the bypass
 * bit the classifier puts on a mostly-miss or all-miss warp's requests: such
 * a read skips the L2 bank queue and the tag lookup and goes to the DRAM
 * queue, its data not inserted; such a write or atomic still looks up but a
 * miss does not allocate.  It equally obeys the bypass bit of the comparison
 * points Rand and PC-Byp (classifiers rand_byp, pc_byp) and the no-allocate
 * bit of PCAL (classifier pcal).  [CHOICE]s: src/policy/medic_l2.h. */
#include "policy/cache/cache_policy.h"

#include "policy/medic_l2.h"

static int wbyp_init(void *priv, const struct param_set *p, const struct cache_policy_init *in,
                     struct err *e)
{
    (void)p;
    (void)e;
    medic_l2_init(priv, in, 0, 1, 0);
    return WS_OK;
}

CACHE_POLICY(wbyp, .desc = "LRU that bypasses the requests tagged to (MeDiC WByp, HPCA 2016)",
             .priv_size = medic_l2_size, .init = wbyp_init, .victim = medic_l2_victim,
             .on_insert = medic_l2_insert, .on_hit = medic_l2_hit, .place = medic_l2_place,
             .bypass = medic_l2_bypass, .stats = medic_l2_stats);
