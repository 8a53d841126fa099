/* lru.c: least recently used replacement (GPGPU-Sim 'L', the baseline of
 * every seed paper's L1D and L2; SPEC-policies 1.3).  Each line carries the
 * time of its last insert or hit; the victim is the candidate with the
 * oldest time (ties: lowest way). */
#include "policy/cache/cache_policy.h"

#include <string.h>

#include "base/log.h"

struct lru {
    uint32_t sets, ways;
    uint64_t clock;
    uint64_t stamp[]; /* [sets * ways] */
};

static size_t lru_priv_size(uint32_t sets, uint32_t ways)
{
    return sizeof(struct lru) + (size_t)sets * ways * sizeof(uint64_t);
}

static int lru_init(void *priv, const struct param_set *p, const struct cache_policy_init *in,
                    struct err *e)
{
    struct lru *l = priv;
    (void)p;
    (void)e;
    memset(l, 0, lru_priv_size(in->sets, in->ways));
    l->sets = in->sets;
    l->ways = in->ways;
    return WS_OK;
}

static uint32_t lru_victim(void *priv, uint32_t set, uint64_t candidates,
                           const struct cache_access *a)
{
    struct lru *l = priv;
    (void)a;
    if (l->ways < 64)
        candidates &= (1ull << l->ways) - 1;
    ws_assert(candidates != 0 && set < l->sets);
    const uint64_t *st = l->stamp + (size_t)set * l->ways;
    uint32_t best = (uint32_t)__builtin_ctzll(candidates);
    for (uint64_t c = candidates & (candidates - 1); c; c &= c - 1) {
        uint32_t w = (uint32_t)__builtin_ctzll(c);
        if (st[w] < st[best])
            best = w;
    }
    return best;
}

static void lru_touch(void *priv, uint32_t set, uint32_t way, const struct cache_access *a)
{
    struct lru *l = priv;
    (void)a;
    l->stamp[(size_t)set * l->ways + way] = ++l->clock;
}

CACHE_POLICY(lru, .desc = "least recently used (GPGPU-Sim L; baseline of the seed papers)",
             .priv_size = lru_priv_size, .init = lru_init, .victim = lru_victim,
             .on_insert = lru_touch, .on_hit = lru_touch);
