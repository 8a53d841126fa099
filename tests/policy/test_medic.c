/* test_medic.c: MeDiC warp-type identification (src/policy/classify/medic.c,
 * SPEC-policies 7.1-7.3) driven by hand-made L2 lookups: the type boundaries
 * at 30 profiled accesses (70 % mostly-hit and 20 % mostly-miss, closed;
 * all-hit and all-miss exact), no type and no bypass while profiling, the
 * 10-bit counters halving at 512 accesses (which moves the 70 % crossing from
 * 488 to 244 further hits), the 100k-cycle reset and re-profiling, the type
 * belonging to the slot (or, per_warp=1, a new warp starting over and its
 * predecessor's lookups dropped), writes not counted, and the boundary
 * tuning by the epoch's miss rate. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policy/medic_tag.h"
#include "policy/registry.h"

#define SLOTS 8

struct cls {
    const struct classify_ops *ops;
    void *priv;
    uint32_t tags[SLOTS];
    int64_t scores[SLOTS];
    struct classify_board board;
    uint64_t now;
};

static void cls_open(struct cls *c, const char *spec)
{
    struct param_set ps;
    struct err e;
    err_clear(&e);
    memset(c, 0, sizeof *c);
    assert_int_equal(registry_classify(spec, &c->ops, &ps, &e), WS_OK);
    c->priv = calloc(1, c->ops->priv_size);
    c->board = (struct classify_board){.n_units = 1, .tag = c->tags, .score = c->scores};
    struct classify_init in = {.nslots = SLOTS, .sm = 0, .n_units = 1, .board = &c->board};
    assert_int_equal(c->ops->init(c->priv, &ps, &in, &e), WS_OK);
    for (int32_t s = 0; s < SLOTS; s++) {
        struct sched_event ev = {.kind = SCHED_EV_WARP_LAUNCH, .slot = s, .age = 100u + (uint64_t)s};
        c->ops->on_event(c->priv, &ev);
    }
}

static void lookup(struct cls *c, int32_t slot, int hit, int is_write)
{
    struct sched_event ev = {.kind = SCHED_EV_L2_ACCESS, .slot = slot, .age = 100u + (uint64_t)slot,
                             .hit = (uint8_t)hit, .is_write = (uint8_t)is_write, .now = c->now};
    c->ops->on_event(c->priv, &ev);
}

/* n lookups of slot, the first `hits` of them hits */
static void lookups(struct cls *c, int32_t slot, uint32_t hits, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        lookup(c, slot, i < hits, 0);
}

static uint32_t tag(struct cls *c, uint32_t slot)
{
    struct classify_req r = {.slot = slot, .age = 100u + slot, .now = c->now};
    return c->ops->tag(c->priv, &r);
}

/* Type and tag after 30 lookups with `hits` hits in a fresh classifier. */
static uint32_t typed(const char *spec, uint32_t hits)
{
    struct cls c;
    cls_open(&c, spec);
    lookups(&c, 0, hits, 30);
    uint32_t t = tag(&c, 0);
    assert_int_equal(c.tags[0], t); /* published for the schedulers too */
    assert_int_equal(c.scores[0], 1000 * hits / 30);
    free(c.priv);
    return t;
}

static void test_boundaries(void **state)
{
    (void)state;
    const uint32_t B = MEDIC_TAG_BYPASS;
    assert_int_equal(typed("medic", 30), MEDIC_ALL_HIT);
    assert_int_equal(typed("medic", 29), MEDIC_MOSTLY_HIT);
    assert_int_equal(typed("medic", 21), MEDIC_MOSTLY_HIT); /* exactly 70 % */
    assert_int_equal(typed("medic", 20), MEDIC_BALANCED);   /* 66.7 % */
    assert_int_equal(typed("medic", 7), MEDIC_BALANCED);    /* 23.3 % */
    assert_int_equal(typed("medic", 6), MEDIC_MOSTLY_MISS | B); /* exactly 20 % */
    assert_int_equal(typed("medic", 1), MEDIC_MOSTLY_MISS | B);
    assert_int_equal(typed("medic", 0), MEDIC_ALL_MISS | B);
    /* without WByp the type is carried, the bypass bit is not */
    assert_int_equal(typed("medic:bypass=0", 0), MEDIC_ALL_MISS);
    assert_int_equal(typed("medic:bypass=0", 6), MEDIC_MOSTLY_MISS);
}

static void test_profiling(void **state)
{
    (void)state;
    struct cls c;
    cls_open(&c, "medic");
    lookups(&c, 0, 0, 29);
    assert_int_equal(tag(&c, 0), MEDIC_UNKNOWN); /* 29 misses: still profiling */
    /* stores and atomics do not count */
    lookup(&c, 0, 0, 1);
    assert_int_equal(tag(&c, 0), MEDIC_UNKNOWN);
    lookup(&c, 0, 0, 0);
    assert_int_equal(tag(&c, 0), MEDIC_ALL_MISS | MEDIC_TAG_BYPASS);
    /* the type stays until the next reset (retype=0): 70 hits do not move it */
    lookups(&c, 0, 70, 70);
    assert_int_equal(tag(&c, 0), MEDIC_ALL_MISS | MEDIC_TAG_BYPASS);
    /* a new warp in the slot inherits the slot's type */
    struct sched_event l = {.kind = SCHED_EV_WARP_LAUNCH, .slot = 0, .age = 100};
    c.ops->on_event(c.priv, &l);
    assert_int_equal(tag(&c, 0), MEDIC_ALL_MISS | MEDIC_TAG_BYPASS);
    free(c.priv);
    /* per_warp=1: it starts profiling, and its predecessor's lookups are dropped */
    cls_open(&c, "medic:per_warp=1");
    lookups(&c, 0, 0, 30);
    assert_int_equal(tag(&c, 0), MEDIC_ALL_MISS | MEDIC_TAG_BYPASS);
    c.ops->on_event(c.priv, &l);
    assert_int_equal(tag(&c, 0), MEDIC_UNKNOWN);
    lookups(&c, 1, 0, 29);
    struct sched_event old = {.kind = SCHED_EV_L2_ACCESS, .slot = 1, .age = 7};
    c.ops->on_event(c.priv, &old);
    assert_int_equal(tag(&c, 1), MEDIC_UNKNOWN);
    free(c.priv);
}

static void test_halving(void **state)
{
    (void)state;
    struct cls c;
    cls_open(&c, "medic:retype=1");
    lookups(&c, 0, 0, 300);
    lookups(&c, 0, 211, 211); /* 211 / 511 */
    assert_int_equal(c.scores[0], 1000 * 211 / 511);
    assert_int_equal(tag(&c, 0), MEDIC_BALANCED);
    lookup(&c, 0, 1, 0); /* 212 / 512: the MSB is set, both halve to 106 / 256 */
    assert_int_equal(c.scores[0], 1000 * 106 / 256);
    /* 70 % now needs 244 more hits (unhalved it would need 488) */
    lookups(&c, 0, 243, 243);
    assert_int_equal(tag(&c, 0), MEDIC_BALANCED); /* 349 / 499 */
    lookup(&c, 0, 1, 0);
    assert_int_equal(tag(&c, 0), MEDIC_MOSTLY_HIT); /* 350 / 500 */
    assert_int_equal(c.scores[0], 700);
    /* an all-miss warp's single hit is lost in the halving */
    lookups(&c, 1, 0, 511);
    assert_int_equal(tag(&c, 1), MEDIC_ALL_MISS | MEDIC_TAG_BYPASS);
    lookup(&c, 1, 1, 0); /* 1 / 512 -> 0 / 256 */
    assert_int_equal(tag(&c, 1), MEDIC_ALL_MISS | MEDIC_TAG_BYPASS);
    assert_int_equal(c.scores[1], 0);
    free(c.priv);
}

static void test_reset(void **state)
{
    (void)state;
    struct cls c;
    cls_open(&c, "medic:tune=0");
    lookups(&c, 0, 0, 30);
    c.now = 99999;
    assert_int_equal(tag(&c, 0), MEDIC_ALL_MISS | MEDIC_TAG_BYPASS);
    c.now = 100000; /* the reset: profiling again, no bypass */
    assert_int_equal(tag(&c, 0), MEDIC_UNKNOWN);
    assert_int_equal(c.scores[0], -1);
    lookups(&c, 0, 29, 29);
    assert_int_equal(tag(&c, 0), MEDIC_UNKNOWN);
    lookup(&c, 0, 1, 0);
    assert_int_equal(tag(&c, 0), MEDIC_ALL_HIT);
    /* the next epoch re-profiles again (noticed by an event as well) */
    c.now = 250000;
    lookup(&c, 0, 0, 0);
    assert_int_equal(tag(&c, 0), MEDIC_UNKNOWN);
    free(c.priv);
}

/* Epoch e: slot 1 sends 100 reads with `miss` misses. */
static void epoch_traffic(struct cls *c, uint64_t e, uint32_t miss)
{
    c->now = e * 1000;
    lookups(c, 1, 100 - miss, 100);
}

static void test_tuning(void **state)
{
    (void)state;
    struct cls c;
    cls_open(&c, "medic:epoch=1000");
    epoch_traffic(&c, 0, 50);
    epoch_traffic(&c, 1, 59); /* +9 %: one whole step, boundary 20 -> 15 */
    c.now = 2000;
    lookups(&c, 0, 5, 30); /* 16.7 %: balanced under 15 % */
    assert_int_equal(tag(&c, 0), MEDIC_BALANCED);
    lookups(&c, 2, 4, 30); /* 13.3 % */
    assert_int_equal(tag(&c, 2), MEDIC_MOSTLY_MISS | MEDIC_TAG_BYPASS);
    /* epoch 2's own lookups (51 misses of 60, +26 %) take it to 0, epoch 3
     * (80 %, -5 %) raises it one step to 5, epoch 4 lowers it again */
    epoch_traffic(&c, 3, 80);
    epoch_traffic(&c, 4, 100); /* +20 %: four steps, clamped at 0 */
    c.now = 5000;
    lookups(&c, 0, 1, 30); /* 3.3 %: balanced at boundary 0 */
    assert_int_equal(tag(&c, 0), MEDIC_BALANCED);
    lookups(&c, 2, 0, 30); /* all-miss still bypasses */
    assert_int_equal(tag(&c, 2), MEDIC_ALL_MISS | MEDIC_TAG_BYPASS);
    epoch_traffic(&c, 6, 40);
    epoch_traffic(&c, 7, 0); /* -40 %: up, clamped at the nominal 20 */
    c.now = 8000;
    lookups(&c, 0, 6, 30);
    assert_int_equal(tag(&c, 0), MEDIC_MOSTLY_MISS | MEDIC_TAG_BYPASS);
    free(c.priv);
    /* tune=0 keeps 20 % whatever the miss rate does */
    cls_open(&c, "medic:epoch=1000,tune=0");
    epoch_traffic(&c, 0, 0);
    epoch_traffic(&c, 1, 100);
    c.now = 2000;
    lookups(&c, 0, 6, 30);
    assert_int_equal(tag(&c, 0), MEDIC_MOSTLY_MISS | MEDIC_TAG_BYPASS);
    free(c.priv);
}

static void test_bad_params(void **state)
{
    (void)state;
    const struct classify_ops *ops;
    struct param_set ps;
    struct err e;
    uint32_t t[1];
    int64_t sc[1];
    struct classify_board b = {.n_units = 1, .tag = t, .score = sc};
    struct classify_init in = {.nslots = 1, .n_units = 1, .board = &b};
    const char *bad[] = {"medic:profile=0", "medic:profile=512", "medic:mostly_miss=70",
                         "medic:epoch=0", "medic:step=0"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err_clear(&e);
        assert_int_equal(registry_classify(bad[i], &ops, &ps, &e), WS_OK);
        void *p = calloc(1, ops->priv_size);
        assert_int_not_equal(ops->init(p, &ps, &in, &e), WS_OK);
        free(p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_boundaries), cmocka_unit_test(test_profiling),
        cmocka_unit_test(test_halving),    cmocka_unit_test(test_reset),
        cmocka_unit_test(test_tuning),     cmocka_unit_test(test_bad_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
