/* cacp.c: CAWA's Criticality-Aware Cache Prioritisation for the L1D (Lee,
 * Arunkumar, Wu, "CAWA", ISCA 2015, Section 3.3, Algorithm 4; SPEC-policies
 * 8.3, with SRRIP and SHiP of 9.1-9.2).
 *
 * The ways of every set are split statically: ways 0 .. crit_ways-1 hold
 * lines predicted critical (to be reused by critical warps), the others the
 * rest (crit_ways = 0, the default: half the ways, CAWA's 8 of 16).  A line's signature is the low 8 bits of the inserting PC xor the low
 * 8 bits of its line address; it indexes CCBP (critical cache block
 * predictor) and SHiP, 256 2-bit saturating counters each.
 *   fill:  CCBP[sig] >= threshold -> critical partition, else the other; the
 *          way: an empty one of the partition, else the SRRIP victim among its
 *          valid ways (ageing only the partition's lines); insertion RRPV 2 ("long") when SHiP[sig] > 0, 3
 *          ("distant") when 0; c_reuse = nc_reuse = 0.
 *   hit:   RRPV 0; a request of a critical warp (tag 1, e.g. from
 *          sm.classifier=cpl) sets c_reuse and increments CCBP[sig] and
 *          SHiP[sig]; any other sets nc_reuse and increments SHiP[sig].
 *   evict: a critical-partition line with nc_reuse and no c_reuse
 *          (mispredicted critical) decrements CCBP[sig]; else a line with
 *          neither reuse bit decrements SHiP[sig].
 * The predictor learns from the tag the classifier gives each request, so
 * CACP works beneath any scheduler; with no classifier (every tag 0) CCBP
 * never rises and every line goes to the non-critical ways.
 *
 * [CHOICE]s: signature from line-address bits (byte address [14:7] for 128 B
 * lines); counters start at 1 (weakly non-critical, weakly reused); the
 * threshold is >= 2 (Algorithm 4's "> Threshold" with Threshold = 1);
 * hit promotion to RRPV 0 (SRRIP-HP) in both partitions; when every way of
 * the chosen partition holds a pending (reserved) line, or the partition is
 * empty (crit_ways = ways or a 1-way cache), the fill does not allocate (the
 * miss bypasses the L1D) rather than leave its partition. */
#include "policy/cache/cache_policy.h"

#include <string.h>

#include "base/log.h"
#include "policy/rrip_util.h"
#include "stats/stats.h"

#define CACP_SIGS 256
#define CACP_CTR_MAX 3
#define CACP_RRPV_MAX 3

struct cacp_line {
    uint8_t sig, rrpv, c_reuse, nc_reuse;
};

struct cacp {
    uint32_t sets, ways, crit_ways;
    uint8_t threshold;
    uint8_t ccbp[CACP_SIGS], ship[CACP_SIGS];
    uint64_t fills, fills_critical, evicts_critical, evicts_critical_no_c_reuse;
    uint64_t evicts, evicts_no_reuse, refused;
    uint64_t hits, hits_critical_ways, c_hits, c_hits_critical_ways;
    uint64_t ccbp_raised, ccbp_lowered;
    struct cacp_line line[]; /* [sets * ways] */
};

static const struct param_desc cacp_params[] = {
    {"crit_ways", PARAM_INT, "0",
     "ways reserved for lines predicted critical, 0..ways (0: half the ways, CAWA: 8 of 16)"},
    {"threshold", PARAM_INT, "2",
     "CCBP counter value (0..3) from which a fill goes to the critical ways"},
    {NULL, PARAM_INT, NULL, NULL},
};

static size_t cacp_priv_size(uint32_t sets, uint32_t ways)
{
    return sizeof(struct cacp) + (size_t)sets * ways * sizeof(struct cacp_line);
}

static int cacp_init(void *priv, const struct param_set *p, const struct cache_policy_init *in,
                     struct err *e)
{
    struct cacp *c = priv;
    int64_t cw = param_int(p, "crit_ways");
    int64_t th = param_int(p, "threshold");
    if (in->ways > 64)
        return err_set(e, WS_ERR_INVALID, "policy 'cacp': at most 64 ways, got %u", in->ways);
    if (cw < 0 || cw > (int64_t)in->ways)
        return err_set(e, WS_ERR_INVALID,
                       "policy 'cacp': parameter 'crit_ways' must be 0..%u (the ways), got %lld",
                       in->ways, (long long)cw);
    if (th < 0 || th > CACP_CTR_MAX)
        return err_set(e, WS_ERR_INVALID,
                       "policy 'cacp': parameter 'threshold' must be 0..%d, got %lld",
                       CACP_CTR_MAX, (long long)th);
    memset(c, 0, cacp_priv_size(in->sets, in->ways));
    c->sets = in->sets;
    c->ways = in->ways;
    c->crit_ways = cw ? (uint32_t)cw : in->ways / 2;
    c->threshold = (uint8_t)th;
    memset(c->ccbp, 1, sizeof c->ccbp);
    memset(c->ship, 1, sizeof c->ship);
    for (size_t i = 0; i < (size_t)in->sets * in->ways; i++)
        c->line[i].rrpv = CACP_RRPV_MAX;
    return WS_OK;
}

static uint8_t cacp_sig(const struct cache_access *a)
{
    return (uint8_t)((a->pc ^ (uint32_t)a->line_addr) & 0xffu);
}

/* The ways of the partition a fill with signature `sig` belongs to. */
static uint64_t cacp_partition(const struct cacp *c, uint8_t sig)
{
    uint64_t crit = c->crit_ways >= 64 ? ~0ull : (1ull << c->crit_ways) - 1;
    uint64_t all = c->ways >= 64 ? ~0ull : (1ull << c->ways) - 1;
    return c->ccbp[sig] >= c->threshold ? crit : all & ~crit;
}

/* SRRIP victim among `cand`; the ageing stays within the ways of `part`. */
static uint32_t cacp_victim_in(struct cacp *c, uint32_t set, uint64_t cand, uint64_t part)
{
    uint8_t row[64];
    struct cacp_line *l = &c->line[(size_t)set * c->ways];
    for (uint32_t w = 0; w < c->ways; w++)
        row[w] = l[w].rrpv;
    uint32_t v = rrip_victim(row, c->ways, CACP_RRPV_MAX, cand);
    for (uint32_t w = 0; w < c->ways; w++)
        if (part >> w & 1)
            l[w].rrpv = row[w];
    return v;
}

static uint32_t cacp_place(void *priv, uint32_t set, uint64_t invalid, uint64_t valid,
                           const struct cache_access *a)
{
    struct cacp *c = priv;
    ws_assert(set < c->sets);
    uint64_t part = cacp_partition(c, cacp_sig(a));
    if (invalid & part)
        return (uint32_t)__builtin_ctzll(invalid & part);
    if (valid & part)
        return cacp_victim_in(c, set, valid & part, part);
    c->refused++;
    return CACHE_NO_WAY;
}

static uint32_t cacp_victim(void *priv, uint32_t set, uint64_t candidates,
                            const struct cache_access *a)
{
    /* not called while place() exists; the contract requires it */
    struct cacp *c = priv;
    (void)a;
    return cacp_victim_in(c, set, candidates, candidates);
}

static void cacp_insert(void *priv, uint32_t set, uint32_t way, const struct cache_access *a)
{
    struct cacp *c = priv;
    struct cacp_line *l = &c->line[(size_t)set * c->ways + way];
    l->sig = cacp_sig(a);
    l->rrpv = c->ship[l->sig] ? CACP_RRPV_MAX - 1 : CACP_RRPV_MAX;
    l->c_reuse = l->nc_reuse = 0;
    c->fills++;
    c->fills_critical += way < c->crit_ways;
}

/* Saturating 2-bit counter steps; 1 when the value changed. */
static int cacp_inc(uint8_t *ctr)
{
    if (*ctr >= CACP_CTR_MAX)
        return 0;
    (*ctr)++;
    return 1;
}

static int cacp_dec(uint8_t *ctr)
{
    if (*ctr == 0)
        return 0;
    (*ctr)--;
    return 1;
}

static void cacp_hit(void *priv, uint32_t set, uint32_t way, const struct cache_access *a)
{
    struct cacp *c = priv;
    struct cacp_line *l = &c->line[(size_t)set * c->ways + way];
    int in_crit = way < c->crit_ways;
    l->rrpv = 0;
    c->hits++;
    c->hits_critical_ways += in_crit;
    if (a && a->tag == 1) {
        l->c_reuse = 1;
        c->c_hits++;
        c->c_hits_critical_ways += in_crit;
        c->ccbp_raised += cacp_inc(&c->ccbp[l->sig]);
    } else {
        l->nc_reuse = 1;
    }
    cacp_inc(&c->ship[l->sig]);
}

static void cacp_evict(void *priv, uint32_t set, uint32_t way, int reused)
{
    struct cacp *c = priv;
    (void)reused;
    struct cacp_line *l = &c->line[(size_t)set * c->ways + way];
    int in_crit = way < c->crit_ways;
    c->evicts++;
    c->evicts_no_reuse += !l->c_reuse && !l->nc_reuse;
    if (in_crit) {
        c->evicts_critical++;
        c->evicts_critical_no_c_reuse += !l->c_reuse;
    }
    if (in_crit && !l->c_reuse && l->nc_reuse)
        c->ccbp_lowered += cacp_dec(&c->ccbp[l->sig]);
    else if (!l->c_reuse && !l->nc_reuse)
        cacp_dec(&c->ship[l->sig]);
    l->rrpv = CACP_RRPV_MAX;
}

static void cacp_stats(void *priv, struct stats *s, uint32_t n, size_t stride)
{
    struct cacp *c = priv;
    stats_counter(s, "cacp_fills", "CACP: lines inserted", &c->fills, n, stride);
    stats_counter(s, "cacp_fills_critical", "CACP: lines inserted in the critical ways (CCBP)",
                  &c->fills_critical, n, stride);
    stats_counter(s, "cacp_evicts", "CACP: valid lines evicted", &c->evicts, n, stride);
    stats_counter(s, "cacp_evicts_no_reuse", "CACP: lines evicted with neither reuse bit",
                  &c->evicts_no_reuse, n, stride);
    stats_counter(s, "cacp_evicts_critical", "CACP: lines evicted from the critical ways",
                  &c->evicts_critical, n, stride);
    stats_counter(s, "cacp_evicts_critical_no_c_reuse",
                  "CACP: critical-way lines evicted without a hit by a critical warp",
                  &c->evicts_critical_no_c_reuse, n, stride);
    stats_counter(s, "cacp_hits", "CACP: hits (reads and local stores)", &c->hits, n, stride);
    stats_counter(s, "cacp_hits_critical_ways", "CACP: of those, on lines in the critical ways",
                  &c->hits_critical_ways, n, stride);
    stats_counter(s, "cacp_critical_hits", "CACP: hits by critical warps (tag 1)", &c->c_hits, n,
                  stride);
    stats_counter(s, "cacp_critical_hits_critical_ways",
                  "CACP: of those, on lines in the critical ways", &c->c_hits_critical_ways, n,
                  stride);
    stats_counter(s, "cacp_ccbp_raised",
                  "CACP: CCBP counters raised (critical-warp hits below saturation)",
                  &c->ccbp_raised, n, stride);
    stats_counter(s, "cacp_ccbp_lowered",
                  "CACP: CCBP counters lowered (critical-way lines evicted with non-critical "
                  "reuse only, above 0)",
                  &c->ccbp_lowered, n, stride);
    stats_counter(s, "cacp_refused",
                  "CACP: misses not allocated (every way of the partition pending)", &c->refused,
                  n, stride);
}

CACHE_POLICY(cacp,
             .desc = "CAWA CACP: critical / non-critical way partitions chosen by CCBP, SHiP "
                     "insertion, SRRIP within (Lee ISCA 2015)",
             .priv_size = cacp_priv_size, .params = cacp_params, .init = cacp_init,
             .victim = cacp_victim, .on_insert = cacp_insert, .on_hit = cacp_hit,
             .on_evict = cacp_evict, .place = cacp_place, .stats = cacp_stats);
