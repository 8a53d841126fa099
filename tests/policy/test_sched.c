/* test_sched.c: the warp schedulers against their definitions
 * (SPEC-policies 2.1-2.4, 6.2-6.3): LRR rotation, GTO greed, oldest-first,
 * the two-level active set and Narasiman's fetch groups with the timeout. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policy/registry.h"

struct harness {
    const struct sched_ops *ops;
    void *priv;
    struct sched_view v;
    uint64_t age[SCHED_MAX_WARPS];
    uint32_t pc[SCHED_MAX_WARPS], active[SCHED_MAX_WARPS], cta[SCHED_MAX_WARPS];
};

static void h_open(struct harness *h, const char *spec, uint32_t nslots)
{
    struct param_set ps;
    struct err e;
    err_clear(&e);
    memset(h, 0, sizeof *h);
    assert_int_equal(registry_sched(spec, &h->ops, &ps, &e), WS_OK);
    h->priv = calloc(1, h->ops->priv_size ? h->ops->priv_size : 1);
    if (h->ops->init) {
        struct sched_init in = {.nslots = nslots, .n_units = 1};
        assert_int_equal(h->ops->init(h->priv, &ps, &in, &e), WS_OK);
    }
    for (uint32_t s = 0; s < nslots; s++) {
        h->age[s] = s;
        h->active[s] = 32;
    }
    h->v.nslots = nslots;
    h->v.valid = nslots >= 64 ? ~0ull : (1ull << nslots) - 1;
    h->v.age = h->age;
    h->v.pc = h->pc;
    h->v.active = h->active;
    h->v.cta = h->cta;
    h->v.last_issued = -1;
    for (uint32_t s = 0; s < nslots; s++) {
        struct sched_event ev = {.kind = SCHED_EV_WARP_LAUNCH, .slot = (int32_t)s, .age = s};
        if (h->ops->on_event)
            h->ops->on_event(h->priv, &ev);
    }
}

/* One cycle: pick, and if something was picked, issue it (event + last). */
static int h_cycle(struct harness *h)
{
    int p = h->ops->pick(h->priv, &h->v);
    if (p >= 0) {
        assert_true(h->v.ready >> p & 1);
        h->v.last_issued = p;
        struct sched_event ev = {.kind = SCHED_EV_ISSUE, .slot = p, .age = h->age[p],
                                 .now = h->v.now};
        if (h->ops->on_event)
            h->ops->on_event(h->priv, &ev);
    }
    h->v.now++;
    return p;
}

static void h_close(struct harness *h)
{
    free(h->priv);
}

static void test_lrr_rotates_after_last(void **state)
{
    (void)state;
    struct harness h;
    h_open(&h, "lrr", 8);
    h.v.ready = 0xff;
    for (int k = 0; k < 16; k++)
        assert_int_equal(h_cycle(&h), k % 8); /* 0,1,...,7,0,... */
    h.v.last_issued = 3;
    h.v.ready = (1u << 1) | (1u << 2) | (1u << 6);
    assert_int_equal(h_cycle(&h), 6); /* first ready after 3 */
    assert_int_equal(h_cycle(&h), 1); /* wraps */
    assert_int_equal(h_cycle(&h), 2);
    h.v.ready = 0;
    assert_int_equal(h_cycle(&h), -1);
    assert_int_equal(h.v.last_issued, 2); /* a cycle without issue does not move it */
    h.v.ready = 0xff;
    assert_int_equal(h_cycle(&h), 3);
    h_close(&h);
}

static void test_gto_greedy_then_oldest(void **state)
{
    (void)state;
    struct harness h;
    h_open(&h, "gto", 6);
    for (int s = 0; s < 6; s++)
        h.age[s] = (uint64_t)(10 - s); /* slot 5 is the oldest */
    h.v.ready = 0x3f;
    assert_int_equal(h_cycle(&h), 5); /* nothing issued yet: oldest */
    h.v.ready = 0x3f;
    h.v.last_issued = 2;
    for (int k = 0; k < 5; k++)
        assert_int_equal(h_cycle(&h), 2); /* greedy while ready */
    h.v.ready = 0x3f & ~(1u << 2) & ~(1u << 5);
    assert_int_equal(h_cycle(&h), 4); /* stalled: oldest ready */
    h.v.ready = 0x3f;
    assert_int_equal(h_cycle(&h), 4); /* greedy on the new warp */
    h_close(&h);
}

/* gCAWS (SPEC 8.2) on a hand-built ready set: the most critical ready warp
 * (warp_score), the oldest on ties, then greedy on it until it stalls;
 * greedy=0 (oracle CAWS) re-selects every cycle. */
static void test_gcaws_critical_then_greedy(void **state)
{
    (void)state;
    struct harness h;
    int64_t score[6] = {5, 9, 9, 1, 9, 0};
    h_open(&h, "gcaws", 6);
    for (int s = 0; s < 6; s++)
        h.age[s] = (uint64_t)(10 - s); /* slot 5 is the oldest */
    h.v.warp_score = score;
    h.v.ready = 0x3f;
    /* slots 1, 2, 4 tie at 9: slot 4 is the oldest of them */
    assert_int_equal(h_cycle(&h), 4);
    /* greedy: slot 4 keeps issuing though slot 1 becomes more critical */
    score[1] = 50;
    for (int k = 0; k < 4; k++)
        assert_int_equal(h_cycle(&h), 4);
    /* slot 4 stalls: the most critical ready warp, then greedy on it */
    h.v.ready = 0x3f & ~(1u << 4);
    assert_int_equal(h_cycle(&h), 1);
    score[2] = 99;
    h.v.ready = 0x3f;
    assert_int_equal(h_cycle(&h), 1);
    /* slot 1 stalls, slot 2 (99) is not ready: slot 0 (5) beats 3 and 5 */
    h.v.ready = (1u << 0) | (1u << 3) | (1u << 5);
    assert_int_equal(h_cycle(&h), 0);
    /* nothing ready: nothing issues */
    h.v.ready = 0;
    assert_int_equal(h_cycle(&h), -1);
    h_close(&h);

    /* greedy=0: the most critical ready warp every cycle */
    int64_t score2[4] = {3, 7, 2, 7};
    h_open(&h, "gcaws:greedy=0", 4);
    for (int s = 0; s < 4; s++)
        h.age[s] = (uint64_t)s; /* slot 0 is the oldest */
    h.v.warp_score = score2;
    h.v.ready = 0xf;
    assert_int_equal(h_cycle(&h), 1); /* 1 and 3 tie at 7: 1 is older */
    score2[3] = 8;
    assert_int_equal(h_cycle(&h), 3); /* no greed: 3 is now the most critical */
    h_close(&h);

    /* without a classifier (all scores 0) gcaws is GTO */
    int64_t zero[6] = {0};
    h_open(&h, "gcaws", 6);
    for (int s = 0; s < 6; s++)
        h.age[s] = (uint64_t)(10 - s);
    h.v.warp_score = zero;
    h.v.ready = 0x3f;
    assert_int_equal(h_cycle(&h), 5);
    h.v.ready = 0x3f & ~(1u << 5);
    assert_int_equal(h_cycle(&h), 4);
    h_close(&h);
}

static void test_oldest_first(void **state)
{
    (void)state;
    struct harness h;
    h_open(&h, "oldest", 6);
    uint64_t ages[6] = {7, 3, 9, 1, 4, 2};
    memcpy(h.age, ages, sizeof ages);
    h.v.ready = 0x3f;
    assert_int_equal(h_cycle(&h), 3);
    assert_int_equal(h_cycle(&h), 3); /* no greed needed: still the oldest */
    h.v.ready = 0x3f & ~(1u << 3);
    assert_int_equal(h_cycle(&h), 5);
    h.v.last_issued = 0;
    assert_int_equal(h_cycle(&h), 5); /* last issued gets no priority */
    h_close(&h);
}

static void test_two_level_active_set(void **state)
{
    (void)state;
    struct harness h;
    h_open(&h, "two_level_active:active=2", 6);
    h.v.ready = 0x3f;
    uint64_t seen = 0;
    int prev = -1;
    for (int k = 0; k < 20; k++) {
        int p = h_cycle(&h);
        assert_true(p == 0 || p == 1); /* only the first A warps are active */
        assert_int_not_equal(p, prev);  /* inner LRR rotates the active vector */
        prev = p;
        seen |= 1ull << p;
    }
    assert_int_equal(seen, 0x3);

    /* warp 0 waits on a long-latency load: it leaves, warp 2 (pending front) enters */
    h.v.long_op_pending = 1u << 0;
    h.v.ready = 0x3f & ~1u;
    seen = 0;
    for (int k = 0; k < 10; k++)
        seen |= 1ull << h_cycle(&h);
    assert_int_equal(seen, (1u << 1) | (1u << 2));

    /* warp 0 is ready again but now pending: held back while 1, 2 are active */
    h.v.long_op_pending = 0;
    h.v.ready = 0x3f;
    seen = 0;
    for (int k = 0; k < 10; k++)
        seen |= 1ull << h_cycle(&h);
    assert_int_equal(seen, (1u << 1) | (1u << 2));

    /* only pending warps are ready: the policy holds them back */
    h.v.ready = (1u << 0) | (1u << 3);
    assert_int_equal(h_cycle(&h), -1);

    /* warps 1 and 2 stall at a barrier and on a load: 3 and 4 come in (FIFO), not 0 */
    h.v.at_barrier = 1u << 1;
    h.v.long_op_pending = 1u << 2;
    h.v.ready = 0x3f & ~0x6u;
    seen = 0;
    for (int k = 0; k < 10; k++)
        seen |= 1ull << h_cycle(&h);
    assert_int_equal(seen, (1u << 3) | (1u << 4));
    h_close(&h);
}

static void test_two_level_active_gto_orders(void **state)
{
    (void)state;
    struct harness h;
    /* outer=gto promotes the oldest pending warp; inner=gto stays greedy */
    h_open(&h, "two_level_active:active=2,inner=gto,outer=gto", 6);
    for (int s = 0; s < 6; s++)
        h.age[s] = (uint64_t)(10 - s);
    h.v.ready = 0x3f;
    for (int k = 0; k < 4; k++)
        assert_int_equal(h_cycle(&h), 5); /* active {5, 4}: oldest, then greedy */
    h.v.long_op_pending = 1u << 5;
    h.v.ready = 0x1f;
    assert_int_equal(h_cycle(&h), 4); /* 5 demoted: oldest of the active set */
    h.v.ready = 0x0f;
    assert_int_equal(h_cycle(&h), 3); /* the oldest pending warp (3) was promoted */
    h.v.ready = 0x07;
    assert_int_equal(h_cycle(&h), -1); /* 0..2 are still pending: held back */
    h_close(&h);

    /* outer=lrr: the FIFO promotes slot order, so {0, 1} are active */
    h_open(&h, "two_level_active:active=2,inner=gto", 6);
    for (int s = 0; s < 6; s++)
        h.age[s] = (uint64_t)(10 - s);
    h.v.ready = 0x3f;
    assert_int_equal(h_cycle(&h), 1);
    assert_int_equal(h_cycle(&h), 1);
    h_close(&h);
}

/* release=3.2.0 (GPGPU-Sim 3.2.0's tl:N): a long-latency wait does not demote,
 * a barrier does, one warp a cycle, and the first pending warp that is not
 * waiting is promoted, one a cycle, also over cycles without a pick */
static void test_two_level_active_320(void **state)
{
    (void)state;
    struct harness h;
    h_open(&h, "two_level_active:active=2,release=3.2.0", 6);
    h.v.ready = 0x3f;
    /* one promotion a cycle: 0 alone first, so 0 issues twice before 1 */
    assert_int_equal(h_cycle(&h), 0);
    assert_int_equal(h_cycle(&h), 0); /* 1 came in behind 0 */
    assert_int_equal(h_cycle(&h), 1);

    /* warp 0 waits on a load: it stays active (3.2.0's long-op test never matched) */
    h.v.long_op_pending = 1u << 0;
    h.v.ready = 0x3f & ~1u;
    for (int k = 0; k < 4; k++)
        assert_int_equal(h_cycle(&h), 1);

    /* warps 0, 1 and 2 reach a barrier: one leaves per cycle (0 first, the
     * active order is {0, 1}); the pending front (2) waits, so 3 comes in */
    h.v.long_op_pending = 0;
    h.v.at_barrier = (1u << 0) | (1u << 1) | (1u << 2);
    h.v.ready = 0x38;
    assert_int_equal(h_cycle(&h), 3); /* active {1, 3} */
    /* warp 1 is released before its turn to leave: still active, it issues */
    h.v.at_barrier &= ~(1u << 1);
    h.v.ready |= 1u << 1;
    assert_int_equal(h_cycle(&h), 1);
    h_close(&h);

    /* every pending warp waits: nothing is promoted, not even the FIFO's front */
    h_open(&h, "two_level_active:active=2,release=3.2.0", 4);
    h.v.ready = 0x1;
    assert_int_equal(h_cycle(&h), 0);
    h.v.at_barrier = 0xe;
    h.v.ready = 0x2;
    for (int k = 0; k < 4; k++)
        assert_int_equal(h_cycle(&h), -1);
    h_close(&h);

    /* cycles without a pick count: 10 cycles later two more warps are active */
    h_open(&h, "two_level_active:active=3,release=3.2.0", 6);
    h.v.ready = 0x1;
    assert_int_equal(h_cycle(&h), 0);
    h.v.now += 10;
    h.v.ready = 0x4;
    assert_int_equal(h_cycle(&h), 2);
    h_close(&h);

    /* release=3.2.0 promotes only from a FIFO */
    struct param_set ps;
    struct err e;
    err_clear(&e);
    const struct sched_ops *ops;
    assert_int_equal(registry_sched("two_level_active:release=3.2.0,outer=gto", &ops, &ps, &e),
                     WS_OK);
    void *priv = calloc(1, ops->priv_size);
    struct sched_init in = {.nslots = 6, .n_units = 1};
    assert_int_equal(ops->init(priv, &ps, &in, &e), WS_ERR_INVALID);
    assert_non_null(strstr(e.msg, "release=3.2.0 needs outer=lrr"));
    free(priv);
}

static void test_two_level_fg_groups(void **state)
{
    (void)state;
    struct harness h;
    h_open(&h, "two_level_fg:group=2", 6); /* groups {0,1} {2,3} {4,5} */
    h.v.ready = 0x3f;
    for (int k = 0; k < 10; k++)
        assert_int_equal(h_cycle(&h), k % 2); /* round robin inside group 0 */

    /* group 0 stalls on long-latency loads: priority moves to group 1 */
    h.v.long_op_pending = 0x3;
    h.v.ready = 0x3c;
    assert_int_equal(h_cycle(&h), 2);
    assert_int_equal(h_cycle(&h), 3);
    /* group 0 ready again, group 1 not stalled: priority stays with group 1 */
    h.v.long_op_pending = 0;
    h.v.ready = 0x3f;
    for (int k = 0; k < 6; k++)
        assert_int_equal(h_cycle(&h), 2 + k % 2);

    /* group 1 has a short (not long-latency) hazard this cycle: a lower group
     * issues, but group 1 keeps priority */
    h.v.ready = 0x33;
    int p = h_cycle(&h);
    assert_true(p == 4 || p == 5 || p == 0 || p == 1);
    assert_int_equal(p, 4); /* next group in round-robin order */
    h.v.ready = 0x3f;
    int q = h_cycle(&h);
    assert_true(q == 2 || q == 3);

    /* group 1 stalls: round robin to group 2 */
    h.v.long_op_pending = 0x0c;
    h.v.ready = 0x33;
    q = h_cycle(&h);
    assert_true(q == 4 || q == 5);
    h_close(&h);
}

static void test_two_level_fg_timeout(void **state)
{
    (void)state;
    struct harness h;
    h_open(&h, "two_level_fg", 16); /* defaults: group 8, timeout 32768 */
    h.v.ready = 0xffff;
    for (int k = 0; k < 32768; k++) {
        int p = h_cycle(&h);
        assert_true(p >= 0 && p < 8);
    }
    int p = h_cycle(&h); /* 32K instructions issued: forced switch */
    assert_true(p >= 8 && p < 16);
    for (int k = 0; k < 100; k++) {
        p = h_cycle(&h);
        assert_true(p >= 8 && p < 16);
    }
    h_close(&h);

    h_open(&h, "two_level_fg:group=4,timeout=5", 8);
    h.v.ready = 0xff;
    int groups[20];
    for (int k = 0; k < 20; k++)
        groups[k] = h_cycle(&h) / 4;
    for (int k = 0; k < 20; k++)
        assert_int_equal(groups[k], (k / 5) % 2);
    h_close(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lrr_rotates_after_last),
        cmocka_unit_test(test_gto_greedy_then_oldest),
        cmocka_unit_test(test_gcaws_critical_then_greedy),
        cmocka_unit_test(test_oldest_first),
        cmocka_unit_test(test_two_level_active_set),
        cmocka_unit_test(test_two_level_active_gto_orders),
        cmocka_unit_test(test_two_level_active_320),
        cmocka_unit_test(test_two_level_fg_groups),
        cmocka_unit_test(test_two_level_fg_timeout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
