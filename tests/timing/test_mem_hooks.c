/* test_mem_hooks.c: the memory system's policy hooks, each driven by a
 * test-only policy of tests/policy/fixtures/ (test_tagbypass, test_twoqueue,
 * test_partition), selected by name as any policy:
 * L2 access events carry the requesting warp's slot, PC and hit/miss back to
 * its SM; an L2 policy that bypasses by request tag sends reads straight to
 * DRAM without touching the L2 (after l2.bypass_rop cycles, not the ROP
 * delay), while atomics and writes still take it; a
 * two-queue DRAM policy serves its high-priority queue first and each queue
 * holds its own capacity; a partitioning cache policy places every line in
 * its partition even when the other partition has empty ways, and refuses to
 * allocate (the L1D then serves the miss without a line); cache policies'
 * own counters are reported under the cache's prefix (BRRIP's insertions). */
#include "timing/mem_fx.h"

#include <stdlib.h>

#include "timing/cache.h"
#include "timing/dram.h"

/* ---- event log ------------------------------------------------------------ */

#define LOG_MAX 512

struct l2log {
    struct sched_event e[LOG_MAX];
    uint32_t n;
};

static void l2_listener(void *ctx, const struct sched_event *ev)
{
    struct l2log *l = ctx;
    if (ev->kind == SCHED_EV_L2_ACCESS && l->n < LOG_MAX)
        l->e[l->n++] = *ev;
}

static struct mem_inst tagged(struct mem_inst mi, uint32_t pc, uint32_t tag)
{
    mi.pc = pc;
    mi.policy_tag = tag;
    return mi;
}

/* ---- L2 events and bypass ------------------------------------------------- */

static void test_l2_events_and_bypass(void **state)
{
    (void)state;
    struct fx f;
    tiny_config(&f.cfg);
    snprintf(f.cfg.l2.policy, sizeof f.cfg.l2.policy, "test_tagbypass");
    fx_open(&f);
    f.skip = 1;
    struct l2log log0 = {0}, log1 = {0};
    memsys_set_listener(f.ms, 0, l2_listener, &log0, ~0u);
    memsys_set_listener(f.ms, 1, l2_listener, &log1, ~0u);
    const uint64_t x = GBASE, y = GBASE + 2048; /* different DRAM banks, both closed */

    /* SM 0 warp 3 misses line x in L1 and L2: one event, hit = 0 */
    uint64_t t_miss = fx_run(&f, tagged(load_inst(0, 3, 0, x, 1), 0x40, 0));
    assert_int_equal(log0.n, 1);
    assert_int_equal(log0.e[0].slot, 3);
    assert_int_equal(log0.e[0].pc, 0x40);
    assert_int_equal(log0.e[0].age, 3);
    assert_int_equal(log0.e[0].addr, x >> 7);
    assert_int_equal(log0.e[0].hit, 0);
    assert_int_equal(log0.e[0].is_write, 0);
    assert_true(log0.e[0].now < f.now);
    /* SM 1 warp 6 reads x: an L2 hit, reported to SM 1 only */
    fx_run(&f, tagged(load_inst(1, 6, 0, x, 1), 0x48, 0));
    assert_int_equal(log1.n, 1);
    assert_int_equal(log1.e[0].slot, 6);
    assert_int_equal(log1.e[0].pc, 0x48);
    assert_int_equal(log1.e[0].hit, 1);
    assert_int_equal(log0.n, 1);
    assert_int_equal(stat(&f, "l2_accesses"), 2);
    assert_int_equal(stat(&f, "l2_hits"), 1);

    /* SM 0 warp 5 reads y tagged 1: bypassed.  Nothing of the L2 moves: no
     * access, no bank-queue service, no event. */
    uint64_t q0 = stat(&f, "l2_queue_latency_count");
    uint64_t t_byp = fx_run(&f, tagged(load_inst(0, 5, 0, y, 1), 0x50, 1));
    assert_int_equal(stat(&f, "l2_bypasses"), 1);
    assert_int_equal(stat(&f, "l2_accesses"), 2);
    assert_int_equal(stat(&f, "l2_hits"), 1);
    assert_int_equal(stat(&f, "l2_misses"), 1);
    assert_int_equal(stat(&f, "l2_queue_latency_count"), q0);
    assert_int_equal(stat(&f, "dram_reads"), 2);
    assert_int_equal(log0.n, 1);
    /* Latency: this L2 charges its pipeline (l2.hit_latency) on hits only; a
     * miss's lookup costs nothing beyond its bank-queue wait, which is empty
     * here, and fills reply at once.  So the L2 time a bypass saves over a
     * miss is that wait: zero, and a bypassed read to a closed DRAM bank
     * costs exactly what the L2 miss to a closed bank cost (with a ROP delay,
     * as GPGPU-Sim's, the bypass saves it unless l2.bypass_rop makes it wait:
     * test_l2_rop_delay, test_l2_bypass_rop). */
    assert_int_equal(t_byp, t_miss);
    /* the bypassed data was not inserted: SM 1 (cold L1) misses y in the L2 */
    fx_run(&f, tagged(load_inst(1, 2, 0, y, 1), 0x58, 0));
    assert_int_equal(stat(&f, "l2_misses"), 2);
    assert_int_equal(log1.n, 2);
    assert_int_equal(log1.e[1].hit, 0);
    assert_int_equal(log1.e[1].addr, y >> 7);

    /* atomics and writes tagged 1 still take the L2 (SPEC 7.3) */
    struct mem_inst at = tagged(load_inst(0, 4, 0, y, 1), 0x60, 1);
    at.is_atomic = 1;
    fx_run(&f, at);
    assert_int_equal(stat(&f, "l2_bypasses"), 1);
    assert_int_equal(stat(&f, "l2_accesses"), 4);
    assert_int_equal(log0.n, 2);
    assert_int_equal(log0.e[1].hit, 1);
    assert_int_equal(log0.e[1].is_write, 1);
    struct mem_inst st = tagged(load_inst(0, 4, 0, x, 1), 0x68, 1);
    st.is_store = 1;
    fx_run(&f, st);
    for (int i = 0; i < 200; i++) { /* the store completes at the LD/ST unit */
        int dummy = 0;
        fx_step(&f, 0, 0, &dummy);
    }
    assert_int_equal(stat(&f, "l2_accesses"), 5);
    assert_int_equal(stat(&f, "l2_bypasses"), 1);
    assert_int_equal(log0.n, 3);
    assert_int_equal(log0.e[2].is_write, 1);
    assert_int_equal(log0.e[2].slot, 4);
    fx_close(&f);
}

/* ---- the ROP delay ------------------------------------------------------ */

/* Latencies of one L2 miss (line x), one L2 hit (x again, from the other SM)
 * and one bypassed read (line y, another closed DRAM bank) at a ROP delay. */
static void rop_latencies(uint32_t rop, uint32_t byp_rop, uint64_t *miss, uint64_t *hit,
                          uint64_t *byp)
{
    struct fx f;
    tiny_config(&f.cfg);
    f.cfg.l2_rop_latency = rop;
    f.cfg.l2_bypass_rop = byp_rop;
    snprintf(f.cfg.l2.policy, sizeof f.cfg.l2.policy, "test_tagbypass");
    fx_open(&f);
    f.skip = 1;
    const uint64_t x = GBASE, y = GBASE + 2048;
    *miss = fx_run(&f, tagged(load_inst(0, 3, 0, x, 1), 0x40, 0));
    *hit = fx_run(&f, tagged(load_inst(1, 6, 0, x, 1), 0x48, 0));
    *byp = fx_run(&f, tagged(load_inst(0, 5, 0, y, 1), 0x50, 1));
    assert_int_equal(stat(&f, "l2_bypasses"), 1);
    assert_int_equal(stat(&f, "l2_hits"), 1);
    assert_int_equal(stat(&f, "l2_misses"), 1);
    fx_close(&f);
}

/* l2.rop_latency delays every request that looks the L2 up, hit or miss, by
 * exactly its value (all clocks are equal here), and not a bypassed read: at
 * a ROP delay the bypass's latency drops below the miss's by the delay. */
static void test_l2_rop_delay(void **state)
{
    (void)state;
    uint64_t m0, h0, b0, m1, h1, b1;
    rop_latencies(0, 0, &m0, &h0, &b0);
    rop_latencies(40, 0, &m1, &h1, &b1);
    assert_int_equal(m1, m0 + 40);
    assert_int_equal(h1, h0 + 40);
    assert_int_equal(b1, b0);
    assert_int_equal(b0, m0);
    assert_int_equal(m1 - b1, 40);
}

/* l2.bypass_rop delays a bypassed read by exactly its value on its own path
 * (requests that look the L2 up keep l2.rop_latency): at ROP 40 and bypass
 * delay 29 the bypass arrives at DRAM 11 cycles before the miss would, as
 * MeDiC's bypass skips the 1-cycle arbiter and 10-cycle lookup but not
 * GPGPU-Sim's ROP delay at the partition's entry. */
static void test_l2_bypass_rop(void **state)
{
    (void)state;
    uint64_t m0, h0, b0, m1, h1, b1;
    rop_latencies(40, 0, &m0, &h0, &b0);
    rop_latencies(40, 29, &m1, &h1, &b1);
    assert_int_equal(m1, m0);
    assert_int_equal(h1, h0);
    assert_int_equal(b1, b0 + 29);
    assert_int_equal(m1 - b1, 11);
}

/* ---- DRAM priority queues ------------------------------------------------ */

/* Run the channel until `want` requests have returned; their order in out. */
static void dram_drain(struct dram_channel *ch, struct mem_pool *pool, uint64_t *now,
                       uint32_t *out, uint32_t want)
{
    uint32_t got = 0;
    while (got < want) {
        ++*now;
        dram_cycle(ch, pool, *now);
        while (ring_ready(&ch->ret, *now) && got < want)
            out[got++] = ring_pop(&ch->ret);
        assert_true(*now < 100000);
    }
}

static void test_dram_two_queues(void **state)
{
    (void)state;
    struct gpu_config cfg;
    tiny_config(&cfg);
    snprintf(cfg.dram_sched, sizeof cfg.dram_sched, "test_twoqueue");
    struct dram_channel ch;
    struct err e;
    err_clear(&e);
    const struct dram_sched_ops *ops;
    static struct param_set ps;
    assert_int_equal(dram_prepare(&cfg, &ops, &ps, &e), WS_OK);
    void *priv = calloc(1, dram_priv_stride(ops));
    assert_int_equal(dram_init(&ch, &cfg, ops, &ps, priv, &e), WS_OK);
    assert_int_equal(ch.n_queues, 2);
    assert_int_equal(ch.cap, 5);
    struct mem_req reqs[8];
    memset(reqs, 0, sizeof reqs);
    struct mem_pool pool = {.r = reqs, .cap = 8};
    for (uint32_t i = 0; i < 8; i++)
        reqs[i].bytes = 128;
    /* an old low-priority request and a younger high-priority one, same
     * bank, different rows, bank closed: FR-FCFS alone would take the older */
    reqs[0].tag = 0;
    reqs[1].tag = 1;
    uint64_t now = 0;
    dram_enqueue(&ch, &pool, 0, 0, 3, now);
    now += 5;
    dram_enqueue(&ch, &pool, 1, 0, 4, now);
    uint32_t order[2];
    dram_drain(&ch, &pool, &now, order, 2);
    assert_int_equal(order[0], 1);
    assert_int_equal(order[1], 0);
    /* capacities: the low queue takes 3, the high queue still takes 2; all
     * to bank 1, the low ones first */
    for (uint32_t i = 0; i < 3; i++) {
        assert_true(dram_can_accept(&ch, 7, 0));
        reqs[2 + i].tag = 7;
        dram_enqueue(&ch, &pool, 2 + i, 1, i, now);
    }
    assert_false(dram_can_accept(&ch, 7, 0));
    assert_true(dram_can_accept(&ch, 7, 1)); /* its spare slot */
    assert_true(dram_can_accept(&ch, 1, 0));
    reqs[5].tag = 1;
    reqs[6].tag = 1;
    dram_enqueue(&ch, &pool, 5, 1, 9, now);
    assert_true(dram_can_accept(&ch, 1, 0));
    dram_enqueue(&ch, &pool, 6, 1, 9, now);
    assert_false(dram_can_accept(&ch, 1, 0));
    assert_false(dram_can_accept(&ch, 0, 0));
    /* the bank serves the younger high requests first, oldest first, then the
     * low ones in FR-FCFS order */
    uint32_t order2[5];
    dram_drain(&ch, &pool, &now, order2, 5);
    static const uint32_t want[5] = {5, 6, 2, 3, 4};
    for (uint32_t i = 0; i < 5; i++)
        assert_int_equal(order2[i], want[i]);
    assert_true(dram_can_accept(&ch, 7, 0));
    dram_fini(&ch);
    free(priv);
}

/* ---- partitioned caches --------------------------------------------------- */

static void test_partitioned_cache(void **state)
{
    (void)state;
    struct cache_geometry g = {.sets = 2, .line = 128, .assoc = 16, .policy = "test_partition"};
    struct cache c;
    struct err e;
    err_clear(&e);
    const struct cache_policy_ops *ops;
    static struct param_set ps;
    assert_int_equal(cache_prepare(&g, &ops, &ps, "l1d", &e), WS_OK);
    void *priv = calloc(1, cache_priv_stride(&g, ops));
    assert_int_equal(cache_init(&c, &g, ops, &ps, priv, 0, "l1d", &e), WS_OK);
    struct cache_access a = {.warp = 1};
    struct cache_victim v;
    uint32_t way;
    /* tag 0 fills set 0 while ways 0..7 stay empty: never outside 8..15 */
    for (uint32_t i = 0; i < 12; i++) {
        a.tag = 0;
        a.line_addr = 2 * i;
        assert_int_equal(cache_allocate(&c, 0, a.line_addr << 7, &a, &way, &v), 0);
        assert_true(way >= 8 && way <= 15);
        assert_int_equal(v.valid, i >= 8); /* once its 8 ways are full: its own line */
        cache_fill(&c, 0, way);
    }
    for (uint32_t w = 0; w < 8; w++)
        assert_int_equal(c.state[w], CACHE_INVALID);
    /* tag 1 goes to 0..7 only and never evicts a tag-0 line */
    for (uint32_t i = 0; i < 10; i++) {
        a.tag = 1;
        a.line_addr = 1000 + 2 * i;
        assert_int_equal(cache_allocate(&c, 0, a.line_addr << 7, &a, &way, &v), 0);
        assert_true(way <= 7);
        assert_int_equal(v.valid, i >= 8);
        if (v.valid)
            assert_true(v.tag >> 7 >= 1000);
        cache_fill(&c, 0, way);
    }
    /* tag 2 has no partition: refused, nothing changes */
    a.tag = 2;
    assert_int_equal(cache_allocate(&c, 1, 4096, &a, &way, &v), CACHE_ALLOC_REFUSED);
    for (uint32_t w = 0; w < 16; w++)
        assert_int_equal(c.state[16 + w], CACHE_INVALID);
    cache_fini(&c);
    free(priv);

    /* through the L1D: a refused miss is served without a line (no
     * eviction, no MSHR), so the same load misses again */
    struct fx f;
    tiny_config(&f.cfg);
    f.cfg.l1d.assoc = 16;
    snprintf(f.cfg.l1d.policy, sizeof f.cfg.l1d.policy, "test_partition");
    fx_open(&f);
    f.skip = 1;
    fx_run(&f, tagged(load_inst(0, 1, 0, GBASE, 1), 0x40, 2));
    fx_run(&f, tagged(load_inst(0, 1, 0, GBASE, 1), 0x40, 2));
    assert_int_equal(stat(&f, "l1d_misses"), 2);
    assert_int_equal(stat(&f, "l1d_hits"), 0);
    fx_run(&f, tagged(load_inst(0, 1, 0, GBASE, 1), 0x40, 0));
    fx_run(&f, tagged(load_inst(0, 1, 0, GBASE, 1), 0x40, 0));
    assert_int_equal(stat(&f, "l1d_misses"), 3);
    assert_int_equal(stat(&f, "l1d_hits"), 1);
    fx_close(&f);
}

/* ---- policy statistics ---------------------------------------------------- */

static void test_cache_policy_stats(void **state)
{
    (void)state;
    struct fx f;
    tiny_config(&f.cfg);
    snprintf(f.cfg.l1d.policy, sizeof f.cfg.l1d.policy, "brrip:epsilon=1");
    snprintf(f.cfg.l2.policy, sizeof f.cfg.l2.policy, "brrip");
    fx_open(&f);
    f.skip = 1;
    assert_int_equal(stat(&f, "l1d_brrip_inserts"), 0);
    assert_int_equal(stat(&f, "l2_brrip_inserts"), 0);
    for (uint32_t i = 0; i < 6; i++)
        fx_run(&f, load_inst(i % 2, i, 0, GBASE + i * 4096ull, 1));
    /* every L1D and L2 miss inserted a line, summed over SMs and slices */
    assert_int_equal(stat(&f, "l1d_brrip_inserts"), 6);
    assert_int_equal(stat(&f, "l1d_brrip_inserts"), stat(&f, "l1d_misses"));
    assert_int_equal(stat(&f, "l1d_brrip_inserts_long"), 6); /* epsilon = 1 */
    assert_int_equal(stat(&f, "l2_brrip_inserts"), stat(&f, "l2_misses"));
    assert_int_equal(stat(&f, "l2_brrip_inserts"), 6);
    double frac = 0;
    assert_int_equal(stats_get(f.st, "l1d_brrip_long_fraction", &frac), 0);
    assert_true(frac == 1.0);
    fx_close(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_l2_events_and_bypass),
        cmocka_unit_test(test_l2_rop_delay),
        cmocka_unit_test(test_l2_bypass_rop),
        cmocka_unit_test(test_dram_two_queues),
        cmocka_unit_test(test_partitioned_cache),
        cmocka_unit_test(test_cache_policy_stats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
