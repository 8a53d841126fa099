/* mem_fx.h: the fixture of the memory-system tests: a tiny configuration
 * with all clocks equal (every latency in core cycles) and a driver that
 * issues hand-made mem_inst streams and steps the memory system the way the
 * engine does.  Included by tests/timing/test_mem_*.c. */
#ifndef WS_TESTS_MEM_FX_H
#define WS_TESTS_MEM_FX_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"
#include "ptx/ir.h"
#include "stats/stats.h"
#include "timing/memsys.h"

#define GBASE 0x100000000ull

static inline void tiny_config(struct gpu_config *c)
{
    config_defaults(c);
    c->core_mhz = c->icnt_mhz = c->l2_mhz = c->dram_mhz = 1000.0;
    c->n_sms = 2;
    c->max_warps_per_sm = 8;
    c->n_channels = 1;
    c->subparts_per_channel = 2;
    c->addr_chunk = 256;
    c->icnt_latency = 5;
    c->icnt_flit_bytes = 32;
    c->icnt_queue = 8;
    c->l1d_enabled = 1;
    c->coalesce_sectored = 0;
    c->l1d = (struct cache_geometry){.sets = 4, .line = 128, .assoc = 4, .policy = "lru",
                                     .mshr_entries = 8, .mshr_max_merge = 4, .miss_queue = 8,
                                     .hit_latency = 10};
    c->l1c = (struct cache_geometry){.sets = 8, .line = 64, .assoc = 2, .policy = "lru",
                                     .mshr_entries = 2, .mshr_max_merge = 32, .miss_queue = 4,
                                     .hit_latency = 3};
    c->l1i = (struct cache_geometry){.sets = 4, .line = 128, .assoc = 4, .policy = "lru",
                                     .mshr_entries = 2, .mshr_max_merge = 32, .miss_queue = 4,
                                     .hit_latency = 1};
    c->l2 = (struct cache_geometry){.sets = 64, .line = 128, .assoc = 8, .policy = "lru",
                                    .mshr_entries = 32, .mshr_max_merge = 8, .miss_queue = 8,
                                    .hit_latency = 20};
    c->l2_enabled = 1;
    c->l2_banks = 2;
    c->l2_ports = 1;
    c->l2_bank_queue = 8;
    c->l2_rop_latency = 0; /* the L2 pipeline is the hit latency here */
    c->l2_port_bytes = 0;  /* no data-port occupancy (test_mem_fidelity sets widths) */
    /* an unbounded reply queue and data-only packets (the tests of those set them) */
    c->l2_reply_queue = 0;
    c->icnt_ctrl_bytes = 0;
    c->dram_banks = 4;
    c->dram_row_bytes = 2048;
    c->dram_bus_bytes = 8;
    c->dram_burst = 8;
    c->dram_data_rate = 4;
    c->tCCD = 2;
    c->tRRD = 6;
    c->tRCD = 12;
    c->tRAS = 28;
    c->tRP = 12;
    c->tRC = 40;
    c->CL = 12;
    c->WL = 4;
    c->tCDLR = 5;
    c->tWR = 12;
    c->dram_queue = 16;
    c->dram_latency = 0;
    snprintf(c->dram_sched, sizeof c->dram_sched, "frfcfs");
    c->smem_banks = 32;
    c->smem_latency = 20;
}

struct fx {
    struct gpu_config cfg;
    struct stats *st;
    struct mem_system *ms;
    uint64_t now;
    uint32_t next_token;
    int skip; /* jump idle cycles with memsys_next_event */
    uint32_t acked; /* warp slots whose stores were all acknowledged (sm.store_ack) */
};

static inline void fx_open(struct fx *f)
{
    struct err e;
    err_clear(&e);
    f->st = stats_new();
    int rc = memsys_new(&f->cfg, NULL, f->st, &f->ms, &e);
    if (rc != WS_OK)
        fail_msg("memsys_new: %s", e.msg);
    f->now = 0;
    f->next_token = 1;
    f->acked = 0;
}

static inline void fx_close(struct fx *f)
{
    memsys_free(f->ms);
    stats_free(f->st);
}

static inline uint64_t stat(const struct fx *f, const char *name)
{
    uint64_t v;
    if (stats_get_u64(f->st, name, &v) != 0)
        fail_msg("no statistic %s", name);
    return v;
}

static inline struct mem_inst load_inst(uint32_t sm, uint32_t slot, uint64_t stride,
                                        uint64_t base, uint32_t mask)
{
    struct mem_inst mi;
    memset(&mi, 0, sizeof mi);
    mi.sm = sm;
    mi.slot = slot;
    mi.age = slot + 100u * sm;
    mi.space = PTX_SPACE_GLOBAL;
    mi.size = 4;
    mi.mask = mask;
    for (int l = 0; l < 32; l++)
        mi.addr[l] = base + (uint64_t)l * stride;
    return mi;
}

/* One cycle as the engine runs it: the SM pops completions and store
 * acknowledgements (and may issue), then the memory system advances. */
static inline uint32_t fx_step(struct fx *f, uint32_t sm, uint32_t want, int *got)
{
    uint32_t tok, n = 0;
    for (uint32_t s = 0; s < f->cfg.n_sms; s++) {
        while (memsys_pop_done(f->ms, s, &tok)) {
            n++;
            if (s == sm && tok == want)
                *got = 1;
        }
        while (memsys_pop_acked(f->ms, s, &tok))
            f->acked++;
    }
    memsys_cycle(f->ms, f->now);
    uint64_t next = f->now + 1;
    if (f->skip) {
        uint64_t ev = memsys_next_event(f->ms, next);
        assert_true(ev >= next);
        if (ev != UINT64_MAX)
            next = ev;
    }
    f->now = next;
    return n;
}

/* Issue (waiting for the unit) and run until done; returns issue-to-done cycles. */
static inline uint64_t fx_run(struct fx *f, struct mem_inst mi)
{
    while (!memsys_can_issue(f->ms, mi.sm)) {
        int dummy = 0;
        fx_step(f, mi.sm, 0, &dummy);
    }
    mi.token = f->next_token++;
    uint64_t t0 = f->now;
    memsys_issue(f->ms, &mi, f->now);
    int got = 0;
    while (!got) {
        uint64_t t = f->now;
        fx_step(f, mi.sm, mi.token, &got);
        if (got)
            return t - t0;
        assert_true(f->now - t0 < 100000);
    }
    return 0;
}

#endif
