/* mem_req.h: memory requests (one line- or segment-sized packet travelling
 * from an L1 to L2/DRAM and back), the fixed-capacity pool that owns them,
 * and the index rings the memory system queues them in.
 *
 * Requests are addressed by 32-bit pool index everywhere (queues, MSHR
 * targets), so nothing in the cycle loop allocates.  Rings are FIFO queues of
 * indices; a timed ring also carries the cycle (of the owning clock domain)
 * at which its entry becomes visible.  Entries of a timed ring are pushed in
 * non-decreasing time order by construction (constant latency per ring), so
 * only the head needs checking. */
#ifndef WS_TIMING_MEM_REQ_H
#define WS_TIMING_MEM_REQ_H

#include <stdint.h>

#include "base/alloc.h"
#include "base/log.h"

#define MEM_REQ_NONE UINT32_MAX

enum mem_req_kind { MEM_REQ_READ, MEM_REQ_WRITE, MEM_REQ_ATOMIC };

/* Where the reply of a request goes when it reaches its SM. */
enum mem_req_dest {
    MEM_DEST_NONE,  /* no reply (stores, write-backs) */
    MEM_DEST_L1D,   /* fill the L1D line and wake the MSHR targets */
    MEM_DEST_L1C,   /* fill the constant-cache line */
    MEM_DEST_L1T,   /* fill the texture-cache line */
    MEM_DEST_INST,  /* no cache: complete instruction `inst` directly */
    MEM_DEST_ACK,   /* a store acknowledged to warp `slot` (sm.store_ack): the L2 turns
                       it into a reply of no data once it has written it */
};

/* A read's way through its L2 sub-partition, decided once on arrival. */
enum mem_req_l2_route {
    MEM_L2_UNDECIDED, /* not yet asked (every new request) */
    MEM_L2_THROUGH,   /* bank queue, tag lookup, fill */
    MEM_L2_BYPASS,    /* straight to the DRAM queue, returned data not inserted */
};

struct mem_req {
    uint64_t addr;     /* byte address of the line/segment (physical) */
    uint64_t t_l2q;    /* l2 cycle it entered its L2 bank queue */
    uint64_t arrival;  /* dram cycle it entered the DRAM queue */
    uint64_t age;      /* dynamic warp id */
    uint32_t bytes;    /* data bytes moved */
    uint32_t sm, pc, tag;
    uint32_t sub;      /* memory sub-partition (global index) */
    uint32_t channel, l2_set, l2_bank, dram_bank, dram_row; /* address mapping */
    int32_t slot;      /* warp slot on SM sm, -1 for write-backs (no warp) */
    uint32_t inst;     /* MEM_DEST_INST: instruction-table index on the SM */
    uint32_t next;     /* free-list link */
    uint8_t kind;      /* enum mem_req_kind */
    uint8_t dest;      /* enum mem_req_dest */
    uint8_t row_hit;   /* DRAM: served without its own activation */
    uint8_t activated; /* DRAM: an ACT was issued for it */
    uint8_t l2_route;  /* enum mem_req_l2_route: the L2 policy's bypass decision */
    uint8_t l2_hit;    /* a read served by an L2 hit (not a fill, merge or bypass) */
};

/* A free list of pool entries, linked through mem_req.next. */
struct mem_free {
    uint32_t head, n;
};

/* The pool's entries and its shared free list.  Each SM's LD/ST unit keeps a
 * free list of its own (struct sm_mem), refilled from and drained into the
 * shared one between cycles, so that the units can run on several threads. */
struct mem_pool {
    struct mem_req *r;
    uint32_t cap;
    /* the main thread's list, apart from r, which the units read */
    _Alignas(CACHE_LINE) struct mem_free free;
};

static inline uint32_t mem_pool_alloc(struct mem_pool *p, struct mem_free *f)
{
    if (f->head == MEM_REQ_NONE)
        return MEM_REQ_NONE;
    uint32_t i = f->head;
    f->head = p->r[i].next;
    f->n--;
    return i;
}

static inline void mem_pool_release(struct mem_pool *p, struct mem_free *f, uint32_t i)
{
    ws_assert(i < p->cap);
    p->r[i].next = f->head;
    f->head = i;
    f->n++;
}

/* Move up to k entries from free list `from` to `to`. */
static inline void mem_pool_move(struct mem_pool *p, struct mem_free *from, struct mem_free *to,
                                 uint32_t k)
{
    for (; k && from->n; k--)
        mem_pool_release(p, to, mem_pool_alloc(p, from));
}

/* FIFO of indices with a fixed capacity (any positive count). */
struct idx_ring {
    uint32_t *v;
    uint64_t *t;  /* NULL for untimed rings */
    uint32_t cap, head, n;
};

static inline int ring_full(const struct idx_ring *q) { return q->n == q->cap; }
static inline int ring_empty(const struct idx_ring *q) { return q->n == 0; }

static inline void ring_push_t(struct idx_ring *q, uint32_t v, uint64_t t)
{
    ws_assert(q->n < q->cap);
    uint32_t at = q->head + q->n;
    if (at >= q->cap)
        at -= q->cap;
    q->v[at] = v;
    if (q->t)
        q->t[at] = t;
    q->n++;
}

static inline void ring_push(struct idx_ring *q, uint32_t v) { ring_push_t(q, v, 0); }

static inline uint32_t ring_head(const struct idx_ring *q) { return q->v[q->head]; }
static inline uint64_t ring_head_t(const struct idx_ring *q) { return q->t[q->head]; }

/* Timed ring: is the head visible at `now`? */
static inline int ring_ready(const struct idx_ring *q, uint64_t now)
{
    return q->n > 0 && q->t[q->head] <= now;
}

static inline uint32_t ring_pop(struct idx_ring *q)
{
    ws_assert(q->n > 0);
    uint32_t v = q->v[q->head];
    if (++q->head == q->cap)
        q->head = 0;
    q->n--;
    return v;
}

/* Entry i (0 = head), for dumps and scans. */
static inline uint32_t ring_at(const struct idx_ring *q, uint32_t i)
{
    uint32_t at = q->head + i;
    if (at >= q->cap)
        at -= q->cap;
    return q->v[at];
}

#endif
