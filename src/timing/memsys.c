/* memsys.c: the memory system behind memsys.h: construction, statistics,
 * address mapping, the cycle driver across clock domains, idle-cycle
 * skipping and the deadlock dump.  The parts of the data flow live beside
 * it, each stepped in its own clock domain: per-SM LD/ST units (space
 * resolution, coalescing, shared-memory bank conflicts, constant cache, L1D
 * with reserve-on-miss and MSHRs, miss queue) in memsys_ldst.c, the request
 * and reply crossbars in memsys_icnt.c, L2 sub-partitions (bank queues,
 * ports, MSHRs) in memsys_l2.c; DRAM channels are timing/dram.c.
 *
 * Modelling choices (documented here, referenced by docs and tests):
 * - Clock domains: frequencies are turned into integer kHz; each core cycle
 *   adds f_dom to an accumulator and the domain ticks while it reaches f_core,
 *   so the ratio is exact and deterministic (no float drift).  Cycles skipped
 *   by the caller (now jumps ahead, allowed up to memsys_next_event) are
 *   fast-forwarded arithmetically.
 * - Address mapping (addr of the line): chunk = addr / addr_chunk, channel =
 *   chunk % n_channels, local = (chunk / n_channels) * addr_chunk + addr %
 *   addr_chunk; L2 line index within the channel lline = local / l2_line;
 *   sub-partition = lline % subparts_per_channel; index inside the
 *   sub-partition k = lline / subparts; L2 set = k % l2.sets, L2 bank =
 *   k % l2_banks; DRAM bank = (local / dram_row_bytes) % dram_banks, row =
 *   local / (dram_row_bytes * dram_banks), column = local % dram_row_bytes.
 * - Arbitration: crossbar sources are examined round-robin starting from
 *   icnt_now % n_sources, DRAM banks from dram_now % banks, so the order
 *   depends only on time and skipping idle cycles changes nothing.
 * The other modelling choices are documented in the part they belong to. */
#include "timing/memsys.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/log.h"
#include "stats/stats.h"
#include "timing/memsys_icnt.h"
#include "timing/memsys_int.h"
#include "timing/memsys_l2.h"

/* ------------------------------------------------------------------ helpers */

void memsys_ring_alloc(struct idx_ring *q, uint32_t cap, int timed)
{
    memset(q, 0, sizeof *q);
    q->cap = cap ? cap : 1;
    q->v = xcalloc(q->cap, sizeof *q->v);
    q->t = timed ? xcalloc(q->cap, sizeof *q->t) : NULL;
}

void memsys_ring_release(struct idx_ring *q)
{
    free(q->v);
    free(q->t);
    q->v = NULL;
    q->t = NULL;
}

static uint32_t log2u(uint32_t x)
{
    uint32_t s = 0;
    while ((1u << s) < x)
        s++;
    return s;
}

/* Completions produced by memsys_cycle(t) are seen by the SM at t + 1 (it
 * pops before the memory system steps), so data with latency L is made ready
 * at issue + L - 1 and the SM observes exactly L. */
static uint64_t mhz_to_khz(double mhz) { return (uint64_t)(mhz * 1000.0 + 0.5); }

struct addr_loc {
    uint32_t channel, sub, l2_set, l2_bank, dram_bank, dram_row;
};

static void memsys_map(const struct mem_system *ms, uint64_t addr, struct addr_loc *loc)
{
    const struct gpu_config *c = &ms->cfg;
    uint64_t line = addr >> ms->l2_shift << ms->l2_shift;
    uint64_t chunk = line / c->addr_chunk;
    loc->channel = (uint32_t)(chunk % ms->n_ch);
    uint64_t local = (chunk / ms->n_ch) * c->addr_chunk + line % c->addr_chunk;
    uint64_t lline = local >> ms->l2_shift;
    uint32_t spc = c->subparts_per_channel;
    loc->sub = loc->channel * spc + (uint32_t)(lline % spc);
    uint64_t k = lline / spc;
    loc->l2_set = cache_set_index(&ms->sub[loc->sub].c, ms->l2_full_index ? line >> ms->l2_shift : k);
    loc->l2_bank = (uint32_t)(k % c->l2_banks);
    loc->dram_bank = (uint32_t)((local / c->dram_row_bytes) % c->dram_banks);
    loc->dram_row = (uint32_t)(local / ((uint64_t)c->dram_row_bytes * c->dram_banks));
}

uint32_t memsys_new_req(struct mem_system *ms, struct mem_free *f, const struct mem_inst *mi,
                        uint64_t addr, uint32_t bytes, uint8_t kind, uint8_t dest, uint32_t inst)
{
    uint32_t i = mem_pool_alloc(&ms->pool, f);
    ws_assert(i != MEM_REQ_NONE);
    struct mem_req *r = &ms->pool.r[i];
    struct addr_loc loc;
    memsys_map(ms, addr, &loc);
    *r = (struct mem_req){.addr = addr, .bytes = bytes, .kind = kind, .dest = dest,
                          .inst = inst, .sub = loc.sub, .channel = loc.channel,
                          .l2_set = loc.l2_set, .l2_bank = loc.l2_bank,
                          .dram_bank = loc.dram_bank, .dram_row = loc.dram_row,
                          .next = MEM_REQ_NONE};
    if (mi) {
        r->sm = mi->sm;
        r->pc = mi->pc;
        r->tag = mi->policy_tag;
        r->slot = (int32_t)mi->slot;
        r->age = mi->age;
    } else {
        r->slot = -1;
    }
    return i;
}

/* ------------------------------------------------------------ construction */

static int memsys_check(const struct gpu_config *c, struct err *e)
{
    if (c->n_sms == 0 || c->n_channels == 0 || c->subparts_per_channel == 0)
        return err_set(e, WS_ERR_INVALID, "n_sms, n_channels and subparts_per_channel must be "
                                          "positive");
    if (c->addr_chunk == 0 || c->dram_row_bytes == 0 || c->l2_banks == 0 || c->l2_ports == 0 ||
        c->l2_bank_queue == 0 || c->icnt_flit_bytes == 0 || c->icnt_queue == 0 ||
        c->smem_banks == 0 || c->max_warps_per_sm == 0)
        return err_set(e, WS_ERR_INVALID,
                       "addr_chunk, dram_row_bytes, l2_banks, l2_ports, l2_bank_queue, "
                       "icnt_flit_bytes, icnt_queue, smem_banks and max_warps_per_sm must be "
                       "positive");
    if (!(c->core_mhz > 0) || !(c->icnt_mhz > 0) || !(c->l2_mhz > 0) || !(c->dram_mhz > 0))
        return err_set(e, WS_ERR_INVALID, "core_mhz, icnt_mhz, l2_mhz and dram_mhz must be "
                                          "positive");
    if (c->l1d.miss_queue == 0)
        return err_set(e, WS_ERR_INVALID, "l1d.miss_queue must be positive");
    return WS_OK;
}

typedef void (*policy_stats_fn)(void *priv, struct stats *s, uint32_t instances, size_t stride);

/* A policy's own counters, registered under the prefix of where it runs. */
static void memsys_policy_stats(struct stats *s, const char *prefix, policy_stats_fn fn,
                                const struct policy_block *pb, uint32_t instances)
{
    if (!fn)
        return;
    stats_set_prefix(s, prefix);
    fn(pb->mem, s, instances, pb->stride);
    stats_set_prefix(s, NULL);
}

/* ---- request free lists ------------------------------------------------- */

/* Free requests: the shared list and the units' own. */
static uint32_t pool_free(const struct mem_system *ms)
{
    uint32_t n = ms->pool.free.n;
    for (uint32_t s = 0; s < ms->n_sms; s++)
        n += ms->sm[s].free.n;
    return n;
}

/* An LD/ST unit's own free list (sm_mem.free) is refilled to MAGAZINE_FILL
 * entries when it has fewer than MAGAZINE_LOW, and drained back to that when
 * it has more than MAGAZINE_HIGH, at the end of each cycle (after the L2 and
 * DRAM have allocated theirs) and in SM order.  An access
 * allocates two requests at most (a miss and a write-back), so a unit never
 * runs dry within a cycle, and every unit's allocation succeeds, as it would
 * from one shared list, while the pool has plenty left: more than the L2's
 * and DRAM's reserve plus (MAGAZINE_HIGH + MAGAZINE_FILL) a unit.  Below
 * that the pool is tight: the units' lists are emptied into the shared one,
 * the units allocate from it under the shared rule (pool_reserve left for
 * the L2 and DRAM), and the engine runs them one after another in SM order
 * (memsys_pool_tight), which is the single shared list's behaviour exactly. */
#define MAGAZINE_LOW 4
#define MAGAZINE_FILL 8
#define MAGAZINE_HIGH 16

static void refill_units(struct mem_system *ms)
{
    uint32_t plenty = ms->pool_reserve + (MAGAZINE_HIGH + MAGAZINE_FILL) * ms->n_sms + 2;
    int tight = pool_free(ms) < plenty;
    if (tight != ms->pool_tight) /* the units read it: its line is written on a change only */
        ms->pool_tight = tight;
    for (uint32_t s = 0; s < ms->n_sms; s++) {
        struct mem_free *f = &ms->sm[s].free;
        if (ms->pool_tight)
            mem_pool_move(&ms->pool, f, &ms->pool.free, f->n);
        else if (f->n < MAGAZINE_LOW)
            mem_pool_move(&ms->pool, &ms->pool.free, f, MAGAZINE_FILL - f->n);
        else if (f->n > MAGAZINE_HIGH)
            mem_pool_move(&ms->pool, f, &ms->pool.free, f->n - MAGAZINE_FILL);
    }
}

int memsys_pool_tight(const struct mem_system *ms)
{
    return ms->pool_tight;
}

static void memsys_register(struct mem_system *ms, struct stats *s)
{
    struct memsys_counters *t = &ms->st;
#define C(name, desc) stats_counter(s, #name, desc, &t->name, 1, 0)
#define L(name, desc) stats_counter(s, #name, desc, &ms->sm[0].st.name, ms->n_sms, sizeof *ms->sm)
    L(l1d_accesses, "L1D accesses (hits + misses + hit_reserved)");
    L(l1d_hits, "L1D hits");
    L(l1d_misses, "L1D misses (new MSHR or write miss)");
    L(l1d_hit_reserved, "L1D misses merged into a pending MSHR");
    L(l1d_reservation_fails, "L1D access attempts that stalled (retried)");
    L(l1d_writes, "L1D accesses by stores (global and local)");
    L(l1d_write_misses, "of those, misses");
    L(l1d_intra_warp_hits, "L1D hits on lines allocated by the same warp");
    L(l1d_inter_warp_hits, "L1D hits on lines allocated by another warp");
    L(l1d_evictions, "L1D valid lines evicted at miss time");
    C(l1d_flushed, "L1D valid lines invalidated at kernel ends (l1d.flush)");
    C(l2_flushed, "L2 valid lines invalidated at kernel ends (l2.flush)");
    C(l2_memcpy_fills, "L2 lines written by host-to-device copies (l2.memcpy_fill)");
    C(l2_sector_misses, "L2 reads of a present line missing a needed sector (l2.sector_bytes; "
                        "also counted in l2_misses)");
    C(l2_data_port_busy_cycles, "L2 cycles a slice's data port was occupied by hits and "
                                "dirty write-backs (l2.port_bytes)");
    C(l2_fill_port_busy_cycles, "L2 cycles a slice's fill port was occupied by DRAM fills "
                                "(l2.port_bytes)");
    L(l1d_writebacks, "L1D dirty (local) lines written back");
    L(l1d_vta_hits, "L1D load misses on a line the same warp lost to an eviction (victim "
                    "tags beside any policy, CCWS detection)");
    L(l1d_tagged_reads, "L1D read accesses whose classifier tag is non-zero (CAWA: by "
                        "warps CPL predicts critical)");
    L(l1d_tagged_read_hits, "of those, hits");
    L(l1d_tagged_evictions, "L1D lines evicted at miss time that a request with a non-zero "
                            "tag allocated (CAWA: critical warps' lines)");
    L(l1d_tagged_evictions_unused, "of those, lines never hit (CAWA: critical lines evicted "
                                   "without reuse)");
    L(l1c_accesses, "constant-cache accesses");
    L(l1c_hits, "constant-cache hits");
    L(l1c_misses, "constant-cache misses");
    L(l1c_hit_reserved, "constant-cache misses merged into a pending MSHR");
    L(tex_cache_access, "texture-cache accesses (one per distinct line of a tex/tld4 warp "
                        "instruction's first texels)");
    L(tex_cache_hit, "texture-cache hits");
    L(tex_cache_miss, "texture-cache misses (sent to the L2)");
    L(tex_cache_hit_reserved, "texture-cache misses merged into a pending MSHR");
#define S(name, desc) stats_counter(s, #name, desc, &ms->sm[0].name, ms->n_sms, sizeof *ms->sm)
    S(l1i_accesses, "instruction-cache accesses");
    S(l1i_hits, "instruction-cache hits");
    S(l1i_misses, "instruction-cache misses");
#undef S
    L(smem_accesses, "shared-memory warp accesses");
    L(smem_cycles, "LD/ST cycles spent on shared memory (bank conflicts)");
    C(l2_accesses, "L2 accesses (hits + misses + hit_reserved)");
    C(l2_hits, "L2 hits");
    C(l2_misses, "L2 misses");
    C(l2_hit_reserved, "L2 misses merged into a pending MSHR");
    C(l2_writebacks, "L2 dirty lines written to DRAM");
    C(l2_writes, "L2 accesses by writes (stores, L1D write-backs)");
    C(l2_write_misses, "of those, misses");
    C(l2_queue_latency_sum, "l2 cycles requests waited in L2 bank queues");
    C(l2_queue_latency_count, "requests served from L2 bank queues");
    C(l2_bypasses, "L2 reads the L2 policy sent straight to DRAM (no lookup, no fill)");
    C(l2_reply_stalls, "L2 cycles a slice stopped looking up waiting requests because its "
                       "reply queue was full (l2.reply_queue)");
    C(l2_fill_stalls, "L2 cycles a DRAM channel's returns waited at their head because the "
                      "L2 bank fill queue of the first was full (l2.fill_queue)");
    C(l2_fill_queue_latency_sum, "l2 cycles DRAM returns waited in L2 bank fill queues "
                                 "(l2.fill_queue)");
    C(l2_fill_queue_latency_count, "DRAM returns taken from L2 bank fill queues");
    C(l2_requests, "requests that arrived at an L2 sub-partition (bypassed or not; not "
                   "write-backs or fetches)");
    L(l2_hit_divergence_sum, "core cycles between the first and the last L2-hit reply of "
                             "memory instructions whose L2 data all hit (two replies or more)");
    L(l2_hit_divergence_count, "memory instructions whose L2 data all hit, two replies or more");
    stats_counter_max(s, "l2_hit_divergence_max",
                      "largest first-to-last L2-hit reply gap of such an instruction",
                      &ms->sm[0].st.l2_hit_divergence_max, ms->n_sms, sizeof *ms->sm);
    stats_ratio(s, "l2_hit_divergence",
                "inter-bank divergence penalty: average first-to-last L2-hit reply gap of "
                "instructions whose L2 data all hit (MeDiC Fig. 7b; core cycles at the SM)",
                "l2_hit_divergence_sum", "l2_hit_divergence_count", 1.0);
    stats_ratio(s, "l2_bypass_fraction", "L2 requests that bypassed the L2 (MeDiC WByp)",
                "l2_bypasses", "l2_requests", 1.0);
    stats_ratio(s, "l2_queue_latency", "average L2 bank-queue wait (l2 cycles)",
                "l2_queue_latency_sum", "l2_queue_latency_count", 1.0);
    stats_ratio(s, "l2_fill_queue_latency",
                "average wait of a DRAM return in its L2 bank's fill queue (l2 cycles; "
                "l2.fill_queue)",
                "l2_fill_queue_latency_sum", "l2_fill_queue_latency_count", 1.0);
#undef C
    size_t st = sizeof(struct dram_channel);
    stats_counter(s, "dram_accesses", "DRAM column commands", &ms->ch[0].accesses, ms->n_ch, st);
    stats_counter(s, "dram_reads", "DRAM reads", &ms->ch[0].reads, ms->n_ch, st);
    stats_counter(s, "dram_writes", "DRAM writes", &ms->ch[0].writes, ms->n_ch, st);
    stats_counter(s, "dram_row_hits", "DRAM accesses that needed no activation",
                  &ms->ch[0].row_hits, ms->n_ch, st);
    stats_counter(s, "dram_read_bursts", "DRAM read bursts (dram.burst beats each)",
                  &ms->ch[0].read_bursts, ms->n_ch, st);
    stats_counter(s, "dram_write_bursts", "DRAM write bursts", &ms->ch[0].write_bursts,
                  ms->n_ch, st);
    stats_counter(s, "dram_precharges", "DRAM precharges (a bank closing its row for another)",
                  &ms->ch[0].precharges, ms->n_ch, st);
    stats_counter(s, "dram_activates", "DRAM row activations", &ms->ch[0].activates, ms->n_ch,
                  st);
    stats_counter(s, "dram_busy_cycles", "DRAM data-bus busy cycles (all channels)",
                  &ms->ch[0].busy_cycles, ms->n_ch, st);
    stats_counter(s, "dram_cycles", "DRAM command cycles x channels", &t->dram_cycles, 1, 0);
    stats_ratio(s, "dram_row_hit_rate", "DRAM row-buffer hit rate", "dram_row_hits",
                "dram_accesses", 1.0);
    stats_ratio(s, "dram_bandwidth_util", "DRAM data-bus utilisation", "dram_busy_cycles",
                "dram_cycles", 1.0);
    L(mem_latency_sum, "core cycles from issue to writeback of global/local loads");
    L(mem_latency_count, "global/local loads completed");
#undef L
    stats_ratio(s, "avg_mem_latency", "average load latency (core cycles)", "mem_latency_sum",
                "mem_latency_count", 1.0);
    stats_counter(s, "icnt_req_packets", "packets on the request network",
                  &t->icnt_req_packets, 1, 0);
    stats_counter(s, "icnt_reply_packets", "packets on the reply network",
                  &t->icnt_reply_packets, 1, 0);
    stats_counter(s, "icnt_flits", "flits sent on both networks (icnt.flit bytes each)",
                  &t->icnt_flits, 1, 0);
    stats_counter(s, "icnt_stalls", "icnt cycles a ready packet waited for buffer space",
                  &t->icnt_stalls, 1, 0);
    stats_ratio(s, "l1d_miss_rate", "L1D misses per access", "l1d_misses", "l1d_accesses", 1.0);
    stats_ratio(s, "l1d_tagged_read_hit_rate",
                "L1D hit rate of tagged reads (CAWA Fig. 11: critical-warp hit rate)",
                "l1d_tagged_read_hits", "l1d_tagged_reads", 1.0);
    stats_ratio(s, "l1d_tagged_evicted_unused_share",
                "share of tagged lines evicted without a hit (CAWA: 44.3% in the baseline)",
                "l1d_tagged_evictions_unused", "l1d_tagged_evictions", 1.0);
    stats_ratio(s, "l2_miss_rate", "L2 misses per access", "l2_misses", "l2_accesses", 1.0);
    uint64_t dummy;
    if (stats_get_u64(s, "gpu_sim_insn", &dummy) == 0) {
        stats_ratio(s, "l1d_mpki", "L1D misses per 1000 instructions (gpu_sim_insn)",
                    "l1d_misses", "gpu_sim_insn", 1000.0);
        stats_ratio(s, "l2_mpki", "L2 misses per 1000 instructions (gpu_sim_insn)", "l2_misses",
                    "gpu_sim_insn", 1000.0);
        stats_ratio(s, "l1d_misses_pki", "L1D misses per 1000 instructions (DAWS Fig. 10)",
                    "l1d_misses", "gpu_sim_insn", 1000.0);
        stats_ratio(s, "l1d_intra_warp_hits_pki",
                    "L1D hits on the same warp's lines per 1000 instructions (DAWS Fig. 10)",
                    "l1d_intra_warp_hits", "gpu_sim_insn", 1000.0);
        stats_ratio(s, "l1d_inter_warp_hits_pki",
                    "L1D hits on other warps' lines per 1000 instructions (DAWS Fig. 10)",
                    "l1d_inter_warp_hits", "gpu_sim_insn", 1000.0);
        stats_ratio(s, "l1d_vta_hits_pki",
                    "lost intra-warp locality: victim-tag hits per 1000 instructions "
                    "(DAWS Fig. 11)",
                    "l1d_vta_hits", "gpu_sim_insn", 1000.0);
    }
    memsys_policy_stats(s, "l1d_", ms->sm[0].l1d.ops->stats, &ms->pb_l1d, ms->n_sms);
    memsys_policy_stats(s, "l1c_", ms->sm[0].l1c.ops->stats, &ms->pb_l1c, ms->n_sms);
    memsys_policy_stats(s, "l1i_", ms->sm[0].l1i.ops->stats, &ms->pb_l1i, ms->n_sms);
    memsys_policy_stats(s, "l2_", ms->sub[0].c.ops->stats, &ms->pb_l2, ms->n_sub);
    memsys_policy_stats(s, "dram_", ms->ch[0].ops->stats, &ms->pb_dram, ms->n_ch);
}

/* One cache kind: resolve its policy, give its n instances one state block
 * and build them (instance i at (char *)first + i * cstride). */
static int memsys_caches(struct cache *first, size_t cstride, uint32_t n,
                         const struct cache_geometry *g, struct policy_block *pb,
                         const char *what, struct err *e)
{
    const struct cache_policy_ops *ops;
    struct param_set ps;
    int rc = cache_prepare(g, &ops, &ps, what, e);
    if (rc != WS_OK)
        return rc;
    pb->stride = cache_priv_stride(g, ops);
    pb->mem = xcalloc(n, pb->stride);
    for (uint32_t i = 0; i < n && rc == WS_OK; i++) {
        struct cache *c = (struct cache *)((char *)first + i * cstride);
        rc = cache_init(c, g, ops, &ps, pb->mem + i * pb->stride, i, what, e);
    }
    return rc;
}

/* The DRAM channels, their schedulers' states in one block. */
static int memsys_drams(struct mem_system *ms, struct err *e)
{
    const struct dram_sched_ops *ops;
    struct param_set ps;
    int rc = dram_prepare(&ms->cfg, &ops, &ps, e);
    if (rc != WS_OK)
        return rc;
    ms->pb_dram.stride = dram_priv_stride(ops);
    ms->pb_dram.mem = xcalloc(ms->n_ch, ms->pb_dram.stride);
    for (uint32_t i = 0; i < ms->n_ch && rc == WS_OK; i++)
        rc = dram_init(&ms->ch[i], &ms->cfg, ops, &ps,
                       ms->pb_dram.mem + i * ms->pb_dram.stride, e);
    return rc;
}

int memsys_new(const struct gpu_config *cfg, const struct dev_mem *mem, struct stats *s,
               struct mem_system **out, struct err *e)
{
    (void)mem; /* generic addresses are resolved by the fixed func/mem.h windows */
    *out = NULL;
    if (memsys_check(cfg, e) != WS_OK)
        return e->code;
    struct mem_system *ms = xcalloc_lines(1, sizeof *ms);
    ms->cfg = *cfg;
    const struct gpu_config *c = &ms->cfg;
    ms->n_sms = c->n_sms;
    ms->n_ch = c->n_channels;
    ms->n_sub = c->n_channels * c->subparts_per_channel;
    ms->f_core = mhz_to_khz(c->core_mhz);
    ms->f_icnt = mhz_to_khz(c->icnt_mhz);
    ms->f_l2 = mhz_to_khz(c->l2_mhz);
    ms->f_dram = mhz_to_khz(c->dram_mhz);
    ms->flit = c->icnt_flit_bytes;
    ms->sm = xcalloc_lines(ms->n_sms, sizeof *ms->sm);
    ms->l2_listen = xcalloc(ms->n_sms, sizeof *ms->l2_listen);
    ms->sub = xcalloc(ms->n_sub, sizeof *ms->sub);
    ms->ch = xcalloc(ms->n_ch, sizeof *ms->ch);
    for (uint32_t i = 0; i < ms->n_sms; i++)
        ms->sm[i].cur_idx = MEM_REQ_NONE;
    /* caches first: they validate geometry and policies */
    size_t sms = sizeof(struct sm_mem);
    int rc = memsys_caches(&ms->sm[0].l1d, sms, ms->n_sms, &c->l1d, &ms->pb_l1d, "l1d", e);
    if (rc == WS_OK)
        rc = memsys_caches(&ms->sm[0].l1c, sms, ms->n_sms, &c->l1c, &ms->pb_l1c, "l1c", e);
    if (rc == WS_OK)
        rc = memsys_caches(&ms->sm[0].l1i, sms, ms->n_sms, &c->l1i, &ms->pb_l1i, "l1i", e);
    if (rc == WS_OK)
        rc = memsys_caches(&ms->sm[0].l1t, sms, ms->n_sms, &c->l1t, &ms->pb_l1t, "tex", e);
    if (rc == WS_OK)
        rc = memsys_caches(&ms->sub[0].c, sizeof(struct l2_sub), ms->n_sub, &c->l2, &ms->pb_l2,
                           "l2", e);
    if (rc == WS_OK)
        rc = memsys_drams(ms, e);
    if (rc != WS_OK) {
        memsys_free(ms);
        return rc;
    }
    ms->l1d_shift = log2u(c->l1d.line);
    ms->l1c_shift = log2u(c->l1c.line);
    ms->l1i_shift = log2u(c->l1i.line);
    ms->l1t_shift = log2u(c->l1t.line);
    ms->l2_shift = log2u(c->l2.line);
    ms->l2_full_index = strcmp(c->l2_index_addr, "full") == 0;
    ms->l1d_fill_at_once = strcmp(c->l1d_latency_on, "hits") == 0;

    uint32_t inst_cap = c->max_warps_per_sm * 4 < 16 ? 16 : c->max_warps_per_sm * 4;
    uint64_t pool_cap = 1024;
    for (uint32_t i = 0; i < ms->n_sms; i++) {
        struct sm_mem *sm = &ms->sm[i];
        sm->inst_cap = inst_cap;
        sm->inst = xcalloc(inst_cap, sizeof *sm->inst);
        for (uint32_t k = 0; k < inst_cap; k++)
            sm->inst[k].next_free = k + 1 < inst_cap ? k + 1 : MEM_REQ_NONE;
        sm->inst_free = 0;
        memsys_ring_alloc(&sm->done, inst_cap, 0);
        sm->acks_pending = xcalloc(c->max_warps_per_sm ? c->max_warps_per_sm : 1,
                                   sizeof *sm->acks_pending);
        memsys_ring_alloc(&sm->acked, c->max_warps_per_sm + 1, 0);
        uint32_t mm = c->l1d.mshr_max_merge > c->l1c.mshr_max_merge ? c->l1d.mshr_max_merge
                                                                     : c->l1c.mshr_max_merge;
        memsys_ring_alloc(&sm->l1_ring, (c->l1d.hit_latency + 2) * (mm + 2) + 64, 1);
        memsys_ring_alloc(&sm->l1c_ring, (c->l1c.hit_latency + 2) * (mm + 2) + 64, 1);
        memsys_ring_alloc(&sm->l1t_ring,
                          (c->l1t.hit_latency + 2) * (c->l1t.mshr_max_merge + 2) + 64, 1);
        memsys_ring_alloc(&sm->smem_ring, c->smem_latency + 64, 1);
        memsys_ring_alloc(&sm->missq, c->l1d.miss_queue + 1, 0);
        sm->missq_size = c->l1d.miss_queue;
        mshr_init(&sm->l1d_mshr, c->l1d.mshr_entries, c->l1d.mshr_max_merge);
        mshr_init(&sm->l1c_mshr, c->l1c.mshr_entries, c->l1c.mshr_max_merge);
        mshr_init(&sm->l1t_mshr, c->l1t.mshr_entries, c->l1t.mshr_max_merge);
        sm->l1i_ready = xcalloc((size_t)c->l1i.sets * c->l1i.assoc, sizeof *sm->l1i_ready);
        sm->l1i_last_line = UINT64_MAX;
        lost_locality_init(&sm->lost, c->max_warps_per_sm);
        pool_cap += sm->l1d_mshr.entries + sm->l1c_mshr.entries + c->l1d.miss_queue +
                    2ull * c->icnt_queue + 16;
    }
    pool_cap += (uint64_t)ms->n_sub * ((uint64_t)c->l2_banks * c->l2_bank_queue +
                                       2ull * c->icnt_queue + 64);
    if (c->l2_fill_queue && c->l2_enabled) /* returns out of the channels' return rings */
        pool_cap += (uint64_t)ms->n_sub * c->l2_banks * c->l2_fill_queue;
    for (uint32_t i = 0; i < ms->n_ch; i++)
        pool_cap += ms->ch[i].cap + ms->ch[i].n_banks + ms->ch[i].ret.cap;
    ms->pool.cap = (uint32_t)pool_cap;
    ms->pool.r = xcalloc(ms->pool.cap, sizeof *ms->pool.r);
    for (uint32_t k = 0; k < ms->pool.cap; k++)
        ms->pool.r[k].next = k + 1 < ms->pool.cap ? k + 1 : MEM_REQ_NONE;
    ms->pool.free = (struct mem_free){0, ms->pool.cap};
    ms->pool_reserve = ms->n_sub * 2 + 8;
    refill_units(ms);
    for (uint32_t i = 0; i < ms->n_sub; i++) {
        struct l2_sub *sb = &ms->sub[i];
        sb->channel = i / c->subparts_per_channel;
        mshr_init(&sb->mshr, c->l2.mshr_entries, c->l2.mshr_max_merge);
        if (c->l2_sector_bytes)
            sb->sectors = xcalloc((size_t)c->l2.sets * c->l2.assoc, 1);
        sb->bankq = xcalloc(c->l2_banks, sizeof *sb->bankq);
        for (uint32_t b = 0; b < c->l2_banks; b++)
            memsys_ring_alloc(&sb->bankq[b], c->l2_bank_queue, 0);
        if (c->l2_fill_queue && c->l2_enabled) {
            sb->fillq = xcalloc(c->l2_banks, sizeof *sb->fillq);
            for (uint32_t b = 0; b < c->l2_banks; b++)
                memsys_ring_alloc(&sb->fillq[b], c->l2_fill_queue, 1);
        }
        memsys_ring_alloc(&sb->rop, ms->pool.cap, 1);
        memsys_ring_alloc(&sb->byp, ms->pool.cap, 1);
        memsys_ring_alloc(&sb->out, ms->pool.cap, 1);
    }
    memsys_icnt_init(&ms->req_net, ms->n_sms, ms->n_sub, c->icnt_queue, c->l2_input_ports);
    memsys_icnt_init(&ms->rep_net, ms->n_sub, ms->n_sms, c->icnt_queue, 1);
    /* instruction-cache miss: one L2 hit round trip (ROP delay and hit latency),
     * in core cycles (rounded up) */
    uint64_t num = 2ull * c->icnt_latency * ms->f_core * ms->f_l2 +
                   ((uint64_t)c->l2_rop_latency + c->l2.hit_latency) * ms->f_core * ms->f_icnt;
    uint64_t den = ms->f_icnt * ms->f_l2;
    ms->l1i_miss_latency = (uint32_t)((num + den - 1) / den) + c->l1i.hit_latency;
    if (s)
        memsys_register(ms, s);
    *out = ms;
    return WS_OK;
}

void memsys_free(struct mem_system *ms)
{
    if (!ms)
        return;
    for (uint32_t i = 0; i < ms->n_sms; i++) {
        struct sm_mem *sm = &ms->sm[i];
        cache_fini(&sm->l1d);
        cache_fini(&sm->l1c);
        cache_fini(&sm->l1i);
        cache_fini(&sm->l1t);
        if (sm->inst) {
            mshr_fini(&sm->l1d_mshr);
            mshr_fini(&sm->l1c_mshr);
            mshr_fini(&sm->l1t_mshr);
        }
        free(sm->inst);
        memsys_ring_release(&sm->done);
        free(sm->acks_pending);
        memsys_ring_release(&sm->acked);
        memsys_ring_release(&sm->l1_ring);
        memsys_ring_release(&sm->l1c_ring);
        memsys_ring_release(&sm->l1t_ring);
        memsys_ring_release(&sm->smem_ring);
        memsys_ring_release(&sm->missq);
        free(sm->l1i_ready);
        lost_locality_free(&sm->lost);
    }
    for (uint32_t i = 0; i < ms->n_sub; i++) {
        struct l2_sub *sb = &ms->sub[i];
        cache_fini(&sb->c);
        free(sb->sectors);
        if (sb->bankq) {
            mshr_fini(&sb->mshr);
            for (uint32_t b = 0; b < ms->cfg.l2_banks; b++)
                memsys_ring_release(&sb->bankq[b]);
            free(sb->bankq);
            for (uint32_t b = 0; sb->fillq && b < ms->cfg.l2_banks; b++)
                memsys_ring_release(&sb->fillq[b]);
            free(sb->fillq);
            memsys_ring_release(&sb->out);
            memsys_ring_release(&sb->rop);
            memsys_ring_release(&sb->byp);
        }
    }
    for (uint32_t i = 0; i < ms->n_ch; i++)
        dram_fini(&ms->ch[i]);
    memsys_icnt_fini(&ms->req_net);
    memsys_icnt_fini(&ms->rep_net);
    free(ms->pool.r);
    free(ms->pb_l1d.mem);
    free(ms->pb_l1c.mem);
    free(ms->pb_l1t.mem);
    free(ms->pb_l1i.mem);
    free(ms->pb_l2.mem);
    free(ms->pb_dram.mem);
    free(ms->sm);
    free(ms->l2_listen);
    free(ms->sub);
    free(ms->ch);
    free(ms);
}

void memsys_set_listener(struct mem_system *ms, uint32_t sm, memsys_listener fn, void *ctx,
                         uint32_t kinds)
{
    ws_assert(sm < ms->n_sms);
    if (!kinds)
        fn = NULL;
    ms->sm[sm].fn = fn;
    ms->sm[sm].fn_ctx = ctx;
    ms->sm[sm].fn_kinds = fn ? kinds : 0;
    ms->l2_listen[sm] = fn && (kinds & SCHED_EV_BIT(SCHED_EV_L2_ACCESS));
}

/* ------------------------------------------------------------------ clocks */

uint64_t memsys_cycle_begin(struct mem_system *ms, uint64_t now)
{
    if (!ms->started) {
        ms->started = 1;
        ms->core_next = now;
    }
    if (now < ms->core_next)
        now = ms->core_next;
    if (now > ms->core_next) {
        /* skipped idle core cycles: advance the other clocks arithmetically */
        uint64_t k = now - ms->core_next;
        ms->acc_icnt += k * ms->f_icnt;
        ms->icnt_now += ms->acc_icnt / ms->f_core;
        ms->acc_icnt %= ms->f_core;
        ms->acc_l2 += k * ms->f_l2;
        ms->l2_now += ms->acc_l2 / ms->f_core;
        ms->acc_l2 %= ms->f_core;
        ms->acc_dram += k * ms->f_dram;
        uint64_t dt = ms->acc_dram / ms->f_core;
        ms->dram_now += dt;
        ms->st.dram_cycles += dt * ms->n_ch;
        ms->acc_dram %= ms->f_core;
    }
    ms->core_next = now + 1;
    ms->core_now = now;
    return now;
}

void memsys_cycle_end(struct mem_system *ms)
{
    ms->acc_icnt += ms->f_icnt;
    while (ms->acc_icnt >= ms->f_core) {
        ms->acc_icnt -= ms->f_core;
        ms->icnt_now++;
        memsys_icnt_tick(ms);
    }
    ms->acc_l2 += ms->f_l2;
    while (ms->acc_l2 >= ms->f_core) {
        ms->acc_l2 -= ms->f_core;
        ms->l2_now++;
        memsys_l2_tick(ms);
    }
    ms->acc_dram += ms->f_dram;
    while (ms->acc_dram >= ms->f_core) {
        ms->acc_dram -= ms->f_core;
        ms->dram_now++;
        ms->st.dram_cycles += ms->n_ch;
        for (uint32_t i = 0; i < ms->n_ch; i++)
            dram_cycle(&ms->ch[i], &ms->pool, ms->dram_now);
    }
    /* last: between here and the units' next cycle nothing allocates (the
     * SMs only hand instructions to their units), so the units see the pool
     * as refill_units left it */
    refill_units(ms);
}

void memsys_cycle(struct mem_system *ms, uint64_t now)
{
    now = memsys_cycle_begin(ms, now);
    for (uint32_t s = 0; s < ms->n_sms; s++)
        memsys_ldst_cycle(ms, s, now);
    memsys_cycle_end(ms);
}

int memsys_busy(const struct mem_system *ms)
{
    if (pool_free(ms) != ms->pool.cap)
        return 1;
    for (uint32_t s = 0; s < ms->n_sms; s++)
        if (ms->sm[s].inst_used)
            return 1;
    return 0;
}

/* Core cycle (>= now) of the first call in which a domain clocked at f with
 * accumulator acc and time dom reaches domain cycle t. */
static uint64_t dom_to_core(const struct mem_system *ms, uint64_t now, uint64_t f, uint64_t acc,
                            uint64_t dom, uint64_t t)
{
    if (t <= dom)
        return now;
    uint64_t need = (t - dom) * ms->f_core;
    uint64_t m = need > acc ? (need - acc + f - 1) / f : 1;
    if (m == 0)
        m = 1;
    return now + m - 1;
}

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

uint64_t memsys_next_event(const struct mem_system *ms, uint64_t now)
{
    if (ms->started && now < ms->core_next)
        now = ms->core_next;
    uint64_t best = UINT64_MAX;
    for (uint32_t s = 0; s < ms->n_sms; s++) {
        const struct sm_mem *sm = &ms->sm[s];
        if (sm->cur_idx != MEM_REQ_NONE)
            best = min_u64(best, sm->busy_until > now ? sm->busy_until : now);
        if (!ring_empty(&sm->missq))
            return now;
        if (!ring_empty(&sm->done) || !ring_empty(&sm->acked))
            return now;
        const struct idx_ring *rs[4] = {&sm->l1_ring, &sm->l1c_ring, &sm->l1t_ring,
                                        &sm->smem_ring};
        for (int k = 0; k < 4; k++)
            if (!ring_empty(rs[k]))
                best = min_u64(best, ring_head_t(rs[k]) > now ? ring_head_t(rs[k]) : now);
        const struct idx_ring *in = &ms->rep_net.dst[s].q;
        if (!ring_empty(in))
            best = min_u64(best, dom_to_core(ms, now, ms->f_icnt, ms->acc_icnt, ms->icnt_now,
                                             ring_head_t(in)));
    }
    for (uint32_t s = 0; s < ms->n_sub; s++) {
        const struct l2_sub *sb = &ms->sub[s];
        for (uint32_t b = 0; b < ms->cfg.l2_banks; b++)
            if (!ring_empty(&sb->bankq[b]) || (sb->fillq && !ring_empty(&sb->fillq[b])))
                best = min_u64(best, dom_to_core(ms, now, ms->f_l2, ms->acc_l2, ms->l2_now,
                                                 ms->l2_now + 1));
        const struct idx_ring *delays[2] = {&sb->rop, &sb->byp};
        for (int k = 0; k < 2; k++)
            if (!ring_empty(delays[k])) {
                uint64_t t = ring_head_t(delays[k]);
                best = min_u64(best, dom_to_core(ms, now, ms->f_l2, ms->acc_l2, ms->l2_now,
                                                 t > ms->l2_now ? t : ms->l2_now + 1));
            }
        if (!ring_empty(&sb->out))
            best = min_u64(best, dom_to_core(ms, now, ms->f_l2, ms->acc_l2, ms->l2_now,
                                             ring_head_t(&sb->out)));
        const struct idx_ring *in = &ms->req_net.dst[s].q;
        if (!ring_empty(in))
            best = min_u64(best, dom_to_core(ms, now, ms->f_icnt, ms->acc_icnt, ms->icnt_now,
                                             ring_head_t(in)));
    }
    for (uint32_t i = 0; i < ms->n_ch; i++) {
        const struct dram_channel *ch = &ms->ch[i];
        /* dram_cycle runs at dram_now + 1 next */
        uint64_t t = dram_next_event(ch, ms->dram_now + 1);
        if (t != UINT64_MAX)
            best = min_u64(best, dom_to_core(ms, now, ms->f_dram, ms->acc_dram, ms->dram_now, t));
        if (!ring_empty(&ch->ret)) /* seen by the first l2 tick once dram reaches it */
            best = min_u64(best, dom_to_core(ms, now, ms->f_dram, ms->acc_dram, ms->dram_now,
                                             ring_head_t(&ch->ret)));
    }
    return best; /* UINT64_MAX: nothing in flight, nothing will ever happen */
}

/* ------------------------------------------------------------------- dump */

void memsys_dump(const struct mem_system *ms, FILE *out)
{
    fprintf(out, "memory system: icnt cycle %llu, l2 cycle %llu, dram cycle %llu, %u of %u "
                 "requests in flight\n",
            (unsigned long long)ms->icnt_now, (unsigned long long)ms->l2_now,
            (unsigned long long)ms->dram_now, ms->pool.cap - pool_free(ms), ms->pool.cap);
    for (uint32_t s = 0; s < ms->n_sms; s++) {
        const struct sm_mem *sm = &ms->sm[s];
        if (!sm->inst_used && ring_empty(&sm->missq))
            continue;
        fprintf(out, "  sm %u: ldst %s", s, sm->cur_idx == MEM_REQ_NONE ? "idle" : "busy");
        if (sm->cur_idx != MEM_REQ_NONE)
            fprintf(out, " (warp slot %u pc %u access %u/%u)", sm->cur.slot, sm->cur.pc,
                    sm->pos, sm->nacc);
        fprintf(out, ", %u instructions waiting, l1d mshr %u/%u, l1c mshr %u/%u, miss queue "
                     "%u/%u, replies queued %u\n",
                sm->inst_used, sm->l1d_mshr.used, sm->l1d_mshr.entries, sm->l1c_mshr.used,
                sm->l1c_mshr.entries, sm->missq.n, sm->missq.cap, ms->rep_net.dst[s].q.n);
        for (uint32_t k = 0; k < sm->inst_cap; k++)
            if (sm->inst[k].used)
                fprintf(out, "    token %u: %u data returns pending%s\n", sm->inst[k].token,
                        sm->inst[k].pending, sm->inst[k].left ? ", in the LD/ST unit" : "");
    }
    for (uint32_t s = 0; s < ms->n_sub; s++) {
        const struct l2_sub *sb = &ms->sub[s];
        uint32_t qn = 0, fn = 0;
        for (uint32_t b = 0; b < ms->cfg.l2_banks; b++) {
            qn += sb->bankq[b].n;
            fn += sb->fillq ? sb->fillq[b].n : 0;
        }
        if (!qn && !fn && !sb->mshr.used && ring_empty(&sb->out) &&
            ring_empty(&ms->req_net.dst[s].q) && ring_empty(&sb->rop) && ring_empty(&sb->byp))
            continue;
        fprintf(out,
                "  l2 sub-partition %u: input %u, rop %u, bypass %u, bank queues %u, mshr %u/%u, "
                "replies %u",
                s, ms->req_net.dst[s].q.n, sb->rop.n, sb->byp.n, qn, sb->mshr.used,
                sb->mshr.entries, sb->out.n);
        if (sb->fillq)
            fprintf(out, ", fill queues %u", fn);
        fputc('\n', out);
    }
    for (uint32_t i = 0; i < ms->n_ch; i++) {
        const struct dram_channel *ch = &ms->ch[i];
        if (!dram_busy(ch))
            continue;
        fprintf(out, "  dram channel %u: queue %u/%u, banks busy %u, returns %u\n", i, ch->n,
                ch->cap, ch->n_bound, ch->ret.n);
    }
}


void memsys_kernel_end(struct mem_system *ms)
{
    if (ms->cfg.l1d_flush)
        for (uint32_t i = 0; i < ms->n_sms; i++) {
            ms->st.l1d_flushed += cache_invalidate_all(&ms->sm[i].l1d);
            cache_invalidate_all(&ms->sm[i].l1c);
            cache_invalidate_all(&ms->sm[i].l1t);
        }
    if (ms->cfg.l2_flush && ms->cfg.l2_enabled)
        for (uint32_t i = 0; i < ms->n_sub; i++)
            ms->st.l2_flushed += cache_invalidate_all(&ms->sub[i].c);
}

/* Line `line` (an address >> l2_shift) put in its L2 slice as if long ago,
 * nothing timed or counted: a miss allocates it, the policy choosing the
 * victim (a dirty victim's write-back is not modelled), with the sectors
 * `sectors` valid; a present line is left as it is unless `touch`, which
 * promotes it as a hit would and adds the sectors; `dirty` marks it written.
 * A line in flight is left alone.  Returns 1 when it allocated. */
static int l2_warm_line(struct mem_system *ms, uint64_t line, uint8_t sectors, int touch,
                        int dirty)
{
    uint32_t shift = ms->l2_shift, way;
    struct addr_loc loc;
    memsys_map(ms, line << shift, &loc);
    struct l2_sub *sb = &ms->sub[loc.sub];
    struct cache *c = &sb->c;
    struct cache_access ca = {.line_addr = line, .sm = 0, .warp = -1, .is_write = dirty};
    int pr = cache_probe(c, loc.l2_set, line << shift, &way);
    if (pr == CACHE_HIT_RESERVED || (pr == CACHE_HIT && !touch))
        return 0;
    int alloc = pr == CACHE_MISS;
    if (alloc) {
        struct cache_victim v;
        if (cache_allocate(c, loc.l2_set, line << shift, &ca, &way, &v) != 0)
            return 0;
        cache_fill(c, loc.l2_set, way);
    } else {
        cache_touch(c, loc.l2_set, way, &ca);
    }
    size_t li = (size_t)loc.l2_set * c->assoc + way;
    if (sb->sectors)
        sb->sectors[li] = (uint8_t)((alloc ? 0 : sb->sectors[li]) | sectors);
    if (dirty)
        c->dirty[li] = 1;
    return alloc;
}

void memsys_memcpy_fill(struct mem_system *ms, uint64_t addr, uint64_t bytes)
{
    if (!ms->cfg.l2_memcpy_fill || !ms->cfg.l2_enabled || bytes == 0)
        return;
    uint32_t shift = ms->l2_shift;
    for (uint64_t line = addr >> shift; line <= (addr + bytes - 1) >> shift; line++)
        ms->st.l2_memcpy_fills += (uint64_t)l2_warm_line(ms, line, 0xff, 0, 0);
}

void memsys_l2_warm(struct mem_system *ms, uint64_t addr, uint32_t bytes, int is_write)
{
    if (ms->cfg.l2_enabled)
        l2_warm_line(ms, addr >> ms->l2_shift, memsys_sector_mask(ms, addr, bytes), 1, is_write);
}
