/* srrip.c: static re-reference interval prediction, SRRIP-HP (Jaleel et al.,
 * "High Performance Cache Replacement Using Re-Reference Interval
 * Prediction (RRIP)", ISCA 2010; SPEC-policies 9.1).  Each line has an M-bit
 * RRPV.  Insert at 2^M-2 ("long"), promote to 0 on a hit; the victim is the
 * first candidate (from way 0) at 2^M-1, and when none is, every RRPV of the
 * set is incremented until one is (done here in one step). */
#include "policy/cache/cache_policy.h"

#include <string.h>

#include "base/log.h"
#include "policy/rrip_util.h"

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
    if (rrip_check_bits("srrip", m, e) != WS_OK)
        return e->code;
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
    ws_assert(set < r->sets);
    return rrip_victim(r->rrpv + (size_t)set * r->ways, r->ways, r->max, candidates);
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
