/* test_l2_banked.c: the banked L2 of MeDiC (SPEC-policies 7.6).
 * l2.input_ports: two reads from two SMs sent in the same cycle to one
 * sub-partition arrive one cycle apart through one port (the lookups one L2
 * cycle apart) and together through two (looked up in the same cycle, one
 * per bank).  l2.rotate: when both banks serve a hit in the same cycle the
 * reply of bank 0 always leaves first without rotation; with rotation the
 * bank served first, and so the first reply, alternates with the cycle.
 * l2_hit_divergence (MeDiC Fig. 7b): an instruction whose two L2 requests hit
 * in two banks waits for the slower one; when the other SM's requests queue
 * in one of the banks first, the gap between its first and last hit grows;
 * an instruction with a miss does not count.
 * l2.reply_queue (GPGPU-Sim's L2-to-icnt queue): four hits queued in one bank
 * are looked up on consecutive cycles while the reply queue is unbounded;
 * with room for one reply each lookup waits until the previous reply has
 * left the queue (its hit latency, then the reply network), and the waits
 * count in l2_reply_stalls.
 * l2.fill_queue (MeDiC's per-bank DRAM-to-L2 queues): with an L2 clock a
 * quarter of the core's, two DRAM returns ready in the same L2 cycle fill
 * together without the queues (their replies leave a core cycle apart, one
 * reply port); with them two fills for one bank are an L2 cycle (4 core
 * cycles) apart while fills for two banks still go together; a fill queue
 * of one return holds the channel's return ring, and so a later return for
 * the other bank, behind a second return for its bank (l2_fill_stalls); a
 * bypassed read's data waits at its queue's head while the reply queue is
 * full, and a fill of the other bank overtakes it. */
#include "timing/mem_fx.h"

#define LOG 8

struct lookups {
    uint64_t now[LOG];
    uint64_t addr[LOG];
    uint32_t n;
};

static void listener(void *ctx, const struct sched_event *ev)
{
    struct lookups *l = ctx;
    if (ev->kind == SCHED_EV_L2_ACCESS && l->n < LOG) {
        l->now[l->n] = ev->now;
        l->addr[l->n++] = ev->addr;
    }
}

/* Warm lines x (bank 0) and y (bank 1) of sub-partition 0 into the L2, wait
 * `delay` cycles, then SM 0 reads x and SM 1 reads y in the same cycle.
 * Returns the finish order (0: x first) and the cycles between the two
 * lookups. */
static int race(uint32_t ports, int rotate, uint32_t delay, uint64_t *gap)
{
    struct fx f;
    tiny_config(&f.cfg);
    f.cfg.l1d_enabled = 0;
    f.cfg.l2_input_ports = ports;
    f.cfg.l2_rotate = (uint32_t)rotate;
    fx_open(&f);
    const uint64_t x = GBASE, y = GBASE + 256; /* lines 0 and 2: sub 0, banks 0 and 1 */
    fx_run(&f, load_inst(0, 1, 0, x, 1));
    fx_run(&f, load_inst(0, 2, 0, y, 1));
    for (uint32_t i = 0; i < delay; i++) {
        int dummy = 0;
        fx_step(&f, 0, 0, &dummy);
    }
    struct lookups l0 = {0}, l1 = {0};
    memsys_set_listener(f.ms, 0, listener, &l0, ~0u);
    memsys_set_listener(f.ms, 1, listener, &l1, ~0u);
    struct mem_inst a = load_inst(0, 3, 0, x, 1), b = load_inst(1, 4, 0, y, 1);
    a.token = 101;
    b.token = 102;
    memsys_issue(f.ms, &a, f.now);
    memsys_issue(f.ms, &b, f.now);
    int order = -1, done = 0;
    uint64_t start = f.now;
    while (done < 2) {
        uint32_t tok;
        for (uint32_t s = 0; s < 2; s++)
            while (memsys_pop_done(f.ms, s, &tok)) {
                if (order < 0)
                    order = tok == 101 ? 0 : 1;
                done++;
            }
        memsys_cycle(f.ms, f.now);
        f.now++;
        assert_true(f.now - start < 10000);
    }
    assert_int_equal(l0.n, 1);
    assert_int_equal(l1.n, 1);
    assert_int_equal(stat(&f, "l2_hits"), 2);
    *gap = l0.now[0] > l1.now[0] ? l0.now[0] - l1.now[0] : l1.now[0] - l0.now[0];
    fx_close(&f);
    return order;
}

static void test_input_ports(void **state)
{
    (void)state;
    uint64_t gap;
    race(1, 0, 0, &gap);
    assert_int_equal(gap, 1);
    race(2, 0, 0, &gap);
    assert_int_equal(gap, 0);
}

static void test_rotate(void **state)
{
    (void)state;
    uint64_t gap;
    int seen[2] = {0, 0};
    for (uint32_t d = 0; d < 4; d++) {
        assert_int_equal(race(2, 0, d, &gap), 0); /* bank 0 first, whatever the cycle */
        assert_int_equal(gap, 0);
        seen[race(2, 1, d, &gap)]++;
        assert_int_equal(gap, 0);
    }
    assert_int_equal(seen[0], 2); /* rotation: each bank first on every other cycle */
    assert_int_equal(seen[1], 2);
}

/* One instruction of SM 0 reads lines x (bank 0) and y (bank 1), both L2
 * hits; before it, SM 1 sends `queued` reads to other lines of bank 0 (hits
 * too).  Returns the instruction's first-to-last hit gap. */
static uint64_t hit_gap(uint32_t queued)
{
    struct fx f;
    tiny_config(&f.cfg);
    f.cfg.l1d_enabled = 0;
    fx_open(&f);
    /* lines 4k (k = 0, 1, ...) of sub-partition 0 are in bank 0, x = line 0;
     * y = line 2 is in bank 1 */
    const uint64_t x = GBASE, y = GBASE + 256;
    for (uint32_t k = 0; k <= queued; k++)
        fx_run(&f, load_inst(1, 1, 0, GBASE + 512u * k, 1));
    fx_run(&f, load_inst(1, 2, 0, y, 1));
    uint64_t n0 = stat(&f, "l2_hit_divergence_count");
    struct mem_inst busy = load_inst(1, 3, 512, GBASE + 512, 0);
    busy.mask = (1u << queued) - 1; /* lines 4, 8, ...: bank 0 */
    struct mem_inst a = load_inst(0, 4, 0, x, 1);
    a.mask = 3;
    a.addr[1] = y;
    if (queued) {
        busy.token = 201;
        memsys_issue(f.ms, &busy, f.now);
    }
    fx_run(&f, a);
    for (int i = 0; i < 500; i++) {
        int dummy = 0;
        fx_step(&f, 0, 0, &dummy);
    }
    assert_int_equal(stat(&f, "l2_hit_divergence_count") - n0, queued ? 2 : 1);
    uint64_t gap = stat(&f, "l2_hit_divergence_max");
    fx_close(&f);
    return gap;
}

static void test_hit_divergence(void **state)
{
    (void)state;
    uint64_t g0 = hit_gap(0), g4 = hit_gap(4);
    /* all clocks equal: x and y leave the SM a cycle apart; behind SM 1's four
     * bank-0 requests (one port) x comes four cycles later still */
    assert_int_equal(g0, 1);
    assert_int_equal(g4, 5);
    /* a miss among its requests: not counted */
    struct fx f;
    tiny_config(&f.cfg);
    f.cfg.l1d_enabled = 0;
    fx_open(&f);
    fx_run(&f, load_inst(1, 1, 0, GBASE, 1));
    struct mem_inst a = load_inst(0, 4, 0, GBASE, 1);
    a.mask = 3;
    a.addr[1] = GBASE + 256; /* not in the L2 */
    fx_run(&f, a);
    assert_int_equal(stat(&f, "l2_hit_divergence_count"), 0);
    fx_close(&f);
}

/* Four lines of bank 0 of sub-partition 0 warmed into the L2, then one
 * instruction reads them all; the cycles between consecutive lookups. */
static void reply_gaps(uint32_t reply_queue, uint64_t gap[3], uint64_t *stalls)
{
    struct fx f;
    tiny_config(&f.cfg);
    f.cfg.l1d_enabled = 0;
    f.cfg.l2_reply_queue = reply_queue;
    fx_open(&f);
    for (uint32_t k = 0; k < 4; k++) /* lines 0, 4, 8, 12: bank 0 */
        fx_run(&f, load_inst(1, 1, 0, GBASE + 512u * k, 1));
    struct lookups l = {0};
    memsys_set_listener(f.ms, 0, listener, &l, ~0u);
    fx_run(&f, load_inst(0, 2, 512, GBASE, 0xf));
    assert_int_equal(l.n, 4);
    assert_int_equal(stat(&f, "l2_hits"), 4);
    for (int k = 0; k < 3; k++)
        gap[k] = l.now[k + 1] - l.now[k];
    *stalls = stat(&f, "l2_reply_stalls");
    fx_close(&f);
}

static void test_reply_queue(void **state)
{
    (void)state;
    uint64_t gap[3], stalls;
    reply_gaps(0, gap, &stalls);
    for (int k = 0; k < 3; k++)
        assert_int_equal(gap[k], 1);
    assert_int_equal(stalls, 0);
    reply_gaps(1, gap, &stalls);
    /* a reply is ready its hit latency (20) after the lookup and leaves for the
     * reply network in that cycle, after the cycle's lookups: the next lookup
     * is a cycle later, the 20 cycles before it stalled */
    for (int k = 0; k < 3; k++)
        assert_int_equal(gap[k], 21);
    assert_int_equal(stalls, 3 * 20);
}

/* SM k reads addr[k] (one line, issued at core cycle k) with L2 fill queues
 * of `fill_queue` returns (0: none).  The L2 runs at a quarter of the core
 * clock, the DRAM at four times it; a row activation of 64 DRAM cycles holds
 * the first read until all have reached DRAM, whose bus then moves a line
 * per DRAM cycle: the returns are ready within one L2 cycle.  A reply takes
 * one icnt (core) cycle on the reply network.  done[k]: the core cycle read
 * k completed. */
static void fill_race(uint32_t fill_queue, const uint64_t *addr, uint32_t n, uint64_t *done,
                      uint64_t *stalls, uint64_t *wait)
{
    struct fx f;
    tiny_config(&f.cfg);
    f.cfg.l1d_enabled = 0;
    f.cfg.n_sms = n;
    f.cfg.l2_mhz = 250.0;
    f.cfg.dram_mhz = 4000.0;
    f.cfg.icnt_flit_bytes = 256; /* a reply is one flit */
    f.cfg.l2_ports = 2;          /* both reads of one bank looked up in one L2 cycle */
    f.cfg.dram_bus_bytes = 32;   /* a line per DRAM cycle */
    f.cfg.tCCD = 1;
    f.cfg.tRCD = 70;
    f.cfg.tRAS = 86;
    f.cfg.tRC = 106;
    f.cfg.l2_fill_queue = fill_queue;
    fx_open(&f);
    uint32_t left = n, issued = 0;
    uint64_t start = f.now;
    while (left) {
        uint32_t tok;
        for (uint32_t s = 0; s < n; s++)
            while (memsys_pop_done(f.ms, s, &tok)) {
                assert_int_equal(tok, 301 + s);
                done[s] = f.now - start;
                left--;
            }
        if (issued < n) {
            struct mem_inst mi = load_inst(issued, 1, 0, addr[issued], 1);
            mi.token = 301 + issued;
            memsys_issue(f.ms, &mi, f.now);
            issued++;
        }
        memsys_cycle(f.ms, f.now);
        f.now++;
        assert_true(f.now - start < 10000);
    }
    assert_int_equal(stat(&f, "l2_misses"), n);
    *stalls = stat(&f, "l2_fill_stalls");
    *wait = stat(&f, "l2_fill_queue_latency_sum");
    assert_int_equal(stat(&f, "l2_fill_queue_latency_count"), fill_queue ? n : 0);
    fx_close(&f);
}

static void test_fill_queue(void **state)
{
    (void)state;
    /* sub-partition 0: lines 0 and 4 are in bank 0, line 2 in bank 1 */
    const uint64_t same[2] = {GBASE, GBASE + 512}, other[2] = {GBASE, GBASE + 256};
    uint64_t d[2], stalls, wait;
    fill_race(0, same, 2, d, &stalls, &wait); /* no queues: filled together */
    assert_int_equal(d[1] - d[0], 1);
    assert_int_equal(stalls + wait, 0);
    fill_race(0, other, 2, d, &stalls, &wait);
    assert_int_equal(d[1] - d[0], 1);
    fill_race(8, same, 2, d, &stalls, &wait); /* one bank: one fill per L2 cycle */
    assert_int_equal(d[1] - d[0], 4);
    assert_int_equal(wait, 1);
    assert_int_equal(stalls, 0);
    fill_race(8, other, 2, d, &stalls, &wait); /* two banks: together */
    assert_int_equal(d[1] - d[0], 1);
    assert_int_equal(wait, 0);
}

static void test_fill_queue_full(void **state)
{
    (void)state;
    /* returns A, B (bank 0) and C (bank 1) in that order */
    const uint64_t abc[3] = {GBASE, GBASE + 512, GBASE + 256};
    uint64_t d8[3], d1[3], stalls, wait;
    fill_race(8, abc, 3, d8, &stalls, &wait);
    /* A and C fill in one L2 cycle, B in the next */
    assert_int_equal(d8[2] - d8[0], 1);
    assert_int_equal(d8[1] - d8[0], 4);
    assert_int_equal(stalls, 0);
    assert_int_equal(wait, 1);
    fill_race(1, abc, 3, d1, &stalls, &wait);
    /* B waits in the return ring for bank 0's queue and C behind it: B and
     * C fill in the next L2 cycle, C's reply behind B's */
    assert_int_equal(d1[0], d8[0]);
    assert_int_equal(d1[1], d8[1]);
    assert_int_equal(d1[2] - d1[0], 5);
    assert_int_equal(stalls, 1);
    assert_int_equal(wait, 0);
}

/* At cycle 0 SM 1 reads line y (bank 0), bypassing the L2 (test_tagbypass,
 * tag 1); at cycle 20 SM 0 reads line h, an L2 hit whose reply then stays
 * its hit latency (20) in the reply queue, which holds one reply; at cycle
 * `dm` SM 2 reads line m (bank 1), an L2 miss.  Fill queues of `fill_queue`
 * returns.  done[]: the cycles the hit, the bypassed read and the miss
 * completed. */
static void bypass_race(uint32_t fill_queue, uint32_t dm, uint64_t done[3], uint64_t *wait)
{
    struct fx f;
    tiny_config(&f.cfg);
    f.cfg.n_sms = 3;
    f.cfg.l1d_enabled = 0;
    f.cfg.l2_reply_queue = 1;
    f.cfg.l2_fill_queue = fill_queue;
    snprintf(f.cfg.l2.policy, sizeof f.cfg.l2.policy, "test_tagbypass");
    fx_open(&f);
    /* sub-partition 0: h (line 0) and y (line 16) in bank 0, m (line 2) in
     * bank 1; h and m share a DRAM row, y is in another DRAM bank */
    const uint64_t h = GBASE, y = GBASE + 2048, m = GBASE + 256;
    fx_run(&f, load_inst(0, 1, 0, h, 1));
    struct mem_inst rh = load_inst(0, 3, 0, h, 1), ry = load_inst(1, 2, 0, y, 1),
                    rm = load_inst(2, 4, 0, m, 1);
    ry.policy_tag = 1;
    rh.token = 401;
    ry.token = 402;
    rm.token = 403;
    uint32_t left = 3;
    uint64_t start = f.now;
    memsys_issue(f.ms, &ry, f.now);
    while (left) {
        uint32_t tok;
        for (uint32_t s = 0; s < 3; s++)
            while (memsys_pop_done(f.ms, s, &tok)) {
                done[tok - 401] = f.now - start;
                left--;
            }
        if (f.now - start == 20)
            memsys_issue(f.ms, &rh, f.now);
        if (f.now - start == dm)
            memsys_issue(f.ms, &rm, f.now);
        memsys_cycle(f.ms, f.now);
        f.now++;
        assert_true(f.now - start < 10000);
    }
    assert_int_equal(stat(&f, "l2_bypasses"), 1);
    assert_int_equal(stat(&f, "l2_hits"), 1);
    assert_int_equal(stat(&f, "l2_misses"), 2);
    *wait = stat(&f, "l2_fill_queue_latency_sum");
    fx_close(&f);
}

static void test_fill_queue_bypass(void **state)
{
    (void)state;
    uint64_t d0[3], d8[3], w0, w8;
    bypass_race(0, 16, d0, &w0);
    bypass_race(8, 16, d8, &w8);
    /* without fill queues y's data enters the reply queue behind h's reply at
     * once, and m's fill after it */
    assert_true(d0[0] < d0[1] && d0[1] < d0[2]);
    assert_int_equal(w0, 0);
    /* with them y's data waits at the head of bank 0's queue until h's reply
     * has left, and m's fill in bank 1 goes first: m and y swap */
    assert_int_equal(d8[0], d0[0]);
    assert_int_equal(d8[2], d0[1]);
    assert_int_equal(d8[1], d0[2]);
    assert_int_equal(w8, 15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_input_ports),
                                       cmocka_unit_test(test_rotate),
                                       cmocka_unit_test(test_hit_divergence),
                                       cmocka_unit_test(test_reply_queue),
                                       cmocka_unit_test(test_fill_queue),
                                       cmocka_unit_test(test_fill_queue_full),
                                       cmocka_unit_test(test_fill_queue_bypass)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
