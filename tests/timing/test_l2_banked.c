/* test_l2_banked.c: the banked L2 of MeDiC (SPEC-policies 7.6).
 * l2.input_ports: two reads from two SMs sent in the same cycle to one
 * sub-partition arrive one cycle apart through one port (the lookups one L2
 * cycle apart) and together through two (looked up in the same cycle, one
 * per bank).  l2.rotate: when both banks serve a hit in the same cycle the
 * reply of bank 0 always leaves first without rotation; with rotation the
 * bank served first, and so the first reply, alternates with the cycle. */
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
    memsys_set_listener(f.ms, 0, listener, &l0);
    memsys_set_listener(f.ms, 1, listener, &l1);
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

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_input_ports),
                                       cmocka_unit_test(test_rotate)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
