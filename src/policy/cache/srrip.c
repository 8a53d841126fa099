/* srrip.c: static re-reference interval prediction, SRRIP-HP (Jaleel et al.,
 * "High Performance Cache Replacement Using Re-Reference Interval
 * Prediction (RRIP)", ISCA 2010; SPEC-policies 9.1).  Each line has an M-bit
 * RRPV.  Insert at 2^M-2 ("long"), promote to 0 on a hit; the victim is the
 * first candidate (from way 0) at 2^M-1, and when none is, every RRPV of the
 * set is incremented until one is (done here in one step). */
#include "policy/cache/cache_policy.h"

#include <string.h>

#include "base/log.h"

struct srrip {
    uint32_t sets, ways;
    uint8_t max; /* 2^M - 1 */
    uint8_t rrpv[]; /* [sets * ways] */
};

static const struct param_desc srrip_params[] = {
    {"bits", PARAM_INT, "2", "RRPV width M (Jaleel ISCA 2010: M = 2)"},
    {NULL, PARAM_INT, NULL, NULL},
};

static size_t srrip_priv_size(uint32_t sets, uint32_t ways)
{
    return sizeof(struct srrip) + (size_t)sets * ways;
}

static int srrip_init(void *priv, const struct param_set *p, const struct cache_policy_init *in,
                      struct err *e)
{
    struct srrip *r = priv;
    int64_t m = param_int(p, "bits");
    if (m < 1 || m > 7)
        return err_set(e, WS_ERR_INVALID, "policy 'srrip': parameter 'bits' must be 1..7, got %lld",
                       (long long)m);
    memset(r, 0, srrip_priv_size(in->sets, in->ways));
    r->sets = in->sets;
    r->ways = in->ways;
    r->max = (uint8_t)((1u << m) - 1);
    memset(r->rrpv, r->max, (size_t)in->sets * in->ways);
    return WS_OK;
}

static uint32_t srrip_victim(void *priv, uint32_t set, uint64_t candidates,
                             const struct cache_access *a)
{
    struct srrip *r = priv;
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

static void srrip_insert(void *priv, uint32_t set, uint32_t way, const struct cache_access *a)
{
    struct srrip *r = priv;
    (void)a;
    r->rrpv[(size_t)set * r->ways + way] = (uint8_t)(r->max - 1);
}

static void srrip_hit(void *priv, uint32_t set, uint32_t way, const struct cache_access *a)
{
    struct srrip *r = priv;
    (void)a;
    r->rrpv[(size_t)set * r->ways + way] = 0;
}

CACHE_POLICY(srrip, .desc = "SRRIP-HP: insert at 2^M-2, hit to 0 (Jaleel ISCA 2010)",
             .priv_size = srrip_priv_size, .params = srrip_params, .init = srrip_init,
             .victim = srrip_victim, .on_insert = srrip_insert, .on_hit = srrip_hit);
