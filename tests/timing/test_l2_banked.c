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
 * count in l2_reply_stalls. */
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

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_input_ports),
                                       cmocka_unit_test(test_rotate),
                                       cmocka_unit_test(test_hit_divergence),
                                       cmocka_unit_test(test_reply_queue)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
