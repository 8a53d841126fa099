/* drrip.c: dynamic RRIP, DRRIP-HP (Jaleel et al., ISCA 2010; SPEC-policies
 * 9.1).  Set dueling: `leaders` sets always use SRRIP and as many always use
 * BRRIP (chosen by complement selection: in constituency k of sets/leaders
 * sets, offset k mod size is an SRRIP leader and offset (k + size/2) mod size
 * a BRRIP leader).  A PSEL counter of `psel_bits` bits counts up on a miss
 * (allocation) in an SRRIP leader and down on one in a BRRIP leader; the
 * follower sets use BRRIP when PSEL's top bit is set, SRRIP otherwise, so
 * followers adopt the policy whose leaders miss less.  PSEL starts just below
 * the midpoint (followers start as SRRIP) [CHOICE].  Small caches with fewer
 * than 2*leaders sets use sets/2 leaders of each kind. */
#include "policy/cache/cache_policy.h"

#include <string.h>

#include "base/log.h"
#include "policy/rrip_util.h"

enum { DRRIP_FOLLOWER, DRRIP_LEAD_SRRIP, DRRIP_LEAD_BRRIP };

struct drrip {
    uint32_t sets, ways;
    uint8_t max;
    uint32_t psel, psel_max, psel_msb;
    struct rng rng;
    uint64_t threshold;
    uint8_t data[]; /* kind[sets] (enum) then rrpv[sets * ways] */
};

#define DRRIP_KIND(r) ((r)->data)
#define DRRIP_RRPV(r) ((r)->data + (r)->sets)

static const struct param_desc drrip_params[] = {
    {"bits", PARAM_INT, "2", "RRPV width M (Jaleel ISCA 2010: M = 2)"},
    {"epsilon", PARAM_DOUBLE, "0.03125", "BRRIP long-insertion probability (Jaleel: 1/32)"},
    {"leaders", PARAM_INT, "32", "leader sets per policy (Jaleel ISCA 2010: 32)"},
    {"psel_bits", PARAM_INT, "10", "width of the policy-selection counter (Jaleel: 10)"},
    {NULL, PARAM_INT, NULL, NULL},
};

static size_t drrip_priv_size(uint32_t sets, uint32_t ways)
{
    return sizeof(struct drrip) + (size_t)sets + (size_t)sets * ways;
}

static int drrip_init(void *priv, const struct param_set *p, const struct cache_policy_init *in,
                      struct err *e)
{
    struct drrip *r = priv;
    int64_t m = param_int(p, "bits");
    double eps = param_double(p, "epsilon");
    int64_t leaders = param_int(p, "leaders");
    int64_t pbits = param_int(p, "psel_bits");
    if (rrip_check_bits("drrip", m, e) != WS_OK)
        return e->code;
    if (!(eps >= 0.0 && eps <= 1.0))
        return err_set(e, WS_ERR_INVALID,
                       "policy 'drrip': parameter 'epsilon' must be in [0, 1], got %g", eps);
    if (leaders < 0 || leaders > (1 << 20))
        return err_set(e, WS_ERR_INVALID,
                       "policy 'drrip': parameter 'leaders' must be 0..1048576, got %lld",
                       (long long)leaders);
    if (pbits < 1 || pbits > 30)
        return err_set(e, WS_ERR_INVALID,
                       "policy 'drrip': parameter 'psel_bits' must be 1..30, got %lld",
                       (long long)pbits);
    memset(r, 0, drrip_priv_size(in->sets, in->ways));
    r->sets = in->sets;
    r->ways = in->ways;
    r->max = (uint8_t)((1u << m) - 1);
    r->psel_max = (1u << pbits) - 1;
    r->psel_msb = 1u << (pbits - 1);
    r->psel = r->psel_msb - 1;
    rng_init(&r->rng, in->seed ^ ((uint64_t)in->instance * 0xd1b54a32d192ed03ull));
    r->threshold = rrip_coin_threshold(eps);
    memset(DRRIP_RRPV(r), r->max, (size_t)in->sets * in->ways);
    uint32_t n = (uint32_t)leaders;
    if (2ull * n > in->sets)
        n = in->sets / 2;
    if (n) {
        uint32_t size = in->sets / n;
        for (uint32_t k = 0; k < n; k++) {
            DRRIP_KIND(r)[k * size + k % size] = DRRIP_LEAD_SRRIP;
            DRRIP_KIND(r)[k * size + (k + size / 2) % size] = DRRIP_LEAD_BRRIP;
        }
    }
    return WS_OK;
}

static uint32_t drrip_victim(void *priv, uint32_t set, uint64_t candidates,
                            const struct cache_access *a)
{
    struct drrip *r = priv;
    (void)a;
    ws_assert(set < r->sets);
    return rrip_victim(DRRIP_RRPV(r) + (size_t)set * r->ways, r->ways, r->max, candidates);
}

static void drrip_insert(void *priv, uint32_t set, uint32_t way, const struct cache_access *a)
{
    struct drrip *r = priv;
    (void)a;
    int bimodal;
    switch (DRRIP_KIND(r)[set]) {
    case DRRIP_LEAD_SRRIP:
        if (r->psel < r->psel_max)
            r->psel++;
        bimodal = 0;
        break;
    case DRRIP_LEAD_BRRIP:
        if (r->psel > 0)
            r->psel--;
        bimodal = 1;
        break;
    default:
        bimodal = (r->psel & r->psel_msb) != 0;
        break;
    }
    uint8_t v = (uint8_t)(r->max - 1);
    if (bimodal && !rrip_coin(&r->rng, r->threshold))
        v = r->max;
    DRRIP_RRPV(r)[(size_t)set * r->ways + way] = v;
}

static void drrip_hit(void *priv, uint32_t set, uint32_t way, const struct cache_access *a)
{
    struct drrip *r = priv;
    (void)a;
    DRRIP_RRPV(r)[(size_t)set * r->ways + way] = 0;
}

CACHE_POLICY(drrip,
             .desc = "DRRIP-HP: SRRIP/BRRIP set dueling with a PSEL counter (Jaleel ISCA 2010)",
             .priv_size = drrip_priv_size, .params = drrip_params, .init = drrip_init,
             .victim = drrip_victim, .on_insert = drrip_insert, .on_hit = drrip_hit);
