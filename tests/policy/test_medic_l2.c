/* test_medic_l2.c: MeDiC's L2 policies (src/policy/medic_l2.h) in a
 * hand-built 4-way set: WIP evicts the mostly-miss line first even when it
 * was just used, then the balanced one before an older mostly-hit one, and
 * inserts a mostly-miss warp's line at LRU (the newest such line goes
 * first); a line keeps the type it was inserted with; with strict=0 the type
 * only sets the insertion position; wbyp is plain LRU
 * that bypasses reads tagged to bypass and refuses a line to tagged misses
 * (bypassing warp's atomic, PCAL non-holder); wip alone ignores those bits,
 * medic obeys them; medic_reuse (MeDiC-reuse) obeys them too, except for a
 * bypassing warp's read of a line recently evicted from the set, which it
 * sends through the L2, gives a line and inserts as a balanced warp's, while
 * the same warp's write still gets none; WMS maps the mostly-hit bit to the
 * high queue. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policy/medic_tag.h"
#include "policy/registry.h"

struct pol {
    const struct cache_policy_ops *ops;
    void *priv;
};

static void p_open(struct pol *p, const char *spec, uint32_t sets, uint32_t ways)
{
    struct param_set ps;
    struct err e;
    err_clear(&e);
    assert_int_equal(registry_cache(spec, &p->ops, &ps, &e), WS_OK);
    p->priv = calloc(1, p->ops->priv_size(sets, ways));
    struct cache_policy_init in = {.sets = sets, .ways = ways, .instance = 0, .seed = 1};
    assert_int_equal(p->ops->init(p->priv, &ps, &in, &e), WS_OK);
}

static struct cache_access acc(uint32_t tag)
{
    return (struct cache_access){.line_addr = 1, .warp = 0, .tag = tag};
}

static void insert(struct pol *p, uint32_t way, uint32_t tag)
{
    struct cache_access a = acc(tag);
    p->ops->on_insert(p->priv, 0, way, &a);
}

static void hit(struct pol *p, uint32_t way, uint32_t tag)
{
    struct cache_access a = acc(tag);
    p->ops->on_hit(p->priv, 0, way, &a);
}

static uint32_t victim(struct pol *p, uint64_t cand)
{
    struct cache_access a = acc(MEDIC_BALANCED);
    return p->ops->victim(p->priv, 0, cand, &a);
}

/* Ways 0..3 filled in order by a mostly-hit, a balanced, a mostly-miss and a
 * mostly-hit warp; then the mostly-miss warp hits its line again. */
static void fill(struct pol *p)
{
    insert(p, 0, MEDIC_MOSTLY_HIT);
    insert(p, 1, MEDIC_BALANCED);
    insert(p, 2, MEDIC_MOSTLY_MISS);
    insert(p, 3, MEDIC_ALL_HIT);
    hit(p, 2, MEDIC_MOSTLY_MISS);
}

static void test_wip_victim_order(void **state)
{
    (void)state;
    struct pol p;
    p_open(&p, "wip", 1, 4);
    fill(&p);
    assert_int_equal(victim(&p, 0xf), 2);      /* mostly-miss first, though most recent */
    assert_int_equal(victim(&p, 0xb), 1);      /* then balanced, younger than way 0 */
    assert_int_equal(victim(&p, 0x9), 0);      /* then LRU among mostly-hit / all-hit */
    free(p.priv);
    /* strict=0: the type only sets the insertion position; the victim is the
     * LRU line (way 2's hit made it the most recent) */
    p_open(&p, "wip:strict=0", 1, 4);
    fill(&p);
    assert_int_equal(victim(&p, 0xf), 0);
    insert(&p, 1, MEDIC_ALL_MISS); /* inserted at LRU: the next victim */
    assert_int_equal(victim(&p, 0xf), 1);
    free(p.priv);
    /* the same set under LRU (wbyp without tags): the oldest line, way 0 */
    p_open(&p, "wbyp", 1, 4);
    fill(&p);
    assert_int_equal(victim(&p, 0xf), 0);
    assert_int_equal(victim(&p, 0xe), 1);
    free(p.priv);
}

static void test_wip_insertion(void **state)
{
    (void)state;
    struct pol p;
    p_open(&p, "wip", 1, 4);
    /* two all-miss lines: the one inserted last sits at LRU */
    insert(&p, 0, MEDIC_ALL_MISS);
    insert(&p, 1, MEDIC_MOSTLY_MISS);
    assert_int_equal(victim(&p, 0x3), 1);
    /* a line keeps the type it was inserted with: a mostly-hit warp's hit
     * moves a balanced line to MRU only, a mostly-miss hit does not demote */
    insert(&p, 2, MEDIC_BALANCED);
    insert(&p, 3, MEDIC_MOSTLY_HIT);
    hit(&p, 2, MEDIC_MOSTLY_HIT);
    assert_int_equal(victim(&p, 0xc), 2);
    hit(&p, 3, MEDIC_MOSTLY_MISS);
    assert_int_equal(victim(&p, 0xc), 2);
    /* a profiling warp (type unknown) counts as balanced */
    insert(&p, 0, MEDIC_UNKNOWN);
    assert_int_equal(victim(&p, 0xd), 2); /* way 2 (balanced) older than way 0 */
    assert_int_equal(victim(&p, 0x9), 0); /* before the mostly-hit way 3 */
    free(p.priv);
}

static void test_bypass_and_noalloc(void **state)
{
    (void)state;
    const char *obey[] = {"wbyp", "medic", "wip:bypass=1"};
    for (int k = 0; k < 3; k++) {
        struct pol p;
        p_open(&p, obey[k], 1, 4);
        struct cache_access by = acc(MEDIC_MOSTLY_MISS | MEDIC_TAG_BYPASS);
        struct cache_access na = acc(MEDIC_BALANCED | MEDIC_TAG_NOALLOC);
        struct cache_access ok = acc(MEDIC_MOSTLY_HIT);
        assert_true(p.ops->bypass(p.priv, 0, &by));
        assert_false(p.ops->bypass(p.priv, 0, &na));
        assert_false(p.ops->bypass(p.priv, 0, &ok));
        assert_int_equal(p.ops->place(p.priv, 0, 0x6, 0x9, &by), CACHE_NO_WAY);
        assert_int_equal(p.ops->place(p.priv, 0, 0x6, 0x9, &na), CACHE_NO_WAY);
        assert_int_equal(p.ops->place(p.priv, 0, 0x6, 0x9, &ok), 1); /* lowest empty way */
        insert(&p, 0, MEDIC_BALANCED);
        insert(&p, 3, MEDIC_BALANCED);
        assert_int_equal(p.ops->place(p.priv, 0, 0, 0x9, &ok), 0); /* the LRU of the valid */
        free(p.priv);
    }
    /* WIP alone ignores the bits */
    struct pol p;
    p_open(&p, "wip", 1, 4);
    struct cache_access by = acc(MEDIC_MOSTLY_MISS | MEDIC_TAG_BYPASS);
    assert_false(p.ops->bypass(p.priv, 0, &by));
    assert_int_equal(p.ops->place(p.priv, 0, 0x6, 0x9, &by), 1);
    free(p.priv);
}

static void test_medic_reuse_override(void **state)
{
    (void)state;
    struct pol p;
    p_open(&p, "medic_reuse", 1, 4);
    struct cache_access by = {.line_addr = 0x40, .warp = 0,
                              .tag = MEDIC_MOSTLY_MISS | MEDIC_TAG_BYPASS};
    struct cache_access byw = by;
    byw.is_write = 1;
    struct cache_access mh = {.line_addr = 0x40, .warp = 1, .tag = MEDIC_MOSTLY_HIT};
    /* never in the L2: bypassed, and a write of the warp gets no line (as medic) */
    assert_true(p.ops->bypass(p.priv, 0, &by));
    assert_int_equal(p.ops->place(p.priv, 0, 0x6, 0x9, &byw), CACHE_NO_WAY);
    /* a mostly-hit warp brings line 0x40 into way 1; evicted, it enters the filter */
    p.ops->on_insert(p.priv, 0, 1, &mh);
    p.ops->on_evict(p.priv, 0, 1, 0);
    /* now the bypassing warp's read of it takes the L2 and gets a line ... */
    assert_false(p.ops->bypass(p.priv, 0, &by));
    assert_int_equal(p.ops->place(p.priv, 0, 0x6, 0x9, &by), 1);
    /* ... (its write still does not) ... */
    assert_int_equal(p.ops->place(p.priv, 0, 0x6, 0x9, &byw), CACHE_NO_WAY);
    /* ... inserted as a balanced warp's line: beside a mostly-miss line and a
     * mostly-hit one, it is the second victim of three */
    insert(&p, 0, MEDIC_MOSTLY_HIT);
    insert(&p, 2, MEDIC_MOSTLY_MISS);
    p.ops->on_insert(p.priv, 0, 1, &by);
    assert_int_equal(victim(&p, 0x7), 2);
    assert_int_equal(victim(&p, 0x3), 1);
    /* another line of the same warp is still bypassed */
    struct cache_access other = by;
    other.line_addr = 0x41;
    assert_true(p.ops->bypass(p.priv, 0, &other));
    free(p.priv);
}

static void test_wms_queues(void **state)
{
    (void)state;
    const struct dram_sched_ops *ops;
    struct param_set ps;
    struct err e;
    err_clear(&e);
    assert_int_equal(registry_dram("wms", &ops, &ps, &e), WS_OK);
    uint32_t cap[DRAM_MAX_QUEUES];
    assert_int_equal(ops->queues(NULL, 16, cap), 2);
    assert_int_equal(cap[0], 16); /* [CHOICE] each queue the configured capacity */
    assert_int_equal(cap[1], 16);
    assert_int_equal(ops->queue_of(NULL, MEDIC_ALL_HIT), 0);
    assert_int_equal(ops->queue_of(NULL, MEDIC_MOSTLY_HIT), 0);
    assert_int_equal(ops->queue_of(NULL, MEDIC_BALANCED), 1);
    assert_int_equal(ops->queue_of(NULL, MEDIC_UNKNOWN), 1);
    assert_int_equal(ops->queue_of(NULL, MEDIC_MOSTLY_MISS | MEDIC_TAG_BYPASS), 1);
    assert_int_equal(ops->queue_of(NULL, MEDIC_ALL_MISS | MEDIC_TAG_BYPASS), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wip_victim_order),
        cmocka_unit_test(test_wip_insertion),
        cmocka_unit_test(test_bypass_and_noalloc),
        cmocka_unit_test(test_medic_reuse_override),
        cmocka_unit_test(test_wms_queues),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
