/* test_paws.c: the Phase-aware schedulers (Awatramani et al. PACT 2015;
 * SPEC-policies 5.2) on hand-built warps: the single level picks the smallest
 * phase distance, oldest on ties, with distances saturating at 512; the two
 * level keeps a ready queue of `ready` warps served round robin, moves a
 * ready warp whose next instruction waits on a long-latency load (not one
 * that merely has a load outstanding) to pending, brings it back to
 * the tail of active when its loads are done, and orders active by rr (no
 * sort), gto (launch order) or phase (shortest phase at the warp's PC). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/phase.h"
#include "policy/registry.h"
#include "ptx/ir.h"

#define NPC 16

struct harness {
    const struct sched_ops *ops;
    void *priv;
    struct sched_view v;
    uint64_t age[SCHED_MAX_WARPS];
    uint32_t pc[SCHED_MAX_WARPS], active[SCHED_MAX_WARPS], cta[SCHED_MAX_WARPS];
    struct ptx_module m;
    struct pc_phase phase[NPC];
    struct sched_kernel k;
};

/* Open `spec` over n warps (slot s has age s, PC 0); PC i has phase
 * distance dist[i] and length len[i]. */
static void h_open(struct harness *h, const char *spec, uint32_t n, const uint16_t *dist,
                   const uint16_t *len)
{
    struct param_set ps;
    struct err e;
    err_clear(&e);
    memset(h, 0, sizeof *h);
    assert_int_equal(registry_sched(spec, &h->ops, &ps, &e), WS_OK);
    h->priv = calloc(1, h->ops->priv_size ? h->ops->priv_size : 1);
    if (h->ops->init) {
        struct sched_init in = {.nslots = n, .n_units = 1};
        assert_int_equal(h->ops->init(h->priv, &ps, &in, &e), WS_OK);
    }
    for (uint32_t s = 0; s < n; s++) {
        h->age[s] = s;
        h->active[s] = 32;
    }
    for (uint32_t i = 0; i < NPC; i++) {
        h->phase[i].dist = dist ? dist[i] : 1;
        h->phase[i].len = len ? len[i] : 1;
    }
    h->v.nslots = n;
    h->v.valid = (1ull << n) - 1;
    h->v.age = h->age;
    h->v.pc = h->pc;
    h->v.active = h->active;
    h->v.cta = h->cta;
    h->v.last_issued = -1;
    h->m.ninsts = NPC;
    h->k.m = &h->m;
    h->k.phase = h->phase;
    struct sched_event ks = {.kind = SCHED_EV_KERNEL_START, .slot = -1, .kernel = &h->k};
    h->ops->on_event(h->priv, &ks);
    for (uint32_t s = 0; s < n; s++) {
        struct sched_event ev = {.kind = SCHED_EV_WARP_LAUNCH, .slot = (int32_t)s, .age = s};
        h->ops->on_event(h->priv, &ev);
    }
}

static int h_cycle(struct harness *h)
{
    int p = h->ops->pick(h->priv, &h->v);
    if (p >= 0) {
        assert_true(h->v.ready >> p & 1);
        h->v.last_issued = p;
        struct sched_event ev = {.kind = SCHED_EV_ISSUE, .slot = p, .age = h->age[p]};
        h->ops->on_event(h->priv, &ev);
    }
    h->v.now++;
    return p;
}

static void h_close(struct harness *h)
{
    free(h->priv);
}

static void test_single_smallest_distance(void **state)
{
    (void)state;
    static const uint16_t dist[NPC] = {40, 12, 12, 3, 700, 512, 90};
    struct harness h;
    h_open(&h, "paws", 4, dist, NULL);
    h.v.ready = 0xf;
    h.pc[0] = 0; /* 40 */
    h.pc[1] = 1; /* 12 */
    h.pc[2] = 2; /* 12 */
    h.pc[3] = 6; /* 90 */
    /* smallest distance: slots 1 and 2 tie at 12, the older (1) issues */
    assert_int_equal(h_cycle(&h), 1);
    /* no greed: slot 1 still wins while it is closest to its phase end */
    assert_int_equal(h_cycle(&h), 1);
    /* the closest warp is not ready: the next closest among the ready ones */
    h.pc[3] = 3; /* 3 */
    h.v.ready = 0x7;
    assert_int_equal(h_cycle(&h), 1);
    h.v.ready = 0xf;
    assert_int_equal(h_cycle(&h), 3);
    /* saturation at 512: 700 and 512 tie, so the older warp wins */
    h.pc[0] = 4; /* 700 -> 512 */
    h.pc[1] = 5; /* 512 */
    h.v.ready = 0x3;
    assert_int_equal(h_cycle(&h), 0);
    h.age[0] = 9; /* now younger: slot 1 */
    assert_int_equal(h_cycle(&h), 1);
    h.v.ready = 0;
    assert_int_equal(h_cycle(&h), -1);
    h_close(&h);
}

/* Issue n cycles and return the set of slots that issued. */
static uint64_t issued_set(struct harness *h, int n)
{
    uint64_t set = 0;
    for (int i = 0; i < n; i++) {
        int p = h_cycle(h);
        if (p >= 0)
            set |= 1ull << p;
    }
    return set;
}

static void test_two_level_ready_queue(void **state)
{
    (void)state;
    struct harness h;
    h_open(&h, "paws_2l:ready=2,prio=rr", 5, NULL, NULL);
    h.v.ready = 0x1f;
    /* only the first two launched warps are in the ready queue, served RR */
    assert_int_equal(h_cycle(&h), 0);
    assert_int_equal(h_cycle(&h), 1);
    assert_int_equal(h_cycle(&h), 0);
    assert_int_equal(h_cycle(&h), 1);
    /* slot 0 has a load outstanding but its next instruction does not need it:
     * it stays */
    h.v.long_op_pending = 0x1;
    assert_int_equal(issued_set(&h, 4), 0x3);
    /* slot 0's next instruction needs the load: pending; the head of active
     * (2) takes its place */
    h.v.next_waits_long = 0x1;
    h.v.ready = 0x1e;
    assert_int_equal(issued_set(&h, 4), 0x6);
    /* a short (non-long-latency) stall does not demote: slot 1 stays */
    h.v.ready = 0x1c;
    assert_int_equal(issued_set(&h, 3), 0x4);
    h.v.ready = 0x1e;
    assert_int_equal(issued_set(&h, 2), 0x6);
    /* slot 0's load is done: it joins the tail of active, behind 3 and 4 */
    h.v.long_op_pending = h.v.next_waits_long = 0;
    h.v.ready = 0x1f;
    assert_int_equal(issued_set(&h, 4), 0x6);
    h.v.at_barrier = 0x6; /* both ready warps wait at a barrier */
    h.v.ready = 0x19;
    assert_int_equal(issued_set(&h, 4), 0x18); /* 3 and 4 come in, not 0 */
    h_close(&h);
}

/* With prio=gto a warp coming back from pending goes before younger active
 * warps; with rr it waits behind them. */
static void test_two_level_gto_sorts(void **state)
{
    (void)state;
    for (int gto = 0; gto < 2; gto++) {
        struct harness h;
        h_open(&h, gto ? "paws_2l:ready=1,prio=gto" : "paws_2l:ready=1,prio=rr", 4, NULL,
               NULL);
        h.v.ready = 0xf;
        assert_int_equal(h_cycle(&h), 0);
        h.v.long_op_pending = h.v.next_waits_long = 0x1; /* 0 -> pending, 1 in */
        h.v.ready = 0xe;
        assert_int_equal(h_cycle(&h), 1);
        h.v.long_op_pending = h.v.next_waits_long = 0x2; /* 0 back, 1 -> pending */
        h.v.ready = 0xd;
        assert_int_equal(h_cycle(&h), gto ? 0 : 2);
        h_close(&h);
    }
}

/* prio=phase: active warps enter the ready queue shortest next phase first,
 * older first on equal lengths. */
static void test_two_level_phase_sorts(void **state)
{
    (void)state;
    static const uint16_t len[NPC] = {5, 50, 10, 30, 10};
    struct harness h;
    h_open(&h, "paws_2l:ready=1", 5, NULL, len);
    h.pc[1] = 1; /* 50 */
    h.pc[2] = 2; /* 10 */
    h.pc[3] = 3; /* 30 */
    h.pc[4] = 4; /* 10 */
    h.v.ready = 0x1f;
    /* the queue is sorted as warps join active: at the first pick all PCs
     * are set, slot 0 (length 5) comes first */
    assert_int_equal(h_cycle(&h), 0);
    /* each ready warp in turn waits on a load: the next comes in */
    static const int order[] = {2, 4, 3, 1};
    uint64_t pend = 0x1;
    for (int i = 0; i < 4; i++) {
        h.v.long_op_pending = h.v.next_waits_long = pend;
        h.v.ready = 0x1f & ~pend;
        int p = h_cycle(&h);
        assert_int_equal(p, order[i]);
        pend |= 1ull << p;
    }
    h_close(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_smallest_distance),
        cmocka_unit_test(test_two_level_ready_queue),
        cmocka_unit_test(test_two_level_gto_sorts),
        cmocka_unit_test(test_two_level_phase_sorts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
