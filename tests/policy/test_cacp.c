/* test_cacp.c: CAWA's CACP (src/policy/cache/cacp.c, SPEC-policies 8.3) on
 * hand-built hit / evict sequences: CCBP rises on hits by critical warps and
 * then steers fills with that signature into the critical ways, a critical
 * line reused only by non-critical warps lowers CCBP when evicted, SHiP
 * inserts a signature whose lines died unreused at the distant RRPV, and on
 * a long random sequence every fill lands in the partition that a shadow
 * CCBP, trained by the SPEC's rules, predicts, and the policy's hit and
 * CCBP-training counters equal the shadow's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/rng.h"
#include "policy/registry.h"
#include "stats/stats.h"

#define WAYS 16
#define CRIT 8
#define MAXSETS 4

/* A tag store driving the policy as src/timing/cache.c does, with a shadow
 * of the SPEC's CCBP training. */
struct store {
    const struct cache_policy_ops *ops;
    void *priv;
    uint32_t sets;
    uint64_t tag[MAXSETS][WAYS];
    uint8_t valid[MAXSETS][WAYS], sig[MAXSETS][WAYS], c_reuse[MAXSETS][WAYS],
        nc_reuse[MAXSETS][WAYS];
    uint8_t ccbp[256];
    int last_way; /* way of the last access */
    uint64_t fills_checked;
    /* shadow counts: hits, of them in ways 0..CRIT-1; the same for tag-1
     * hits; CCBP counters raised and lowered */
    uint64_t hits, hits_cw, c_hits, c_hits_cw, raised, lowered;
};

static void st_open(struct store *s, uint32_t sets)
{
    struct param_set ps;
    struct err e;
    err_clear(&e);
    memset(s, 0, sizeof *s);
    assert_int_equal(registry_cache("cacp", &s->ops, &ps, &e), WS_OK);
    s->sets = sets;
    s->priv = calloc(1, s->ops->priv_size(sets, WAYS));
    struct cache_policy_init in = {.sets = sets, .ways = WAYS, .seed = 1};
    assert_int_equal(s->ops->init(s->priv, &ps, &in, &e), WS_OK);
    memset(s->ccbp, 1, sizeof s->ccbp);
}

static uint8_t sig_of(uint64_t line, uint32_t pc) { return (uint8_t)((pc ^ line) & 0xff); }

/* The cache invalidating a valid line (cache_invalidate): an eviction. */
static void st_invalidate(struct store *s, uint32_t set, uint32_t w)
{
    assert_true(s->valid[set][w]);
    s->ops->on_evict(s->priv, set, w, s->c_reuse[set][w] | s->nc_reuse[set][w]);
    uint8_t og = s->sig[set][w];
    if (w < CRIT && !s->c_reuse[set][w] && s->nc_reuse[set][w] && s->ccbp[og] > 0) {
        s->ccbp[og]--;
        s->lowered++;
    }
    s->valid[set][w] = 0;
}

/* Access `line` from `pc` by a critical (tag 1) or non-critical warp;
 * returns 1 on a hit.  Checks every fill against the shadow CCBP. */
static int st_access(struct store *s, uint64_t line, uint32_t pc, uint32_t tag)
{
    uint32_t set = (uint32_t)(line % s->sets);
    struct cache_access a = {.line_addr = line, .pc = pc, .warp = 0, .tag = tag};
    uint64_t inval = 0, valid = 0;
    for (uint32_t w = 0; w < WAYS; w++) {
        if (s->valid[set][w] && s->tag[set][w] == line) {
            s->ops->on_hit(s->priv, set, w, &a);
            uint8_t g = s->sig[set][w];
            s->hits++;
            s->hits_cw += w < CRIT;
            if (tag == 1) {
                s->c_reuse[set][w] = 1;
                s->c_hits++;
                s->c_hits_cw += w < CRIT;
                s->raised += s->ccbp[g] < 3;
                s->ccbp[g] += s->ccbp[g] < 3;
            } else {
                s->nc_reuse[set][w] = 1;
            }
            s->last_way = (int)w;
            return 1;
        }
        if (s->valid[set][w])
            valid |= 1ull << w;
        else
            inval |= 1ull << w;
    }
    uint8_t g = sig_of(line, pc);
    int critical = s->ccbp[g] >= 2;
    uint32_t w = s->ops->place(s->priv, set, inval, valid, &a);
    assert_true(w < WAYS);
    assert_true((inval | valid) >> w & 1);
    /* a line predicted critical lands in ways 0..7, any other in 8..15 */
    assert_int_equal(w < CRIT, critical);
    s->fills_checked++;
    if (s->valid[set][w])
        st_invalidate(s, set, w);
    s->valid[set][w] = 1;
    s->tag[set][w] = line;
    s->sig[set][w] = g;
    s->c_reuse[set][w] = s->nc_reuse[set][w] = 0;
    s->ops->on_insert(s->priv, set, w, &a);
    s->last_way = (int)w;
    return 0;
}

/* The policy's counter `name` (registered by its stats hook). */
static uint64_t st_stat(const struct store *s, const char *name)
{
    struct stats *st = stats_new();
    s->ops->stats(s->priv, st, 1, 0);
    uint64_t v = 0;
    assert_int_equal(stats_get_u64(st, name, &v), 0);
    stats_free(st);
    return v;
}

/* The policy's hit and CCBP-training counters equal the shadow's. */
static void st_check_counters(const struct store *s)
{
    assert_int_equal(st_stat(s, "cacp_hits"), s->hits);
    assert_int_equal(st_stat(s, "cacp_hits_critical_ways"), s->hits_cw);
    assert_int_equal(st_stat(s, "cacp_critical_hits"), s->c_hits);
    assert_int_equal(st_stat(s, "cacp_critical_hits_critical_ways"), s->c_hits_cw);
    assert_int_equal(st_stat(s, "cacp_ccbp_raised"), s->raised);
    assert_int_equal(st_stat(s, "cacp_ccbp_lowered"), s->lowered);
}

#define PC 0x15u
#define L0 0x300u /* signature 0x15 ^ 0x00 = 0x15 */

/* CCBP: critical hits raise it, a fill with that signature then goes to the
 * critical ways; lines there reused only by non-critical warps lower it on
 * eviction until fills return to the non-critical ways. */
static void test_ccbp_trains_on_hits_and_evictions(void **state)
{
    (void)state;
    struct store s;
    st_open(&s, 1);
    assert_int_equal(st_access(&s, L0, PC, 1), 0);
    assert_true(s.last_way >= CRIT); /* CCBP starts at 1: non-critical */
    assert_int_equal(st_access(&s, L0, PC, 1), 1); /* critical hit: CCBP 2 */
    assert_int_equal(st_access(&s, L0, PC, 1), 1); /* CCBP 3 */
    assert_int_equal(s.ccbp[0x15], 3);
    /* eight more lines of the same signature fill the critical ways */
    for (uint64_t k = 1; k <= CRIT; k++) {
        assert_int_equal(st_access(&s, L0 + 256 * k, PC, 0), 0);
        assert_int_equal(s.last_way, (int)k - 1);
        assert_int_equal(st_access(&s, L0 + 256 * k, PC, 0), 1); /* non-critical reuse */
    }
    /* the ninth evicts a critical line reused only by a non-critical warp
     * (way 0): CCBP 3 -> 2, still critical */
    assert_int_equal(st_access(&s, L0 + 256 * 9, PC, 0), 0);
    assert_int_equal(s.last_way, 0);
    assert_int_equal(s.ccbp[0x15], 2);
    /* the tenth evicts way 1: CCBP 2 -> 1 */
    assert_int_equal(st_access(&s, L0 + 256 * 10, PC, 0), 0);
    assert_int_equal(s.last_way, 1);
    assert_int_equal(s.ccbp[0x15], 1);
    /* so the eleventh goes to the non-critical ways, the first line's
     * partition untouched meanwhile */
    assert_int_equal(st_access(&s, L0 + 256 * 11, PC, 0), 0);
    assert_true(s.last_way >= CRIT);
    assert_int_equal(st_access(&s, L0, PC, 1), 1);
    /* 3 raises (the last hit: 1 -> 2), 2 lowerings; hits: 3 critical (in way
     * 8), 8 non-critical in ways 0..7 */
    assert_int_equal(s.raised, 3);
    assert_int_equal(s.lowered, 2);
    assert_int_equal(s.c_hits, 3);
    assert_int_equal(s.c_hits_cw, 0);
    assert_int_equal(s.hits_cw, 8);
    st_check_counters(&s);
    free(s.priv);
}

/* SHiP: a signature whose lines left unreused is inserted distant (RRPV 3),
 * so its line goes before a line inserted long (2) in a lower way; a hit on
 * that signature brings its insertions back to long. */
#define FILL 0x380u /* filler lines, signature 0x95 */
static void test_ship_insertion_position(void **state)
{
    (void)state;
    struct store s;
    st_open(&s, 1);
    /* A lines (signature 0x15) in ways 8, 9, fillers in 10..15 */
    for (uint64_t k = 0; k < CRIT; k++) {
        uint64_t line = k < 2 ? L0 + 256 * k : FILL + 256 * k;
        assert_int_equal(st_access(&s, line, PC, 0), 0);
        assert_int_equal(s.last_way, CRIT + (int)k);
    }
    /* both A lines leave without reuse: SHiP[A] 1 -> 0 */
    st_invalidate(&s, 0, 8);
    st_invalidate(&s, 0, 9);
    for (uint64_t k = 2; k < CRIT; k++)
        assert_int_equal(st_access(&s, FILL + 256 * k, PC, 0), 1); /* RRPV 0 */
    /* B (0x301, signature 0x14) into way 8 at 2, then A into way 9 at 3 */
    assert_int_equal(st_access(&s, 0x301u, PC, 0), 0);
    assert_int_equal(s.last_way, 8);
    assert_int_equal(st_access(&s, L0 + 256 * 2, PC, 0), 0);
    assert_int_equal(s.last_way, 9);
    /* the next fill (C, 0x302) evicts the distant A line, not the lower B */
    assert_int_equal(st_access(&s, 0x302u, PC, 0), 0);
    assert_int_equal(s.last_way, 9);
    /* an A line that is hit: SHiP[A] 0 -> 1 */
    st_invalidate(&s, 0, 9);
    assert_int_equal(st_access(&s, L0 + 256 * 3, PC, 0), 0);
    assert_int_equal(s.last_way, 9);
    assert_int_equal(st_access(&s, L0 + 256 * 3, PC, 0), 1);
    /* D (0x303) into way 8 and A into way 9: both at 2 now */
    st_invalidate(&s, 0, 8);
    st_invalidate(&s, 0, 9);
    assert_int_equal(st_access(&s, 0x303u, PC, 0), 0);
    assert_int_equal(s.last_way, 8);
    assert_int_equal(st_access(&s, L0 + 256 * 4, PC, 0), 0);
    assert_int_equal(s.last_way, 9);
    for (uint64_t k = 2; k < CRIT; k++)
        assert_int_equal(st_access(&s, FILL + 256 * k, PC, 0), 1);
    /* equal RRPVs: the lowest way (D) goes */
    assert_int_equal(st_access(&s, 0x304u, PC, 0), 0);
    assert_int_equal(s.last_way, 8);
    free(s.priv);
}

/* A long random sequence: every fill lands in the partition the shadow
 * CCBP predicts (checked inside st_access), in both partitions; hits in
 * both partitions by both kinds of warp, and the counters match. */
static void test_partition_matches_shadow_ccbp(void **state)
{
    (void)state;
    struct store s;
    st_open(&s, MAXSETS);
    struct rng r;
    rng_seed(&r, 7);
    uint64_t crit_fills = 0, fills = 0;
    for (int i = 0; i < 200000; i++) {
        uint64_t line = rng_next(&r) % 512;
        uint32_t pc = (uint32_t)(rng_next(&r) % 4) * 3;
        uint32_t tag = (uint32_t)(rng_next(&r) % 3 == 0);
        if (!st_access(&s, line, pc, tag)) {
            fills++;
            crit_fills += s.last_way < CRIT;
        }
    }
    assert_int_equal(s.fills_checked, fills);
    assert_true(crit_fills > fills / 20);
    assert_true(crit_fills < fills);
    assert_true(s.c_hits_cw > 0 && s.c_hits_cw < s.c_hits);
    assert_true(s.hits_cw > s.c_hits_cw && s.hits_cw < s.hits);
    assert_true(s.lowered > 0);
    st_check_counters(&s);
    free(s.priv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ccbp_trains_on_hits_and_evictions),
        cmocka_unit_test(test_ship_insertion_position),
        cmocka_unit_test(test_partition_matches_shadow_ccbp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
