/* test_mem_system.c: the memory system driven directly with hand-made
 * mem_inst streams on a tiny configuration with all clocks equal (so every
 * latency is in core cycles): L1/L2/DRAM latencies of a pointer chase,
 * streaming bandwidth below the DRAM peak, shared-memory bank conflicts, the
 * L1 capacity knee, MSHR merging, reservation-failure back-pressure, write
 * policy, counter identities, idle-cycle skipping and determinism. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"
#include "func/mem.h"
#include "ptx/ir.h"
#include "stats/stats.h"
#include "timing/memsys.h"

#include "timing/mem_fx.h"

static void test_pointer_chase_latencies(void **state)
{
    (void)state;
    for (int skip = 0; skip < 2; skip++) {
        struct fx f;
        tiny_config(&f.cfg);
        fx_open(&f);
        f.skip = skip;
        const struct gpu_config *c = &f.cfg;
        struct mem_inst one = load_inst(0, 0, 0, GBASE + 4096, 1);
        uint64_t dram = fx_run(&f, one);
        uint64_t l1 = fx_run(&f, one);
        struct mem_inst other = load_inst(1, 0, 0, GBASE + 4096, 1);
        uint64_t l2 = fx_run(&f, other);
        /* L1 hit: exactly the L1 hit latency */
        assert_int_equal(l1, c->l1d.hit_latency);
        /* L1 miss, L2 hit: L1 + request (latency + 1 flit) + L2 + reply (latency
         * + 128 B / flit), plus a few cycles of queue hand-offs */
        uint64_t want = c->l1d.hit_latency + c->icnt_latency + 1 + c->l2.hit_latency +
                        c->icnt_latency + 128 / c->icnt_flit_bytes;
        assert_true(l2 >= want);
        assert_true(l2 <= want + 4);
        /* L2 miss adds DRAM: ACT, tRCD, CL and the data burst */
        uint64_t burst = 128 / (c->dram_bus_bytes * c->dram_data_rate);
        uint64_t extra = dram - l2 + c->l2.hit_latency; /* fills skip the L2 hit latency */
        assert_true(extra >= c->tRCD + c->CL + burst);
        assert_true(extra <= c->tRCD + c->CL + burst + 6);
        assert_int_equal(stat(&f, "l1d_hits"), 1);
        assert_int_equal(stat(&f, "l1d_misses"), 2);
        assert_int_equal(stat(&f, "l2_hits"), 1);
        assert_int_equal(stat(&f, "l2_misses"), 1);
        assert_int_equal(stat(&f, "dram_reads"), 1);
        assert_int_equal(stat(&f, "dram_activates"), 1);
        assert_int_equal(stat(&f, "mem_latency_count"), 3);
        assert_int_equal(stat(&f, "mem_latency_sum"), dram + l1 + l2);
        assert_false(memsys_busy(f.ms));
        assert_int_equal(memsys_next_event(f.ms, f.now), UINT64_MAX);
        fx_close(&f);
    }
    /* the fixed DRAM latency adds exactly (all clocks equal) */
    uint64_t base = 0;
    for (int k = 0; k < 2; k++) {
        struct fx f;
        tiny_config(&f.cfg);
        f.cfg.dram_latency = k ? 50 : 0;
        fx_open(&f);
        f.skip = 1;
        uint64_t t = fx_run(&f, load_inst(0, 0, 0, GBASE, 1));
        if (k)
            assert_int_equal(t, base + 50);
        base = t;
        fx_close(&f);
    }
}

/* The L2-hit latency of a read (warm line, cold L1 of the other SM) with
 * icnt.ctrl_bytes control bytes on every packet that carries data. */
static uint64_t l2_hit_latency_ctrl(uint32_t ctrl)
{
    struct fx f;
    tiny_config(&f.cfg);
    f.cfg.icnt_ctrl_bytes = ctrl;
    fx_open(&f);
    fx_run(&f, load_inst(0, 0, 0, GBASE, 1));
    uint64_t t = fx_run(&f, load_inst(1, 0, 0, GBASE, 1));
    assert_int_equal(stat(&f, "l2_hits"), 1);
    fx_close(&f);
    return t;
}

/* icnt.ctrl_bytes: a 128-byte reply is 4 flits of 32 bytes alone, 5 with 8
 * control bytes (GPGPU-Sim's 136-byte reply) and 6 with 33; the read request
 * stays one flit, so the hit's latency grows by exactly the added flits. */
static void test_icnt_ctrl_bytes(void **state)
{
    (void)state;
    uint64_t t0 = l2_hit_latency_ctrl(0);
    assert_int_equal(l2_hit_latency_ctrl(8), t0 + 1);
    assert_int_equal(l2_hit_latency_ctrl(32), t0 + 1);
    assert_int_equal(l2_hit_latency_ctrl(33), t0 + 2);
}

static void test_row_hits_and_l2_bypass(void **state)
{
    (void)state;
    struct fx f;
    tiny_config(&f.cfg);
    f.cfg.l1d_enabled = 0;
    fx_open(&f);
    f.skip = 0;
    /* two loads of the same row: the second is a row hit, L1 is bypassed */
    uint64_t a = fx_run(&f, load_inst(0, 0, 4, GBASE, 0xffffffffu));
    uint64_t b = fx_run(&f, load_inst(0, 1, 4, GBASE + 1024, 0xffffffffu));
    assert_true(b < a);
    assert_int_equal(stat(&f, "l1d_accesses"), 0);
    assert_int_equal(stat(&f, "dram_row_hits"), stat(&f, "dram_reads") - 1);
    fx_close(&f);
}

/* Each SM streams consecutive lines as fast as its LD/ST unit accepts them. */
static void test_streaming_bandwidth(void **state)
{
    (void)state;
    struct fx f;
    tiny_config(&f.cfg);
    f.cfg.n_sms = 4;
    f.cfg.max_warps_per_sm = 16;
    f.cfg.l1d.mshr_entries = 32;
    f.cfg.dram_queue = 32;
    fx_open(&f);
    f.skip = 0;
    const uint32_t lines_per_sm = 400;
    uint32_t issued[4] = {0}, done = 0;
    uint64_t start = f.now;
    while (done < 4 * lines_per_sm) {
        for (uint32_t s = 0; s < 4; s++) {
            if (issued[s] < lines_per_sm && memsys_can_issue(f.ms, s)) {
                uint64_t line = (uint64_t)issued[s] * 4 + s;
                struct mem_inst mi = load_inst(s, issued[s] % 16, 4, GBASE + line * 128,
                                               0xffffffffu);
                mi.token = issued[s]++;
                memsys_issue(f.ms, &mi, f.now);
            }
        }
        int dummy = 0;
        done += fx_step(&f, 99, 0, &dummy);
        assert_true(f.now - start < 200000);
    }
    uint64_t cycles = f.now - start;
    double peak = (double)f.cfg.dram_bus_bytes * f.cfg.dram_data_rate; /* bytes / cycle */
    double got = 128.0 * (double)stat(&f, "dram_reads") / (double)cycles;
    double util;
    assert_int_equal(stat(&f, "dram_reads"), 4 * lines_per_sm);
    assert_true(got <= peak);
    assert_true(got >= 0.7 * peak);
    stats_get(f.st, "dram_bandwidth_util", &util);
    assert_true(util <= 1.0 && util >= 0.7);
    double rh;
    stats_get(f.st, "dram_row_hit_rate", &rh);
    assert_true(rh > 0.8);
    fx_close(&f);
}

/* L2 hits from several SMs into one single-ported bank running at half the
 * interconnect clock: requests wait in the bank queue, and the average wait
 * grows with the number of SMs sending. */
static double l2_queueing(uint32_t n_sms)
{
    struct fx f;
    tiny_config(&f.cfg);
    f.cfg.n_sms = n_sms;
    f.cfg.l1d_enabled = 0;
    f.cfg.n_channels = 1;
    f.cfg.subparts_per_channel = 1;
    f.cfg.l2_banks = 1;
    f.cfg.l2_ports = 1;
    f.cfg.l2_mhz = 500.0;
    fx_open(&f);
    f.skip = 0;
    uint32_t issued = 0, done = 0;
    while (done < 64 * n_sms) {
        for (uint32_t s = 0; s < n_sms; s++)
            if (issued < 64 * n_sms && memsys_can_issue(f.ms, s)) {
                struct mem_inst mi = load_inst(s, 0, 4, GBASE + (issued % 4) * 128, 1);
                mi.token = issued++;
                memsys_issue(f.ms, &mi, f.now);
            }
        int d = 0;
        done += fx_step(&f, 99, 0, &d);
        assert_true(f.now < 1000000);
    }
    double q;
    stats_get(f.st, "l2_queue_latency", &q);
    assert_true(stat(&f, "l2_misses") <= 4); /* the rest hit or merge */
    fx_close(&f);
    return q;
}

static void test_l2_queueing(void **state)
{
    (void)state;
    double one = l2_queueing(1), four = l2_queueing(4);
    assert_true(four > 0.5);
    assert_true(four > one);
}

static uint64_t smem_latency(struct fx *f, uint32_t stride_words, int store)
{
    struct mem_inst mi = load_inst(0, 0, 4ull * stride_words, 0, 0xffffffffu);
    mi.space = PTX_SPACE_SHARED;
    mi.is_store = (uint8_t)store;
    return fx_run(f, mi);
}

static void test_shared_bank_conflicts(void **state)
{
    (void)state;
    struct fx f;
    tiny_config(&f.cfg);
    fx_open(&f);
    f.skip = 0;
    uint64_t base = smem_latency(&f, 1, 0);
    assert_int_equal(base, f.cfg.smem_latency);
    assert_int_equal(smem_latency(&f, 2, 0) - base, 1);
    assert_int_equal(smem_latency(&f, 32, 0) - base, 31);
    assert_int_equal(smem_latency(&f, 0, 0), base); /* broadcast */
    assert_int_equal(smem_latency(&f, 33, 0), base); /* odd stride: conflict free */
    assert_int_equal(stat(&f, "smem_cycles"), 1 + 2 + 32 + 1 + 1);
    /* a store holds the unit for the conflict degree and then completes */
    struct mem_inst mi = load_inst(0, 0, 4 * 32, 0, 0xffffffffu);
    mi.space = PTX_SPACE_SHARED;
    mi.is_store = 1;
    mi.token = 77;
    memsys_issue(f.ms, &mi, f.now);
    uint32_t cyc = 0;
    while (!memsys_can_issue(f.ms, 0)) {
        int d = 0;
        fx_step(&f, 0, 0, &d);
        cyc++;
    }
    assert_int_equal(cyc, 32);
    /* generic addresses in the shared window are shared accesses */
    struct mem_inst g = load_inst(0, 0, 8, MEM_SHARED_BASE, 0xffffffffu);
    g.space = PTX_SPACE_NONE;
    assert_int_equal(fx_run(&f, g), base + 1);
    fx_close(&f);
}

static double sweep_miss_rate(uint32_t lines)
{
    struct fx f;
    tiny_config(&f.cfg);
    fx_open(&f);
    f.skip = 1;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            uint64_t m0 = stat(&f, "l1d_misses"), a0 = stat(&f, "l1d_accesses");
            for (uint32_t i = 0; i < lines; i++)
                fx_run(&f, load_inst(0, i % 8, 4, GBASE + (uint64_t)i * 128, 0xffffffffu));
            double r = (double)(stat(&f, "l1d_misses") - m0) /
                       (double)(stat(&f, "l1d_accesses") - a0);
            fx_close(&f);
            return r;
        }
        for (uint32_t i = 0; i < lines; i++)
            fx_run(&f, load_inst(0, i % 8, 4, GBASE + (uint64_t)i * 128, 0xffffffffu));
    }
    return -1;
}

static void test_l1_capacity_knee(void **state)
{
    (void)state;
    /* 4 sets x 4 ways = 16 lines */
    assert_true(sweep_miss_rate(8) == 0.0);
    assert_true(sweep_miss_rate(16) == 0.0);
    assert_true(sweep_miss_rate(20) == 1.0);
    assert_true(sweep_miss_rate(32) == 1.0);
}

static void test_mshr_merge_and_limit(void **state)
{
    (void)state;
    struct fx f;
    tiny_config(&f.cfg);
    f.cfg.l1d.mshr_max_merge = 2;
    f.cfg.max_warps_per_sm = 8;
    fx_open(&f);
    f.skip = 0;
    /* four warps load the same line back to back */
    uint32_t done = 0;
    for (uint32_t w = 0; w < 4; w++) {
        while (!memsys_can_issue(f.ms, 0)) {
            int d = 0;
            done += fx_step(&f, 0, 0, &d);
        }
        struct mem_inst mi = load_inst(0, w, 4, GBASE, 0xffffffffu);
        mi.token = w;
        memsys_issue(f.ms, &mi, f.now);
    }
    while (done < 4) {
        int d = 0;
        done += fx_step(&f, 0, 0, &d);
    }
    /* 1 miss + 1 merge; the merge limit (2) stalls the 3rd, which then hits */
    assert_int_equal(stat(&f, "l1d_misses"), 1);
    assert_int_equal(stat(&f, "l1d_hit_reserved"), 1);
    assert_int_equal(stat(&f, "l1d_hits"), 2);
    assert_true(stat(&f, "l1d_reservation_fails") > 0);
    assert_int_equal(stat(&f, "l2_accesses"), 1);
    fx_close(&f);
}

static void test_reservation_fail_backpressure(void **state)
{
    (void)state;
    struct fx f;
    tiny_config(&f.cfg);
    f.cfg.l1d.mshr_entries = 2;
    f.cfg.l1d.sets = 32;
    fx_open(&f);
    f.skip = 0;
    /* 32 lanes in 32 different lines: 32 accesses, only 2 MSHRs */
    struct mem_inst mi = load_inst(0, 0, 128, GBASE, 0xffffffffu);
    mi.token = 5;
    memsys_issue(f.ms, &mi, f.now);
    int got = 0, blocked = 0;
    while (!got) {
        if (!memsys_can_issue(f.ms, 0))
            blocked++;
        fx_step(&f, 0, 5, &got);
        assert_true(f.now < 100000);
    }
    assert_int_equal(stat(&f, "l1d_misses"), 32);
    assert_true(stat(&f, "l1d_reservation_fails") > 32);
    assert_true(blocked > 32 * 10); /* the unit waited for MSHRs to drain */
    assert_false(memsys_busy(f.ms));
    fx_close(&f);
}

static void test_write_policy(void **state)
{
    (void)state;
    struct fx f;
    tiny_config(&f.cfg);
    fx_open(&f);
    f.skip = 1;
    struct mem_inst ld = load_inst(0, 0, 4, GBASE, 0xffffffffu);
    fx_run(&f, ld);
    /* global store hit: write to L2 and invalidate */
    struct mem_inst stg = ld;
    stg.is_store = 1;
    uint64_t t = fx_run(&f, stg);
    assert_true(t <= 2); /* stores complete when they leave the unit */
    assert_int_equal(fx_run(&f, ld) > f.cfg.l1d.hit_latency, 1); /* miss again */
    /* local store to a line not in L1: no write allocate; a local load then
     * allocates, a local store hits and dirties it (no L2 write) */
    struct mem_inst lo = load_inst(0, 1, 4, 0, 0xffffffffu);
    lo.space = PTX_SPACE_LOCAL;
    for (int l = 0; l < 32; l++)
        lo.addr[l] = 16; /* same offset in every thread: one coalesced access */
    uint64_t w0 = stat(&f, "icnt_req_packets");
    fx_run(&f, lo);
    assert_int_equal(stat(&f, "icnt_req_packets"), w0 + 1);
    struct mem_inst ls = lo;
    ls.is_store = 1;
    fx_run(&f, ls);
    assert_int_equal(stat(&f, "icnt_req_packets"), w0 + 1); /* write-back: no traffic */
    assert_int_equal(fx_run(&f, lo), f.cfg.l1d.hit_latency);
    /* atomics go to L2 */
    struct mem_inst at = ld;
    at.is_atomic = 1;
    uint64_t a0 = stat(&f, "l2_accesses");
    fx_run(&f, at);
    assert_int_equal(stat(&f, "l2_accesses"), a0 + 1);
    fx_close(&f);
}

struct evlog {
    uint32_t access, hits, evict;
    int32_t evict_slot;
};

static void listener(void *ctx, const struct sched_event *ev)
{
    struct evlog *l = ctx;
    if (ev->kind == SCHED_EV_L1D_ACCESS) {
        l->access++;
        l->hits += ev->hit;
    } else if (ev->kind == SCHED_EV_L1D_EVICT) {
        l->evict++;
        l->evict_slot = ev->slot;
    }
}

static void test_events_and_warp_hits(void **state)
{
    (void)state;
    struct fx f;
    tiny_config(&f.cfg);
    fx_open(&f);
    f.skip = 1;
    struct evlog log = {0};
    memsys_set_listener(f.ms, 0, listener, &log, ~0u);
    /* warp 3 allocates 4 lines of set 0, hits one itself, warp 4 hits one */
    for (uint32_t i = 0; i < 4; i++)
        fx_run(&f, load_inst(0, 3, 4, GBASE + i * 512ull, 0xffffffffu));
    fx_run(&f, load_inst(0, 3, 4, GBASE, 0xffffffffu));
    fx_run(&f, load_inst(0, 4, 4, GBASE + 512, 0xffffffffu));
    assert_int_equal(stat(&f, "l1d_intra_warp_hits"), 1);
    assert_int_equal(stat(&f, "l1d_inter_warp_hits"), 1);
    /* a fifth line in set 0 evicts a line allocated by warp 3 */
    fx_run(&f, load_inst(0, 5, 4, GBASE + 4 * 512ull, 0xffffffffu));
    assert_int_equal(log.access, 7);
    assert_int_equal(log.hits, 2);
    assert_int_equal(log.evict, 1);
    assert_int_equal(log.evict_slot, 3);
    assert_int_equal(stat(&f, "l1d_evictions"), 1);
    fx_close(&f);
}

static void test_const_and_ifetch(void **state)
{
    (void)state;
    struct fx f;
    tiny_config(&f.cfg);
    fx_open(&f);
    f.skip = 1;
    struct mem_inst c = load_inst(0, 0, 0, GBASE + 64, 0xffffffffu);
    c.space = PTX_SPACE_CONST;
    uint64_t miss = fx_run(&f, c);
    uint64_t hit = fx_run(&f, c);
    assert_int_equal(hit, f.cfg.l1c.hit_latency);
    assert_true(miss > hit);
    /* 4 distinct lines serialise: one per cycle */
    struct mem_inst c4 = load_inst(0, 0, 64, GBASE, 0xf);
    c4.space = PTX_SPACE_CONST;
    fx_run(&f, c4);
    assert_int_equal(stat(&f, "l1c_accesses"), 2 + 4);
    uint64_t ready = 0;
    assert_int_equal(memsys_ifetch(f.ms, 0, 0x40, 10, &ready), 0);
    assert_true(ready > 10);
    assert_int_equal(memsys_ifetch(f.ms, 0, 0x44, ready - 1, &ready), 0);
    assert_int_equal(memsys_ifetch(f.ms, 0, 0x48, ready, &ready), 1);
    assert_int_equal(stat(&f, "l1i_misses"), 1);
    assert_int_equal(stat(&f, "l1i_hits"), 1);
    fx_close(&f);
}

/* A pseudo-random mix of loads and stores over many SMs; returns the JSON
 * statistics text. */
static char *random_mix(int cramped)
{
    struct fx f;
    tiny_config(&f.cfg);
    f.cfg.n_sms = 3;
    f.cfg.subparts_per_channel = 1;
    f.cfg.n_channels = 2;
    if (cramped) {
        /* every queue one entry deep, a tiny dirty L2: exercises all stalls */
        f.cfg.icnt_queue = 1;
        f.cfg.dram_queue = 1;
        f.cfg.l2_bank_queue = 1;
        f.cfg.l1d.mshr_entries = 1;
        f.cfg.l1d.mshr_max_merge = 1;
        f.cfg.l1d.miss_queue = 1;
        f.cfg.l2.mshr_entries = 1;
        f.cfg.l2.mshr_max_merge = 1;
        f.cfg.l2.sets = 1;
        f.cfg.l2.assoc = 2;
        f.cfg.icnt_flit_bytes = 4;
        f.cfg.l2_mhz = 333.0;
        f.cfg.dram_mhz = 1500.0;
    }
    fx_open(&f);
    f.skip = 1;
    uint64_t x = 12345;
    uint32_t issued = 0, done = 0;
    while (done < 600) {
        for (uint32_t s = 0; s < 3; s++) {
            if (issued < 600 && memsys_can_issue(f.ms, s)) {
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                uint64_t stride = (x >> 40) % 3 == 0 ? 4 : 4 * ((x >> 20) % 97);
                struct mem_inst mi =
                    load_inst(s, (uint32_t)(x >> 50) % 8, stride,
                              GBASE + ((x >> 30) % 64) * 128, (uint32_t)(x >> 8) | 1);
                mi.is_store = (x >> 45) % 5 == 0;
                mi.space = (x >> 47) % 7 == 0 ? PTX_SPACE_LOCAL : PTX_SPACE_GLOBAL;
                if (mi.space == PTX_SPACE_LOCAL)
                    for (int l = 0; l < 32; l++)
                        mi.addr[l] = (x >> 33) % 64 * 4;
                mi.token = issued++;
                memsys_issue(f.ms, &mi, f.now);
            }
        }
        int d = 0;
        done += fx_step(&f, 99, 0, &d);
        assert_true(f.now < 10000000);
    }
    while (memsys_busy(f.ms)) {
        int d = 0;
        fx_step(&f, 99, 0, &d);
    }
    /* identities */
    assert_int_equal(stat(&f, "l1d_accesses"),
                     stat(&f, "l1d_hits") + stat(&f, "l1d_misses") + stat(&f, "l1d_hit_reserved"));
    assert_int_equal(stat(&f, "l1d_hits"),
                     stat(&f, "l1d_intra_warp_hits") + stat(&f, "l1d_inter_warp_hits"));
    assert_int_equal(stat(&f, "l2_accesses"),
                     stat(&f, "l2_hits") + stat(&f, "l2_misses") + stat(&f, "l2_hit_reserved"));
    assert_int_equal(stat(&f, "dram_accesses"), stat(&f, "dram_reads") + stat(&f, "dram_writes"));
    assert_true(stat(&f, "l2_queue_latency_count") > 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    stats_print_json(f.st, m, 0);
    fclose(m);
    fx_close(&f);
    return buf;
}

static void test_determinism_and_identities(void **state)
{
    (void)state;
    char *a = random_mix(0);
    char *b = random_mix(0);
    assert_string_equal(a, b);
    free(a);
    free(b);
    a = random_mix(1);
    b = random_mix(1);
    assert_string_equal(a, b);
    assert_non_null(strstr(a, "\"l2_writebacks\": "));
    assert_null(strstr(a, "\"l2_writebacks\": 0,"));
    free(a);
    free(b);
}

static void test_bad_policy(void **state)
{
    (void)state;
    struct gpu_config c;
    tiny_config(&c);
    snprintf(c.l2.policy, sizeof c.l2.policy, "nosuch");
    struct stats *s = stats_new();
    struct mem_system *ms = NULL;
    struct err e;
    err_clear(&e);
    assert_int_not_equal(memsys_new(&c, NULL, s, &ms, &e), WS_OK);
    assert_null(ms);
    assert_non_null(strstr(e.msg, "l2"));
    stats_free(s);
}

/* Skipping idle cycles with memsys_next_event changes nothing: the same
 * instruction stream (fixed issue cycles) completes at the same cycles with
 * the same statistics, with and without skipping. */
static uint64_t skip_run(int skip, int cramped, char **json)
{
    struct fx f;
    tiny_config(&f.cfg);
    f.cfg.n_sms = 2;
    f.cfg.core_mhz = 700.0;
    f.cfg.icnt_mhz = 700.0;
    f.cfg.l2_mhz = 500.0;
    f.cfg.dram_mhz = 924.0;
    f.cfg.dram_latency = 30;
    if (cramped) {
        f.cfg.icnt_queue = 1;
        f.cfg.dram_queue = 2;
        f.cfg.l1d.mshr_entries = 2;
        f.cfg.l2.sets = 2;
        f.cfg.l2.assoc = 2;
    }
    fx_open(&f);
    enum { N = 300 };
    uint64_t when[N], hash = 0, x = 99;
    struct mem_inst mi[N];
    uint64_t t = 0;
    for (int i = 0; i < N; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        t += (x >> 33) % 4 == 0 ? (x >> 40) % 300 : (x >> 40) % 3;
        when[i] = t;
        mi[i] = load_inst((uint32_t)(x >> 20) % 2, (uint32_t)(x >> 50) % 8,
                          (x >> 38) % 2 ? 4 : 4 * ((x >> 24) % 61),
                          GBASE + ((x >> 30) % 96) * 128, (uint32_t)(x >> 7) | 1);
        mi[i].is_store = (x >> 45) % 6 == 0;
        mi[i].space = (x >> 47) % 9 == 0 ? PTX_SPACE_SHARED : PTX_SPACE_GLOBAL;
        mi[i].token = (uint32_t)i;
    }
    int next_i[2] = {0, 0}; /* per SM: instructions are issued in order */
    uint32_t done = 0;
    while (done < N) {
        uint32_t tok;
        for (uint32_t s = 0; s < 2; s++) {
            while (memsys_pop_done(f.ms, s, &tok)) {
                hash = hash * 1000003u + tok * 7919u + f.now;
                done++;
            }
            while (memsys_pop_acked(f.ms, s, &tok))
                hash = hash * 1000003u + tok * 104729u + f.now;
        }
        for (uint32_t s = 0; s < 2; s++) {
            while (next_i[s] < N && mi[next_i[s]].sm != s)
                next_i[s]++;
            int i = next_i[s];
            if (i < N && when[i] <= f.now && memsys_can_issue(f.ms, s)) {
                memsys_issue(f.ms, &mi[i], f.now);
                next_i[s]++;
            }
        }
        memsys_cycle(f.ms, f.now);
        uint64_t next = f.now + 1;
        if (skip) {
            uint64_t ev = memsys_next_event(f.ms, next);
            for (uint32_t s = 0; s < 2; s++) {
                int i = next_i[s];
                while (i < N && mi[i].sm != s)
                    i++;
                if (i < N && when[i] < ev)
                    ev = when[i] > next ? when[i] : next;
            }
            assert_true(ev >= next);
            if (ev != UINT64_MAX)
                next = ev;
        }
        f.now = next;
        assert_true(f.now < 10000000);
    }
    size_t len = 0;
    FILE *m = open_memstream(json, &len);
    stats_print_json(f.st, m, 0);
    fclose(m);
    fx_close(&f);
    return hash;
}

static void test_skip_is_exact(void **state)
{
    (void)state;
    for (int cramped = 0; cramped < 2; cramped++) {
        char *a, *b;
        uint64_t ha = skip_run(0, cramped, &a);
        uint64_t hb = skip_run(1, cramped, &b);
        assert_string_equal(a, b);
        assert_true(ha == hb);
        free(a);
        free(b);
    }
}

/* Every preset builds a memory system, and its L1 hit latency is exact. */
static void test_presets(void **state)
{
    (void)state;
    const char *const *names = config_preset_names();
    int n = 0;
    for (; names[n]; n++) {
        struct fx f;
        struct err e;
        err_clear(&e);
        config_defaults(&f.cfg);
        if (config_preset(&f.cfg, names[n], &e) != WS_OK)
            fail_msg("preset %s: %s", names[n], e.msg);
        fx_open(&f);
        f.skip = 1;
        struct mem_inst one = load_inst(0, 0, 0, GBASE + 4096, 1);
        uint64_t miss = fx_run(&f, one);
        uint64_t hit = fx_run(&f, one);
        if (f.cfg.l1d_enabled) {
            assert_int_equal(hit, f.cfg.l1d.hit_latency);
            assert_true(miss > hit);
        }
        fx_close(&f);
    }
    assert_true(n >= 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pointer_chase_latencies),
        cmocka_unit_test(test_icnt_ctrl_bytes),
        cmocka_unit_test(test_row_hits_and_l2_bypass),
        cmocka_unit_test(test_streaming_bandwidth),
        cmocka_unit_test(test_l2_queueing),
        cmocka_unit_test(test_shared_bank_conflicts),
        cmocka_unit_test(test_l1_capacity_knee),
        cmocka_unit_test(test_mshr_merge_and_limit),
        cmocka_unit_test(test_reservation_fail_backpressure),
        cmocka_unit_test(test_write_policy),
        cmocka_unit_test(test_events_and_warp_hits),
        cmocka_unit_test(test_const_and_ifetch),
        cmocka_unit_test(test_determinism_and_identities),
        cmocka_unit_test(test_bad_policy),
        cmocka_unit_test(test_presets),
        cmocka_unit_test(test_skip_is_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
