/* test_mem_fidelity.c: memory-system details of the papers' simulators
 * (issue 10, docs/baselines-audit.md 1.3-1.5): set-index functions (the
 * CCWS/DAWS simulator's hash, GPGPU-Sim's Fermi hash), the kernel-boundary
 * flush of the L1D and the L2, an L1D latency paid by hits only, the sectored
 * L2, the L2 filled by copies, and the L2 data and fill ports of 3.2.2. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"
#include "func/mem.h"
#include "stats/stats.h"
#include "timing/cache.h"
#include "timing/memsys.h"

#include "timing/mem_fx.h"
#include "warpsim.h"

static uint32_t set_of(uint32_t index, uint32_t sets, uint64_t addr)
{
    struct cache c = {.sets = sets, .line_shift = 7, .index = index};
    return cache_set_index(&c, addr >> 7);
}

static void test_set_index(void **state)
{
    (void)state;
    /* linear: line % sets */
    assert_int_equal(set_of(CACHE_INDEX_LINEAR, 32, (5 + 32 * 3) << 7), 5);
    /* CCWS: (set bits + 7 x tag) % sets */
    assert_int_equal(set_of(CACHE_INDEX_CCWS_HASH, 32, (5 + 32 * 3) << 7), (5 + 21) % 32);
    assert_int_equal(set_of(CACHE_INDEX_CCWS_HASH, 32, (31 + 32 * 1) << 7), 6);
    /* Fermi: bits 7-11 XOR (13, 14, 15, 17, 19); bit 12 on top with 64 sets */
    assert_int_equal(set_of(CACHE_INDEX_FERMI, 32, 0x2000), 1);           /* bit 13 */
    assert_int_equal(set_of(CACHE_INDEX_FERMI, 32, 0x20000 | 0x80), 8 ^ 1); /* bit 17, line 1 */
    assert_int_equal(set_of(CACHE_INDEX_FERMI, 32, 0x80000), 16);         /* bit 19 */
    assert_int_equal(set_of(CACHE_INDEX_FERMI, 32, 0x1000), 0);           /* bit 12 ignored */
    assert_int_equal(set_of(CACHE_INDEX_FERMI, 64, 0x1000), 32);
    /* a 4 KB stride: every line in set 0 when linear, spread by the hashes */
    uint32_t used_lin = 0, used_ccws = 0, used_fermi = 0;
    for (uint64_t k = 0; k < 32; k++) {
        used_lin |= 1u << set_of(CACHE_INDEX_LINEAR, 32, k * 4096);
        used_ccws |= 1u << set_of(CACHE_INDEX_CCWS_HASH, 32, k * 4096);
        used_fermi |= 1u << set_of(CACHE_INDEX_FERMI, 32, k * 4096);
    }
    assert_int_equal(__builtin_popcount(used_lin), 1);
    assert_int_equal(__builtin_popcount(used_ccws), 32); /* 7 is odd: a permutation */
    assert_int_equal(__builtin_popcount(used_fermi), 8); /* k x 4096 < 128 K: bits 13-15 vary */
    /* power-of-two and other set counts give the formulas' values (the first
     * are computed with masks and shifts) */
    static const uint32_t sets[] = {1, 32, 64, 256, 48, 96, 3};
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (unsigned i = 0; i < sizeof sets / sizeof sets[0]; i++)
        for (int k = 0; k < 1000; k++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t line = x >> (k % 40), s = sets[i];
            struct cache c = {.sets = sets[i], .line_shift = 7, .index = CACHE_INDEX_LINEAR};
            assert_int_equal(cache_set_index(&c, line), line % s);
            c.index = CACHE_INDEX_CCWS_HASH;
            assert_int_equal(cache_set_index(&c, line), (line % s + 7 * (line / s)) % s);
        }
}

/* The same load three times: the second hits L1; a kernel end in between
 * flushes it (l1d.flush) and, with l2.flush, the L2 too. */
static void test_flush(void **state)
{
    (void)state;
    for (int l2 = 0; l2 < 2; l2++) {
        struct fx f;
        tiny_config(&f.cfg);
        f.cfg.l1d_flush = 1;
        f.cfg.l2_flush = (uint32_t)l2;
        fx_open(&f);
        f.skip = 1;
        struct mem_inst one = load_inst(0, 0, 0, GBASE + 4096, 1);
        fx_run(&f, one);
        fx_run(&f, one);
        assert_int_equal(stat(&f, "l1d_hits"), 1);
        memsys_kernel_end(f.ms);
        assert_int_equal(stat(&f, "l1d_flushed"), 1);
        assert_int_equal(stat(&f, "l2_flushed"), (uint64_t)l2);
        fx_run(&f, one);
        assert_int_equal(stat(&f, "l1d_hits"), 1);
        assert_int_equal(stat(&f, "l1d_misses"), 2);
        assert_int_equal(stat(&f, "l2_hits"), l2 ? 0 : 1);
        assert_int_equal(stat(&f, "l2_misses"), l2 ? 2 : 1);
        fx_close(&f);
    }
    /* off by default: the third load hits */
    struct fx f;
    tiny_config(&f.cfg);
    fx_open(&f);
    struct mem_inst one = load_inst(0, 0, 0, GBASE, 1);
    fx_run(&f, one);
    memsys_kernel_end(f.ms);
    fx_run(&f, one);
    assert_int_equal(stat(&f, "l1d_hits"), 1);
    assert_int_equal(stat(&f, "l1d_flushed"), 0);
    fx_close(&f);
}

/* l1d.latency_on = hits (the CCWS/DAWS simulator's -L1_HIT_LATENCY): a hit
 * still takes l1d.latency, a miss no longer pays it on its fill. */
static void test_hit_only_latency(void **state)
{
    (void)state;
    uint64_t miss[2], hit[2];
    for (int k = 0; k < 2; k++) {
        struct fx f;
        tiny_config(&f.cfg);
        snprintf(f.cfg.l1d_latency_on, sizeof f.cfg.l1d_latency_on, "%s", k ? "hits" : "all");
        fx_open(&f);
        f.skip = 1;
        struct mem_inst one = load_inst(0, 0, 0, GBASE + 8192, 1);
        miss[k] = fx_run(&f, one);
        hit[k] = fx_run(&f, one);
        fx_close(&f);
    }
    assert_int_equal(hit[0], 10); /* tiny_config's l1d latency */
    assert_int_equal(hit[1], 10);
    assert_int_equal(miss[0] - miss[1], 10 - 1);
}

/* l2.sector_bytes (GPGPU-Sim 4.x "S:" L2): a miss fetches only the sectors
 * its request covers; another sector of the present line is a sector miss;
 * a written sector is valid without a fetch. */
static void test_sectors(void **state)
{
    (void)state;
    struct fx f;
    tiny_config(&f.cfg);
    f.cfg.l1d_enabled = 0; /* the L2 sees each access at its own size */
    f.cfg.coalesce_sectored = 1;
    f.cfg.l2_sector_bytes = 32;
    fx_open(&f);
    f.skip = 1;
    fx_run(&f, load_inst(0, 0, 0, GBASE, 1));        /* sector 0: line miss */
    assert_int_equal(stat(&f, "l2_misses"), 1);
    assert_int_equal(stat(&f, "dram_reads"), 1);
    fx_run(&f, load_inst(0, 0, 0, GBASE + 4, 1));    /* sector 0 again: hit */
    assert_int_equal(stat(&f, "l2_hits"), 1);
    fx_run(&f, load_inst(0, 0, 0, GBASE + 64, 1));   /* sector 2: sector miss */
    assert_int_equal(stat(&f, "l2_sector_misses"), 1);
    assert_int_equal(stat(&f, "l2_misses"), 2);
    assert_int_equal(stat(&f, "dram_reads"), 2);
    fx_run(&f, load_inst(0, 0, 0, GBASE + 68, 1));   /* now valid */
    assert_int_equal(stat(&f, "l2_hits"), 2);
    fx_close(&f);
    /* unsectored (default): the first miss brings the whole line */
    tiny_config(&f.cfg);
    f.cfg.l1d_enabled = 0;
    f.cfg.coalesce_sectored = 1;
    fx_open(&f);
    fx_run(&f, load_inst(0, 0, 0, GBASE, 1));
    fx_run(&f, load_inst(0, 0, 0, GBASE + 64, 1));
    assert_int_equal(stat(&f, "l2_hits"), 1);
    assert_int_equal(stat(&f, "l2_sector_misses"), 0);
    fx_close(&f);
}

/* l2.memcpy_fill (GPGPU-Sim 4.x -gpgpu_perf_sim_memcpy): the lines a
 * host-to-device copy wrote are L2 hits for the first kernel. */
static const char sum_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry rd(.param .u64 a, .param .u64 out)\n{\n"
    ".reg .b32 %r<4>;\n.reg .b64 %rd<6>;\n"
    "ld.param.u64 %rd1, [a];\nld.param.u64 %rd2, [out];\n"
    "mov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %ntid.x;\nmov.u32 %r3, %tid.x;\n"
    "mad.lo.s32 %r1, %r1, %r2, %r3;\nmul.wide.u32 %rd3, %r1, 4;\n"
    "add.s64 %rd4, %rd1, %rd3;\nld.global.u32 %r2, [%rd4];\n"
    "add.s64 %rd5, %rd2, %rd3;\nst.global.u32 [%rd5], %r2;\nret;\n}\n";

static void l2_after_copy(const char *fill, uint64_t *hits, uint64_t *misses, uint64_t *fills)
{
    ws_gpu *gpu;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "mode", "timing"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "l2.memcpy_fill", fill), WS_OK);
    ws_module *mod;
    assert_int_equal(ws_module_load_string(gpu, sum_ptx, "rd.ptx", &mod), WS_OK);
    static uint32_t h[4096];
    ws_devptr a, out;
    assert_int_equal(ws_malloc(gpu, sizeof h, &a), WS_OK);
    assert_int_equal(ws_malloc(gpu, sizeof h, &out), WS_OK);
    assert_int_equal(ws_memcpy_htod(gpu, a, h, sizeof h), WS_OK);
    void *args[] = {&a, &out};
    assert_int_equal(ws_launch(mod, "rd", ws_dim(16, 1, 1), ws_dim(256, 1, 1), 0, args), WS_OK);
    assert_int_equal(ws_stat(gpu, "l2_hits", hits), WS_OK);
    assert_int_equal(ws_stat(gpu, "l2_misses", misses), WS_OK);
    assert_int_equal(ws_stat(gpu, "l2_memcpy_fills", fills), WS_OK);
    ws_gpu_free(gpu);
}

static void test_memcpy_fill(void **state)
{
    (void)state;
    uint64_t hits, misses, fills;
    l2_after_copy("0", &hits, &misses, &fills);
    assert_int_equal(fills, 0);
    uint64_t cold_misses = misses;
    assert_true(cold_misses >= 128); /* 16 KB of reads: 128 lines of 128 B, all cold */
    l2_after_copy("1", &hits, &misses, &fills);
    assert_int_equal(fills, 128);
    assert_true(hits >= 128);              /* every read line was copied in */
    assert_int_equal(misses, cold_misses - 128);
}

/* l2.port_bytes (GPGPU-Sim 3.2.2's L2 data port): SM 0 reads line x (bank 0)
 * and SM 1 line y (bank 1) of sub-partition 0 in the same cycle, through two
 * input ports, so that without a port limit both are looked up in the same
 * cycle.  With the L1D a request is a whole 128-byte line, without it a
 * 32-byte sector.  `warm` first puts both lines in the L2 (through the other
 * SM, so that the reads miss their own L1D): two hits; else two misses.
 * Returns the cycles between the two lookups (hits) or between the two
 * completions (misses: their fills). */
struct port_run {
    uint64_t lookup[2], done[2];
    uint32_t n;
};

static void port_listener(void *ctx, const struct sched_event *ev)
{
    struct port_run *p = ctx;
    if (ev->kind == SCHED_EV_L2_ACCESS && p->n < 2)
        p->lookup[p->n++] = ev->now;
}

static uint64_t absdiff(uint64_t a, uint64_t b) { return a > b ? a - b : b - a; }

static uint64_t port_race(uint32_t width, int warm, int l1d, struct fx *f)
{
    tiny_config(&f->cfg);
    f->cfg.l1d_enabled = (uint32_t)l1d;
    f->cfg.l2_input_ports = 2;
    f->cfg.l2_port_bytes = width;
    fx_open(f);
    f->skip = 1;
    const uint64_t x = GBASE, y = GBASE + 256; /* lines 0 and 2: sub 0, banks 0 and 1 */
    if (warm) {
        fx_run(f, load_inst(1, 1, 0, x, 1));
        fx_run(f, load_inst(0, 2, 0, y, 1));
    }
    struct port_run p = {{0}, {0}, 0};
    memsys_set_listener(f->ms, 0, port_listener, &p, ~0u);
    memsys_set_listener(f->ms, 1, port_listener, &p, ~0u);
    struct mem_inst a = load_inst(0, 3, 0, x, 1), b = load_inst(1, 4, 0, y, 1);
    a.token = 101;
    b.token = 102;
    memsys_issue(f->ms, &a, f->now);
    memsys_issue(f->ms, &b, f->now);
    uint64_t start = f->now;
    for (uint32_t got = 0; got < 2;) {
        uint32_t tok;
        for (uint32_t s = 0; s < 2; s++)
            while (memsys_pop_done(f->ms, s, &tok))
                p.done[got++] = f->now;
        memsys_cycle(f->ms, f->now);
        uint64_t ev = memsys_next_event(f->ms, f->now + 1); /* idle cycles skipped */
        f->now = ev != UINT64_MAX && ev > f->now + 1 ? ev : f->now + 1;
        assert_true(f->now - start < 10000);
    }
    assert_int_equal(p.n, 2);
    assert_int_equal(stat(f, "l2_hits"), warm ? 2 : 0);
    return warm ? absdiff(p.lookup[0], p.lookup[1]) : absdiff(p.done[0], p.done[1]);
}

static void test_port_bytes(void **state)
{
    (void)state;
    struct fx f;
    /* 128-byte hits: the second lookup waits until the first hit has left
     * the data port, 128 / width cycles; the two warming misses used only
     * the fill port, 128 / width cycles each */
    const uint32_t widths[] = {0, 128, 64, 32};
    const uint64_t gaps[] = {0, 1, 2, 4};
    for (int k = 0; k < 4; k++) {
        assert_int_equal(port_race(widths[k], 1, 1, &f), gaps[k]);
        assert_int_equal(stat(&f, "l2_data_port_busy_cycles"), 2 * gaps[k]);
        assert_int_equal(stat(&f, "l2_fill_port_busy_cycles"), 2 * gaps[k]);
        fx_close(&f);
    }
    /* 32-byte hits (no L1D: sectors): 32 / width cycles; the fills still
     * bring whole lines */
    assert_int_equal(port_race(32, 1, 0, &f), 1);
    assert_int_equal(stat(&f, "l2_data_port_busy_cycles"), 2);
    assert_int_equal(stat(&f, "l2_fill_port_busy_cycles"), 8);
    fx_close(&f);
    assert_int_equal(port_race(8, 1, 0, &f), 4);
    fx_close(&f);
    /* misses: looked up in the same cycle (a clean miss leaves the data port
     * free); their 128-byte lines come back from DRAM 4 cycles apart (16
     * beats of 8 B, 4 beats a cycle) and the replies with them, but an
     * 8-byte fill port takes the second fill 16 cycles after the first */
    assert_int_equal(port_race(0, 0, 1, &f), 4);
    fx_close(&f);
    assert_int_equal(port_race(8, 0, 1, &f), 16);
    assert_int_equal(stat(&f, "l2_fill_port_busy_cycles"), 32);
    assert_int_equal(stat(&f, "l2_data_port_busy_cycles"), 0);
    fx_close(&f);
    /* a miss that evicts a dirty line reads it out through the data port:
     * line 0 written (a write miss allocates it dirty), then eight reads of
     * other lines of its set (16 KB apart: sub-partition 0, set 0) */
    for (uint32_t width = 0; width <= 32; width += 32) {
        tiny_config(&f.cfg);
        f.cfg.l2_port_bytes = width;
        fx_open(&f);
        f.skip = 1;
        struct mem_inst st = load_inst(0, 1, 0, GBASE, 1);
        st.is_store = 1;
        fx_run(&f, st);
        for (uint64_t j = 1; j <= 8; j++)
            fx_run(&f, load_inst(0, 1, 0, GBASE + j * 16384, 1));
        assert_int_equal(stat(&f, "l2_writebacks"), 1);
        assert_int_equal(stat(&f, "l2_hits"), 0);
        assert_int_equal(stat(&f, "l2_data_port_busy_cycles"), width ? 128 / width : 0);
        assert_int_equal(stat(&f, "l2_fill_port_busy_cycles"), width ? 8 * 128 / width : 0);
        fx_close(&f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_set_index),
        cmocka_unit_test(test_flush),
        cmocka_unit_test(test_hit_only_latency),
        cmocka_unit_test(test_memcpy_fill),
        cmocka_unit_test(test_sectors),
        cmocka_unit_test(test_port_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
