/* brrip.c: bimodal RRIP, BRRIP-HP (Jaleel et al., ISCA 2010; SPEC-policies
 * 9.1).  Like SRRIP but a new line goes in at 2^M-1 ("distant") except, with
 * probability epsilon (1/32 in the paper), at 2^M-2, which keeps thrashing
 * working sets from flushing the cache.  The coin is base/rng.h's generator
 * seeded from the cache's seed and instance: deterministic. */
#include "policy/cache/cache_policy.h"

#include <string.h>

#include "base/log.h"
#include "policy/rrip_util.h"
#include "stats/stats.h"

struct brrip {
    uint32_t sets, ways;
    uint8_t max;
    struct rng rng;
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
    if (rrip_check_bits("brrip", m, e) != WS_OK)
        return e->code;
    if (!(eps >= 0.0 && eps <= 1.0))
        return err_set(e, WS_ERR_INVALID,
                       "policy 'brrip': parameter 'epsilon' must be in [0, 1], got %g", eps);
    memset(r, 0, brrip_priv_size(in->sets, in->ways));
    r->sets = in->sets;
    r->ways = in->ways;
    r->max = (uint8_t)((1u << m) - 1);
    rng_init(&r->rng, in->seed ^ ((uint64_t)in->instance * 0xd1b54a32d192ed03ull));
    r->threshold = rrip_coin_threshold(eps);
    memset(r->rrpv, r->max, (size_t)in->sets * in->ways);
    return WS_OK;
}

static uint32_t brrip_victim(void *priv, uint32_t set, uint64_t candidates,
                            const struct cache_access *a)
{
    struct brrip *r = priv;
    (void)a;
    ws_assert(set < r->sets);
    return rrip_victim(r->rrpv + (size_t)set * r->ways, r->ways, r->max, candidates);
}

static void brrip_insert(void *priv, uint32_t set, uint32_t way, const struct cache_access *a)
{
    struct brrip *r = priv;
    (void)a;
    int is_long = rrip_coin(&r->rng, r->threshold);
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

static void brrip_stats(void *priv, struct stats *s, uint32_t n, size_t stride)
{
    struct brrip *r = priv;
    stats_counter(s, "brrip_inserts", "BRRIP line insertions", &r->inserts, n, stride);
    stats_counter(s, "brrip_inserts_long",
                  "BRRIP insertions at 2^M-2 (the epsilon coin; the rest go in at 2^M-1)",
                  &r->inserts_long, n, stride);
    stats_ratio(s, "brrip_long_fraction", "fraction of BRRIP insertions at 2^M-2 (epsilon)",
                "brrip_inserts_long", "brrip_inserts", 1.0);
}

CACHE_POLICY(brrip,
             .desc = "BRRIP-HP: insert at 2^M-1, at 2^M-2 with probability 1/32 (Jaleel ISCA 2010)",
             .priv_size = brrip_priv_size, .params = brrip_params, .init = brrip_init,
             .victim = brrip_victim, .on_insert = brrip_insert, .on_hit = brrip_hit,
             .stats = brrip_stats);
