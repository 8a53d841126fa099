/* memsys_l2.c: L2 sub-partitions (input arbiter, bank queues, ports, tag
 * array and MSHRs) and the hand-over to and from the DRAM channels.
 *
 * Modelling choices:
 * - L2 sub-partition: every arrived request moves in order from the crossbar
 *   buffer to its bank's queue (a full bank queue blocks the buffer); each
 *   bank serves l2_ports requests per l2 cycle from its queue head, bank 0
 *   first, or with l2.rotate a first bank that rotates every l2 cycle (the
 *   banks share the DRAM queue, the MSHRs and the reply queue, whose order
 *   follows the service order: with l2.rotate the bank whose replies enter
 *   it first rotates every cycle, MeDiC's round-robin insertion from the
 *   banks, SPEC-policies 7.6; a pointer that instead moved past the last
 *   bank served, per grant rather than per cycle, changed medic's IPC by
 *   0.0 to +0.4 % on sssp, mst, scp and cons at size medium, and would
 *   change the per-cycle rotation the paper gives for the arbiter, so it was
 *   not kept).  With l2.reply_queue > 0 the reply queue
 *   holds that many replies: while it is full no request is looked up
 *   (GPGPU-Sim 3.x looks up only while its L2-to-icnt queue has room, for
 *   hits and misses alike); replies of DRAM fills and bypassed reads enter
 *   it regardless (GPGPU-Sim keeps fill replies in the cache until the
 *   queue has room: here they count against the lookups at once; with
 *   l2.fill_queue a bypassed read's data waits for room, see DRAM returns
 *   below).  The
 *   input takes what the interconnect delivers through l2.input_ports
 *   ports (memsys_icnt.c).  With
 *   l2.rop_latency > 0 a request first waits that many l2 cycles in an
 *   unbounded FIFO (GPGPU-Sim's ROP queue, which delays hits and misses alike
 *   before the tag lookup), then moves in order to its bank queue (a full bank
 *   queue blocks the FIFO's head).  Bypassed reads never enter it (see
 *   l2.bypass_rop below).
 * - L2: write-back, write-allocate (a write miss allocates the line without
 *   fetching it: byte-masked write, as sectored GPGPU-Sim L2s); with
 *   sm.store_ack a store, once written (without an L2: once DRAM has it),
 *   goes back to its SM as a reply of no data (icnt.ctrl_bytes on the reply
 *   network, through the reply queue), GPGPU-Sim 3.x's WRITE_ACK; L2 misses
 *   send the first request to DRAM and merge later ones in the MSHR; fills
 *   reply immediately (no second hit latency).  Queue latency is measured from
 *   entering a bank queue to being served (l2 cycles).
 * - Events: every tag lookup of a warp's request (not write-backs) is
 *   reported to the policies of the request's SM as SCHED_EV_L2_ACCESS, at
 *   the core cycle whose memsys_cycle() ran that l2 tick.
 * - Bypass (MeDiC WByp, SPEC-policies 7.3): when a read arrives at its
 *   sub-partition the L2 policy's bypass() is asked once (set, and the
 *   request's PC, SM, warp slot and tag).  A bypassing read skips the ROP
 *   delay, the bank queue and the tag lookup and goes straight to the DRAM
 *   queue (it waits at the input, blocking it, while the DRAM queue is
 *   full), or with l2.bypass_rop > 0 first waits that many l2 cycles in a
 *   FIFO of its own beside the ROP queue (whose head waits while the DRAM
 *   queue is full; MeDiC in GPGPU-Sim: the ROP delay is applied on entry to
 *   the partition, before the bypass demultiplexer); its returned data
 *   goes to the reply queue without being inserted; it counts in
 *   l2_bypasses, never in l2_accesses.  Writes and atomics always take the
 *   L2: atomics execute there (SPEC 7.3: they look the tags up), and since
 *   this L2 is write-back a write from a bypassing warp updates (or
 *   allocates) the L2 line, so the L2 keeps owning the newest data and dirty
 *   data reaches DRAM by write-back only (SPEC 7.3's "send bypassed writes
 *   through the L2").  Fences never reach the L2: a membar waits at the SM
 *   for the warp's stores.  This is a timing model: a bypassed read of a
 *   line dirty in the L2 is timed as a DRAM read (data values are functional
 *   and already correct).
 * - Sectors (l2.sector_bytes, GPGPU-Sim 4.x "S:" caches): each line keeps
 *   a valid-sector mask.  A read miss fetches only the sectors its request
 *   covers; a write allocates without fetching and validates the sectors it
 *   writes; a read of a present line that misses a needed sector is a
 *   sector miss (l2_misses and l2_sector_misses): the line is reserved again
 *   and the request waits in an MSHR for a fetch of the missing sectors.
 *   Simplification: requests that merge into a pending fetch are served by
 *   it, and the sectors they need are marked valid with it, without fetching
 *   more bytes.
 * - Ports (l2.port_bytes, GPGPU-Sim 3.2.2's cache data port width): each
 *   slice has a data port and a fill port of that many bytes per l2 cycle.
 *   A hit occupies the data port for ceil(request bytes / width) l2 cycles,
 *   a miss that writes a dirty victim back for ceil(line / width), other
 *   misses and sector misses not at all; while it is occupied no request is
 *   looked up (the bank queues wait).  A DRAM fill occupies the fill port
 *   for ceil(fetched bytes / width); while it is occupied the channel's
 *   returns wait at their head (with two slices per channel a fill for one
 *   can hold up the other's returns: the channel has one return queue where
 *   GPGPU-Sim has one per slice).  Occupancy delays the next lookup or fill,
 *   never the reply of the access that occupies the port.
 * - A policy that partitions the L2 may refuse to allocate a miss (place()
 *   returns CACHE_NO_WAY): the miss is counted and reported, then goes to
 *   DRAM as a bypass (a write is written to DRAM, a read's data is not
 *   inserted).
 * - DRAM returns.  With l2.fill_queue = 0 (or no L2) every return whose time
 *   has come is handled at once, in its channel's order: a read fills its
 *   slice and replies, a bypassed read replies, a write is done; only an
 *   occupied fill port (l2.port_bytes) holds the channel's returns at their
 *   head.  With l2.fill_queue = N > 0 (MeDiC Section 5, SPEC-policies 7.6:
 *   "when a request returns from DRAM, it is inserted into one of the
 *   per-bank DRAM-to-L2 queues"), each bank of each slice has a fill queue of
 *   N returns (GPGPU-Sim 3.x's DRAM-to-L2 queue, one per slice there, 8):
 *   at every l2 cycle the channel's ready returns move in order to the queue
 *   of their slice and bank while it has room; a full one holds the
 *   channel's return ring at its head (head of line: the returns behind it,
 *   for other banks or the channel's other slice too, wait, as do the DRAM's
 *   column reads once the ring is full), counted once per channel and cycle
 *   in l2_fill_stalls.  Then each bank, first bank as for lookups (rotating
 *   with l2.rotate), takes at most one return from its queue head (GPGPU-Sim
 *   3.2.1's cache_cycle takes one per cycle from its queue): a fill waits
 *   there while the slice's fill port is occupied.  l2_fill_queue_latency
 *   averages the l2 cycles a return spent in its queue.  A return that
 *   enters an empty queue is taken in the same l2 cycle, so a queue adds no
 *   latency by itself: only same-bank returns in one cycle and full queues
 *   delay.
 *   [CHOICE] a bank's fill and its lookups share no resource: a bank takes
 *   one fill and serves its l2.ports lookups in the same l2 cycle (GPGPU-Sim
 *   3.2.1's cache_cycle fills one DRAM return and looks up one request per
 *   cycle; MeDiC does not say otherwise).  The fills of a cycle are taken
 *   before its lookups, so their replies enter the reply queue first.
 *   [CHOICE] bypassed reads' data and acknowledged writes (sm.store_ack,
 *   e.g. writes the L2 policy refused to allocate) go through their bank's
 *   fill queue in order and use its one return per cycle, without the fill
 *   port; at the queue head such a return waits while the slice's reply
 *   queue is full (l2.reply_queue), holding its bank's fills behind it
 *   (GPGPU-Sim 3.2.1's cache_cycle: its DRAM-to-L2 queue carries every
 *   return and passes one that fills nothing to the L2-to-icnt queue only
 *   while that has room).  A write that needs no acknowledgement (an L2
 *   write-back) is done as it leaves the return ring and takes no slot
 *   (GPGPU-Sim 3.x deletes write-backs at DRAM).  Fills do not wait for the
 *   reply queue: their replies enter it regardless, as without fill queues
 *   (GPGPU-Sim would keep them in the cache until it has room). */
#include "timing/memsys_l2.h"

#include "base/log.h"
#include "timing/memsys_int.h"

uint8_t memsys_sector_mask(const struct mem_system *ms, uint64_t addr, uint32_t bytes)
{
    uint32_t sec = ms->cfg.l2_sector_bytes;
    if (!sec)
        return 0xff;
    uint32_t line = ms->cfg.l2.line;
    uint64_t off = addr % line;
    uint64_t end = off + (bytes ? bytes : 1);
    uint32_t first = (uint32_t)(off / sec), last = (uint32_t)((end > line ? line : end) - 1) / sec;
    return (uint8_t)(((1u << (last + 1)) - 1) & ~((1u << first) - 1));
}

/* The sectors of its line that request r covers (all bits when the L2 is
 * not sectored). */
static uint8_t sector_mask(const struct mem_system *ms, const struct mem_req *r)
{
    return memsys_sector_mask(ms, r->addr, r->bytes);
}

/* Occupy a port (data or fill) from l2 cycle `now` while it moves `bytes`
 * (l2.port_bytes; no occupancy when 0). */
static void port_use(const struct mem_system *ms, uint64_t *free_at, uint64_t *busy,
                     uint32_t bytes)
{
    uint32_t w = ms->cfg.l2_port_bytes;
    if (!w)
        return;
    uint64_t cycles = ((uint64_t)(bytes ? bytes : 1) + w - 1) / w;
    *free_at = (*free_at > ms->l2_now ? *free_at : ms->l2_now) + cycles;
    *busy += cycles;
}

/* Queue q at its DRAM channel; `spare` lets the second request of one miss
 * (write-back + fetch) use the queue's spare slot. */
static int to_dram(struct mem_system *ms, uint32_t q, int spare)
{
    const struct mem_req *r = &ms->pool.r[q];
    struct dram_channel *ch = &ms->ch[r->channel];
    if (!dram_can_accept(ch, r->tag, spare))
        return 0;
    dram_enqueue(ch, &ms->pool, q, r->dram_bank, r->dram_row, ms->dram_now);
    return 1;
}

/* The DRAM fetch of `mask`'s sectors of r's line into the MSHR entry's way:
 * a separate request, so that r waits in the MSHR. */
static void fetch_line(struct mem_system *ms, const struct mem_req *r, uint8_t mask)
{
    const struct gpu_config *c = &ms->cfg;
    uint32_t bytes = c->l2.line;
    if (c->l2_sector_bytes)
        bytes = (uint32_t)__builtin_popcount(mask) * c->l2_sector_bytes;
    uint64_t base = r->addr >> ms->l2_shift << ms->l2_shift;
    uint32_t f = memsys_new_req(ms, &ms->pool.free, NULL, base, bytes, MEM_REQ_READ, MEM_DEST_NONE, 0);
    struct mem_req *fr = &ms->pool.r[f];
    fr->tag = r->tag; /* the fetch carries the origin of the miss it serves */
    fr->sm = r->sm;
    fr->pc = r->pc;
    fr->slot = r->slot;
    fr->age = r->age;
    fr->sub = r->sub;
    int ok = to_dram(ms, f, 1);
    ws_assert(ok);
}

/* SCHED_EV_L2_ACCESS for the policies of the SM whose warp sent r. */
static void l2_emit(struct mem_system *ms, const struct mem_req *r, int hit)
{
    if (r->slot < 0 || !ms->l2_listen[r->sm])
        return;
    const struct sm_mem *sm = &ms->sm[r->sm];
    struct sched_event ev = {.kind = SCHED_EV_L2_ACCESS, .slot = r->slot, .pc = r->pc,
                             .age = r->age, .addr = r->addr >> ms->l2_shift,
                             .hit = (uint8_t)hit, .is_write = r->kind != MEM_REQ_READ,
                             .now = ms->core_now};
    sm->fn(sm->fn_ctx, &ev);
}

/* A write the L2 (or, without one, DRAM) has done with: acknowledged to its
 * warp as a reply of no data `delay` l2 cycles on (sm.store_ack), or freed. */
static void write_done(struct mem_system *ms, uint32_t q, uint32_t delay)
{
    struct mem_req *r = &ms->pool.r[q];
    if (r->dest != MEM_DEST_ACK) {
        mem_pool_release(&ms->pool, &ms->pool.free, q);
        return;
    }
    r->bytes = 0;
    ring_push_t(&ms->sub[r->sub].out, q, ms->l2_now + delay);
}

enum { L2_HIT, L2_MISS, L2_HIT_RESERVED };

/* One L2 lookup of r counted (accesses, its outcome, writes apart for the
 * energy model) and reported to the scheduler policy. */
static void l2_count(struct mem_system *ms, const struct mem_req *r, int outcome)
{
    struct memsys_counters *st = &ms->st;
    st->l2_accesses++;
    st->l2_hits += outcome == L2_HIT;
    st->l2_misses += outcome == L2_MISS;
    st->l2_hit_reserved += outcome == L2_HIT_RESERVED;
    if (r->kind == MEM_REQ_WRITE) {
        st->l2_writes++;
        st->l2_write_misses += outcome == L2_MISS;
    }
    l2_emit(ms, r, outcome == L2_HIT);
}

/* Does the read r skip this L2 (asked once per request, on arrival)? */
static int l2_bypassed(struct mem_system *ms, struct l2_sub *sb, struct mem_req *r)
{
    if (r->l2_route == MEM_L2_UNDECIDED) {
        r->l2_route = MEM_L2_THROUGH;
        ms->st.l2_requests++;
        if (ms->cfg.l2_enabled && r->kind == MEM_REQ_READ) {
            struct cache_access ca = {.line_addr = r->addr >> ms->l2_shift, .pc = r->pc,
                                      .sm = r->sm, .warp = r->slot, .warp_age = r->age,
                                      .is_write = 0, .tag = r->tag};
            if (cache_bypass(&sb->c, r->l2_set, &ca))
                r->l2_route = MEM_L2_BYPASS;
        }
    }
    return r->l2_route == MEM_L2_BYPASS;
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
    if (ms->l2_now < sb->data_free)
        return 0;
    uint32_t set = r->l2_set;
    uint32_t shift = ms->l2_shift, way;
    uint64_t line = r->addr >> shift;
    struct cache *cc = &sb->c;
    struct cache_access ca = {.line_addr = line, .pc = r->pc, .sm = r->sm, .warp = r->slot,
                              .warp_age = r->age, .is_write = r->kind != MEM_REQ_READ,
                              .tag = r->tag};
    int pr = cache_probe(cc, set, line << shift, &way);
    size_t li = (size_t)set * cc->assoc + way;
    if (pr == CACHE_HIT && sb->sectors) {
        uint8_t need = sector_mask(ms, r);
        if (r->kind == MEM_REQ_WRITE) {
            sb->sectors[li] |= need;
        } else if (need & ~sb->sectors[li]) {
            /* sector miss: fetch the missing sectors */
            if (mshr_full(&sb->mshr) || !dram_can_accept(&ms->ch[r->channel], r->tag, 0) ||
                ms->pool.free.n < 2)
                return 0;
            /* the line is reserved again until the sectors arrive: it cannot be
             * evicted, and later requests for it merge into this fetch */
            uint32_t m = mshr_alloc(&sb->mshr, line, way);
            cc->state[li] = CACHE_RESERVED;
            fetch_line(ms, r, need & ~sb->sectors[li]);
            mshr_add(&sb->mshr, m, q);
            ms->st.l2_sector_misses++;
            l2_count(ms, r, L2_MISS);
            return 1;
        }
    }
    if (pr == CACHE_HIT) {
        l2_count(ms, r, L2_HIT);
        port_use(ms, &sb->data_free, &ms->st.l2_data_port_busy_cycles, r->bytes);
        cache_touch(cc, set, way, &ca);
        r->l2_hit = 1;
        if (r->kind == MEM_REQ_WRITE) {
            cc->dirty[li] = 1;
            write_done(ms, q, c->l2.hit_latency);
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
            write_done(ms, q, c->l2.hit_latency);
        } else {
            if (!mshr_can_merge(&sb->mshr, (uint32_t)m))
                return 0;
            mshr_add(&sb->mshr, (uint32_t)m, q);
        }
        l2_count(ms, r, L2_HIT_RESERVED);
        return 1;
    }
    /* miss: needs the DRAM queue (twice with a dirty victim), an MSHR for reads */
    struct dram_channel *ch = &ms->ch[r->channel];
    int is_read = r->kind != MEM_REQ_WRITE;
    if (!dram_can_accept(ch, r->tag, 0))
        return 0;
    if (is_read && mshr_full(&sb->mshr))
        return 0;
    if (ms->pool.free.n < 2)
        return 0;
    struct cache_victim v;
    int ar = cache_allocate(cc, set, line << shift, &ca, &way, &v);
    if (ar == CACHE_ALLOC_REFUSED) {
        /* the policy's partition has no way for it: served by DRAM without a
         * line, as a bypass after the lookup */
        l2_count(ms, r, L2_MISS);
        r->l2_route = MEM_L2_BYPASS;
        int ok = to_dram(ms, q, 0);
        ws_assert(ok);
        return 1;
    }
    if (ar != 0)
        return 0;
    li = (size_t)set * cc->assoc + way;
    if (v.valid && v.dirty) {
        ms->st.l2_writebacks++;
        port_use(ms, &sb->data_free, &ms->st.l2_data_port_busy_cycles, c->l2.line);
        uint32_t w = memsys_new_req(ms, &ms->pool.free, NULL, v.tag, c->l2.line, MEM_REQ_WRITE, MEM_DEST_NONE, 0);
        ms->pool.r[w].tag = r->tag; /* the write-back queues in the class of its miss */
        int ok = to_dram(ms, w, 0);
        ws_assert(ok); /* the miss checked room; the fetch then takes the spare slot */
    }
    l2_count(ms, r, L2_MISS);
    if (sb->sectors)
        sb->sectors[li] = is_read ? 0 : sector_mask(ms, r);
    if (!is_read) {
        cache_fill(cc, set, way);
        cc->dirty[li] = 1;
        write_done(ms, q, c->l2.hit_latency);
        return 1;
    }
    uint32_t m = mshr_alloc(&sb->mshr, line, way);
    mshr_add(&sb->mshr, m, q);
    fetch_line(ms, r, sector_mask(ms, r));
    return 1;
}

/* A DRAM read came back to sub-partition sb. */
static void l2_fill(struct mem_system *ms, uint32_t q)
{
    struct mem_req *r = &ms->pool.r[q];
    struct l2_sub *sb = &ms->sub[r->sub];
    if (!ms->cfg.l2_enabled || r->l2_route == MEM_L2_BYPASS) {
        ring_push_t(&sb->out, q, ms->l2_now);
        return;
    }
    port_use(ms, &sb->fill_free, &ms->st.l2_fill_port_busy_cycles, r->bytes);
    uint64_t line = r->addr >> ms->l2_shift;
    int m = mshr_find(&sb->mshr, line);
    ws_assert(m >= 0);
    uint32_t set = r->l2_set;
    struct cache *cc = &sb->c;
    cache_fill(cc, set, sb->mshr.way[m]);
    for (uint32_t k = 0; k < sb->mshr.ntargets[m]; k++) {
        uint32_t t = sb->mshr.targets[(size_t)m * sb->mshr.max_merge + k];
        if (sb->sectors)
            sb->sectors[(size_t)set * cc->assoc + sb->mshr.way[m]] |= sector_mask(ms, &ms->pool.r[t]);
        if (ms->pool.r[t].kind == MEM_REQ_ATOMIC)
            cc->dirty[(size_t)set * cc->assoc + sb->mshr.way[m]] = 1;
        ring_push_t(&sb->out, t, ms->l2_now);
    }
    mshr_release(&sb->mshr, (uint32_t)m);
    mem_pool_release(&ms->pool, &ms->pool.free, q);
}

/* A DRAM return handed to the L2: a write done, a read filled (or replied,
 * when bypassed or without an L2). */
static void l2_return(struct mem_system *ms, uint32_t q)
{
    if (ms->pool.r[q].kind == MEM_REQ_WRITE)
        write_done(ms, q, 0);
    else
        l2_fill(ms, q);
}

/* DRAM returns through per-bank fill queues (l2.fill_queue > 0, L2 on): every
 * ready return moves, in order, from its channel's return ring to the fill
 * queue of its slice and bank (a full queue holds the ring at its head);
 * then each bank of each slice, first bank as for lookups, takes at most one
 * return from its queue: a fill waits there while its slice's fill port is
 * occupied, a return that fills nothing while the reply queue is full. */
static void l2_fill_queues(struct mem_system *ms)
{
    const struct gpu_config *c = &ms->cfg;
    for (uint32_t i = 0; i < ms->n_ch; i++) {
        struct dram_channel *ch = &ms->ch[i];
        while (ring_ready(&ch->ret, ms->dram_now)) {
            uint32_t q = ring_head(&ch->ret);
            struct mem_req *r = &ms->pool.r[q];
            if (r->kind == MEM_REQ_WRITE && r->dest != MEM_DEST_ACK) {
                /* a write-back: nothing returns to the L2 */
                ring_pop(&ch->ret);
                write_done(ms, q, 0);
                continue;
            }
            struct idx_ring *fq = &ms->sub[r->sub].fillq[r->l2_bank];
            if (ring_full(fq)) {
                ms->st.l2_fill_stalls++;
                break;
            }
            ring_pop(&ch->ret);
            ring_push_t(fq, q, ms->l2_now);
        }
    }
    uint32_t first = c->l2_rotate ? (uint32_t)(ms->l2_now % c->l2_banks) : 0;
    for (uint32_t s = 0; s < ms->n_sub; s++) {
        struct l2_sub *sb = &ms->sub[s];
        for (uint32_t k = 0; k < c->l2_banks; k++) {
            struct idx_ring *fq = &sb->fillq[(first + k) % c->l2_banks];
            if (ring_empty(fq))
                continue;
            uint32_t q = ring_head(fq);
            const struct mem_req *r = &ms->pool.r[q];
            if (r->kind != MEM_REQ_WRITE && r->l2_route != MEM_L2_BYPASS) {
                if (ms->l2_now < sb->fill_free)
                    continue; /* the slice's fill port is occupied */
            } else if (c->l2_reply_queue && sb->out.n >= c->l2_reply_queue) {
                continue; /* fills nothing: waits for room in the reply queue */
            }
            ms->st.l2_fill_queue_latency_sum += ms->l2_now - ring_head_t(fq);
            ms->st.l2_fill_queue_latency_count++;
            ring_pop(fq);
            l2_return(ms, q);
        }
    }
}

/* DRAM returns without fill queues (l2.fill_queue = 0, or no L2): every ready
 * return, in order, fills its slice (or replies) at once; a fill whose
 * slice's fill port is occupied holds the channel's returns at their head. */
static void l2_returns(struct mem_system *ms)
{
    const struct gpu_config *c = &ms->cfg;
    for (uint32_t i = 0; i < ms->n_ch; i++) {
        struct dram_channel *ch = &ms->ch[i];
        while (ring_ready(&ch->ret, ms->dram_now)) {
            uint32_t q = ring_head(&ch->ret);
            struct mem_req *r = &ms->pool.r[q];
            if (r->kind != MEM_REQ_WRITE && c->l2_enabled && r->l2_route != MEM_L2_BYPASS &&
                ms->l2_now < ms->sub[r->sub].fill_free)
                break; /* its slice's fill port is occupied */
            ring_pop(&ch->ret);
            l2_return(ms, q);
        }
    }
}

void memsys_l2_tick(struct mem_system *ms)
{
    const struct gpu_config *c = &ms->cfg;
    if (ms->sub[0].fillq)
        l2_fill_queues(ms);
    else
        l2_returns(ms);
    for (uint32_t s = 0; s < ms->n_sub; s++) {
        struct l2_sub *sb = &ms->sub[s];
        /* arbiter: every arrived request moves, in order, to its bank queue;
         * a full bank queue blocks the input (head of line) */
        /* requests whose ROP delay is over enter their bank queue, in order */
        /* bypassed reads whose delay is over enter the DRAM queue, in order */
        while (ring_ready(&sb->byp, ms->l2_now)) {
            if (!to_dram(ms, ring_head(&sb->byp), 0))
                break;
            ring_pop(&sb->byp);
        }
        while (ring_ready(&sb->rop, ms->l2_now)) {
            uint32_t q = ring_head(&sb->rop);
            struct idx_ring *bq = &sb->bankq[ms->pool.r[q].l2_bank];
            if (ring_full(bq))
                break;
            ring_pop(&sb->rop);
            ms->pool.r[q].t_l2q = ms->l2_now;
            ring_push(bq, q);
        }
        struct idx_ring *in = &ms->req_net.dst[s].q;
        while (ring_ready(in, ms->icnt_now)) {
            uint32_t q = ring_head(in);
            if (l2_bypassed(ms, sb, &ms->pool.r[q])) {
                if (c->l2_bypass_rop) {
                    ring_push_t(&sb->byp, q, ms->l2_now + c->l2_bypass_rop);
                } else if (!to_dram(ms, q, 0)) {
                    break;
                }
                ring_pop(in);
                ms->st.l2_bypasses++;
                continue;
            }
            if (c->l2_rop_latency) {
                ring_pop(in);
                ring_push_t(&sb->rop, q, ms->l2_now + c->l2_rop_latency);
                continue;
            }
            struct idx_ring *bq = &sb->bankq[ms->pool.r[q].l2_bank];
            if (ring_full(bq))
                break;
            ring_pop(in);
            ms->pool.r[q].t_l2q = ms->l2_now;
            ring_push(bq, q);
        }
        uint32_t first = c->l2_rotate ? (uint32_t)(ms->l2_now % c->l2_banks) : 0;
        int stalled = 0;
        for (uint32_t k = 0; k < c->l2_banks && !stalled; k++) {
            struct idx_ring *bq = &sb->bankq[(first + k) % c->l2_banks];
            for (uint32_t p = 0; p < c->l2_ports && !ring_empty(bq); p++) {
                if (c->l2_reply_queue && sb->out.n >= c->l2_reply_queue) {
                    ms->st.l2_reply_stalls++;
                    stalled = 1;
                    break;
                }
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
