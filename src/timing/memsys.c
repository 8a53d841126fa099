/* memsys.c: the memory system behind memsys.h: per-SM LD/ST units (space
 * resolution, coalescing, shared-memory bank conflicts, constant cache, L1D
 * with reserve-on-miss and MSHRs, miss queue), the request and reply
 * crossbars, L2 sub-partitions (bank queues, ports, MSHRs) and DRAM channels,
 * stepped in their own clock domains.
 *
 * Modelling choices (documented here, referenced by docs and tests):
 * - Clock domains: frequencies are turned into integer kHz; each core cycle
 *   adds f_dom to an accumulator and the domain ticks while it reaches f_core,
 *   so the ratio is exact and deterministic (no float drift).  Cycles skipped
 *   by the caller (now jumps ahead, allowed up to memsys_next_event) are
 *   fast-forwarded arithmetically.
 * - LD/ST unit: one instruction at a time (GPGPU-Sim's pipeline register);
 *   it handles one coalesced access per core cycle; a shared access holds it
 *   for `degree` cycles (degree = the largest number of distinct 4-byte words
 *   that active lanes touch in one bank; same word = broadcast).  Loads finish
 *   when all their data returned; stores when their last access left the unit.
 * - Generic addresses are resolved per lane by the func/mem.h windows.
 * - Local memory: lane offsets are interleaved by 4-byte word across all
 *   thread slots of the GPU, phys = LOCAL_PHYS + ((off / 4) * T + tid) * 4 +
 *   off % 4 with T = n_sms * max_warps_per_sm * 32 and tid = (sm *
 *   max_warps_per_sm + slot) * 32 + lane, so a warp touching one offset
 *   coalesces into one 128 B access (as GPGPU-Sim's local address mapping).
 * - Constant and param accesses go through the per-SM constant cache (l1c),
 *   serialised one distinct line per cycle; misses go to L2 like L1D misses.
 * - L1D: linear set index (line % sets); reserve on miss with eviction at
 *   miss time; global stores evict-on-write (write to L2, invalidate on hit),
 *   local stores write back (dirty on hit, write-through on miss), no write
 *   allocate; atomics bypass L1 and execute at L2.  Read misses fetch a whole
 *   line.  Reservation failures stall the unit, which retries next cycle.
 *   Counting identity: l1d_accesses = l1d_hits + l1d_misses +
 *   l1d_hit_reserved (failed attempts are not accesses; they are counted in
 *   l1d_reservation_fails).  l1d_hits = intra-warp + inter-warp hits.
 *   Fills deliver data after the L1 hit latency (so an L1 miss that hits L2
 *   costs about L1 + 2 x icnt + L2 latency).
 * - Crossbar: each source port sends one packet per ceil(bytes / flit)
 *   icnt cycles (read requests: one flit; writes and replies: their data);
 *   each destination accepts packets serialised the same way; a packet
 *   arrives icnt_latency + serialisation later; destination buffers hold
 *   icnt_queue packets including those in flight (credits), a full one stalls
 *   the sender.
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
 * - L2 sub-partition: every arrived request moves in order from the crossbar
 *   buffer to its bank's queue (a full bank queue blocks the buffer); each
 *   bank serves l2_ports requests per l2 cycle from its queue head.
 * - L2: write-back, write-allocate (a write miss allocates the line without
 *   fetching it: byte-masked write, as sectored GPGPU-Sim L2s); L2 misses
 *   send the first request to DRAM and merge later ones in the MSHR; fills
 *   reply immediately (no second hit latency).  Queue latency is measured from
 *   entering a bank queue to being served (l2 cycles).
 * - Instruction cache: a miss costs a fixed latency of one L2 hit round trip
 *   (2 x icnt_latency + l2 hit latency, converted to core cycles) plus the
 *   L1I hit latency; instruction traffic does not enter the crossbar. */
#include "timing/memsys.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/log.h"
#include "func/mem.h"
#include "ptx/ir.h"
#include "stats/stats.h"
#include "timing/cache.h"
#include "timing/coalesce.h"
#include "timing/dram.h"
#include "timing/lost_locality.h"
#include "timing/mem_req.h"

#define LOCAL_PHYS_BASE 0x0000700000000000ull
#define MAX_ACCS (COAL_MAX_ACCESSES * 2 + 4)

enum acc_space { ACC_GLOBAL, ACC_LOCAL, ACC_CONST, ACC_SHARED };

struct ldst_acc {
    uint64_t addr;
    uint32_t bytes; /* shared: conflict degree (cycles) */
    uint32_t mask;
    uint8_t space;  /* enum acc_space */
};

struct ldst_inst {
    uint64_t t_issue;
    uint32_t token, pending, next_free;
    uint8_t left, is_load, used;
    uint8_t is_long; /* touched global/local memory (counts for avg_mem_latency) */
};

struct sm_mem {
    struct mem_inst cur;
    uint32_t cur_idx;           /* inst-table index in the unit, MEM_REQ_NONE if free */
    struct ldst_acc acc[MAX_ACCS];
    uint32_t nacc, pos;
    uint64_t busy_until;
    struct ldst_inst *inst;
    uint32_t inst_cap, inst_free, inst_used;
    struct idx_ring done;       /* tokens */
    struct idx_ring l1_ring;    /* timed (core): inst idx, L1D hits and fills */
    struct idx_ring l1c_ring;   /* timed (core): constant-cache data */
    struct idx_ring smem_ring;  /* timed (core): shared-memory data */
    struct idx_ring missq;      /* requests waiting for the request network */
    uint32_t missq_size;        /* logical size (l1d.miss_queue); one spare slot */
    struct cache l1d, l1c, l1i;
    struct mshr_table l1d_mshr, l1c_mshr;
    uint64_t *l1i_ready;        /* [sets * assoc] core cycle the line arrives */
    struct lost_locality lost;  /* victim tags as a statistic (lost_locality.h) */
    memsys_listener fn;
    void *fn_ctx;
};

struct l2_sub {
    struct cache c;
    struct mshr_table mshr;
    struct idx_ring *bankq;     /* [l2_banks] */
    struct idx_ring out;        /* timed (l2): replies for the reply network */
    uint32_t channel;
};

struct icnt_net {
    uint32_t n_src, n_dst;
    uint64_t *src_free, *dst_free;
    struct idx_ring *dst;       /* timed (icnt): arrival */
};

struct memsys_counters {
    uint64_t l1d_accesses, l1d_hits, l1d_misses, l1d_hit_reserved, l1d_reservation_fails;
    uint64_t l1d_intra_warp_hits, l1d_inter_warp_hits, l1d_evictions, l1d_writebacks;
    uint64_t l1d_vta_hits;
    uint64_t l1c_accesses, l1c_hits, l1c_misses, l1c_hit_reserved;
    uint64_t l1i_accesses, l1i_hits, l1i_misses;
    uint64_t smem_accesses, smem_cycles;
    uint64_t l2_accesses, l2_hits, l2_misses, l2_hit_reserved, l2_writebacks;
    uint64_t l2_queue_latency_sum, l2_queue_latency_count;
    uint64_t dram_cycles;
    uint64_t mem_latency_sum, mem_latency_count;
    uint64_t icnt_req_packets, icnt_reply_packets, icnt_stalls;
};

struct mem_system {
    struct gpu_config cfg;
    struct mem_pool pool;
    uint32_t n_sms, n_sub, n_ch, pool_reserve;
    struct sm_mem *sm;
    struct l2_sub *sub;
    struct dram_channel *ch;
    struct icnt_net req_net, rep_net;
    uint64_t f_core, f_icnt, f_l2, f_dram;
    uint64_t acc_icnt, acc_l2, acc_dram;
    uint64_t icnt_now, l2_now, dram_now, core_next;
    int started;
    uint32_t l1d_shift, l1c_shift, l1i_shift, l2_shift, flit;
    uint32_t l1i_miss_latency;
    struct memsys_counters st;
};

/* ------------------------------------------------------------------ helpers */

static void ring_alloc(struct idx_ring *q, uint32_t cap, int timed)
{
    memset(q, 0, sizeof *q);
    q->cap = cap ? cap : 1;
    q->v = xcalloc(q->cap, sizeof *q->v);
    q->t = timed ? xcalloc(q->cap, sizeof *q->t) : NULL;
}

static void ring_release(struct idx_ring *q)
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
static uint64_t lat_m1(uint32_t lat) { return lat ? lat - 1u : 0u; }

static uint64_t mhz_to_khz(double mhz) { return (uint64_t)(mhz * 1000.0 + 0.5); }

static uint32_t flits(const struct mem_system *ms, uint32_t bytes)
{
    uint32_t f = (bytes + ms->flit - 1) / ms->flit;
    return f ? f : 1;
}

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
    loc->l2_set = (uint32_t)(k % c->l2.sets);
    loc->l2_bank = (uint32_t)(k % c->l2_banks);
    loc->dram_bank = (uint32_t)((local / c->dram_row_bytes) % c->dram_banks);
    loc->dram_row = (uint32_t)(local / ((uint64_t)c->dram_row_bytes * c->dram_banks));
}

/* An L1D event of the current instruction (or an eviction) for the SM's
 * policies; `line` is the line address (byte address >> line shift).
 * Evictions and stores also feed the lost-locality statistic. */
static void emit(struct sm_mem *sm, uint32_t kind, int32_t slot, uint32_t pc, uint32_t cta,
                 uint64_t age, uint64_t line, uint64_t now)
{
    if (kind == SCHED_EV_L1D_EVICT)
        lost_locality_evict(&sm->lost, slot, age, line);
    else if (kind == SCHED_EV_STORE)
        lost_locality_store(&sm->lost, line);
    if (!sm->fn)
        return;
    struct sched_event ev = {.kind = kind, .slot = slot, .pc = pc, .cta = cta, .age = age,
                             .addr = line, .now = now};
    sm->fn(sm->fn_ctx, &ev);
}

/* SCHED_EV_L1D_ACCESS of the current instruction: own_line when the access
 * hit a line the same (dynamic) warp allocated.  A load miss probes the
 * lost-locality victim tags. */
static void emit_access(struct mem_system *ms, struct sm_mem *sm, uint64_t line, int hit,
                        int is_write, int own, uint64_t now)
{
    const struct mem_inst *mi = &sm->cur;
    if (!hit && !is_write && lost_locality_miss(&sm->lost, (int32_t)mi->slot, mi->age, line))
        ms->st.l1d_vta_hits++;
    if (!sm->fn)
        return;
    struct sched_event ev = {.kind = SCHED_EV_L1D_ACCESS, .slot = (int32_t)mi->slot,
                             .pc = mi->pc, .cta = mi->cta, .age = mi->age, .addr = line,
                             .hit = (uint8_t)hit, .is_write = (uint8_t)is_write,
                             .own_line = (uint8_t)(hit && own), .now = now};
    sm->fn(sm->fn_ctx, &ev);
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

static void memsys_register(struct mem_system *ms, struct stats *s)
{
    struct memsys_counters *t = &ms->st;
#define C(name, desc) stats_counter(s, #name, desc, &t->name, 1, 0)
    C(l1d_accesses, "L1D accesses (hits + misses + hit_reserved)");
    C(l1d_hits, "L1D hits");
    C(l1d_misses, "L1D misses (new MSHR or write miss)");
    C(l1d_hit_reserved, "L1D misses merged into a pending MSHR");
    C(l1d_reservation_fails, "L1D access attempts that stalled (retried)");
    C(l1d_intra_warp_hits, "L1D hits on lines allocated by the same warp");
    C(l1d_inter_warp_hits, "L1D hits on lines allocated by another warp");
    C(l1d_evictions, "L1D valid lines evicted at miss time");
    C(l1d_writebacks, "L1D dirty (local) lines written back");
    C(l1d_vta_hits, "L1D load misses on a line the same warp lost to an eviction (victim "
                    "tags beside any policy, CCWS detection)");
    C(l1c_accesses, "constant-cache accesses");
    C(l1c_hits, "constant-cache hits");
    C(l1c_misses, "constant-cache misses");
    C(l1c_hit_reserved, "constant-cache misses merged into a pending MSHR");
    C(l1i_accesses, "instruction-cache accesses");
    C(l1i_hits, "instruction-cache hits");
    C(l1i_misses, "instruction-cache misses");
    C(smem_accesses, "shared-memory warp accesses");
    C(smem_cycles, "LD/ST cycles spent on shared memory (bank conflicts)");
    C(l2_accesses, "L2 accesses (hits + misses + hit_reserved)");
    C(l2_hits, "L2 hits");
    C(l2_misses, "L2 misses");
    C(l2_hit_reserved, "L2 misses merged into a pending MSHR");
    C(l2_writebacks, "L2 dirty lines written to DRAM");
    C(l2_queue_latency_sum, "l2 cycles requests waited in L2 bank queues");
    C(l2_queue_latency_count, "requests served from L2 bank queues");
    stats_ratio(s, "l2_queue_latency", "average L2 bank-queue wait (l2 cycles)",
                "l2_queue_latency_sum", "l2_queue_latency_count", 1.0);
#undef C
    size_t st = sizeof(struct dram_channel);
    stats_counter(s, "dram_accesses", "DRAM column commands", &ms->ch[0].accesses, ms->n_ch, st);
    stats_counter(s, "dram_reads", "DRAM reads", &ms->ch[0].reads, ms->n_ch, st);
    stats_counter(s, "dram_writes", "DRAM writes", &ms->ch[0].writes, ms->n_ch, st);
    stats_counter(s, "dram_row_hits", "DRAM accesses that needed no activation",
                  &ms->ch[0].row_hits, ms->n_ch, st);
    stats_counter(s, "dram_activates", "DRAM row activations", &ms->ch[0].activates, ms->n_ch,
                  st);
    stats_counter(s, "dram_busy_cycles", "DRAM data-bus busy cycles (all channels)",
                  &ms->ch[0].busy_cycles, ms->n_ch, st);
    stats_counter(s, "dram_cycles", "DRAM command cycles x channels", &t->dram_cycles, 1, 0);
    stats_ratio(s, "dram_row_hit_rate", "DRAM row-buffer hit rate", "dram_row_hits",
                "dram_accesses", 1.0);
    stats_ratio(s, "dram_bandwidth_util", "DRAM data-bus utilisation", "dram_busy_cycles",
                "dram_cycles", 1.0);
    stats_counter(s, "mem_latency_sum",
                  "core cycles from issue to writeback of global/local loads",
                  &t->mem_latency_sum, 1, 0);
    stats_counter(s, "mem_latency_count", "global/local loads completed", &t->mem_latency_count, 1, 0);
    stats_ratio(s, "avg_mem_latency", "average load latency (core cycles)", "mem_latency_sum",
                "mem_latency_count", 1.0);
    stats_counter(s, "icnt_req_packets", "packets on the request network",
                  &t->icnt_req_packets, 1, 0);
    stats_counter(s, "icnt_reply_packets", "packets on the reply network",
                  &t->icnt_reply_packets, 1, 0);
    stats_counter(s, "icnt_stalls", "icnt cycles a ready packet waited for buffer space",
                  &t->icnt_stalls, 1, 0);
    stats_ratio(s, "l1d_miss_rate", "L1D misses per access", "l1d_misses", "l1d_accesses", 1.0);
    stats_ratio(s, "l2_miss_rate", "L2 misses per access", "l2_misses", "l2_accesses", 1.0);
    uint64_t dummy;
    if (stats_get_u64(s, "gpu_sim_insn", &dummy) == 0) {
        stats_ratio(s, "l1d_mpki", "L1D misses per 1000 warp instructions", "l1d_misses",
                    "gpu_sim_insn", 1000.0);
        stats_ratio(s, "l2_mpki", "L2 misses per 1000 warp instructions", "l2_misses",
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
}

static void icnt_init(struct icnt_net *n, uint32_t n_src, uint32_t n_dst, uint32_t qcap)
{
    n->n_src = n_src;
    n->n_dst = n_dst;
    n->src_free = xcalloc(n_src, sizeof *n->src_free);
    n->dst_free = xcalloc(n_dst, sizeof *n->dst_free);
    n->dst = xcalloc(n_dst, sizeof *n->dst);
    for (uint32_t i = 0; i < n_dst; i++)
        ring_alloc(&n->dst[i], qcap, 1);
}

static void icnt_fini(struct icnt_net *n)
{
    for (uint32_t i = 0; n->dst && i < n->n_dst; i++)
        ring_release(&n->dst[i]);
    free(n->dst);
    free(n->src_free);
    free(n->dst_free);
}

int memsys_new(const struct gpu_config *cfg, const struct dev_mem *mem, struct stats *s,
               struct mem_system **out, struct err *e)
{
    (void)mem; /* generic addresses are resolved by the fixed func/mem.h windows */
    *out = NULL;
    if (memsys_check(cfg, e) != WS_OK)
        return e->code;
    struct mem_system *ms = xcalloc(1, sizeof *ms);
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
    ms->sm = xcalloc(ms->n_sms, sizeof *ms->sm);
    ms->sub = xcalloc(ms->n_sub, sizeof *ms->sub);
    ms->ch = xcalloc(ms->n_ch, sizeof *ms->ch);
    int rc = WS_OK;
    /* caches first: they validate geometry and policies */
    for (uint32_t i = 0; i < ms->n_sms && rc == WS_OK; i++) {
        struct sm_mem *sm = &ms->sm[i];
        sm->cur_idx = MEM_REQ_NONE;
        rc = cache_init(&sm->l1d, &c->l1d, i, "l1d", e);
        if (rc == WS_OK)
            rc = cache_init(&sm->l1c, &c->l1c, i, "l1c", e);
        if (rc == WS_OK)
            rc = cache_init(&sm->l1i, &c->l1i, i, "l1i", e);
    }
    for (uint32_t i = 0; i < ms->n_sub && rc == WS_OK; i++)
        rc = cache_init(&ms->sub[i].c, &c->l2, i, "l2", e);
    for (uint32_t i = 0; i < ms->n_ch && rc == WS_OK; i++)
        rc = dram_init(&ms->ch[i], c, e);
    if (rc != WS_OK) {
        memsys_free(ms);
        return rc;
    }
    ms->l1d_shift = log2u(c->l1d.line);
    ms->l1c_shift = log2u(c->l1c.line);
    ms->l1i_shift = log2u(c->l1i.line);
    ms->l2_shift = log2u(c->l2.line);

    uint32_t inst_cap = c->max_warps_per_sm * 4 < 16 ? 16 : c->max_warps_per_sm * 4;
    uint64_t pool_cap = 1024;
    for (uint32_t i = 0; i < ms->n_sms; i++) {
        struct sm_mem *sm = &ms->sm[i];
        sm->inst_cap = inst_cap;
        sm->inst = xcalloc(inst_cap, sizeof *sm->inst);
        for (uint32_t k = 0; k < inst_cap; k++)
            sm->inst[k].next_free = k + 1 < inst_cap ? k + 1 : MEM_REQ_NONE;
        sm->inst_free = 0;
        ring_alloc(&sm->done, inst_cap, 0);
        uint32_t mm = c->l1d.mshr_max_merge > c->l1c.mshr_max_merge ? c->l1d.mshr_max_merge
                                                                     : c->l1c.mshr_max_merge;
        ring_alloc(&sm->l1_ring, (c->l1d.hit_latency + 2) * (mm + 2) + 64, 1);
        ring_alloc(&sm->l1c_ring, (c->l1c.hit_latency + 2) * (mm + 2) + 64, 1);
        ring_alloc(&sm->smem_ring, c->smem_latency + 64, 1);
        ring_alloc(&sm->missq, c->l1d.miss_queue + 1, 0);
        sm->missq_size = c->l1d.miss_queue;
        mshr_init(&sm->l1d_mshr, c->l1d.mshr_entries, c->l1d.mshr_max_merge);
        mshr_init(&sm->l1c_mshr, c->l1c.mshr_entries, c->l1c.mshr_max_merge);
        sm->l1i_ready = xcalloc((size_t)c->l1i.sets * c->l1i.assoc, sizeof *sm->l1i_ready);
        lost_locality_init(&sm->lost, c->max_warps_per_sm);
        pool_cap += sm->l1d_mshr.entries + sm->l1c_mshr.entries + c->l1d.miss_queue +
                    2ull * c->icnt_queue + 16;
    }
    pool_cap += (uint64_t)ms->n_sub * ((uint64_t)c->l2_banks * c->l2_bank_queue +
                                       2ull * c->icnt_queue + 64);
    for (uint32_t i = 0; i < ms->n_ch; i++)
        pool_cap += ms->ch[i].cap + ms->ch[i].n_banks + ms->ch[i].ret.cap;
    ms->pool.cap = (uint32_t)pool_cap;
    ms->pool.r = xcalloc(ms->pool.cap, sizeof *ms->pool.r);
    for (uint32_t k = 0; k < ms->pool.cap; k++)
        ms->pool.r[k].next = k + 1 < ms->pool.cap ? k + 1 : MEM_REQ_NONE;
    ms->pool.free_head = 0;
    ms->pool.nfree = ms->pool.cap;
    ms->pool_reserve = ms->n_sub * 2 + 8;
    for (uint32_t i = 0; i < ms->n_sub; i++) {
        struct l2_sub *sb = &ms->sub[i];
        sb->channel = i / c->subparts_per_channel;
        mshr_init(&sb->mshr, c->l2.mshr_entries, c->l2.mshr_max_merge);
        sb->bankq = xcalloc(c->l2_banks, sizeof *sb->bankq);
        for (uint32_t b = 0; b < c->l2_banks; b++)
            ring_alloc(&sb->bankq[b], c->l2_bank_queue, 0);
        ring_alloc(&sb->out, ms->pool.cap, 1);
    }
    icnt_init(&ms->req_net, ms->n_sms, ms->n_sub, c->icnt_queue);
    icnt_init(&ms->rep_net, ms->n_sub, ms->n_sms, c->icnt_queue);
    /* instruction-cache miss: one L2 hit round trip, in core cycles (rounded up) */
    uint64_t num = 2ull * c->icnt_latency * ms->f_core * ms->f_l2 +
                   (uint64_t)c->l2.hit_latency * ms->f_core * ms->f_icnt;
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
        if (sm->inst) {
            mshr_fini(&sm->l1d_mshr);
            mshr_fini(&sm->l1c_mshr);
        }
        free(sm->inst);
        ring_release(&sm->done);
        ring_release(&sm->l1_ring);
        ring_release(&sm->l1c_ring);
        ring_release(&sm->smem_ring);
        ring_release(&sm->missq);
        free(sm->l1i_ready);
        lost_locality_free(&sm->lost);
    }
    for (uint32_t i = 0; i < ms->n_sub; i++) {
        struct l2_sub *sb = &ms->sub[i];
        cache_fini(&sb->c);
        if (sb->bankq) {
            mshr_fini(&sb->mshr);
            for (uint32_t b = 0; b < ms->cfg.l2_banks; b++)
                ring_release(&sb->bankq[b]);
            free(sb->bankq);
            ring_release(&sb->out);
        }
    }
    for (uint32_t i = 0; i < ms->n_ch; i++)
        dram_fini(&ms->ch[i]);
    icnt_fini(&ms->req_net);
    icnt_fini(&ms->rep_net);
    free(ms->pool.r);
    free(ms->sm);
    free(ms->sub);
    free(ms->ch);
    free(ms);
}

void memsys_set_listener(struct mem_system *ms, uint32_t sm, memsys_listener fn, void *ctx)
{
    ws_assert(sm < ms->n_sms);
    ms->sm[sm].fn = fn;
    ms->sm[sm].fn_ctx = ctx;
}

/* ------------------------------------------------------------- LD/ST issue */

int memsys_can_issue(const struct mem_system *ms, uint32_t sm)
{
    const struct sm_mem *m = &ms->sm[sm];
    return m->cur_idx == MEM_REQ_NONE && m->inst_free != MEM_REQ_NONE;
}

static uint32_t smem_degree(const struct mem_system *ms, const struct mem_inst *mi,
                            const uint64_t *off, uint32_t mask)
{
    uint64_t words[32 * 4];
    uint32_t nw = 0, nb = ms->cfg.smem_banks, size = mi->size ? mi->size : 1;
    uint32_t count[64] = {0};
    uint32_t degree = 0;
    for (uint32_t l = 0; l < 32; l++) {
        if (!(mask >> l & 1))
            continue;
        for (uint64_t w = off[l] / 4; w <= (off[l] + size - 1) / 4 && nw < 128; w++) {
            uint32_t k = 0;
            while (k < nw && words[k] != w)
                k++;
            if (k < nw)
                continue; /* same word: broadcast */
            words[nw++] = w;
            uint32_t b = (uint32_t)(w % nb) % 64;
            if (++count[b] > degree)
                degree = count[b];
        }
    }
    return degree ? degree : 1;
}

static void add_coalesced(struct sm_mem *sm, const uint64_t *addr, uint32_t mask, uint32_t size,
                          int sectored, uint8_t space)
{
    struct coal_access ca[COAL_MAX_ACCESSES];
    uint32_t n = coalesce_warp(addr, mask, size, sectored, ca);
    for (uint32_t k = 0; k < n && sm->nacc < MAX_ACCS; k++)
        sm->acc[sm->nacc++] = (struct ldst_acc){.addr = ca[k].addr, .bytes = ca[k].bytes,
                                                .mask = ca[k].mask, .space = space};
}

void memsys_issue(struct mem_system *ms, const struct mem_inst *mi, uint64_t now)
{
    ws_assert(mi->sm < ms->n_sms);
    struct sm_mem *sm = &ms->sm[mi->sm];
    ws_assert(memsys_can_issue(ms, mi->sm));
    const struct gpu_config *c = &ms->cfg;
    uint32_t idx = sm->inst_free;
    struct ldst_inst *in = &sm->inst[idx];
    sm->inst_free = in->next_free;
    sm->inst_used++;
    *in = (struct ldst_inst){.t_issue = now, .token = mi->token, .left = 1, .used = 1,
                             .is_load = !mi->is_store || mi->is_atomic,
                             .next_free = MEM_REQ_NONE};
    sm->cur = *mi;
    sm->cur_idx = idx;
    sm->nacc = 0;
    sm->pos = 0;

    /* resolve every lane to a space and an in-space offset / physical address */
    uint64_t g[32], lo[32], sh[32], cn[32];
    uint32_t mg = 0, ml = 0, msh = 0, mc = 0;
    uint64_t nthreads = (uint64_t)ms->n_sms * c->max_warps_per_sm * 32;
    for (uint32_t l = 0; l < 32; l++) {
        if (!(mi->mask >> l & 1))
            continue;
        uint64_t a = mi->addr[l];
        uint8_t sp = mi->space;
        if (sp == PTX_SPACE_NONE) {
            if (a >= MEM_SHARED_BASE && a < MEM_SHARED_BASE + MEM_WINDOW_SIZE)
                sp = PTX_SPACE_SHARED;
            else if (a >= MEM_LOCAL_BASE && a < MEM_LOCAL_BASE + MEM_WINDOW_SIZE)
                sp = PTX_SPACE_LOCAL;
            else if (a >= MEM_PARAM_BASE && a < MEM_PARAM_BASE + MEM_WINDOW_SIZE)
                sp = PTX_SPACE_PARAM;
            else
                sp = PTX_SPACE_GLOBAL;
        }
        switch (sp) {
        case PTX_SPACE_SHARED:
            sh[l] = a >= MEM_SHARED_BASE ? a - MEM_SHARED_BASE : a;
            msh |= 1u << l;
            break;
        case PTX_SPACE_LOCAL: {
            uint64_t off = a >= MEM_LOCAL_BASE ? a - MEM_LOCAL_BASE : a;
            uint64_t tid = ((uint64_t)mi->sm * c->max_warps_per_sm + mi->slot) * 32 + l;
            lo[l] = LOCAL_PHYS_BASE + ((off / 4) * nthreads + tid) * 4 + off % 4;
            ml |= 1u << l;
            break;
        }
        case PTX_SPACE_PARAM:
            cn[l] = a >= MEM_PARAM_BASE ? a : MEM_PARAM_BASE + a;
            mc |= 1u << l;
            break;
        case PTX_SPACE_CONST:
            cn[l] = a;
            mc |= 1u << l;
            break;
        default:
            g[l] = a;
            mg |= 1u << l;
            break;
        }
    }
    in->is_long = (mg | ml) != 0;
    int sect = c->coalesce_sectored != 0;
    uint32_t size = mi->size ? mi->size : 1;
    if (msh) {
        uint32_t d = smem_degree(ms, mi, sh, msh);
        sm->acc[sm->nacc++] =
            (struct ldst_acc){.addr = 0, .bytes = d, .mask = msh, .space = ACC_SHARED};
    }
    if (mg)
        add_coalesced(sm, g, mg, size, sect || (!c->l1d_enabled && !mi->is_store), ACC_GLOBAL);
    if (ml)
        add_coalesced(sm, lo, ml, size, sect, ACC_LOCAL);
    if ((mg | ml) && sm->fn) {
        /* the policies see the global/local part: lanes and coalesced accesses */
        uint32_t n_gl = sm->nacc - (msh ? 1u : 0u);
        struct sched_event ev = {.kind = SCHED_EV_MEM_ISSUE, .slot = (int32_t)mi->slot,
                                 .pc = mi->pc, .cta = mi->cta, .age = mi->age,
                                 .is_write = (uint8_t)(mi->is_store || mi->is_atomic),
                                 .space = (uint8_t)(mg ? PTX_SPACE_GLOBAL : PTX_SPACE_LOCAL),
                                 .lanes = (uint32_t)__builtin_popcount(mg | ml),
                                 .accesses = n_gl, .now = now};
        sm->fn(sm->fn_ctx, &ev);
    }
    if (mc) {
        /* one access per distinct constant-cache line */
        for (uint32_t l = 0; l < 32; l++) {
            if (!(mc >> l & 1))
                continue;
            uint64_t line = cn[l] >> ms->l1c_shift << ms->l1c_shift;
            uint32_t k = 0;
            while (k < sm->nacc && !(sm->acc[k].space == ACC_CONST && sm->acc[k].addr == line))
                k++;
            if (k < sm->nacc) {
                sm->acc[k].mask |= 1u << l;
            } else if (sm->nacc < MAX_ACCS) {
                sm->acc[sm->nacc++] = (struct ldst_acc){
                    .addr = line, .bytes = c->l1c.line, .mask = 1u << l, .space = ACC_CONST};
            }
        }
    }
}

/* ------------------------------------------------------- LD/ST processing */

static void inst_complete(struct mem_system *ms, struct sm_mem *sm, uint32_t idx, uint64_t now)
{
    struct ldst_inst *in = &sm->inst[idx];
    ws_assert(in->used);
    if (in->pending || in->left)
        return;
    if (in->is_load && in->is_long) {
        ms->st.mem_latency_sum += now + 1 - in->t_issue; /* the SM sees it at now + 1 */
        ms->st.mem_latency_count++;
    }
    ring_push(&sm->done, in->token);
    in->used = 0;
    in->next_free = sm->inst_free;
    sm->inst_free = idx;
    sm->inst_used--;
}

static void inst_data(struct mem_system *ms, struct sm_mem *sm, uint32_t idx, uint64_t now)
{
    ws_assert(sm->inst[idx].pending > 0);
    sm->inst[idx].pending--;
    inst_complete(ms, sm, idx, now);
}

static int missq_full(const struct sm_mem *sm) { return sm->missq.n >= sm->missq_size; }

static int pool_ok_sm(const struct mem_system *ms, uint32_t n)
{
    return ms->pool.nfree >= ms->pool_reserve + n;
}

static uint32_t new_req(struct mem_system *ms, const struct mem_inst *mi, uint64_t addr,
                        uint32_t bytes, uint8_t kind, uint8_t dest, uint32_t inst)
{
    uint32_t i = mem_pool_alloc(&ms->pool);
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

/* A read through a cache with MSHRs (L1D or constant cache).  Returns 1 when
 * the access was handled, 0 on a reservation failure. */
static int cached_read(struct mem_system *ms, struct sm_mem *sm, struct cache *c,
                       struct mshr_table *mt, struct idx_ring *ring, uint32_t hit_lat,
                       uint32_t shift, const struct ldst_acc *a, int is_l1d, uint64_t now)
{
    const struct mem_inst *mi = &sm->cur;
    uint64_t line = a->addr >> shift;
    uint32_t set = (uint32_t)(line % c->sets), way;
    struct cache_access ca = {.line_addr = line, .pc = mi->pc, .sm = mi->sm,
                              .warp = (int32_t)mi->slot, .warp_age = mi->age, .is_write = 0,
                              .tag = mi->policy_tag};
    int r = cache_probe(c, set, line << shift, &way);
    if (r == CACHE_HIT) {
        if (ring_full(ring))
            return 0;
        cache_touch(c, set, way, &ca);
        ring_push_t(ring, sm->cur_idx, now + lat_m1(hit_lat));
        sm->inst[sm->cur_idx].pending++;
        if (is_l1d) {
            ms->st.l1d_accesses++;
            ms->st.l1d_hits++;
            int own = c->owner_age[(size_t)set * c->assoc + way] == mi->age;
            if (own)
                ms->st.l1d_intra_warp_hits++;
            else
                ms->st.l1d_inter_warp_hits++;
            emit_access(ms, sm, line, 1, 0, own, now);
        } else {
            ms->st.l1c_accesses++;
            ms->st.l1c_hits++;
        }
        return 1;
    }
    if (r == CACHE_HIT_RESERVED) {
        int m = mshr_find(mt, line);
        ws_assert(m >= 0);
        if (!mshr_can_merge(mt, (uint32_t)m)) {
            if (is_l1d)
                ms->st.l1d_reservation_fails++;
            return 0;
        }
        mshr_add(mt, (uint32_t)m, sm->cur_idx);
        sm->inst[sm->cur_idx].pending++;
        if (is_l1d) {
            ms->st.l1d_accesses++;
            ms->st.l1d_hit_reserved++;
            emit_access(ms, sm, line, 0, 0, 0, now);
        } else {
            ms->st.l1c_accesses++;
            ms->st.l1c_hit_reserved++;
        }
        return 1;
    }
    /* miss */
    if (is_l1d && cache_bypass(c, set, &ca)) {
        if (missq_full(sm) || !pool_ok_sm(ms, 1)) {
            ms->st.l1d_reservation_fails++;
            return 0;
        }
        uint32_t q = new_req(ms, mi, line << shift, 1u << shift, MEM_REQ_READ, MEM_DEST_INST,
                             sm->cur_idx);
        ring_push(&sm->missq, q);
        sm->inst[sm->cur_idx].pending++;
        ms->st.l1d_accesses++;
        ms->st.l1d_misses++;
        emit_access(ms, sm, line, 0, 0, 0, now);
        return 1;
    }
    /* the miss queue physically holds one more entry than its logical size,
     * for the write-back of a dirty victim chosen below */
    if (mshr_full(mt) || missq_full(sm) || !pool_ok_sm(ms, 2)) {
        if (is_l1d)
            ms->st.l1d_reservation_fails++;
        return 0;
    }
    struct cache_victim v;
    if (cache_allocate(c, set, line << shift, &ca, &way, &v) != 0) {
        if (is_l1d)
            ms->st.l1d_reservation_fails++;
        return 0;
    }
    if (v.valid && is_l1d) {
        ms->st.l1d_evictions++;
        if (v.owner_slot >= 0)
            emit(sm, SCHED_EV_L1D_EVICT, v.owner_slot, 0, 0, v.owner_age, v.tag >> shift,
                 now);
        if (v.dirty) {
            ms->st.l1d_writebacks++;
            ring_push(&sm->missq,
                      new_req(ms, NULL, v.tag, 1u << shift, MEM_REQ_WRITE, MEM_DEST_NONE, 0));
        }
    }
    uint32_t m = mshr_alloc(mt, line, way);
    mshr_add(mt, m, sm->cur_idx);
    sm->inst[sm->cur_idx].pending++;
    ring_push(&sm->missq, new_req(ms, mi, line << shift, 1u << shift, MEM_REQ_READ,
                                  is_l1d ? MEM_DEST_L1D : MEM_DEST_L1C, 0));
    if (is_l1d) {
        ms->st.l1d_accesses++;
        ms->st.l1d_misses++;
        emit_access(ms, sm, line, 0, 0, 0, now);
    } else {
        ms->st.l1c_accesses++;
        ms->st.l1c_misses++;
    }
    return 1;
}

/* Global/local store through the L1D.  Returns 0 on a reservation failure. */
static int l1d_store(struct mem_system *ms, struct sm_mem *sm, const struct ldst_acc *a,
                     uint64_t now)
{
    const struct mem_inst *mi = &sm->cur;
    struct cache *c = &sm->l1d;
    uint32_t shift = ms->l1d_shift;
    uint64_t line = a->addr >> shift;
    uint32_t set = (uint32_t)(line % c->sets), way;
    int local = a->space == ACC_LOCAL;
    int r = ms->cfg.l1d_enabled || local ? cache_probe(c, set, line << shift, &way) : CACHE_MISS;
    int need_req = !(local && r == CACHE_HIT);
    if (need_req && (missq_full(sm) || !pool_ok_sm(ms, 1))) {
        ms->st.l1d_reservation_fails++;
        return 0;
    }
    if (!local)
        emit(sm, SCHED_EV_STORE, (int32_t)mi->slot, mi->pc, mi->cta, mi->age, line, now);
    if (!ms->cfg.l1d_enabled && !local) {
        ring_push(&sm->missq, new_req(ms, mi, a->addr, a->bytes, MEM_REQ_WRITE, MEM_DEST_NONE,
                                      0));
        return 1;
    }
    struct cache_access ca = {.line_addr = line, .pc = mi->pc, .sm = mi->sm,
                              .warp = (int32_t)mi->slot, .warp_age = mi->age, .is_write = 1,
                              .tag = mi->policy_tag};
    ms->st.l1d_accesses++;
    int own = 0;
    if (r == CACHE_HIT) {
        ms->st.l1d_hits++;
        own = c->owner_age[(size_t)set * c->assoc + way] == mi->age;
        if (own)
            ms->st.l1d_intra_warp_hits++;
        else
            ms->st.l1d_inter_warp_hits++;
        if (local) {
            cache_touch(c, set, way, &ca);
            c->dirty[(size_t)set * c->assoc + way] = 1;
        } else {
            cache_invalidate(c, set, way); /* evict on write */
        }
    } else if (r == CACHE_HIT_RESERVED) {
        ms->st.l1d_hit_reserved++;
    } else {
        ms->st.l1d_misses++;
    }
    emit_access(ms, sm, line, r == CACHE_HIT, 1, own, now);
    if (need_req)
        ring_push(&sm->missq, new_req(ms, mi, a->addr, a->bytes, MEM_REQ_WRITE, MEM_DEST_NONE,
                                      0));
    return 1;
}

/* Handle the current access; 1 when done, 0 to retry next cycle. */
static int ldst_access(struct mem_system *ms, struct sm_mem *sm, const struct ldst_acc *a,
                       uint64_t now)
{
    const struct mem_inst *mi = &sm->cur;
    const struct gpu_config *c = &ms->cfg;
    switch (a->space) {
    case ACC_SHARED:
        if (sm->inst[sm->cur_idx].is_load && ring_full(&sm->smem_ring))
            return 0;
        ms->st.smem_accesses++;
        ms->st.smem_cycles += a->bytes;
        sm->busy_until = now + a->bytes;
        if (sm->inst[sm->cur_idx].is_load) {
            ring_push_t(&sm->smem_ring, sm->cur_idx, now + a->bytes - 1 + lat_m1(c->smem_latency));
            sm->inst[sm->cur_idx].pending++;
        }
        return 1;
    case ACC_CONST:
        return cached_read(ms, sm, &sm->l1c, &sm->l1c_mshr, &sm->l1c_ring, c->l1c.hit_latency,
                           ms->l1c_shift, a, 0, now);
    default:
        break;
    }
    if (mi->is_atomic) {
        if (missq_full(sm) || !pool_ok_sm(ms, 1))
            return 0;
        ring_push(&sm->missq, new_req(ms, mi, a->addr, a->bytes, MEM_REQ_ATOMIC, MEM_DEST_INST,
                                      sm->cur_idx));
        sm->inst[sm->cur_idx].pending++;
        return 1;
    }
    if (mi->is_store)
        return l1d_store(ms, sm, a, now);
    if (!c->l1d_enabled && a->space == ACC_GLOBAL) {
        if (missq_full(sm) || !pool_ok_sm(ms, 1))
            return 0;
        ring_push(&sm->missq, new_req(ms, mi, a->addr, a->bytes, MEM_REQ_READ, MEM_DEST_INST,
                                      sm->cur_idx));
        sm->inst[sm->cur_idx].pending++;
        return 1;
    }
    return cached_read(ms, sm, &sm->l1d, &sm->l1d_mshr, &sm->l1_ring, c->l1d.hit_latency,
                       ms->l1d_shift, a, 1, now);
}

static void ldst_step(struct mem_system *ms, struct sm_mem *sm, uint64_t now)
{
    if (sm->cur_idx == MEM_REQ_NONE)
        return;
    if (sm->pos < sm->nacc) {
        if (now < sm->busy_until || !ldst_access(ms, sm, &sm->acc[sm->pos], now))
            return;
        sm->pos++;
    }
    /* free the unit once its last access is done and its busy time ends */
    if (sm->pos == sm->nacc && sm->busy_until <= now + 1) {
        uint32_t idx = sm->cur_idx;
        sm->cur_idx = MEM_REQ_NONE;
        sm->inst[idx].left = 0;
        inst_complete(ms, sm, idx, now);
    }
}

/* A reply arrived at the SM: fill and wake the waiting instructions. */
static int sm_reply(struct mem_system *ms, struct sm_mem *sm, uint32_t q, uint64_t now)
{
    struct mem_req *r = &ms->pool.r[q];
    if (r->dest == MEM_DEST_INST) {
        inst_data(ms, sm, r->inst, now);
        return 1;
    }
    int l1d = r->dest == MEM_DEST_L1D;
    struct cache *c = l1d ? &sm->l1d : &sm->l1c;
    struct mshr_table *mt = l1d ? &sm->l1d_mshr : &sm->l1c_mshr;
    struct idx_ring *ring = l1d ? &sm->l1_ring : &sm->l1c_ring;
    uint32_t lat = l1d ? ms->cfg.l1d.hit_latency : ms->cfg.l1c.hit_latency;
    uint32_t shift = l1d ? ms->l1d_shift : ms->l1c_shift;
    uint64_t line = r->addr >> shift;
    int m = mshr_find(mt, line);
    ws_assert(m >= 0);
    if (ring->cap - ring->n < mt->ntargets[m])
        return 0;
    cache_fill(c, (uint32_t)(line % c->sets), mt->way[m]);
    for (uint32_t k = 0; k < mt->ntargets[m]; k++)
        ring_push_t(ring, mt->targets[(size_t)m * mt->max_merge + k], now + lat_m1(lat));
    mshr_release(mt, (uint32_t)m);
    return 1;
}

static void ldst_cycle(struct mem_system *ms, uint32_t s, uint64_t now)
{
    struct sm_mem *sm = &ms->sm[s];
    struct idx_ring *in = &ms->rep_net.dst[s];
    if (!sm->inst_used && ring_empty(in))
        return; /* idle */
    if (ring_ready(in, ms->icnt_now) && sm_reply(ms, sm, ring_head(in), now))
        mem_pool_release(&ms->pool, ring_pop(in));
    ldst_step(ms, sm, now);
    /* after the unit: a 1-cycle latency completes within this cycle */
    while (ring_ready(&sm->l1_ring, now))
        inst_data(ms, sm, ring_pop(&sm->l1_ring), now);
    while (ring_ready(&sm->l1c_ring, now))
        inst_data(ms, sm, ring_pop(&sm->l1c_ring), now);
    while (ring_ready(&sm->smem_ring, now))
        inst_data(ms, sm, ring_pop(&sm->smem_ring), now);
}

/* ------------------------------------------------------------ interconnect */

static void icnt_send(struct mem_system *ms, struct icnt_net *n, uint32_t src, uint32_t dst,
                      uint32_t q, uint32_t bytes)
{
    uint32_t ser = flits(ms, bytes);
    uint64_t now = ms->icnt_now;
    n->src_free[src] = now + ser;
    uint64_t arr = now + ms->cfg.icnt_latency + ser;
    if (arr < n->dst_free[dst] + ser)
        arr = n->dst_free[dst] + ser;
    n->dst_free[dst] = arr;
    ring_push_t(&n->dst[dst], q, arr);
}

static void icnt_tick(struct mem_system *ms)
{
    /* the first source examined rotates with the icnt clock (not per call,
     * so that skipped idle cycles change nothing) */
    struct icnt_net *n = &ms->req_net;
    uint32_t rr = (uint32_t)(ms->icnt_now % n->n_src);
    for (uint32_t k = 0; k < n->n_src; k++) {
        uint32_t s = (rr + k) % n->n_src;
        struct idx_ring *src = &ms->sm[s].missq;
        if (ring_empty(src) || n->src_free[s] > ms->icnt_now)
            continue;
        uint32_t q = ring_head(src);
        struct mem_req *r = &ms->pool.r[q];
        if (ring_full(&n->dst[r->sub])) {
            ms->st.icnt_stalls++;
            continue;
        }
        ring_pop(src);
        icnt_send(ms, n, s, r->sub, q, r->kind == MEM_REQ_WRITE ? r->bytes : 8);
        ms->st.icnt_req_packets++;
    }
    n = &ms->rep_net;
    rr = (uint32_t)(ms->icnt_now % n->n_src);
    for (uint32_t k = 0; k < n->n_src; k++) {
        uint32_t s = (rr + k) % n->n_src;
        struct idx_ring *src = &ms->sub[s].out;
        if (!ring_ready(src, ms->l2_now) || n->src_free[s] > ms->icnt_now)
            continue;
        uint32_t q = ring_head(src);
        struct mem_req *r = &ms->pool.r[q];
        if (ring_full(&n->dst[r->sm])) {
            ms->st.icnt_stalls++;
            continue;
        }
        ring_pop(src);
        icnt_send(ms, n, s, r->sm, q, r->bytes);
        ms->st.icnt_reply_packets++;
    }
}

/* ---------------------------------------------------------------- L2 side */

/* Queue q at its DRAM channel; `spare` lets the second request of one miss
 * (write-back + fetch) use the queue's spare slot. */
static int to_dram(struct mem_system *ms, uint32_t q, int spare)
{
    const struct mem_req *r = &ms->pool.r[q];
    struct dram_channel *ch = &ms->ch[r->channel];
    if (!dram_can_accept(ch) && !(spare && ch->n <= ch->cap))
        return 0;
    dram_enqueue(ch, &ms->pool, q, r->dram_bank, r->dram_row, ms->dram_now);
    return 1;
}

/* Serve one request at the head of an L2 bank queue; 0 if it must wait. */
static int l2_serve(struct mem_system *ms, struct l2_sub *sb, uint32_t q)
{
    struct mem_req *r = &ms->pool.r[q];
    const struct gpu_config *c = &ms->cfg;
    if (!c->l2_enabled) {
        if (!to_dram(ms, q, 0))
            return 0;
        return 1;
    }
    uint32_t set = r->l2_set;
    uint32_t shift = ms->l2_shift, way;
    uint64_t line = r->addr >> shift;
    struct cache *cc = &sb->c;
    struct cache_access ca = {.line_addr = line, .pc = r->pc, .sm = r->sm, .warp = -1,
                              .warp_age = r->age, .is_write = r->kind != MEM_REQ_READ,
                              .tag = r->tag};
    int pr = cache_probe(cc, set, line << shift, &way);
    size_t li = (size_t)set * cc->assoc + way;
    if (pr == CACHE_HIT) {
        ms->st.l2_accesses++;
        ms->st.l2_hits++;
        cache_touch(cc, set, way, &ca);
        if (r->kind == MEM_REQ_WRITE) {
            cc->dirty[li] = 1;
            mem_pool_release(&ms->pool, q);
        } else {
            if (r->kind == MEM_REQ_ATOMIC)
                cc->dirty[li] = 1;
            ring_push_t(&sb->out, q, ms->l2_now + c->l2.hit_latency);
        }
        return 1;
    }
    if (pr == CACHE_HIT_RESERVED) {
        int m = mshr_find(&sb->mshr, line);
        ws_assert(m >= 0);
        if (r->kind == MEM_REQ_WRITE) {
            cc->dirty[li] = 1;
            mem_pool_release(&ms->pool, q);
        } else {
            if (!mshr_can_merge(&sb->mshr, (uint32_t)m))
                return 0;
            mshr_add(&sb->mshr, (uint32_t)m, q);
        }
        ms->st.l2_accesses++;
        ms->st.l2_hit_reserved++;
        return 1;
    }
    /* miss: needs the DRAM queue (twice with a dirty victim), an MSHR for reads */
    struct dram_channel *ch = &ms->ch[r->channel];
    int is_read = r->kind != MEM_REQ_WRITE;
    if (!dram_can_accept(ch))
        return 0;
    if (is_read && mshr_full(&sb->mshr))
        return 0;
    if (ms->pool.nfree < 2)
        return 0;
    struct cache_victim v;
    if (cache_allocate(cc, set, line << shift, &ca, &way, &v) != 0)
        return 0;
    li = (size_t)set * cc->assoc + way;
    if (v.valid && v.dirty) {
        ms->st.l2_writebacks++;
        uint32_t w = new_req(ms, NULL, v.tag, c->l2.line, MEM_REQ_WRITE, MEM_DEST_NONE, 0);
        int ok = to_dram(ms, w, 0);
        ws_assert(ok); /* the DRAM queue's spare slot */
    }
    ms->st.l2_accesses++;
    ms->st.l2_misses++;
    if (!is_read) {
        cache_fill(cc, set, way);
        cc->dirty[li] = 1;
        mem_pool_release(&ms->pool, q);
        return 1;
    }
    uint32_t m = mshr_alloc(&sb->mshr, line, way);
    mshr_add(&sb->mshr, m, q);
    /* the DRAM fetch travels as a separate request so that q waits in the MSHR */
    uint32_t f = new_req(ms, NULL, line << shift, c->l2.line, MEM_REQ_READ, MEM_DEST_NONE, 0);
    ms->pool.r[f].tag = r->tag;
    ms->pool.r[f].sub = r->sub;
    int ok = to_dram(ms, f, 1);
    ws_assert(ok);
    return 1;
}

/* A DRAM read came back to sub-partition sb. */
static void l2_fill(struct mem_system *ms, uint32_t q)
{
    struct mem_req *r = &ms->pool.r[q];
    struct l2_sub *sb = &ms->sub[r->sub];
    if (!ms->cfg.l2_enabled) {
        ring_push_t(&sb->out, q, ms->l2_now);
        return;
    }
    uint64_t line = r->addr >> ms->l2_shift;
    int m = mshr_find(&sb->mshr, line);
    ws_assert(m >= 0);
    uint32_t set = r->l2_set;
    struct cache *cc = &sb->c;
    cache_fill(cc, set, sb->mshr.way[m]);
    for (uint32_t k = 0; k < sb->mshr.ntargets[m]; k++) {
        uint32_t t = sb->mshr.targets[(size_t)m * sb->mshr.max_merge + k];
        if (ms->pool.r[t].kind == MEM_REQ_ATOMIC)
            cc->dirty[(size_t)set * cc->assoc + sb->mshr.way[m]] = 1;
        ring_push_t(&sb->out, t, ms->l2_now);
    }
    mshr_release(&sb->mshr, (uint32_t)m);
    mem_pool_release(&ms->pool, q);
}

static void l2_tick(struct mem_system *ms)
{
    const struct gpu_config *c = &ms->cfg;
    /* DRAM returns */
    for (uint32_t i = 0; i < ms->n_ch; i++) {
        struct dram_channel *ch = &ms->ch[i];
        while (ring_ready(&ch->ret, ms->dram_now)) {
            uint32_t q = ring_pop(&ch->ret);
            struct mem_req *r = &ms->pool.r[q];
            if (r->kind == MEM_REQ_WRITE)
                mem_pool_release(&ms->pool, q);
            else
                l2_fill(ms, q);
        }
    }
    for (uint32_t s = 0; s < ms->n_sub; s++) {
        struct l2_sub *sb = &ms->sub[s];
        /* arbiter: every arrived request moves, in order, to its bank queue;
         * a full bank queue blocks the input (head of line) */
        struct idx_ring *in = &ms->req_net.dst[s];
        while (ring_ready(in, ms->icnt_now)) {
            uint32_t q = ring_head(in);
            struct idx_ring *bq = &sb->bankq[ms->pool.r[q].l2_bank];
            if (ring_full(bq))
                break;
            ring_pop(in);
            ms->pool.r[q].t_l2q = ms->l2_now;
            ring_push(bq, q);
        }
        for (uint32_t b = 0; b < c->l2_banks; b++) {
            struct idx_ring *bq = &sb->bankq[b];
            for (uint32_t p = 0; p < c->l2_ports && !ring_empty(bq); p++) {
                uint32_t q = ring_head(bq);
                uint64_t t0 = ms->pool.r[q].t_l2q;
                if (!l2_serve(ms, sb, q))
                    break;
                ring_pop(bq);
                ms->st.l2_queue_latency_sum += ms->l2_now - t0;
                ms->st.l2_queue_latency_count++;
            }
        }
    }
}

/* ------------------------------------------------------------------ clocks */

void memsys_cycle(struct mem_system *ms, uint64_t now)
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
    for (uint32_t s = 0; s < ms->n_sms; s++)
        ldst_cycle(ms, s, now);
    ms->acc_icnt += ms->f_icnt;
    while (ms->acc_icnt >= ms->f_core) {
        ms->acc_icnt -= ms->f_core;
        ms->icnt_now++;
        icnt_tick(ms);
    }
    ms->acc_l2 += ms->f_l2;
    while (ms->acc_l2 >= ms->f_core) {
        ms->acc_l2 -= ms->f_core;
        ms->l2_now++;
        l2_tick(ms);
    }
    ms->acc_dram += ms->f_dram;
    while (ms->acc_dram >= ms->f_core) {
        ms->acc_dram -= ms->f_core;
        ms->dram_now++;
        ms->st.dram_cycles += ms->n_ch;
        for (uint32_t i = 0; i < ms->n_ch; i++)
            dram_cycle(&ms->ch[i], &ms->pool, ms->dram_now);
    }
}

int memsys_pop_done(struct mem_system *ms, uint32_t sm, uint32_t *token)
{
    struct idx_ring *d = &ms->sm[sm].done;
    if (ring_empty(d))
        return 0;
    *token = ring_pop(d);
    return 1;
}

int memsys_busy(const struct mem_system *ms)
{
    if (ms->pool.nfree != ms->pool.cap)
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
        if (!ring_empty(&sm->done))
            return now;
        const struct idx_ring *rs[3] = {&sm->l1_ring, &sm->l1c_ring, &sm->smem_ring};
        for (int k = 0; k < 3; k++)
            if (!ring_empty(rs[k]))
                best = min_u64(best, ring_head_t(rs[k]) > now ? ring_head_t(rs[k]) : now);
        const struct idx_ring *in = &ms->rep_net.dst[s];
        if (!ring_empty(in))
            best = min_u64(best, dom_to_core(ms, now, ms->f_icnt, ms->acc_icnt, ms->icnt_now,
                                             ring_head_t(in)));
    }
    for (uint32_t s = 0; s < ms->n_sub; s++) {
        const struct l2_sub *sb = &ms->sub[s];
        for (uint32_t b = 0; b < ms->cfg.l2_banks; b++)
            if (!ring_empty(&sb->bankq[b]))
                best = min_u64(best, dom_to_core(ms, now, ms->f_l2, ms->acc_l2, ms->l2_now,
                                                 ms->l2_now + 1));
        if (!ring_empty(&sb->out))
            best = min_u64(best, dom_to_core(ms, now, ms->f_l2, ms->acc_l2, ms->l2_now,
                                             ring_head_t(&sb->out)));
        const struct idx_ring *in = &ms->req_net.dst[s];
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

/* ---------------------------------------------------------- instructions */

int memsys_ifetch(struct mem_system *ms, uint32_t sm, uint64_t addr, uint64_t now,
                  uint64_t *ready_at)
{
    struct sm_mem *m = &ms->sm[sm];
    struct cache *c = &m->l1i;
    uint64_t line = addr >> ms->l1i_shift;
    uint32_t set = (uint32_t)(line % c->sets), way;
    int r = cache_probe(c, set, line << ms->l1i_shift, &way);
    if (r != CACHE_MISS) {
        uint64_t t = m->l1i_ready[(size_t)set * c->assoc + way];
        if (t <= now) {
            ms->st.l1i_accesses++;
            ms->st.l1i_hits++;
            struct cache_access ca = {.line_addr = line, .sm = sm, .warp = -1};
            cache_touch(c, set, way, &ca);
            return 1;
        }
        *ready_at = t; /* the fill is on its way: same miss, not counted again */
        return 0;
    }
    ms->st.l1i_accesses++;
    ms->st.l1i_misses++;
    struct cache_access ca = {.line_addr = line, .sm = sm, .warp = -1};
    struct cache_victim v;
    if (cache_allocate(c, set, line << ms->l1i_shift, &ca, &way, &v) != 0)
        panic("l1i: no way to allocate"); /* lines are filled immediately */
    cache_fill(c, set, way);
    *ready_at = now + ms->l1i_miss_latency;
    m->l1i_ready[(size_t)set * c->assoc + way] = *ready_at;
    return 0;
}

/* ------------------------------------------------------------------- dump */

void memsys_dump(const struct mem_system *ms, FILE *out)
{
    fprintf(out, "memory system: icnt cycle %llu, l2 cycle %llu, dram cycle %llu, %u of %u "
                 "requests in flight\n",
            (unsigned long long)ms->icnt_now, (unsigned long long)ms->l2_now,
            (unsigned long long)ms->dram_now, ms->pool.cap - ms->pool.nfree, ms->pool.cap);
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
                sm->l1c_mshr.entries, sm->missq.n, sm->missq.cap, ms->rep_net.dst[s].n);
        for (uint32_t k = 0; k < sm->inst_cap; k++)
            if (sm->inst[k].used)
                fprintf(out, "    token %u: %u data returns pending%s\n", sm->inst[k].token,
                        sm->inst[k].pending, sm->inst[k].left ? ", in the LD/ST unit" : "");
    }
    for (uint32_t s = 0; s < ms->n_sub; s++) {
        const struct l2_sub *sb = &ms->sub[s];
        uint32_t qn = 0;
        for (uint32_t b = 0; b < ms->cfg.l2_banks; b++)
            qn += sb->bankq[b].n;
        if (!qn && !sb->mshr.used && ring_empty(&sb->out) && ring_empty(&ms->req_net.dst[s]))
            continue;
        fprintf(out, "  l2 sub-partition %u: input %u, bank queues %u, mshr %u/%u, replies %u\n",
                s, ms->req_net.dst[s].n, qn, sb->mshr.used, sb->mshr.entries, sb->out.n);
    }
    for (uint32_t i = 0; i < ms->n_ch; i++) {
        const struct dram_channel *ch = &ms->ch[i];
        if (!dram_busy(ch))
            continue;
        fprintf(out, "  dram channel %u: queue %u/%u, banks busy %u, returns %u\n", i, ch->n,
                ch->cap, ch->n_bound, ch->ret.n);
    }
}
