/* test_medic_points.c: MeDiC's comparison points.  EAF (src/policy/cache/
 * eaf.c): an address evicted and missed again is found in the filter (high
 * reuse), and the filter clears when as many addresses as the cache has
 * lines have entered it, after which that address is no longer found.  PCAL
 * (src/policy/classify/pcal.c): with two tokens only the first two warps to
 * issue get them and their requests may allocate; the others carry the
 * no-allocate bit (which the L2 policies obey: test_medic_l2.c), a token
 * freed by an exiting warp goes to the next warp that asks, and a holder
 * that did not use the L2 in an epoch loses it.  Rand (rand_byp) tags exactly
 * pct of the slots, redrawn each epoch; PC-Byp (pc_byp) tags the loads of a
 * PC that mostly missed in its 30 profiled lookups, and of any PC sharing
 * its table entry, until the next reset. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policy/medic_tag.h"
#include "policy/registry.h"
#include "stats/stats.h"

static uint64_t counter(struct stats *s, const char *name)
{
    uint64_t v = 0;
    assert_int_equal(stats_get_u64(s, name, &v), 0);
    return v;
}

static void test_eaf_clears_at_capacity(void **state)
{
    (void)state;
    const struct cache_policy_ops *ops;
    struct param_set ps;
    struct err e;
    err_clear(&e);
    assert_int_equal(registry_cache("eaf", &ops, &ps, &e), WS_OK);
    void *p = calloc(1, ops->priv_size(1, 2)); /* 2 lines: the filter holds 2 addresses */
    struct cache_policy_init in = {.sets = 1, .ways = 2, .seed = 1};
    assert_int_equal(ops->init(p, &ps, &in, &e), WS_OK);
    struct stats *s = stats_new();
    ops->stats(p, s, 1, 0);
    struct cache_access A = {.line_addr = 0x1000}, B = {.line_addr = 0x2345};
    ops->on_insert(p, 0, 0, &A);
    ops->on_insert(p, 0, 1, &B);
    assert_int_equal(counter(s, "eaf_hits"), 0);
    ops->on_evict(p, 0, 0, 0); /* A enters the filter (1 of 2) */
    ops->on_insert(p, 0, 0, &A);
    assert_int_equal(counter(s, "eaf_hits"), 1); /* A was evicted recently: high reuse */
    assert_int_equal(counter(s, "eaf_clears"), 0);
    ops->on_evict(p, 0, 1, 0); /* B: the second address, the filter is full and clears */
    assert_int_equal(counter(s, "eaf_clears"), 1);
    ops->on_insert(p, 0, 1, &B);
    assert_int_equal(counter(s, "eaf_hits"), 1); /* B is no longer in it */
    ops->on_evict(p, 0, 0, 0); /* A again (1 of 2) */
    ops->on_insert(p, 0, 0, &A);
    assert_int_equal(counter(s, "eaf_hits"), 2);
    assert_int_equal(counter(s, "eaf_clears"), 1);
    stats_free(s);
    free(p);
}

static void test_eaf_bimodal(void **state)
{
    (void)state;
    const struct cache_policy_ops *ops;
    struct param_set ps;
    struct err e;
    err_clear(&e);
    assert_int_equal(registry_cache("eaf", &ops, &ps, &e), WS_OK);
    void *p = calloc(1, ops->priv_size(64, 16));
    struct cache_policy_init in = {.sets = 64, .ways = 16, .seed = 7};
    assert_int_equal(ops->init(p, &ps, &in, &e), WS_OK);
    struct stats *s = stats_new();
    ops->stats(p, s, 1, 0);
    /* 6400 never-evicted lines: about 63 in 64 go to LRU */
    for (uint32_t i = 0; i < 6400; i++) {
        struct cache_access a = {.line_addr = 0x100000u + i};
        ops->on_insert(p, i % 64, i / 64 % 16, &a);
    }
    uint64_t lru = counter(s, "eaf_lru_inserts");
    assert_true(lru > 6400 - 6400 / 64 - 60 && lru < 6400 - 6400 / 64 + 60);
    stats_free(s);
    free(p);
}

struct cls {
    const struct classify_ops *ops;
    void *priv;
    uint32_t tags[8];
    int64_t scores[8];
    struct classify_board board;
};

static uint32_t req(struct cls *c, uint32_t slot, uint64_t now)
{
    struct classify_req r = {.slot = slot, .age = slot, .now = now};
    return c->ops->tag(c->priv, &r);
}

static void ev(struct cls *c, uint32_t kind, int32_t slot, uint64_t now)
{
    struct sched_event x = {.kind = kind, .slot = slot, .age = (uint64_t)slot, .now = now};
    c->ops->on_event(c->priv, &x);
}

static void cls_open(struct cls *c, const char *spec)
{
    struct param_set ps;
    struct err e;
    err_clear(&e);
    memset(c, 0, sizeof *c);
    assert_int_equal(registry_classify(spec, &c->ops, &ps, &e), WS_OK);
    c->priv = calloc(1, c->ops->priv_size);
    c->board = (struct classify_board){.n_units = 1, .tag = c->tags, .score = c->scores};
    struct classify_init in = {.nslots = 8, .n_units = 1, .board = &c->board};
    assert_int_equal(c->ops->init(c->priv, &ps, &in, &e), WS_OK);
}

static void test_pcal_tokens(void **state)
{
    (void)state;
    struct cls c;
    cls_open(&c, "pcal:tokens=2,epoch=1000");
    for (int32_t s = 0; s < 4; s++)
        ev(&c, SCHED_EV_WARP_LAUNCH, s, 0);
    /* order of arrival: slots 2 and 0 ask first */
    assert_int_equal(req(&c, 2, 1), 0);
    assert_int_equal(req(&c, 0, 2), 0);
    assert_int_equal(req(&c, 1, 3), MEDIC_TAG_NOALLOC);
    assert_int_equal(req(&c, 3, 4), MEDIC_TAG_NOALLOC);
    assert_int_equal(req(&c, 2, 5), 0); /* a holder keeps it */
    /* slot 2 exits: the next warp to ask takes its token */
    ev(&c, SCHED_EV_WARP_EXIT, 2, 6);
    assert_int_equal(req(&c, 3, 7), 0);
    assert_int_equal(req(&c, 1, 8), MEDIC_TAG_NOALLOC);
    /* epoch 0: slot 3 used the L2, slot 0 did not: slot 0 loses its token */
    ev(&c, SCHED_EV_L2_ACCESS, 3, 9);
    assert_int_equal(req(&c, 1, 1000), 0);
    assert_int_equal(req(&c, 3, 1001), 0);
    assert_int_equal(req(&c, 0, 1002), MEDIC_TAG_NOALLOC);
    free(c.priv);
}

/* Slots of 8 tagged to bypass at time now. */
static uint32_t rand_count(struct cls *c, uint64_t now, uint32_t *mask)
{
    uint32_t n = 0;
    *mask = 0;
    for (uint32_t s = 0; s < 8; s++)
        if (req(c, s, now) & MEDIC_TAG_BYPASS) {
            n++;
            *mask |= 1u << s;
        }
    return n;
}

static void test_rand_byp(void **state)
{
    (void)state;
    struct cls c, d;
    uint32_t m0, m1, m2, md;
    cls_open(&c, "rand_byp:pct=25,epoch=1000");
    cls_open(&d, "rand_byp:pct=25,epoch=1000");
    assert_int_equal(rand_count(&c, 0, &m0), 2);
    assert_int_equal(rand_count(&c, 999, &m1), 2);
    assert_int_equal(m1, m0); /* the same warps for the whole epoch */
    assert_int_equal(rand_count(&d, 0, &md), 2);
    assert_int_equal(md, m0); /* deterministic */
    uint32_t changed = 0;
    for (uint64_t ep = 1; ep < 20; ep++) {
        assert_int_equal(rand_count(&c, ep * 1000, &m2), 2);
        changed += m2 != m0;
    }
    assert_true(changed > 0); /* redrawn */
    free(c.priv);
    free(d.priv);
    cls_open(&c, "rand_byp:pct=0");
    assert_int_equal(rand_count(&c, 0, &m0), 0);
    free(c.priv);
    cls_open(&c, "rand_byp:pct=100");
    assert_int_equal(rand_count(&c, 0, &m0), 8);
    free(c.priv);
}

static void pc_lookups(struct cls *c, uint32_t pc, uint32_t hits, uint32_t n, uint64_t now)
{
    for (uint32_t i = 0; i < n; i++) {
        struct sched_event x = {.kind = SCHED_EV_L2_ACCESS, .slot = 0, .pc = pc,
                                .hit = i < hits, .now = now};
        c->ops->on_event(c->priv, &x);
    }
}

static uint32_t pc_req(struct cls *c, uint32_t pc, uint64_t now)
{
    struct classify_req r = {.slot = 3, .pc = pc, .now = now};
    return c->ops->tag(c->priv, &r);
}

static void test_pc_byp(void **state)
{
    (void)state;
    struct cls c;
    cls_open(&c, "pc_byp:entries=64,epoch=1000");
    pc_lookups(&c, 5, 6, 29, 0);
    assert_int_equal(pc_req(&c, 5, 0), 0); /* still profiling */
    pc_lookups(&c, 5, 0, 1, 0);            /* 6 / 30 = 20 %: mostly-miss */
    assert_int_equal(pc_req(&c, 5, 0), MEDIC_TAG_BYPASS);
    assert_int_equal(pc_req(&c, 5 + 64, 0), MEDIC_TAG_BYPASS); /* aliases entry 5 */
    pc_lookups(&c, 6, 7, 30, 0);            /* 23 %: kept */
    assert_int_equal(pc_req(&c, 6, 0), 0);
    assert_int_equal(pc_req(&c, 5, 1000), 0); /* reset */
    free(c.priv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eaf_clears_at_capacity),
        cmocka_unit_test(test_eaf_bimodal),
        cmocka_unit_test(test_pcal_tokens),
        cmocka_unit_test(test_rand_byp),
        cmocka_unit_test(test_pc_byp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
