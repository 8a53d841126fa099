/* ship.c: SHiP-PC, signature-based hit prediction (Wu et al., "SHiP:
 * Signature-based Hit Predictor for High Performance Caching", MICRO 2011;
 * SPEC-policies 9.2), built on SRRIP-HP.  A Signature History Counter Table
 * (SHCT) of saturating counters is indexed by a hash of the accessing PC.
 * On a fill the line remembers its signature with its outcome bit cleared and
 * is inserted at the distant RRPV 2^M-1 when SHCT[sig] is 0 (predicted dead),
 * else at 2^M-2.  A hit sets the outcome bit, promotes to RRPV 0 and
 * increments SHCT[sig] (every hit, SPEC 11.13 [CHOICE], as CAWA's Algorithm
 * 4); evicting a line whose outcome bit is clear decrements SHCT[sig].
 * Counters start at `init` (1: weakly reused) [CHOICE]. */
#include "policy/cache/cache_policy.h"

#include <string.h>

#include "base/log.h"
#include "policy/rrip_util.h"

#define SHIP_SHCT_MAX 16384 /* paper and gem5: 16K entries */

struct ship {
    uint32_t sets, ways;
    uint8_t max;        /* 2^M - 1 */
    uint8_t ctr_max;    /* 2^counter_bits - 1 */
    uint32_t sig_shift; /* 32 - log2(entries) */
    uint32_t sig_mask;
    uint64_t fills, fills_distant;
    uint8_t shct[SHIP_SHCT_MAX];
    uint16_t sig[]; /* [sets * ways], then rrpv[sets * ways], outcome[sets * ways] */
};

#define SHIP_RRPV(r) ((uint8_t *)((r)->sig + (size_t)(r)->sets * (r)->ways))
#define SHIP_OUTCOME(r) (SHIP_RRPV(r) + (size_t)(r)->sets * (r)->ways)

static const struct param_desc ship_params[] = {
    {"bits", PARAM_INT, "2", "RRPV width M of the underlying SRRIP (Wu MICRO 2011: M = 2)"},
    {"entries", PARAM_INT, "16384",
     "SHCT entries, a power of two up to 16384 (Wu MICRO 2011 / gem5: 16K)"},
    {"counter_bits", PARAM_INT, "3", "SHCT saturating counter width (Wu MICRO 2011: 3)"},
    {"init", PARAM_INT, "1", "initial SHCT counter value"},
    {NULL, PARAM_INT, NULL, NULL},
};

static size_t ship_priv_size(uint32_t sets, uint32_t ways)
{
    return sizeof(struct ship) + (size_t)sets * ways * (sizeof(uint16_t) + 2);
}

static int ship_init(void *priv, const struct param_set *p, const struct cache_policy_init *in,
                     struct err *e)
{
    struct ship *r = priv;
    int64_t m = param_int(p, "bits");
    int64_t entries = param_int(p, "entries");
    int64_t cbits = param_int(p, "counter_bits");
    int64_t init = param_int(p, "init");
    if (rrip_check_bits("ship", m, e) != WS_OK)
        return e->code;
    if (entries < 1 || entries > SHIP_SHCT_MAX || (entries & (entries - 1)))
        return err_set(e, WS_ERR_INVALID,
                       "policy 'ship': parameter 'entries' must be a power of two 1..%d, got %lld",
                       SHIP_SHCT_MAX, (long long)entries);
    if (cbits < 1 || cbits > 8)
        return err_set(e, WS_ERR_INVALID,
                       "policy 'ship': parameter 'counter_bits' must be 1..8, got %lld",
                       (long long)cbits);
    if (init < 0 || init > (1 << cbits) - 1)
        return err_set(e, WS_ERR_INVALID,
                       "policy 'ship': parameter 'init' must be 0..%d, got %lld", (1 << cbits) - 1,
                       (long long)init);
    memset(r, 0, ship_priv_size(in->sets, in->ways));
    r->sets = in->sets;
    r->ways = in->ways;
    r->max = (uint8_t)((1u << m) - 1);
    r->ctr_max = (uint8_t)((1u << cbits) - 1);
    r->sig_shift = 32u - (uint32_t)__builtin_ctzll((uint64_t)entries);
    r->sig_mask = (uint32_t)entries - 1;
    memset(r->shct, (int)init, sizeof r->shct);
    memset(SHIP_RRPV(r), r->max, (size_t)in->sets * in->ways);
    return WS_OK;
}

static uint32_t ship_signature(const struct ship *r, uint32_t pc)
{
    uint32_t h = pc * 2654435761u; /* Knuth multiplicative hash */
    return r->sig_shift >= 32 ? 0 : (h >> r->sig_shift) & r->sig_mask;
}

static uint32_t ship_victim(void *priv, uint32_t set, uint64_t candidates,
                            const struct cache_access *a)
{
    struct ship *r = priv;
    (void)a;
    ws_assert(set < r->sets);
    return rrip_victim(SHIP_RRPV(r) + (size_t)set * r->ways, r->ways, r->max, candidates);
}

static void ship_insert(void *priv, uint32_t set, uint32_t way, const struct cache_access *a)
{
    struct ship *r = priv;
    size_t i = (size_t)set * r->ways + way;
    uint32_t sig = ship_signature(r, a ? a->pc : 0);
    r->sig[i] = (uint16_t)sig;
    SHIP_OUTCOME(r)[i] = 0;
    int dead = r->shct[sig] == 0;
    SHIP_RRPV(r)[i] = (uint8_t)(dead ? r->max : r->max - 1);
    r->fills++;
    r->fills_distant += (uint64_t)dead;
}

static void ship_hit(void *priv, uint32_t set, uint32_t way, const struct cache_access *a)
{
    struct ship *r = priv;
    (void)a;
    size_t i = (size_t)set * r->ways + way;
    SHIP_RRPV(r)[i] = 0;
    SHIP_OUTCOME(r)[i] = 1;
    if (r->shct[r->sig[i]] < r->ctr_max)
        r->shct[r->sig[i]]++;
}

static void ship_evict(void *priv, uint32_t set, uint32_t way, int reused)
{
    struct ship *r = priv;
    (void)reused;
    size_t i = (size_t)set * r->ways + way;
    if (!SHIP_OUTCOME(r)[i] && r->shct[r->sig[i]] > 0)
        r->shct[r->sig[i]]--;
}

CACHE_POLICY(ship,
             .desc = "SHiP-PC: PC-signature hit predictor steering SRRIP insertion (Wu MICRO 2011)",
             .priv_size = ship_priv_size, .params = ship_params, .init = ship_init,
             .victim = ship_victim, .on_insert = ship_insert, .on_hit = ship_hit,
             .on_evict = ship_evict);
