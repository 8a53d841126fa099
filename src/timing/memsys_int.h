/* memsys_int.h: the memory system's internal state, shared by its parts
 * (memsys.c: construction, clocks, next event, dump; memsys_ldst.c: LD/ST
 * units and L1 caches; memsys_icnt.c: request and reply crossbars;
 * memsys_l2.c: L2 sub-partitions and the DRAM side).  Not for use outside
 * src/timing/memsys*.c. */
#ifndef WS_TIMING_MEMSYS_INT_H
#define WS_TIMING_MEMSYS_INT_H

#include <stdint.h>

#include "base/alloc.h"
#include "timing/cache.h"
#include "timing/coalesce.h"
#include "timing/dram.h"
#include "timing/lost_locality.h"
#include "timing/mem_req.h"
#include "timing/memsys.h"

#define LOCAL_PHYS_BASE 0x0000700000000000ull /* local memory, interleaved by thread */
#define MAX_ACCS (COAL_MAX_ACCESSES * 2 + 4)

enum acc_space { ACC_GLOBAL, ACC_LOCAL, ACC_CONST, ACC_SHARED, ACC_TEX };

struct ldst_acc {
    uint64_t addr;
    uint32_t bytes; /* shared: conflict degree (cycles) */
    uint32_t mask;
    uint8_t space;  /* enum acc_space */
};

struct ldst_inst {
    uint64_t t_issue;
    uint64_t t_hit_first, t_hit_last; /* arrivals of its data from L2 hits (core cycles) */
    uint32_t token, pending, next_free;
    uint32_t l2_hits;  /* replies of L2 hits that carried its data */
    uint8_t left, is_load, used;
    uint8_t is_long; /* touched global/local memory (counts for avg_mem_latency) */
    uint8_t l2_missed; /* some of its data came from DRAM (L2 miss or bypass) */
};

/* Why the current access of an LD/ST unit failed its last attempt, when a
 * retry can only succeed once that condition clears (memsys_ldst.c). */
enum ldst_retry {
    RETRY_NONE,  /* unknown: run the whole access */
    RETRY_MISS,  /* a read miss found no MSHR, miss-queue slot or request */
    RETRY_MERGE, /* a read hit a reserved line whose MSHR (retry_mshr) is full */
};

/* The counters of an SM's LD/ST unit (L1D, constant and texture caches,
 * shared memory, load latency), summed over the SMs (the maximum for
 * l2_hit_divergence_max). */
struct ldst_counters {
    uint64_t l1d_accesses, l1d_hits, l1d_misses, l1d_hit_reserved, l1d_reservation_fails;
    uint64_t l1d_writes, l1d_write_misses; /* of those, stores (writes apart: energy model) */
    uint64_t l1d_intra_warp_hits, l1d_inter_warp_hits, l1d_evictions, l1d_writebacks;
    uint64_t l1d_vta_hits;
    uint64_t l1d_tagged_reads, l1d_tagged_read_hits, l1d_tagged_evictions,
        l1d_tagged_evictions_unused;
    uint64_t l1c_accesses, l1c_hits, l1c_misses, l1c_hit_reserved;
    uint64_t tex_cache_access, tex_cache_hit, tex_cache_miss, tex_cache_hit_reserved;
    uint64_t smem_accesses, smem_cycles;
    uint64_t l2_hit_divergence_sum, l2_hit_divergence_count, l2_hit_divergence_max;
    uint64_t mem_latency_sum, mem_latency_count;
};

/* An SM's LD/ST unit and instruction cache.  Aligned to a cache line: in the
 * parallel engine neighbouring SMs run on different threads.  The two parts
 * the main thread also touches every cycle (the miss queue, which the
 * interconnect drains, and the free list, which memsys_cycle_end refills)
 * are alone on their lines: a line of the unit's that the main thread has
 * read or written must move back before the unit's next access to it. */
struct sm_mem {
    _Alignas(CACHE_LINE) struct mem_inst cur;
    uint32_t cur_idx;           /* inst-table index in the unit, MEM_REQ_NONE if free */
    struct ldst_acc acc[MAX_ACCS];
    uint32_t nacc, pos;
    uint8_t retry;              /* enum ldst_retry of acc[pos] */
    uint32_t retry_mshr;
    uint64_t busy_until;
    struct ldst_inst *inst;
    uint32_t inst_cap, inst_free, inst_used;
    struct idx_ring done;       /* tokens */
    uint32_t *acks_pending;     /* [warp slot] stores not yet acknowledged (sm.store_ack) */
    struct idx_ring acked;      /* warp slots whose last pending store was acknowledged */
    struct idx_ring l1_ring;    /* timed (core): inst idx, L1D hits and fills */
    struct idx_ring l1c_ring;   /* timed (core): constant-cache data */
    struct idx_ring l1t_ring;   /* timed (core): texture-cache data */
    struct idx_ring smem_ring;  /* timed (core): shared-memory data */
    uint32_t missq_size;        /* logical size (l1d.miss_queue); one spare slot */
    _Alignas(CACHE_LINE) struct idx_ring missq; /* requests waiting for the request network */
    _Alignas(CACHE_LINE) struct cache l1d;
    struct cache l1c, l1i, l1t;
    struct mshr_table l1d_mshr, l1c_mshr, l1t_mshr;
    uint64_t *l1i_ready;        /* [sets * assoc] core cycle the line arrives */
    uint64_t l1i_last_line;     /* the line of the last fetch that hit (UINT64_MAX: */
    uint32_t l1i_last_set, l1i_last_way; /* none), there until the next L1I allocation */
    struct lost_locality lost;  /* victim tags as a statistic (lost_locality.h) */
    memsys_listener fn;         /* NULL: no kind is listened to */
    void *fn_ctx;
    uint32_t fn_kinds;          /* SCHED_EV_BIT of the kinds fn takes */
    /* The unit's own request free list (mem_req.h): the unit allocates and
     * releases here unless the pool is tight; memsys_cycle_end refills and
     * drains it from and into the shared list (memsys.c, refill_units). */
    _Alignas(CACHE_LINE) struct mem_free free;
    /* counted here, not in memsys_counters: the SMs fetch and step their
     * LD/ST units in parallel (engine.c) */
    _Alignas(CACHE_LINE) uint64_t l1i_accesses, l1i_hits, l1i_misses;
    struct ldst_counters st;
};

struct l2_sub {
    struct cache c;
    uint8_t *sectors;           /* [sets * assoc] valid sectors (l2.sector_bytes), else NULL */
    struct mshr_table mshr;
    struct idx_ring rop;        /* timed (l2): arrived requests in their ROP delay */
    struct idx_ring byp;        /* timed (l2): bypassed reads in their l2.bypass_rop delay */
    struct idx_ring *bankq;     /* [l2_banks] */
    struct idx_ring *fillq;     /* [l2_banks] timed (l2, the cycle it entered): DRAM returns
                                   waiting for their bank (l2.fill_queue), else NULL */
    struct idx_ring out;        /* timed (l2): replies for the reply network */
    uint64_t data_free, fill_free; /* l2 cycle the data / fill port is free (l2.port_bytes) */
    uint32_t channel;
};

/* A destination's arrival queue, alone on its line: the reply network's
 * are filled by the main thread and emptied by the SMs' threads. */
struct icnt_port {
    _Alignas(CACHE_LINE) struct idx_ring q; /* timed (icnt): arrival */
};

struct icnt_net {
    uint32_t n_src, n_dst, dst_ports;
    uint64_t *src_free, *dst_free; /* dst_free: [n_dst * dst_ports] */
    struct icnt_port *dst;
};

struct memsys_counters {
    uint64_t l1d_flushed, l2_flushed, l2_memcpy_fills, l2_sector_misses;
    uint64_t l2_data_port_busy_cycles, l2_fill_port_busy_cycles;
    uint64_t l2_accesses, l2_hits, l2_misses, l2_hit_reserved, l2_writebacks;
    uint64_t l2_writes, l2_write_misses;
    uint64_t l2_queue_latency_sum, l2_queue_latency_count, l2_bypasses, l2_requests;
    uint64_t l2_reply_stalls;
    uint64_t l2_fill_stalls, l2_fill_queue_latency_sum, l2_fill_queue_latency_count;
    uint64_t dram_cycles;
    uint64_t icnt_req_packets, icnt_reply_packets, icnt_stalls, icnt_flits;
};

/* The policy state of one cache kind (or of the DRAM scheduler): instance i
 * at mem + i * stride, so that the policy's stats hook can sum them. */
struct policy_block {
    char *mem;
    size_t stride;
};

struct mem_system {
    struct gpu_config cfg;
    struct mem_pool pool;
    uint32_t n_sms, n_sub, n_ch, pool_reserve;
    int pool_tight;             /* the units allocate from pool.free (memsys.c, refill_units) */
    struct sm_mem *sm;
    uint8_t *l2_listen;         /* [n_sms] 1: the SM's policies take SCHED_EV_L2_ACCESS (read
                                   by the serial L2 without touching the SM's lines) */
    struct l2_sub *sub;
    struct dram_channel *ch;
    struct icnt_net req_net, rep_net;
    uint64_t f_core, f_icnt, f_l2, f_dram;
    uint32_t l1d_shift, l1c_shift, l1i_shift, l1t_shift, l2_shift, flit;
    int l2_full_index;          /* l2.index_addr = full */
    int l1d_fill_at_once;       /* l1d.latency_on = hits: fills skip l1d.latency */
    uint32_t l1i_miss_latency;
    /* Written by the main thread every cycle: apart from the fields above,
     * which the LD/ST units read on the SMs' threads. */
    _Alignas(CACHE_LINE) uint64_t acc_icnt, acc_l2, acc_dram;
    uint64_t icnt_now, l2_now, dram_now, core_next;
    uint64_t core_now;          /* core cycle of the memsys_cycle() call running */
    int started;
    _Alignas(CACHE_LINE) struct memsys_counters st;
    struct policy_block pb_l1d, pb_l1c, pb_l1i, pb_l1t, pb_l2, pb_dram;
};

/* Ring storage (timed: with a visibility time per entry). */
void memsys_ring_alloc(struct idx_ring *q, uint32_t cap, int timed);
void memsys_ring_release(struct idx_ring *q);

/* The sectors of its L2 line that `bytes` at addr cover (0xff: an L2 without
 * sectors, l2.sector_bytes = 0). */
uint8_t memsys_sector_mask(const struct mem_system *ms, uint64_t addr, uint32_t bytes);

/* A new request from free list f (the shared one, ms->pool.free, or an LD/ST
 * unit's own), its address mapped to channel, sub-partition, L2 set and
 * bank, DRAM bank and row; mi (NULL for L2-originated requests) gives the SM,
 * PC, warp slot, age and policy tag. */
uint32_t memsys_new_req(struct mem_system *ms, struct mem_free *f, const struct mem_inst *mi,
                        uint64_t addr, uint32_t bytes, uint8_t kind, uint8_t dest, uint32_t inst);

#endif
