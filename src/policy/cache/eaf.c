/* eaf.c: the Evicted-Address Filter (Seshadri, Mutlu, Kozuch, Mowry, PACT
 * 2012; SPEC-policies 9.4), MeDiC's insertion comparison point (HPCA 2016,
 * Section 5) on an LRU cache.  Every evicted line's address enters a Bloom
 * filter that holds as many addresses as the cache has lines; when that many
 * have been inserted the filter is cleared (src/policy/evicted_filter.h).  A
 * missed line whose address is in the filter is predicted to have high reuse
 * and inserted at MRU; every other missed line is inserted bimodally: at MRU
 * with probability 1/bip (1/64), else at LRU.
 * [CHOICE]s: the filter has bits_per_addr (8) bits per tracked address
 * (evicted_filter.h); LRU insertion makes the line older than every line of
 * the cache; the bimodal draw uses a per-instance xorshift generator seeded
 * from the cache's seed and instance. */
#include "policy/cache/cache_policy.h"

#include <string.h>

#include "base/log.h"
#include "policy/evicted_filter.h"
#include "stats/stats.h"

#define EAF_MID (1ull << 62)

struct eaf {
    uint32_t sets, ways, bip;
    uint64_t clock, low, rng;
    uint64_t st_hits, st_lru;
    /* then stamp[sets * ways], addr[sets * ways] (uint64_t) and the filter */
};

static const struct param_desc eaf_params[] = {
    {"bip", PARAM_INT, "64", "low-reuse lines go to MRU once in this many (EAF PACT 2012: 64)"},
    {"bits_per_addr", PARAM_INT, "8", "Bloom filter bits per tracked address ([CHOICE])"},
    {NULL, PARAM_INT, NULL, NULL},
};

static uint64_t *eaf_stamp(struct eaf *m) { return (uint64_t *)(m + 1); }
static uint64_t *eaf_addr(struct eaf *m) { return eaf_stamp(m) + (size_t)m->sets * m->ways; }
static struct evicted_filter *eaf_filter(struct eaf *m)
{
    return (struct evicted_filter *)(eaf_addr(m) + (size_t)m->sets * m->ways);
}

/* The size for the default bits_per_addr bound: priv_size cannot see the
 * parameters, so it reserves room for up to 64 bits per address. */
static size_t eaf_size(uint32_t sets, uint32_t ways)
{
    uint64_t lines = (uint64_t)sets * ways;
    return sizeof(struct eaf) + 2 * lines * sizeof(uint64_t) + evicted_filter_size(lines, 64);
}

static int eaf_init(void *priv, const struct param_set *p, const struct cache_policy_init *in,
                    struct err *e)
{
    int64_t bip = param_int(p, "bip"), per = param_int(p, "bits_per_addr");
    if (bip < 1 || per < 1 || per > 64)
        return err_set(e, WS_ERR_INVALID,
                       "policy 'eaf': need bip >= 1 and 1 <= bits_per_addr <= 64");
    struct eaf *m = priv;
    memset(m, 0, eaf_size(in->sets, in->ways));
    m->sets = in->sets;
    m->ways = in->ways;
    m->bip = (uint32_t)bip;
    evicted_filter_init(eaf_filter(m), (uint64_t)in->sets * in->ways, (uint64_t)per);
    m->clock = m->low = EAF_MID;
    m->rng = (in->seed ^ (0x9e3779b97f4a7c15ull * (in->instance + 1))) | 1;
    return WS_OK;
}

static uint32_t eaf_victim(void *priv, uint32_t set, uint64_t candidates,
                           const struct cache_access *a)
{
    (void)a;
    struct eaf *m = priv;
    if (m->ways < 64)
        candidates &= (1ull << m->ways) - 1;
    ws_assert(candidates != 0 && set < m->sets);
    const uint64_t *st = eaf_stamp(m) + (size_t)set * m->ways;
    uint32_t best = (uint32_t)__builtin_ctzll(candidates);
    for (uint64_t c = candidates & (candidates - 1); c; c &= c - 1) {
        uint32_t w = (uint32_t)__builtin_ctzll(c);
        if (st[w] < st[best])
            best = w;
    }
    return best;
}

static void eaf_insert(void *priv, uint32_t set, uint32_t way, const struct cache_access *a)
{
    struct eaf *m = priv;
    size_t i = (size_t)set * m->ways + way;
    eaf_addr(m)[i] = a->line_addr;
    int mru;
    if (evicted_filter_test(eaf_filter(m), a->line_addr)) {
        m->st_hits++;
        mru = 1;
    } else {
        m->rng ^= m->rng << 13;
        m->rng ^= m->rng >> 7;
        m->rng ^= m->rng << 17;
        mru = m->rng % m->bip == 0;
    }
    if (mru) {
        eaf_stamp(m)[i] = ++m->clock;
    } else {
        eaf_stamp(m)[i] = --m->low;
        m->st_lru++;
    }
}

static void eaf_hit(void *priv, uint32_t set, uint32_t way, const struct cache_access *a)
{
    (void)a;
    struct eaf *m = priv;
    eaf_stamp(m)[(size_t)set * m->ways + way] = ++m->clock;
}

static void eaf_evict(void *priv, uint32_t set, uint32_t way, int reused)
{
    (void)reused;
    struct eaf *m = priv;
    evicted_filter_add(eaf_filter(m), eaf_addr(m)[(size_t)set * m->ways + way]);
}

static void eaf_stats(void *priv, struct stats *s, uint32_t n, size_t stride)
{
    struct eaf *m = priv;
    stats_counter(s, "eaf_hits", "missed lines found in the evicted-address filter (high reuse)",
                  &m->st_hits, n, stride);
    stats_counter(s, "eaf_clears", "times the filter filled up and was cleared",
                  &eaf_filter(m)->clears, n, stride);
    stats_counter(s, "eaf_lru_inserts", "lines inserted at LRU (bimodal, low reuse)", &m->st_lru,
                  n, stride);
}

CACHE_POLICY(eaf, .desc = "evicted-address filter insertion (Seshadri PACT 2012; MeDiC's EAF)",
             .priv_size = eaf_size, .params = eaf_params, .init = eaf_init, .victim = eaf_victim,
             .on_insert = eaf_insert, .on_hit = eaf_hit, .on_evict = eaf_evict,
             .stats = eaf_stats);
