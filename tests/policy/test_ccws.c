/* test_ccws.c: CCWS (SPEC-policies 3) driven through on_event/pick with a
 * hand-built event sequence: victim-tag insertion keyed on the allocating
 * warp, lost-locality detection on the warp's own later miss, the released
 * scoring (a VTA hit sets LLS to max(B, LLDS)) and the additive variant,
 * lazy decay, the cumulative cutoff (SPEC 3.4 "intuition for validation"),
 * gating of loads only, store invalidation and warp-exit adjustments; then
 * every workload at small size under ccws through the timing model (no
 * deadlock, verified results). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policy/registry.h"
#include "stats/stats.h"
#include "warpsim.h"
#include "workload.h"

#define NW 8

struct h {
    const struct sched_ops *ops;
    void *priv;
    struct stats *st;
    struct sched_view v;
    uint64_t age[SCHED_MAX_WARPS];
    uint32_t pc[SCHED_MAX_WARPS], active[SCHED_MAX_WARPS], cta[SCHED_MAX_WARPS];
};

static void ev(struct h *h, uint32_t kind, int32_t slot, uint64_t addr, int hit, int wr)
{
    struct sched_event e;
    memset(&e, 0, sizeof e);
    e.kind = kind;
    e.slot = slot;
    e.age = slot >= 0 ? h->age[slot] : 0;
    e.addr = addr;
    e.hit = (uint8_t)hit;
    e.is_write = (uint8_t)wr;
    e.now = h->v.now;
    h->ops->on_event(h->priv, &e);
}

static void h_open(struct h *h, const char *spec)
{
    struct param_set ps;
    struct err e;
    err_clear(&e);
    memset(h, 0, sizeof *h);
    assert_int_equal(registry_sched(spec, &h->ops, &ps, &e), WS_OK);
    h->priv = calloc(1, h->ops->priv_size);
    struct sched_init in = {.nslots = NW, .n_units = 1};
    assert_int_equal(h->ops->init(h->priv, &ps, &in, &e), WS_OK);
    h->st = stats_new();
    h->ops->stats(h->priv, h->st, 1, 0);
    h->v.nslots = NW;
    h->v.valid = (1u << NW) - 1;
    h->v.age = h->age;
    h->v.pc = h->pc;
    h->v.active = h->active;
    h->v.cta = h->cta;
    h->v.last_issued = -1;
    for (int s = 0; s < NW; s++) {
        h->age[s] = 100 + (uint64_t)s;
        ev(h, SCHED_EV_WARP_LAUNCH, s, 0, 0, 0);
    }
}

static void h_close(struct h *h)
{
    stats_free(h->st);
    free(h->priv);
}

static uint64_t stat(const struct h *h, const char *name)
{
    uint64_t v = 0;
    assert_int_equal(stats_get_u64(h->st, name, &v), 0);
    return v;
}

/* Warps that may issue a load now: each alone ready with a load next. */
static uint32_t allowed_loads(struct h *h)
{
    uint32_t mask = 0;
    h->v.next_is_load = h->v.valid;
    h->v.next_is_mem = h->v.valid;
    for (int s = 0; s < NW; s++) {
        if (!(h->v.valid >> s & 1))
            continue;
        h->v.ready = 1ull << s;
        int p = h->ops->pick(h->priv, &h->v);
        assert_true(p == -1 || p == s);
        if (p == s)
            mask |= 1u << s;
    }
    h->v.next_is_load = 0;
    h->v.next_is_mem = 0;
    return mask;
}

static void issue_n(struct h *h, int slot, int n)
{
    for (int i = 0; i < n; i++)
        ev(h, SCHED_EV_ISSUE, slot, 0, 0, 0);
}

static void test_detection_and_cutoff(void **state)
{
    (void)state;
    struct h h;
    h_open(&h, "ccws");
    /* every warp at B: the cumulative sum reaches C = 8 x 100 at the last
     * warp, nobody throttled */
    assert_int_equal(allowed_loads(&h), 0xff);
    assert_int_equal(stat(&h, "sched_throttled_cycles"), 0);
    issue_n(&h, 0, 10); /* InstIssuedTotal = 10 */
    /* warp 0's line 0x40 is evicted (allocated by warp 0): VTA[0] */
    ev(&h, SCHED_EV_L1D_EVICT, 0, 0x40, 0, 0);
    assert_int_equal(stat(&h, "sched_vta_inserts"), 1);
    /* not lost locality: a hit, a write, another warp's miss */
    ev(&h, SCHED_EV_L1D_ACCESS, 0, 0x40, 1, 0);
    ev(&h, SCHED_EV_L1D_ACCESS, 0, 0x40, 0, 1);
    ev(&h, SCHED_EV_L1D_ACCESS, 1, 0x40, 0, 0);
    assert_int_equal(stat(&h, "sched_vta_hits"), 0);
    assert_int_equal(allowed_loads(&h), 0xff);
    /* warp 0 misses on its own evicted line: LLDS = 8 x (1/10) x 800 = 640,
     * LLS[0] = max(100, 640).  Sorted 640, 100, 100: the sum reaches 800
     * after the third warp, so 3 warps may load and 5 are throttled (SPEC
     * 3.4: about (L - B) / B = 5.4 lose permission) */
    ev(&h, SCHED_EV_L1D_ACCESS, 0, 0x40, 0, 0);
    assert_int_equal(stat(&h, "sched_vta_hits"), 1);
    assert_int_equal(allowed_loads(&h), 0x07);
    assert_true(stat(&h, "sched_throttled_cycles") > 0);
    /* gating only loads: an ALU instruction of a throttled warp issues */
    h.v.ready = 1u << 6;
    assert_int_equal(h.ops->pick(h.priv, &h.v), 6);
    h.v.next_is_mem = 1u << 6; /* a store or shared access: not gated either */
    assert_int_equal(h.ops->pick(h.priv, &h.v), 6);
    h.v.next_is_mem = 0;
    /* GTO among the permitted: oldest ready first, the greedy warp kept */
    h.v.ready = 0xf0;
    assert_int_equal(h.ops->pick(h.priv, &h.v), 4);
    h.v.last_issued = 6;
    assert_int_equal(h.ops->pick(h.priv, &h.v), 6);
    h.v.last_issued = -1;
    /* decay: 1 point per cycle, applied lazily.  After 100 cycles LLS = 540:
     * 540 + 3 x 100 reaches 800 at the fourth warp */
    h.v.now = 100;
    assert_int_equal(allowed_loads(&h), 0x0f);
    h.v.now = 240; /* LLS 400: 400 + 4 x 100 reaches 800 exactly */
    assert_int_equal(allowed_loads(&h), 0x1f);
    h.v.now = 241; /* LLS 399: one more warp is needed */
    assert_int_equal(allowed_loads(&h), 0x3f);
    h.v.now = 10000; /* back at B, never below */
    assert_int_equal(allowed_loads(&h), 0xff);
    /* the VTA entry was kept: another miss is another hit, now with
     * ratio 2/10: LLS = 8 x 0.2 x 800 = 1280 >= C, only warp 0 may load */
    ev(&h, SCHED_EV_L1D_ACCESS, 0, 0x40, 0, 0);
    assert_int_equal(stat(&h, "sched_vta_hits"), 2);
    assert_int_equal(allowed_loads(&h), 0x01);
    /* a global store invalidates the line in every VTA */
    ev(&h, SCHED_EV_L1D_EVICT, 3, 0x40, 0, 0);
    assert_int_equal(stat(&h, "sched_vta_inserts"), 2);
    ev(&h, SCHED_EV_STORE, -1, 0x40, 0, 1);
    assert_int_equal(stat(&h, "sched_vta_store_invalidations"), 2);
    ev(&h, SCHED_EV_L1D_ACCESS, 0, 0x40, 0, 0);
    ev(&h, SCHED_EV_L1D_ACCESS, 3, 0x40, 0, 0);
    assert_int_equal(stat(&h, "sched_vta_hits"), 2);
    /* exit of warp 0: score and its contributions go, N = 7, C = 700 */
    ev(&h, SCHED_EV_WARP_EXIT, 0, 0, 0, 0);
    h.v.valid &= ~1ull;
    assert_int_equal(allowed_loads(&h), 0xfe);
    /* an eviction of a line allocated by the exited warp inserts nothing */
    ev(&h, SCHED_EV_L1D_EVICT, 0, 0x80, 0, 0);
    assert_int_equal(stat(&h, "sched_vta_inserts"), 2);
    /* warp 1's lost locality now: totals hold only resident warps (no
     * instructions left, ratio 1/0 -> LLDS 0): LLS stays at B */
    ev(&h, SCHED_EV_L1D_EVICT, 1, 0x80, 0, 0);
    ev(&h, SCHED_EV_L1D_ACCESS, 1, 0x80, 0, 0);
    assert_int_equal(stat(&h, "sched_vta_hits"), 3);
    assert_int_equal(allowed_loads(&h), 0xfe);
    /* with instructions of warp 1: 2 hits / 5 insts x 8 x 700 = 2240 */
    issue_n(&h, 1, 5);
    ev(&h, SCHED_EV_L1D_ACCESS, 1, 0x80, 0, 0);
    assert_int_equal(allowed_loads(&h), 0x02);
    h_close(&h);
}

static void test_vta_geometry(void **state)
{
    (void)state;
    struct h h;
    h_open(&h, "ccws");
    issue_n(&h, 2, 10);
    /* 2 sets x 8 ways FIFO: 9 lines of set 0 (even lines) push the first out */
    for (uint64_t i = 0; i < 9; i++)
        ev(&h, SCHED_EV_L1D_EVICT, 2, 2 * i, 0, 0);
    ev(&h, SCHED_EV_L1D_ACCESS, 2, 0, 0, 0);
    assert_int_equal(stat(&h, "sched_vta_hits"), 0);
    ev(&h, SCHED_EV_L1D_ACCESS, 2, 2, 0, 0);
    assert_int_equal(stat(&h, "sched_vta_hits"), 1);
    /* set 1 is separate; a re-inserted tag does not take a way */
    ev(&h, SCHED_EV_L1D_EVICT, 2, 1, 0, 0);
    ev(&h, SCHED_EV_L1D_EVICT, 2, 1, 0, 0);
    assert_int_equal(stat(&h, "sched_vta_inserts"), 10);
    ev(&h, SCHED_EV_L1D_ACCESS, 2, 1, 0, 0);
    assert_int_equal(stat(&h, "sched_vta_hits"), 2);
    h_close(&h);
    /* a 1-entry VTA forgets at once */
    h_open(&h, "ccws:vta_sets=1,vta_ways=1");
    ev(&h, SCHED_EV_L1D_EVICT, 2, 7, 0, 0);
    ev(&h, SCHED_EV_L1D_EVICT, 2, 9, 0, 0);
    ev(&h, SCHED_EV_L1D_ACCESS, 2, 7, 0, 0);
    assert_int_equal(stat(&h, "sched_vta_hits"), 0);
    h_close(&h);
}

static void test_additive_and_observe(void **state)
{
    (void)state;
    struct h h;
    h_open(&h, "ccws:variant=additive");
    issue_n(&h, 0, 10);
    ev(&h, SCHED_EV_L1D_EVICT, 0, 0x40, 0, 0);
    ev(&h, SCHED_EV_L1D_ACCESS, 0, 0x40, 0, 0);
    /* LLS = 100 + 640 = 740: the second warp brings the sum to 840 */
    assert_int_equal(allowed_loads(&h), 0x03);
    h_close(&h);
    /* throttle=0: same detection, nobody gated */
    h_open(&h, "ccws:throttle=0");
    issue_n(&h, 0, 10);
    ev(&h, SCHED_EV_L1D_EVICT, 0, 0x40, 0, 0);
    ev(&h, SCHED_EV_L1D_ACCESS, 0, 0x40, 0, 0);
    assert_int_equal(stat(&h, "sched_vta_hits"), 1);
    assert_int_equal(allowed_loads(&h), 0xff);
    assert_true(stat(&h, "sched_throttled_cycles") > 0);
    h_close(&h);
    /* the released variant is the default; bad parameters are rejected */
    struct param_set ps;
    struct err e;
    const struct sched_ops *ops;
    err_clear(&e);
    assert_int_equal(registry_sched("ccws:variant=foo", &ops, &ps, &e), WS_OK);
    void *p = calloc(1, ops->priv_size);
    struct sched_init in = {.nslots = NW, .n_units = 1};
    assert_int_not_equal(ops->init(p, &ps, &in, &e), WS_OK);
    assert_int_equal(registry_sched("ccws:vta_sets=9,vta_ways=8", &ops, &ps, &e), WS_OK);
    assert_int_not_equal(ops->init(p, &ps, &in, &e), WS_OK);
    free(p);
}

/* An L1D access event with the merged flag (GPGPU-Sim HIT_RESERVED). */
static void acc(struct h *h, int32_t slot, uint64_t addr, int hit, int wr, int merged)
{
    struct sched_event e;
    memset(&e, 0, sizeof e);
    e.kind = SCHED_EV_L1D_ACCESS;
    e.slot = slot;
    e.age = h->age[slot];
    e.addr = addr;
    e.hit = (uint8_t)hit;
    e.is_write = (uint8_t)wr;
    e.merged = (uint8_t)merged;
    e.now = h->v.now;
    h->ops->on_event(h->priv, &e);
}

/* Released rule: only a fresh miss probes the VTA; a load that merges into a
 * pending MSHR entry does not (vta_probe=merge: it does). */
static void test_probe_fresh_miss_only(void **state)
{
    (void)state;
    struct h h;
    h_open(&h, "ccws");
    issue_n(&h, 0, 10);
    ev(&h, SCHED_EV_L1D_EVICT, 0, 0x40, 0, 0);
    acc(&h, 0, 0x40, 0, 0, 1); /* merge: no probe */
    assert_int_equal(stat(&h, "sched_vta_hits"), 0);
    assert_int_equal(allowed_loads(&h), 0xff);
    acc(&h, 0, 0x40, 0, 0, 0); /* fresh miss: lost locality, LLS 640 */
    assert_int_equal(stat(&h, "sched_vta_hits"), 1);
    assert_int_equal(allowed_loads(&h), 0x07);
    h_close(&h);
    h_open(&h, "ccws:vta_probe=merge");
    issue_n(&h, 0, 10);
    ev(&h, SCHED_EV_L1D_EVICT, 0, 0x40, 0, 0);
    acc(&h, 0, 0x40, 0, 0, 1);
    assert_int_equal(stat(&h, "sched_vta_hits"), 1);
    assert_int_equal(allowed_loads(&h), 0x07);
    h_close(&h);
}

/* Released rule: a warp launched into a slot whose warp exited scores 0
 * (ranked last, adds nothing to the sum) until its first L1D hit or fresh
 * miss raises it to B; a merge does not.  new_warp=base: B at launch. */
static void test_new_warp_score(void **state)
{
    (void)state;
    struct h h;
    h_open(&h, "ccws");
    issue_n(&h, 1, 10);
    ev(&h, SCHED_EV_WARP_EXIT, 0, 0, 0, 0);
    h.age[0] = 200;
    ev(&h, SCHED_EV_WARP_LAUNCH, 0, 0, 0, 0);
    /* warp 1 loses locality: LLDS = 8 x (1/10) x 800 = 640.  Ranked 640,
     * 6 x 100 (slots 2..7), then new warp 0 at 0: the sum reaches 800 after
     * slots 1, 2, 3, so 0 and 4..7 are throttled */
    ev(&h, SCHED_EV_L1D_EVICT, 1, 0x41, 0, 0);
    acc(&h, 1, 0x41, 0, 0, 0);
    assert_int_equal(allowed_loads(&h), 0x0e);
    acc(&h, 0, 0x99, 0, 0, 1); /* merge: still 0 */
    assert_int_equal(allowed_loads(&h), 0x0e);
    acc(&h, 0, 0x99, 1, 0, 0); /* a hit: raised to B, ranks by slot among the 100s */
    assert_int_equal(allowed_loads(&h), 0x07);
    h_close(&h);
    h_open(&h, "ccws:new_warp=base");
    issue_n(&h, 1, 10);
    ev(&h, SCHED_EV_WARP_EXIT, 0, 0, 0, 0);
    h.age[0] = 200;
    ev(&h, SCHED_EV_WARP_LAUNCH, 0, 0, 0, 0);
    ev(&h, SCHED_EV_L1D_EVICT, 1, 0x41, 0, 0);
    acc(&h, 1, 0x41, 0, 0, 0);
    assert_int_equal(allowed_loads(&h), 0x07);
    h_close(&h);
}

/* Decay: `decay` points every decay_period core cycles, at the multiples of
 * the period (released: 1 point per 325 MHz core cycle = decay_period 4 at a
 * 1300 MHz core). */
static void test_decay_period(void **state)
{
    (void)state;
    struct h h;
    h_open(&h, "ccws:decay_period=4");
    issue_n(&h, 0, 10);
    ev(&h, SCHED_EV_L1D_EVICT, 0, 0x40, 0, 0);
    acc(&h, 0, 0x40, 0, 0, 0); /* LLS 640 at cycle 0 */
    assert_int_equal(allowed_loads(&h), 0x07);
    /* 1 point per 4 cycles: at cycle 400 LLS = 540 (the 4th warp reaches
     * 800); at 963 LLS = 640 - 240 = 400 (sum exactly 800 at the 5th warp);
     * at 964 399: one more warp */
    h.v.now = 400;
    assert_int_equal(allowed_loads(&h), 0x0f);
    h.v.now = 959;
    assert_int_equal(allowed_loads(&h), 0x1f);
    h.v.now = 963;
    assert_int_equal(allowed_loads(&h), 0x1f);
    h.v.now = 964;
    assert_int_equal(allowed_loads(&h), 0x3f);
    h_close(&h);
}

static void run_ccws(const struct workload_entry *we, const char *sched, int check_memc)
{
    ws_gpu *gpu;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_load_config(gpu, "daws"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "mode", "timing"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "sm.sched", sched), WS_OK);
    struct wl_args a = {.size = WL_SMALL, .seed = 1};
    char detail[1024] = "";
    int rc = workload_run(gpu, we, &a, detail, sizeof detail);
    if (rc != WS_OK)
        fail_msg("%s under %s: %s: %s", we->w->name, sched, ws_status_name(rc), detail);
    if (check_memc) {
        uint64_t hits = 0, thr = 0, observed = 0;
        assert_int_equal(ws_stat(gpu, "sched_vta_hits", &hits), WS_OK);
        assert_int_equal(ws_stat(gpu, "sched_throttled_cycles", &thr), WS_OK);
        assert_int_equal(ws_stat(gpu, "l1d_vta_hits", &observed), WS_OK);
        assert_true(hits > 0);
        assert_true(thr > 0);
        /* the statistic probes on every read miss, merges included */
        if (check_memc == 2)
            assert_int_equal(observed, hits);
        else
            assert_true(hits <= observed);
    }
    ws_gpu_free(gpu);
}

/* Every workload at small size under ccws on the daws preset: verified, no
 * deadlock; on memc lost locality is detected and, with vta_probe=merge, the
 * memory system's victim-tag statistic (timing/lost_locality.h) counts
 * exactly what CCWS's own arrays detect (one scheduler unit per SM at this
 * preset); with the default (fresh misses only) CCWS counts no more. */
static void test_workloads_no_deadlock(void **state)
{
    (void)state;
    for (unsigned i = 0; i < workload_count; i++) {
        const struct workload_entry *we = &workload_table[i];
        int memc = !strcmp(we->w->name, "memc");
        run_ccws(we, "ccws", memc);
        if (memc)
            run_ccws(we, "ccws:vta_probe=merge", 2);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_detection_and_cutoff),
        cmocka_unit_test(test_vta_geometry),
        cmocka_unit_test(test_additive_and_observe),
        cmocka_unit_test(test_probe_fresh_miss_only),
        cmocka_unit_test(test_new_warp_score),
        cmocka_unit_test(test_decay_period),
        cmocka_unit_test(test_workloads_no_deadlock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
