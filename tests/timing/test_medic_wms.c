/* test_medic_wms.c: MeDiC's WMS (src/policy/dram/wms.c) in a DRAM channel:
 * a mostly-hit warp's request is served before an older request of a
 * balanced warp to the same closed bank (FR-FCFS alone serves the older
 * first), and each of the two queues holds the configured dram_queue. */
#include "timing/mem_fx.h"

#include <stdlib.h>

#include "policy/medic_tag.h"
#include "timing/dram.h"

/* Serve an old request tagged `old_tag` and a younger one tagged `young_tag`
 * (same bank, other rows, bank closed) under `sched`; the first served. */
static uint32_t first_served(const char *sched, uint32_t old_tag, uint32_t young_tag)
{
    struct gpu_config cfg;
    tiny_config(&cfg);
    snprintf(cfg.dram_sched, sizeof cfg.dram_sched, "%s", sched);
    struct dram_channel ch;
    struct err e;
    err_clear(&e);
    const struct dram_sched_ops *ops;
    static struct param_set ps;
    assert_int_equal(dram_prepare(&cfg, &ops, &ps, &e), WS_OK);
    void *priv = calloc(1, dram_priv_stride(ops));
    assert_int_equal(dram_init(&ch, &cfg, ops, &ps, priv, &e), WS_OK);
    struct mem_req reqs[2];
    memset(reqs, 0, sizeof reqs);
    struct mem_pool pool = {.r = reqs, .cap = 2};
    reqs[0].bytes = reqs[1].bytes = 128;
    reqs[0].tag = old_tag;
    reqs[1].tag = young_tag;
    uint64_t now = 0;
    dram_enqueue(&ch, &pool, 0, 0, 3, now);
    now += 5;
    dram_enqueue(&ch, &pool, 1, 0, 4, now);
    uint32_t first = UINT32_MAX;
    while (first == UINT32_MAX) {
        ++now;
        dram_cycle(&ch, &pool, now);
        if (ring_ready(&ch.ret, now))
            first = ring_pop(&ch.ret);
        assert_true(now < 10000);
    }
    if (strcmp(sched, "wms") == 0) {
        assert_int_equal(ch.n_queues, 2);
        assert_int_equal(ch.cap, 2 * cfg.dram_queue);
    }
    dram_fini(&ch);
    free(priv);
    return first;
}

static void test_wms_high_first(void **state)
{
    (void)state;
    assert_int_equal(first_served("frfcfs", MEDIC_BALANCED, MEDIC_MOSTLY_HIT), 0);
    assert_int_equal(first_served("wms", MEDIC_BALANCED, MEDIC_MOSTLY_HIT), 1);
    assert_int_equal(first_served("wms", MEDIC_ALL_MISS | MEDIC_TAG_BYPASS, MEDIC_ALL_HIT), 1);
    /* same class: FR-FCFS order inside the queue */
    assert_int_equal(first_served("wms", MEDIC_MOSTLY_HIT, MEDIC_ALL_HIT), 0);
    assert_int_equal(first_served("wms", MEDIC_MOSTLY_MISS, MEDIC_UNKNOWN), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_wms_high_first)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
