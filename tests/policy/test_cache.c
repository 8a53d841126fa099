/* test_cache.c: the replacement policies against their definitions and
 * worked examples: LRU and FIFO orders, the SRRIP scan-resistance example of
 * Jaleel ISCA 2010 (2-bit RRPV, insert at 2, age until 3), BRRIP's mostly
 * distant insertion, DRRIP's PSEL following the leader sets with fewer misses,
 * and SHiP learning that a streaming PC is dead. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policy/registry.h"

/* A tiny tag store driving a policy the way the caches do. */
struct sim {
    const struct cache_policy_ops *ops;
    void *priv;
    uint32_t sets, ways;
    uint64_t *tag;
    uint8_t *valid, *reused;
    uint64_t hits, misses;
};

static void sim_open(struct sim *c, const char *spec, uint32_t sets, uint32_t ways)
{
    struct param_set ps;
    struct err e;
    err_clear(&e);
    memset(c, 0, sizeof *c);
    assert_int_equal(registry_cache(spec, &c->ops, &ps, &e), WS_OK);
    c->sets = sets;
    c->ways = ways;
    c->priv = calloc(1, c->ops->priv_size(sets, ways));
    struct cache_policy_init in = {.sets = sets, .ways = ways, .instance = 0, .seed = 1};
    assert_int_equal(c->ops->init(c->priv, &ps, &in, &e), WS_OK);
    c->tag = calloc((size_t)sets * ways, sizeof *c->tag);
    c->valid = calloc((size_t)sets * ways, 1);
    c->reused = calloc((size_t)sets * ways, 1);
}

static void sim_close(struct sim *c)
{
    free(c->priv);
    free(c->tag);
    free(c->valid);
    free(c->reused);
}

/* Access line addr (set = addr % sets) from pc; returns 1 on a hit. */
static int sim_access(struct sim *c, uint64_t addr, uint32_t pc)
{
    uint32_t set = (uint32_t)(addr % c->sets);
    size_t base = (size_t)set * c->ways;
    struct cache_access a = {.line_addr = addr, .pc = pc, .warp = 0};
    int free_way = -1;
    for (uint32_t w = 0; w < c->ways; w++) {
        if (c->valid[base + w] && c->tag[base + w] == addr) {
            c->hits++;
            c->reused[base + w] = 1;
            if (c->ops->on_hit)
                c->ops->on_hit(c->priv, set, w, &a);
            return 1;
        }
        if (!c->valid[base + w] && free_way < 0)
            free_way = (int)w;
    }
    c->misses++;
    uint32_t way;
    if (free_way >= 0) {
        way = (uint32_t)free_way;
    } else {
        uint64_t all = c->ways >= 64 ? ~0ull : (1ull << c->ways) - 1;
        way = c->ops->victim(c->priv, set, all, &a);
        if (c->ops->on_evict)
            c->ops->on_evict(c->priv, set, way, c->reused[base + way]);
    }
    c->valid[base + way] = 1;
    c->tag[base + way] = addr;
    c->reused[base + way] = 0;
    if (c->ops->on_insert)
        c->ops->on_insert(c->priv, set, way, &a);
    return 0;
}

/* The way holding addr, or -1. */
static int sim_way(const struct sim *c, uint64_t addr)
{
    size_t base = (size_t)(addr % c->sets) * c->ways;
    for (uint32_t w = 0; w < c->ways; w++)
        if (c->valid[base + w] && c->tag[base + w] == addr)
            return (int)w;
    return -1;
}

static void test_lru_evicts_least_recent(void **state)
{
    (void)state;
    struct sim c;
    sim_open(&c, "lru", 1, 4);
    for (uint64_t a = 1; a <= 4; a++)
        assert_false(sim_access(&c, a, 0));
    assert_true(sim_access(&c, 1, 0)); /* 1 becomes most recent */
    assert_true(sim_access(&c, 3, 0));
    assert_false(sim_access(&c, 5, 0)); /* evicts 2, the least recent */
    assert_int_equal(sim_way(&c, 2), -1);
    assert_false(sim_access(&c, 6, 0)); /* then 4 */
    assert_int_equal(sim_way(&c, 4), -1);
    assert_true(sim_way(&c, 1) >= 0 && sim_way(&c, 3) >= 0);
    sim_close(&c);
}

static void test_fifo_ignores_hits(void **state)
{
    (void)state;
    struct sim c;
    sim_open(&c, "fifo", 1, 4);
    for (uint64_t a = 1; a <= 4; a++)
        sim_access(&c, a, 0);
    assert_true(sim_access(&c, 1, 0));
    assert_true(sim_access(&c, 1, 0));
    assert_false(sim_access(&c, 5, 0)); /* 1 was inserted first: evicted despite hits */
    assert_int_equal(sim_way(&c, 1), -1);
    assert_false(sim_access(&c, 6, 0));
    assert_int_equal(sim_way(&c, 2), -1);
    sim_close(&c);
}

/* Insert a line into way 0 of set `set` and report whether it went in at the
 * distant RRPV (2^M-1): way 1 is first forced to the distant value (hit to 0,
 * then a victim search restricted to way 1 ages the set until it is at the
 * maximum); a full search then returns way 0 only if it is distant too. */
static int probe_distant(const struct cache_policy_ops *ops, void *priv, uint32_t set,
                         uint32_t pc)
{
    struct cache_access a = {.pc = pc};
    ops->on_hit(priv, set, 1, &a);
    assert_int_equal(ops->victim(priv, set, 0x2, &a), 1);
    ops->on_insert(priv, set, 0, &a);
    return ops->victim(priv, set, 0x3, &a) == 0;
}

static void test_srrip_worked_example(void **state)
{
    (void)state;
    struct sim c;
    /* insertion at 2: four fills, the search ages all to 3 and takes way 0 */
    sim_open(&c, "srrip", 1, 4);
    for (uint64_t a = 1; a <= 4; a++)
        sim_access(&c, a, 0);
    assert_false(sim_access(&c, 5, 0));
    assert_int_equal(sim_way(&c, 5), 0);
    /* the others were aged to 3: no further aging, way 1 goes next */
    assert_false(sim_access(&c, 6, 0));
    assert_int_equal(sim_way(&c, 6), 1);
    sim_close(&c);

    /* Jaleel ISCA 2010: a re-referenced working set survives a scan under
     * SRRIP-HP, while LRU loses it */
    static const char *specs[] = {"srrip", "lru"};
    uint64_t ws_hits[2];
    for (int k = 0; k < 2; k++) {
        sim_open(&c, specs[k], 1, 4);
        for (int rep = 0; rep < 2; rep++) {
            sim_access(&c, 100, 0);
            sim_access(&c, 101, 0);
        }
        for (uint64_t s = 0; s < 3; s++) /* the scan */
            sim_access(&c, 200 + s, 0);
        uint64_t before = c.hits;
        sim_access(&c, 100, 0);
        sim_access(&c, 101, 0);
        ws_hits[k] = c.hits - before;
        sim_close(&c);
    }
    assert_int_equal(ws_hits[0], 2);
    assert_true(ws_hits[1] < 2);

    /* SRRIP never inserts at the distant value */
    sim_open(&c, "srrip", 1, 2);
    for (int k = 0; k < 100; k++)
        assert_false(probe_distant(c.ops, c.priv, 0, 0));
    sim_close(&c);
}

static void test_brrip_mostly_distant(void **state)
{
    (void)state;
    struct sim c;
    sim_open(&c, "brrip", 1, 2);
    int distant = 0;
    for (int k = 0; k < 3200; k++)
        distant += probe_distant(c.ops, c.priv, 0, 0);
    /* epsilon = 1/32: about 100 of 3200 at 2^M-2 */
    assert_true(distant > 3200 - 200 && distant < 3200 - 40);
    sim_close(&c);

    sim_open(&c, "brrip:epsilon=0", 1, 2);
    for (int k = 0; k < 500; k++)
        assert_true(probe_distant(c.ops, c.priv, 0, 0));
    sim_close(&c);
}

static int count_distant(struct sim *c, uint32_t set, int n)
{
    int d = 0;
    for (int k = 0; k < n; k++)
        d += probe_distant(c->ops, c->priv, set, 0);
    return d;
}

static void test_drrip_psel_follows_leaders(void **state)
{
    (void)state;
    struct sim c;
    /* 128 sets, 32 leaders: constituencies of 4 sets; in constituency 0 set 0
     * leads SRRIP and set 2 leads BRRIP; set 1 follows */
    sim_open(&c, "drrip", 128, 2);
    struct cache_access a = {0};
    assert_true(count_distant(&c, 1, 200) < 20); /* followers start as SRRIP */
    for (int k = 0; k < 600; k++)                /* SRRIP leaders miss */
        c.ops->on_insert(c.priv, 0, 0, &a);
    assert_true(count_distant(&c, 1, 200) > 170); /* followers switched to BRRIP */
    for (int k = 0; k < 1200; k++)                /* now BRRIP leaders miss more */
        c.ops->on_insert(c.priv, 2, 0, &a);
    assert_true(count_distant(&c, 1, 200) < 20);
    /* leaders ignore PSEL */
    assert_true(count_distant(&c, 2, 200) > 170);
    assert_true(count_distant(&c, 0, 200) < 20);
    sim_close(&c);
}

static void test_ship_learns_dead_pc(void **state)
{
    (void)state;
    struct sim c;
    /* training touches sets 0..15 only; the probes use the untouched set 20 */
    sim_open(&c, "ship", 32, 4);
    const uint32_t stream_pc = 40, reuse_pc = 72;
    /* before training both are inserted at 2^M-2 */
    assert_false(probe_distant(c.ops, c.priv, 20, stream_pc));
    assert_false(probe_distant(c.ops, c.priv, 20, reuse_pc));
    uint64_t ns = 0;
    for (int round = 0; round < 200; round++) {
        for (uint64_t w = 0; w < 16; w++) /* a small re-referenced working set */
            sim_access(&c, w, reuse_pc);
        for (int i = 0; i < 16; i++, ns++) /* a stream: never re-referenced */
            sim_access(&c, 32 * (1000 + ns) + ns % 16, stream_pc);
    }
    assert_true(probe_distant(c.ops, c.priv, 20, stream_pc));
    assert_false(probe_distant(c.ops, c.priv, 20, reuse_pc));
    sim_close(&c);

    /* the learned prediction protects the working set better than SRRIP */
    uint64_t hits[2];
    static const char *specs[] = {"ship", "srrip"};
    for (int k = 0; k < 2; k++) {
        sim_open(&c, specs[k], 16, 4);
        uint64_t next = 1000;
        for (int round = 0; round < 200; round++) {
            for (int pass = 0; pass < 2; pass++)
                for (uint64_t w = 0; w < 32; w++)
                    sim_access(&c, w, reuse_pc);
            for (int i = 0; i < 128; i++)
                sim_access(&c, next++, stream_pc);
        }
        hits[k] = c.hits;
        sim_close(&c);
    }
    assert_true(hits[0] > hits[1] + hits[1] / 2); /* measured: 12768 against 6400 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lru_evicts_least_recent),
        cmocka_unit_test(test_fifo_ignores_hits),
        cmocka_unit_test(test_srrip_worked_example),
        cmocka_unit_test(test_brrip_mostly_distant),
        cmocka_unit_test(test_drrip_psel_follows_leaders),
        cmocka_unit_test(test_ship_learns_dead_pc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
