/* brrip.c: bimodal RRIP, BRRIP-HP (Jaleel et al., ISCA 2010; SPEC-policies
 * 9.1).  Like SRRIP but a new line goes in at 2^M-1 ("distant") except, with
 * probability epsilon (1/32 in the paper), at 2^M-2, which keeps thrashing
 * working sets from flushing the cache.  The coin is a splitmix64 generator
 * seeded from the cache's seed and instance: deterministic. */
#include "policy/cache/cache_policy.h"

#include <string.h>

#include "base/log.h"

struct brrip {
    uint32_t sets, ways;
    uint8_t max;
    uint64_t rng;
    uint64_t threshold; /* insert long when the next 53-bit draw < threshold */
    uint64_t inserts, inserts_long;
    uint8_t rrpv[];
};

static const struct param_desc brrip_params[] = {
    {"bits", PARAM_INT, "2", "RRPV width M (Jaleel ISCA 2010: M = 2)"},
    {"epsilon", PARAM_DOUBLE, "0.03125",
     "probability of inserting at 2^M-2 instead of 2^M-1 (Jaleel ISCA 2010: 1/32)"},
    {NULL, PARAM_INT, NULL, NULL},
};

static uint64_t brrip_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static size_t brrip_priv_size(uint32_t sets, uint32_t ways)
{
    return sizeof(struct brrip) + (size_t)sets * ways;
}

static int brrip_init(void *priv, const struct param_set *p, const struct cache_policy_init *in,
                      struct err *e)
{
    struct brrip *r = priv;
    int64_t m = param_int(p, "bits");
    double eps = param_double(p, "epsilon");
    if (m < 1 || m > 7)
        return err_set(e, WS_ERR_INVALID, "policy 'brrip': parameter 'bits' must be 1..7, got %lld",
                       (long long)m);
    if (!(eps >= 0.0 && eps <= 1.0))
        return err_set(e, WS_ERR_INVALID,
                       "policy 'brrip': parameter 'epsilon' must be in [0, 1], got %g", eps);
    memset(r, 0, brrip_priv_size(in->sets, in->ways));
    r->sets = in->sets;
    r->ways = in->ways;
    r->max = (uint8_t)((1u << m) - 1);
    r->rng = in->seed ^ ((uint64_t)in->instance * 0xd1b54a32d192ed03ull);
    r->threshold = (uint64_t)(eps * 9007199254740992.0); /* eps * 2^53 */
    memset(r->rrpv, r->max, (size_t)in->sets * in->ways);
    return WS_OK;
}

static uint32_t brrip_victim(void *priv, uint32_t set, uint64_t candidates,
                             const struct cache_access *a)
{
    struct brrip *r = priv;
    (void)a;
    if (r->ways < 64)
        candidates &= (1ull << r->ways) - 1;
    ws_assert(candidates != 0 && set < r->sets);
    uint8_t *row = r->rrpv + (size_t)set * r->ways;
    uint32_t best = (uint32_t)__builtin_ctzll(candidates);
    for (uint64_t c = candidates & (candidates - 1); c; c &= c - 1) {
        uint32_t w = (uint32_t)__builtin_ctzll(c);
        if (row[w] > row[best])
            best = w;
    }
    uint32_t delta = (uint32_t)r->max - row[best];
    if (delta)
        for (uint32_t w = 0; w < r->ways; w++)
            row[w] = (uint8_t)(row[w] + delta > r->max ? r->max : row[w] + delta);
    return best;
}

static void brrip_insert(void *priv, uint32_t set, uint32_t way, const struct cache_access *a)
{
    struct brrip *r = priv;
    (void)a;
    int is_long = (brrip_next(&r->rng) >> 11) < r->threshold;
    r->inserts++;
    r->inserts_long += (uint64_t)is_long;
    r->rrpv[(size_t)set * r->ways + way] = (uint8_t)(is_long ? r->max - 1 : r->max);
}

static void brrip_hit(void *priv, uint32_t set, uint32_t way, const struct cache_access *a)
{
    struct brrip *r = priv;
    (void)a;
    r->rrpv[(size_t)set * r->ways + way] = 0;
}

CACHE_POLICY(brrip,
             .desc = "BRRIP-HP: insert at 2^M-1, at 2^M-2 with probability 1/32 (Jaleel ISCA 2010)",
             .priv_size = brrip_priv_size, .params = brrip_params, .init = brrip_init,
             .victim = brrip_victim, .on_insert = brrip_insert, .on_hit = brrip_hit);
