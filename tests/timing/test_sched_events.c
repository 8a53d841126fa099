/* test_sched_events.c: the scheduler events of the timing model
 * (src/policy/sched/sched.h): the memory system's MEM_ISSUE (lanes and the
 * coalescer's access count), L1D_ACCESS (hit, is_write, own_line, merged), STORE and
 * L1D_EVICT through its listener; and end to end through the SM, seen by the
 * ccws policy's counters: KERNEL_START reaches every (SM, unit) instance, the
 * MEM_ISSUE access total equals the L1D's access count for a stride-1 and a
 * scattered kernel, and victim-tag hits arrive with one and two scheduler
 * units (slot mapping). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"
#include "ptx/ir.h"
#include "stats/stats.h"
#include "timing/memsys.h"
#include "warpsim.h"
#include "workload.h"

/* ---- memory system alone --------------------------------------------------- */

#define LOG_MAX 256

struct evlog {
    struct sched_event e[LOG_MAX];
    uint32_t n;
};

static void listener(void *ctx, const struct sched_event *ev)
{
    struct evlog *l = ctx;
    if (l->n < LOG_MAX)
        l->e[l->n++] = *ev;
}

/* Events of one kind in the log (from index `from`), count and the last. */
static uint32_t count_kind(const struct evlog *l, uint32_t from, uint32_t kind,
                           struct sched_event *last)
{
    uint32_t n = 0;
    for (uint32_t i = from; i < l->n; i++)
        if (l->e[i].kind == kind) {
            n++;
            if (last)
                *last = l->e[i];
        }
    return n;
}

struct mfx {
    struct gpu_config cfg;
    struct stats *st;
    struct mem_system *ms;
    uint64_t now;
    uint32_t token;
    struct evlog log;
};

static void mfx_open(struct mfx *f)
{
    memset(f, 0, sizeof *f);
    config_defaults(&f->cfg);
    f->cfg.n_sms = 1;
    f->cfg.l1d_enabled = 1;
    f->cfg.coalesce_sectored = 0;
    struct err e;
    err_clear(&e);
    f->st = stats_new();
    if (memsys_new(&f->cfg, NULL, f->st, &f->ms, &e) != WS_OK)
        fail_msg("memsys_new: %s", e.msg);
    memsys_set_listener(f->ms, 0, listener, &f->log, ~0u);
}

static void mfx_close(struct mfx *f)
{
    memsys_free(f->ms);
    stats_free(f->st);
}

/* Issue one instruction of warp `slot` (age = slot + 100); returns its
 * token.  Lanes access base + lane * stride. */
static uint32_t issue_inst(struct mfx *f, uint32_t slot, uint8_t space, int store,
                           uint64_t base, uint64_t stride)
{
    struct mem_inst mi;
    memset(&mi, 0, sizeof mi);
    mi.sm = 0;
    mi.slot = slot;
    mi.age = slot + 100;
    mi.pc = 9;
    mi.space = space;
    mi.is_store = (uint8_t)store;
    mi.size = 4;
    mi.mask = 0xffffffffu;
    for (int l = 0; l < 32; l++)
        mi.addr[l] = base + (uint64_t)l * stride;
    mi.token = ++f->token;
    while (!memsys_can_issue(f->ms, 0))
        memsys_cycle(f->ms, f->now++);
    memsys_issue(f->ms, &mi, f->now);
    return mi.token;
}

/* Run until the instruction with `token` (and any before it) completed. */
static void wait_token(struct mfx *f, uint32_t token)
{
    for (int guard = 0; guard < 100000; guard++) {
        memsys_cycle(f->ms, f->now++);
        uint32_t t;
        while (memsys_pop_done(f->ms, 0, &t))
            if (t == token)
                return;
    }
    fail_msg("instruction did not complete");
}

/* Issue one instruction and run until it completes. */
static void run_inst(struct mfx *f, uint32_t slot, uint8_t space, int store, uint64_t base,
                     uint64_t stride)
{
    wait_token(f, issue_inst(f, slot, space, store, base, stride));
}

#define GBASE 0x100000ull

static void test_memsys_events(void **state)
{
    (void)state;
    struct mfx f;
    mfx_open(&f);
    struct sched_event last;
    /* stride-1 load: one coalesced access, a miss */
    run_inst(&f, 3, PTX_SPACE_GLOBAL, 0, GBASE, 4);
    assert_int_equal(count_kind(&f.log, 0, SCHED_EV_MEM_ISSUE, &last), 1);
    assert_int_equal(last.accesses, 1);
    assert_int_equal(last.lanes, 32);
    assert_int_equal(last.slot, 3);
    assert_int_equal(last.age, 103);
    assert_int_equal(last.pc, 9);
    assert_int_equal(last.space, PTX_SPACE_GLOBAL);
    assert_int_equal(last.is_write, 0);
    assert_int_equal(count_kind(&f.log, 0, SCHED_EV_L1D_ACCESS, &last), 1);
    assert_int_equal(last.hit, 0);
    assert_int_equal(last.merged, 0);
    assert_int_equal(last.addr, GBASE >> 7);
    /* the same warp again: a hit on its own line; another warp: not own */
    uint32_t m = f.log.n;
    run_inst(&f, 3, PTX_SPACE_GLOBAL, 0, GBASE, 4);
    assert_int_equal(count_kind(&f.log, m, SCHED_EV_L1D_ACCESS, &last), 1);
    assert_int_equal(last.hit, 1);
    assert_int_equal(last.own_line, 1);
    m = f.log.n;
    run_inst(&f, 4, PTX_SPACE_GLOBAL, 0, GBASE, 4);
    assert_int_equal(count_kind(&f.log, m, SCHED_EV_L1D_ACCESS, &last), 1);
    assert_int_equal(last.hit, 1);
    assert_int_equal(last.own_line, 0);
    assert_int_equal(last.slot, 4);
    /* scattered: one access per lane (memory divergence) */
    m = f.log.n;
    run_inst(&f, 5, PTX_SPACE_GLOBAL, 0, GBASE + 0x10000, 128);
    assert_int_equal(count_kind(&f.log, m, SCHED_EV_MEM_ISSUE, &last), 1);
    assert_int_equal(last.accesses, 32);
    assert_int_equal(count_kind(&f.log, m, SCHED_EV_L1D_ACCESS, NULL), 32);
    /* a global store: MEM_ISSUE (write), STORE with the line, L1D access */
    m = f.log.n;
    run_inst(&f, 6, PTX_SPACE_GLOBAL, 1, GBASE, 4);
    assert_int_equal(count_kind(&f.log, m, SCHED_EV_MEM_ISSUE, &last), 1);
    assert_int_equal(last.is_write, 1);
    assert_int_equal(count_kind(&f.log, m, SCHED_EV_STORE, &last), 1);
    assert_int_equal(last.addr, GBASE >> 7);
    assert_int_equal(last.slot, 6);
    assert_int_equal(count_kind(&f.log, m, SCHED_EV_L1D_ACCESS, &last), 1);
    assert_int_equal(last.is_write, 1);
    /* a local store: no STORE event; local space in MEM_ISSUE */
    m = f.log.n;
    run_inst(&f, 6, PTX_SPACE_LOCAL, 1, 0, 4);
    assert_int_equal(count_kind(&f.log, m, SCHED_EV_STORE, NULL), 0);
    assert_int_equal(count_kind(&f.log, m, SCHED_EV_MEM_ISSUE, &last), 1);
    assert_int_equal(last.space, PTX_SPACE_LOCAL);
    /* shared memory: no event of its own (the L2 may still report the
     * stores above, which reach it meanwhile) */
    m = f.log.n;
    run_inst(&f, 6, PTX_SPACE_SHARED, 0, 0, 4);
    assert_int_equal(f.log.n - m, count_kind(&f.log, m, SCHED_EV_L2_ACCESS, NULL));
    /* evictions name the allocating warp: fill one set until the first line
     * of warp 5's scattered load goes (the store evicted warp 3's line) */
    uint32_t sets = f.cfg.l1d.sets, assoc = f.cfg.l1d.assoc;
    uint64_t victim = GBASE + 0x10000;
    m = f.log.n;
    for (uint32_t i = 1; i <= assoc; i++)
        run_inst(&f, 7, PTX_SPACE_GLOBAL, 0, victim + (uint64_t)i * sets * 128u * 64u, 4);
    int found = 0;
    for (uint32_t i = m; i < f.log.n; i++)
        if (f.log.e[i].kind == SCHED_EV_L1D_EVICT && f.log.e[i].addr == victim >> 7) {
            found = 1;
            assert_int_equal(f.log.e[i].slot, 5);
            assert_int_equal(f.log.e[i].age, 105);
        }
    assert_true(found);
    mfx_close(&f);
}

/* A load to a line whose miss is still pending merges into its MSHR entry:
 * hit = 0 and merged = 1 (GPGPU-Sim's HIT_RESERVED); the first was a fresh
 * miss (merged = 0). */
static void test_memsys_merge_event(void **state)
{
    (void)state;
    struct mfx f;
    mfx_open(&f);
    issue_inst(&f, 3, PTX_SPACE_GLOBAL, 0, GBASE, 4);
    wait_token(&f, issue_inst(&f, 4, PTX_SPACE_GLOBAL, 0, GBASE, 4));
    assert_int_equal(count_kind(&f.log, 0, SCHED_EV_L1D_ACCESS, NULL), 2);
    struct sched_event acc[2];
    uint32_t k = 0;
    for (uint32_t i = 0; i < f.log.n; i++)
        if (f.log.e[i].kind == SCHED_EV_L1D_ACCESS)
            acc[k++] = f.log.e[i];
    assert_int_equal(acc[0].slot, 3);
    assert_int_equal(acc[0].hit, 0);
    assert_int_equal(acc[0].merged, 0);
    assert_int_equal(acc[1].slot, 4);
    assert_int_equal(acc[1].hit, 0);
    assert_int_equal(acc[1].merged, 1);
    uint64_t merged = 0;
    assert_int_equal(stats_get_u64(f.st, "l1d_hit_reserved", &merged), 0);
    assert_int_equal(merged, 1);
    mfx_close(&f);
}

/* ---- through the SM ----------------------------------------------------------- */

static const char strided_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry k(.param .u64 a, .param .u64 out, .param .u32 stride)\n{\n"
    ".reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [a];\nld.param.u64 %rd2, [out];\nld.param.u32 %r1, [stride];\n"
    "mov.u32 %r2, %tid.x;\nmul.lo.u32 %r3, %r2, %r1;\nmul.wide.u32 %rd3, %r3, 4;\n"
    "add.s64 %rd4, %rd1, %rd3;\nld.global.u32 %r4, [%rd4];\n"
    "mul.wide.u32 %rd5, %r2, 4;\nadd.s64 %rd6, %rd2, %rd5;\n"
    "st.global.u32 [%rd6], %r4;\nret;\n}\n";

static uint64_t gstat(ws_gpu *gpu, const char *name)
{
    uint64_t v = 0;
    if (ws_stat(gpu, name, &v) != WS_OK)
        fail_msg("no statistic %s", name);
    return v;
}

/* One warp loads a[tid * stride] and stores it to out[tid]. */
static void strided_run(uint32_t stride, uint64_t *mem_issue, uint64_t *l1d, uint64_t *starts)
{
    ws_gpu *gpu;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_load_config(gpu, "daws"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "mode", "timing"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "sm.sched", "ccws:throttle=0"), WS_OK);
    ws_module *mod;
    if (ws_module_load_string(gpu, strided_ptx, "strided.ptx", &mod) != WS_OK)
        fail_msg("%s", ws_last_error(gpu));
    ws_devptr a, out;
    assert_int_equal(ws_malloc(gpu, 32u * 32u * 4u, &a), WS_OK);
    assert_int_equal(ws_malloc(gpu, 32u * 4u, &out), WS_OK);
    uint32_t host[32 * 32];
    for (uint32_t i = 0; i < 32 * 32; i++)
        host[i] = i * 3u;
    assert_int_equal(ws_memcpy_htod(gpu, a, host, sizeof host), WS_OK);
    void *args[] = {&a, &out, &stride};
    if (ws_launch(mod, "k", ws_dim(1, 1, 1), ws_dim(32, 1, 1), 0, args) != WS_OK)
        fail_msg("%s", ws_last_error(gpu));
    uint32_t got[32];
    assert_int_equal(ws_memcpy_dtoh(gpu, got, out, sizeof got), WS_OK);
    for (uint32_t i = 0; i < 32; i++)
        assert_int_equal(got[i], i * stride * 3u);
    *mem_issue = gstat(gpu, "sched_mem_issue_accesses");
    *l1d = gstat(gpu, "l1d_accesses");
    *starts = gstat(gpu, "sched_kernel_starts");
    ws_gpu_free(gpu);
}

static void test_sm_mem_issue(void **state)
{
    (void)state;
    uint64_t mi1, l1, ks1, mi32, l32, ks32;
    strided_run(1, &mi1, &l1, &ks1);
    strided_run(32, &mi32, &l32, &ks32);
    /* load + store: 1 + 1 accesses coalesced, 32 + 1 scattered */
    assert_int_equal(mi1, 2);
    assert_int_equal(mi32, 33);
    assert_int_equal(mi1, l1);
    assert_int_equal(mi32, l32);
    /* the daws preset: 30 SMs x 1 scheduler, one launch */
    assert_int_equal(ks1, 30);
    assert_int_equal(ks32, 30);
}

/* memc under ccws with 1 and 2 scheduler units: kernel starts reach every
 * instance, victim-tag hits arrive (evictions and accesses mapped to the
 * right unit's slots) and the MEM_ISSUE total matches the L1D. */
static void test_sm_units(void **state)
{
    (void)state;
    for (int units = 1; units <= 2; units++) {
        ws_gpu *gpu;
        assert_int_equal(ws_gpu_new(&gpu), WS_OK);
        assert_int_equal(ws_gpu_load_config(gpu, "daws"), WS_OK);
        assert_int_equal(ws_gpu_set(gpu, "mode", "timing"), WS_OK);
        assert_int_equal(ws_gpu_set(gpu, "sm.sched", "ccws:throttle=0"), WS_OK);
        assert_int_equal(ws_gpu_set(gpu, "sm.schedulers", units == 1 ? "1" : "2"), WS_OK);
        struct wl_args a = {.size = WL_SMALL, .seed = 1};
        char detail[1024] = "";
        int rc = workload_run(gpu, workload_find("memc"), &a, detail, sizeof detail);
        if (rc != WS_OK)
            fail_msg("memc: %s: %s", ws_status_name(rc), detail);
        uint64_t launches = gstat(gpu, "kernels_launched");
        assert_int_equal(gstat(gpu, "sched_kernel_starts"), launches * 30u * (uint64_t)units);
        assert_true(gstat(gpu, "sched_vta_hits") > 0);
        assert_true(gstat(gpu, "sched_vta_inserts") > 0);
        assert_int_equal(gstat(gpu, "sched_mem_issue_accesses"), gstat(gpu, "l1d_accesses"));
        ws_gpu_free(gpu);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memsys_events),
        cmocka_unit_test(test_memsys_merge_event),
        cmocka_unit_test(test_sm_mem_issue),
        cmocka_unit_test(test_sm_units),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
