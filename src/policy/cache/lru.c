/* lru.c: least recently used replacement (GPGPU-Sim 'L', the baseline of
 * every seed paper's L1D and L2; SPEC-policies 1.3).  Each line carries the
 * time of its last insert or hit; the victim is the candidate with the
 * oldest time (ties: lowest way). */
#include "policy/cache/cache_policy.h"

#include "policy/stamp_util.h"

static int lru_init(void *priv, const struct param_set *p, const struct cache_policy_init *in,
                    struct err *e)
{
    (void)p;
    (void)e;
    stamp_init(priv, in->sets, in->ways);
    return WS_OK;
}

static uint32_t lru_victim(void *priv, uint32_t set, uint64_t candidates,
                           const struct cache_access *a)
{
    (void)a;
    return stamp_oldest(priv, set, candidates);
}

static void lru_touch(void *priv, uint32_t set, uint32_t way, const struct cache_access *a)
{
    (void)a;
    stamp_touch(priv, set, way);
}

CACHE_POLICY(lru, .desc = "least recently used (GPGPU-Sim L; baseline of the seed papers)",
             .priv_size = stamp_priv_size, .init = lru_init, .victim = lru_victim,
             .on_insert = lru_touch, .on_hit = lru_touch);
