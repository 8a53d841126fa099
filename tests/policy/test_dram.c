/* test_dram.c: FR-FCFS serves a younger row hit before an older row miss
 * (Rixner ISCA 2000; SPEC-policies 1.4), FCFS does not; neither serves a
 * bank that is not ready. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policy/registry.h"

struct dsched {
    const struct dram_sched_ops *ops;
    void *priv;
};

static void d_open(struct dsched *d, const char *spec)
{
    struct param_set ps;
    struct err e;
    err_clear(&e);
    assert_int_equal(registry_dram(spec, &d->ops, &ps, &e), WS_OK);
    d->priv = calloc(1, d->ops->priv_size ? d->ops->priv_size : 1);
    if (d->ops->init)
        assert_int_equal(d->ops->init(d->priv, &ps, 4, &e), WS_OK);
}

/* Four queued requests, arrival order:
 *   0: bank 0, row 5 (miss: bank 0 has row 1 open), t=10
 *   1: bank 1, row 2 (bank 1 is busy),              t=11
 *   2: bank 0, row 1 (hit),                          t=12
 *   3: bank 2, row 7 (hit),                          t=13 */
static const uint32_t bank[] = {0, 1, 0, 2};
static const uint32_t row[] = {5, 2, 1, 7};
static const uint64_t arrival[] = {10, 11, 12, 13};
static const uint8_t is_write[] = {0, 0, 0, 1};
static const uint32_t tag[] = {0, 0, 0, 0};
static const int64_t open_row[] = {1, 2, 7, -1};

static struct dram_view view(const uint8_t *ready, uint32_t n)
{
    struct dram_view v = {.n = n, .bank = bank, .row = row, .arrival = arrival,
                          .is_write = is_write, .tag = tag, .bank_ready = ready,
                          .open_row = open_row, .n_banks = 4, .now = 20};
    return v;
}

static void test_frfcfs_row_hit_first(void **state)
{
    (void)state;
    struct dsched d;
    d_open(&d, "frfcfs");
    static const uint8_t all[] = {1, 1, 1, 1};
    struct dram_view v = view(all, 4);
    assert_int_equal(d.ops->pick(d.priv, &v), 1); /* oldest hit (bank 1, row 2) */
    static const uint8_t no1[] = {1, 0, 1, 1};
    v = view(no1, 4);
    assert_int_equal(d.ops->pick(d.priv, &v), 2); /* younger hit beats older miss 0 */
    static const uint8_t only0[] = {1, 0, 0, 0};
    v = view(only0, 4);
    assert_int_equal(d.ops->pick(d.priv, &v), 2); /* same bank: the hit still wins */
    v = view(only0, 1); /* only the miss is queued */
    assert_int_equal(d.ops->pick(d.priv, &v), 0);
    static const uint8_t none[] = {0, 0, 0, 0};
    v = view(none, 4);
    assert_int_equal(d.ops->pick(d.priv, &v), -1);
    v = view(all, 0);
    assert_int_equal(d.ops->pick(d.priv, &v), -1);
    free(d.priv);
}

static void test_fcfs_oldest_first(void **state)
{
    (void)state;
    struct dsched d;
    d_open(&d, "fcfs");
    static const uint8_t no1[] = {1, 0, 1, 1};
    struct dram_view v = view(no1, 4);
    assert_int_equal(d.ops->pick(d.priv, &v), 0); /* the older miss, not the hit */
    static const uint8_t no0[] = {0, 1, 1, 1};
    v = view(no0, 4);
    assert_int_equal(d.ops->pick(d.priv, &v), -1); /* head of line waits for its bank */
    free(d.priv);

    d_open(&d, "fcfs:blocking=0");
    v = view(no0, 4);
    assert_int_equal(d.ops->pick(d.priv, &v), 1); /* oldest among ready banks */
    static const uint8_t only3[] = {0, 0, 1, 0};
    v = view(only3, 4);
    assert_int_equal(d.ops->pick(d.priv, &v), 3);
    free(d.priv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frfcfs_row_hit_first),
        cmocka_unit_test(test_fcfs_oldest_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
