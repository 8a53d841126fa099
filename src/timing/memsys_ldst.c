/* memsys_ldst.c: the per-SM LD/ST unit behind memsys.h: space resolution,
 * coalescing, shared-memory bank conflicts, constant cache, L1D with
 * reserve-on-miss and MSHRs, the miss queue towards the request network,
 * replies from the reply network, and the instruction cache.
 *
 * Modelling choices (documented here, referenced by docs and tests):
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
 * - Texture fetches (tex, tld4; trace space .tex) go through the per-SM
 *   read-only texture cache (tex.*, GPGPU-Sim's L1T) the same way: one
 *   access per distinct line of the lanes' first texels (a linear filter's
 *   other taps are not modelled as separate accesses), misses to the L2,
 *   counted in tex_cache_access/_hit/_miss/_hit_reserved.  With
 *   tex.enabled=0 they are global loads through the L1D.  With tex.nc=1 the
 *   issue stage sends ld.global.nc loads this way too (timing/issue.c).
 * - L1D: set index by l1d.index (cache_set_index); reserve on miss with eviction at
 *   miss time; global stores evict-on-write (write to L2, invalidate on hit),
 *   local stores write back (dirty on hit, write-through on miss), no write
 *   allocate; atomics bypass L1 and execute at L2.  Read misses fetch a whole
 *   line.  Reservation failures stall the unit, which retries next cycle.
 *   A store instruction is done when the unit has sent its requests; with
 *   sm.store_ack each request is also counted pending for its warp slot
 *   until the L2's acknowledgement arrives (memsys_stores_pending; the SM
 *   learns of the last one through memsys_pop_acked).
 *   Counting identity: l1d_accesses = l1d_hits + l1d_misses +
 *   l1d_hit_reserved (failed attempts are not accesses; they are counted in
 *   l1d_reservation_fails).  l1d_hits = intra-warp + inter-warp hits.
 *   Fills deliver data after the L1 hit latency (so an L1 miss that hits L2
 *   costs about L1 + 2 x icnt + L2 latency), or with l1d.latency_on = hits
 *   at once (one cycle), as the CCWS/DAWS simulator's hit queue: only hits
 *   wait l1d.latency there.
 * - Instruction cache: a miss costs a fixed latency of one L2 hit round trip
 *   (2 x icnt_latency + l2 hit latency, converted to core cycles) plus the
 *   L1I hit latency; instruction traffic does not enter the crossbar. */

#include <string.h>

#include "base/log.h"
#include "func/mem.h"
#include "ptx/ir.h"
#include "timing/memsys_int.h"

/* Completions produced by memsys_cycle(t) are seen by the SM at t + 1 (it
 * pops before the memory system steps), so data with latency L is made ready
 * at issue + L - 1 and the SM observes exactly L. */
static uint64_t lat_m1(uint32_t lat) { return lat ? lat - 1u : 0u; }

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
    if (!(sm->fn_kinds >> kind & 1))
        return;
    struct sched_event ev = {.kind = kind, .slot = slot, .pc = pc, .cta = cta, .age = age,
                             .addr = line, .now = now};
    sm->fn(sm->fn_ctx, &ev);
}

/* SCHED_EV_L1D_ACCESS of the current instruction: own_line when the access
 * hit a line the same (dynamic) warp allocated; merged when the line was
 * pending in an MSHR (a read merged into it, or a store).  A load miss probes the lost-locality victim
 * tags. */
static void emit_access(struct sm_mem *sm, uint64_t line, int hit,
                        int is_write, int own, int merged, uint64_t now)
{
    const struct mem_inst *mi = &sm->cur;
    if (!hit && !is_write && lost_locality_miss(&sm->lost, (int32_t)mi->slot, mi->age, line))
        sm->st.l1d_vta_hits++;
    if (!(sm->fn_kinds & SCHED_EV_BIT(SCHED_EV_L1D_ACCESS)))
        return;
    struct sched_event ev = {.kind = SCHED_EV_L1D_ACCESS, .slot = (int32_t)mi->slot,
                             .pc = mi->pc, .cta = mi->cta, .age = mi->age, .addr = line,
                             .hit = (uint8_t)hit, .is_write = (uint8_t)is_write,
                             .own_line = (uint8_t)(hit && own), .merged = (uint8_t)merged,
                             .now = now};
    sm->fn(sm->fn_ctx, &ev);
}

/* ------------------------------------------------------------- LD/ST issue */

int memsys_can_issue(const struct mem_system *ms, uint32_t sm)
{
    const struct sm_mem *m = &ms->sm[sm];
    return m->cur_idx == MEM_REQ_NONE && m->inst_free != MEM_REQ_NONE;
}

/* The distinct 4-byte words of an access, deduplicated through a small
 * open-addressing hash set (256 slots for at most 128 words). */
struct word_set {
    uint64_t used[4];
    uint64_t key[256];
};

/* Add w; 1 if it was new. */
static int word_set_add(struct word_set *ws, uint64_t w)
{
    uint32_t h = (uint32_t)((w * 0x9e3779b97f4a7c15ull) >> 56);
    for (;; h = (h + 1) & 255) {
        if (!(ws->used[h / 64] >> (h % 64) & 1)) {
            ws->used[h / 64] |= 1ull << (h % 64);
            ws->key[h] = w;
            return 1;
        }
        if (ws->key[h] == w)
            return 0;
    }
}

static uint32_t smem_degree(const struct mem_system *ms, const struct mem_inst *mi,
                            const uint64_t *off, uint32_t mask)
{
    uint32_t nw = 0, nb = ms->cfg.smem_banks, size = mi->size ? mi->size : 1;
    if (size <= 4 && nb <= 64 && (nb & (nb - 1)) == 0) {
        /* the common case first: every lane's word in a bank of its own */
        uint64_t banks = 0;
        int fits = 1;
        for (uint32_t l = 0; l < 32; l++)
            if (mask >> l & 1) {
                fits &= off[l] % 4 + size <= 4;
                banks |= 1ull << (off[l] / 4 & (nb - 1));
            }
        if (fits && (uint32_t)__builtin_popcountll(banks) == (uint32_t)__builtin_popcount(mask))
            return 1;
    }
    struct word_set ws;
    memset(ws.used, 0, sizeof ws.used);
    uint32_t count[64] = {0};
    uint32_t degree = 0;
    for (uint32_t l = 0; l < 32; l++) {
        if (!(mask >> l & 1))
            continue;
        for (uint64_t w = off[l] / 4; w <= (off[l] + size - 1) / 4 && nw < 128; w++) {
            if (!word_set_add(&ws, w))
                continue; /* same word: broadcast */
            nw++;
            uint32_t b = (uint32_t)((nb & (nb - 1)) == 0 ? w & (nb - 1) : w % nb) % 64;
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
    sm->retry = RETRY_NONE;

    /* resolve every lane to a space and an in-space offset / physical address */
    uint64_t g[32], lo[32], sh[32], cn[32], tx[32];
    const uint64_t *gl = g, *cl = cn; /* the global and constant lanes' addresses */
    uint32_t mg = 0, ml = 0, msh = 0, mc = 0, mt = 0;
    uint64_t nthreads = (uint64_t)ms->n_sms * c->max_warps_per_sm * 32;
    uint32_t per_lane = 0; /* lanes resolved one by one, below */
    if (mi->space == PTX_SPACE_GLOBAL || (mi->space == PTX_SPACE_TEX && !c->tex_enabled)) {
        gl = mi->addr; /* every lane global, at its own address */
        mg = mi->mask;
    } else if (mi->space == PTX_SPACE_CONST) {
        cl = mi->addr;
        mc = mi->mask;
    } else if (mi->space == PTX_SPACE_SHARED) {
        for (uint32_t l = 0; l < 32; l++)
            sh[l] = mi->addr[l] >= MEM_SHARED_BASE ? mi->addr[l] - MEM_SHARED_BASE : mi->addr[l];
        msh = mi->mask;
    } else if (mi->space == PTX_SPACE_PARAM) {
        for (uint32_t l = 0; l < 32; l++)
            cn[l] = mi->addr[l] >= MEM_PARAM_BASE ? mi->addr[l] : MEM_PARAM_BASE + mi->addr[l];
        mc = mi->mask;
    } else {
        per_lane = mi->mask;
    }
    for (uint32_t left = per_lane; left; left &= left - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(left);
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
        case PTX_SPACE_TEX:
            if (c->tex_enabled) {
                tx[l] = a;
                mt |= 1u << l;
                break;
            }
            g[l] = a;
            mg |= 1u << l;
            break;
        default:
            g[l] = a;
            mg |= 1u << l;
            break;
        }
    }
    in->is_long = (mg | ml | mt) != 0;
    int sect = c->coalesce_sectored != 0;
    uint32_t size = mi->size ? mi->size : 1;
    if (msh) {
        uint32_t d = smem_degree(ms, mi, sh, msh);
        sm->acc[sm->nacc++] =
            (struct ldst_acc){.addr = 0, .bytes = d, .mask = msh, .space = ACC_SHARED};
    }
    if (mg)
        add_coalesced(sm, gl, mg, size, sect || (!c->l1d_enabled && !mi->is_store), ACC_GLOBAL);
    if (ml)
        add_coalesced(sm, lo, ml, size, sect, ACC_LOCAL);
    if ((mg | ml) && (sm->fn_kinds & SCHED_EV_BIT(SCHED_EV_MEM_ISSUE))) {
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
    if (mt) {
        /* one access per distinct texture-cache line */
        for (uint32_t l = 0; l < 32; l++) {
            if (!(mt >> l & 1))
                continue;
            uint64_t line = tx[l] >> ms->l1t_shift << ms->l1t_shift;
            uint32_t k = 0;
            while (k < sm->nacc && !(sm->acc[k].space == ACC_TEX && sm->acc[k].addr == line))
                k++;
            if (k < sm->nacc) {
                sm->acc[k].mask |= 1u << l;
            } else if (sm->nacc < MAX_ACCS) {
                sm->acc[sm->nacc++] = (struct ldst_acc){
                    .addr = line, .bytes = c->l1t.line, .mask = 1u << l, .space = ACC_TEX};
            }
        }
    }
    if (mc) {
        /* one access per distinct constant-cache line (most warps read one) */
        uint32_t l0 = (uint32_t)__builtin_ctz(mc);
        uint64_t line0 = cl[l0] >> ms->l1c_shift, differ = 0;
        for (uint32_t l = l0; l < 32; l++)
            differ |= (mc >> l & 1) ? (cl[l] >> ms->l1c_shift) ^ line0 : 0;
        if (!differ && sm->nacc < MAX_ACCS) {
            sm->acc[sm->nacc++] = (struct ldst_acc){.addr = line0 << ms->l1c_shift,
                                                    .bytes = c->l1c.line, .mask = mc,
                                                    .space = ACC_CONST};
            mc = 0; /* done */
        }
    }
    if (mc) {
        uint64_t last_line = UINT64_MAX;
        uint32_t last_k = 0;
        for (uint32_t l = 0; l < 32; l++) {
            if (!(mc >> l & 1))
                continue;
            uint64_t line = cl[l] >> ms->l1c_shift << ms->l1c_shift;
            uint32_t k = 0;
            if (line == last_line && last_k < sm->nacc)
                k = last_k;
            else
                while (k < sm->nacc &&
                       !(sm->acc[k].space == ACC_CONST && sm->acc[k].addr == line))
                    k++;
            last_line = line;
            last_k = k;
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

static void inst_complete(struct sm_mem *sm, uint32_t idx, uint64_t now)
{
    struct ldst_inst *in = &sm->inst[idx];
    ws_assert(in->used);
    if (in->pending || in->left)
        return;
    if (in->is_load && in->is_long) {
        sm->st.mem_latency_sum += now + 1 - in->t_issue; /* the SM sees it at now + 1 */
        sm->st.mem_latency_count++;
    }
    if (!in->l2_missed && in->l2_hits >= 2) {
        /* all its L2 data hit: the inter-bank divergence penalty (MeDiC Fig. 7) */
        uint64_t d = in->t_hit_last - in->t_hit_first;
        sm->st.l2_hit_divergence_sum += d;
        sm->st.l2_hit_divergence_count++;
        if (d > sm->st.l2_hit_divergence_max)
            sm->st.l2_hit_divergence_max = d;
    }
    ring_push(&sm->done, in->token);
    in->used = 0;
    in->next_free = sm->inst_free;
    sm->inst_free = idx;
    sm->inst_used--;
}

static void inst_data(struct sm_mem *sm, uint32_t idx, uint64_t now)
{
    ws_assert(sm->inst[idx].pending > 0);
    sm->inst[idx].pending--;
    inst_complete(sm, idx, now);
}

static int missq_full(const struct sm_mem *sm) { return sm->missq.n >= sm->missq_size; }

/* The free list the unit allocates from and releases to: its own, or the
 * shared one while the pool is tight (memsys.c, refill_units). */
static struct mem_free *unit_free(struct mem_system *ms, struct sm_mem *sm)
{
    return ms->pool_tight ? &ms->pool.free : &sm->free;
}

/* n requests can be allocated, leaving the L2's and DRAM's reserve.  While
 * the pool is not tight the unit's own list always has them. */
static int pool_ok_sm(const struct mem_system *ms, const struct sm_mem *sm, uint32_t n)
{
    return ms->pool_tight ? ms->pool.free.n >= ms->pool_reserve + n : sm->free.n >= n;
}

/* A read miss served without a cache line (the policy bypasses or refuses
 * to allocate): the data goes straight to the instruction. */
/* Which cache a read goes through (cached_read, uncached_read). */
enum ro_kind { RO_L1C = 0, RO_L1D = 1, RO_L1T = 2 };

/* The access/hit/miss/merge counters of the read-only caches. */
static void ro_count(struct sm_mem *sm, enum ro_kind k, int what)
{
    uint64_t *l1c[4] = {&sm->st.l1c_accesses, &sm->st.l1c_hits, &sm->st.l1c_misses,
                        &sm->st.l1c_hit_reserved};
    uint64_t *l1t[4] = {&sm->st.tex_cache_access, &sm->st.tex_cache_hit,
                        &sm->st.tex_cache_miss, &sm->st.tex_cache_hit_reserved};
    uint64_t **t = k == RO_L1T ? l1t : l1c;
    (*t[0])++;
    (*t[what])++;
}
enum { RO_HIT = 1, RO_MISS = 2, RO_MERGED = 3 };

static void uncached_read(struct mem_system *ms, struct sm_mem *sm, uint64_t line,
                          uint32_t shift, enum ro_kind kind, uint64_t now)
{
    uint32_t q = memsys_new_req(ms, unit_free(ms, sm), &sm->cur, line << shift, 1u << shift, MEM_REQ_READ,
                                MEM_DEST_INST, sm->cur_idx);
    ring_push(&sm->missq, q);
    sm->inst[sm->cur_idx].pending++;
    if (kind == RO_L1D) {
        sm->st.l1d_accesses++;
        sm->st.l1d_misses++;
        sm->st.l1d_tagged_reads += sm->cur.policy_tag != 0;
        emit_access(sm, line, 0, 0, 0, 0, now);
    } else {
        ro_count(sm, kind, RO_MISS);
    }
}

/* A read through a cache with MSHRs (L1D or constant cache).  Returns 1 when
 * the access was handled, 0 on a reservation failure. */
static int cached_read(struct mem_system *ms, struct sm_mem *sm, struct cache *c,
                       struct mshr_table *mt, struct idx_ring *ring, uint32_t hit_lat,
                       uint32_t shift, const struct ldst_acc *a, enum ro_kind kind,
                       uint64_t now)
{
    int is_l1d = kind == RO_L1D;
    /* A retry after a reservation failure: while no reply has reached the
     * unit, the tags and MSHRs are as they were, so the probe would find the
     * same line state and only the failed condition can have changed. */
    if (sm->retry == RETRY_MISS && (mshr_full(mt) || missq_full(sm) || !pool_ok_sm(ms, sm, 2))) {
        if (is_l1d)
            sm->st.l1d_reservation_fails++;
        return 0;
    }
    if (sm->retry == RETRY_MERGE && !mshr_can_merge(mt, sm->retry_mshr)) {
        if (is_l1d)
            sm->st.l1d_reservation_fails++;
        return 0;
    }
    sm->retry = RETRY_NONE;
    const struct mem_inst *mi = &sm->cur;
    uint64_t line = a->addr >> shift;
    uint32_t set = cache_set_index(c, line), way;
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
            sm->st.l1d_accesses++;
            sm->st.l1d_hits++;
            sm->st.l1d_tagged_reads += mi->policy_tag != 0;
            sm->st.l1d_tagged_read_hits += mi->policy_tag != 0;
            int own = c->owner_age[(size_t)set * c->assoc + way] == mi->age;
            if (own)
                sm->st.l1d_intra_warp_hits++;
            else
                sm->st.l1d_inter_warp_hits++;
            emit_access(sm, line, 1, 0, own, 0, now);
        } else {
            ro_count(sm, kind, RO_HIT);
        }
        return 1;
    }
    if (r == CACHE_HIT_RESERVED) {
        int m = mshr_find(mt, line);
        ws_assert(m >= 0);
        if (!mshr_can_merge(mt, (uint32_t)m)) {
            if (is_l1d)
                sm->st.l1d_reservation_fails++;
            sm->retry = RETRY_MERGE;
            sm->retry_mshr = (uint32_t)m;
            return 0;
        }
        mshr_add(mt, (uint32_t)m, sm->cur_idx);
        sm->inst[sm->cur_idx].pending++;
        if (is_l1d) {
            sm->st.l1d_accesses++;
            sm->st.l1d_hit_reserved++;
            sm->st.l1d_tagged_reads += mi->policy_tag != 0;
            emit_access(sm, line, 0, 0, 0, 1, now);
        } else {
            ro_count(sm, kind, RO_MERGED);
        }
        return 1;
    }
    /* miss */
    if (is_l1d && cache_bypass(c, set, &ca)) {
        if (missq_full(sm) || !pool_ok_sm(ms, sm, 1)) {
            sm->st.l1d_reservation_fails++;
            return 0;
        }
        uncached_read(ms, sm, line, shift, RO_L1D, now);
        return 1;
    }
    /* the miss queue physically holds one more entry than its logical size,
     * for the write-back of a dirty victim chosen below */
    if (mshr_full(mt) || missq_full(sm) || !pool_ok_sm(ms, sm, 2)) {
        if (is_l1d)
            sm->st.l1d_reservation_fails++;
        /* with a bypass hook the policy is asked again on every attempt */
        if (!is_l1d || !c->ops->bypass)
            sm->retry = RETRY_MISS;
        return 0;
    }
    struct cache_victim v;
    int ar = cache_allocate(c, set, line << shift, &ca, &way, &v);
    if (ar == CACHE_ALLOC_REFUSED) { /* the policy's partition has no way for it */
        uncached_read(ms, sm, line, shift, kind, now);
        return 1;
    }
    if (ar != 0) {
        if (is_l1d)
            sm->st.l1d_reservation_fails++;
        return 0;
    }
    if (v.valid && is_l1d) {
        sm->st.l1d_evictions++;
        sm->st.l1d_tagged_evictions += v.fill_tag != 0;
        sm->st.l1d_tagged_evictions_unused += v.fill_tag != 0 && !v.reused;
        if (v.owner_slot >= 0)
            emit(sm, SCHED_EV_L1D_EVICT, v.owner_slot, 0, 0, v.owner_age, v.tag >> shift,
                 now);
        if (v.dirty) {
            sm->st.l1d_writebacks++;
            ring_push(&sm->missq,
                      memsys_new_req(ms, unit_free(ms, sm), NULL, v.tag, 1u << shift, MEM_REQ_WRITE,
                                     MEM_DEST_NONE, 0));
        }
    }
    uint32_t m = mshr_alloc(mt, line, way);
    mshr_add(mt, m, sm->cur_idx);
    sm->inst[sm->cur_idx].pending++;
    ring_push(&sm->missq, memsys_new_req(ms, unit_free(ms, sm), mi, line << shift, 1u << shift, MEM_REQ_READ,
                                  is_l1d           ? MEM_DEST_L1D
                                  : kind == RO_L1T ? MEM_DEST_L1T
                                                   : MEM_DEST_L1C,
                                  0));
    if (is_l1d) {
        sm->st.l1d_accesses++;
        sm->st.l1d_misses++;
        sm->st.l1d_tagged_reads += mi->policy_tag != 0;
        emit_access(sm, line, 0, 0, 0, 0, now);
    } else {
        ro_count(sm, kind, RO_MISS);
    }
    return 1;
}

/* The request of a store access; with sm.store_ack the L2 acknowledges it to
 * the warp, which counts it pending until then. */
static uint32_t store_req(struct mem_system *ms, struct sm_mem *sm, const struct ldst_acc *a)
{
    int ack = ms->cfg.store_ack != 0;
    if (ack)
        sm->acks_pending[sm->cur.slot]++;
    return memsys_new_req(ms, unit_free(ms, sm), &sm->cur, a->addr, a->bytes, MEM_REQ_WRITE,
                          ack ? MEM_DEST_ACK : MEM_DEST_NONE, 0);
}

/* Global/local store through the L1D.  Returns 0 on a reservation failure. */
static int l1d_store(struct mem_system *ms, struct sm_mem *sm, const struct ldst_acc *a,
                     uint64_t now)
{
    const struct mem_inst *mi = &sm->cur;
    struct cache *c = &sm->l1d;
    uint32_t shift = ms->l1d_shift;
    uint64_t line = a->addr >> shift;
    uint32_t set = cache_set_index(c, line), way;
    int local = a->space == ACC_LOCAL;
    int r = ms->cfg.l1d_enabled || local ? cache_probe(c, set, line << shift, &way) : CACHE_MISS;
    int need_req = !(local && r == CACHE_HIT);
    if (need_req && (missq_full(sm) || !pool_ok_sm(ms, sm, 1))) {
        sm->st.l1d_reservation_fails++;
        return 0;
    }
    if (!local)
        emit(sm, SCHED_EV_STORE, (int32_t)mi->slot, mi->pc, mi->cta, mi->age, line, now);
    if (!ms->cfg.l1d_enabled && !local) {
        ring_push(&sm->missq, store_req(ms, sm, a));
        return 1;
    }
    struct cache_access ca = {.line_addr = line, .pc = mi->pc, .sm = mi->sm,
                              .warp = (int32_t)mi->slot, .warp_age = mi->age, .is_write = 1,
                              .tag = mi->policy_tag};
    sm->st.l1d_accesses++;
    sm->st.l1d_writes++;
    int own = 0;
    if (r == CACHE_HIT) {
        sm->st.l1d_hits++;
        own = c->owner_age[(size_t)set * c->assoc + way] == mi->age;
        if (own)
            sm->st.l1d_intra_warp_hits++;
        else
            sm->st.l1d_inter_warp_hits++;
        if (local) {
            cache_touch(c, set, way, &ca);
            c->dirty[(size_t)set * c->assoc + way] = 1;
        } else {
            cache_invalidate(c, set, way); /* evict on write */
        }
    } else if (r == CACHE_HIT_RESERVED) {
        sm->st.l1d_hit_reserved++;
    } else {
        sm->st.l1d_misses++;
        sm->st.l1d_write_misses++;
    }
    emit_access(sm, line, r == CACHE_HIT, 1, own, r == CACHE_HIT_RESERVED, now);
    if (need_req)
        ring_push(&sm->missq, store_req(ms, sm, a));
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
        sm->st.smem_accesses++;
        sm->st.smem_cycles += a->bytes;
        sm->busy_until = now + a->bytes;
        if (sm->inst[sm->cur_idx].is_load) {
            ring_push_t(&sm->smem_ring, sm->cur_idx, now + a->bytes - 1 + lat_m1(c->smem_latency));
            sm->inst[sm->cur_idx].pending++;
        }
        return 1;
    case ACC_CONST:
        return cached_read(ms, sm, &sm->l1c, &sm->l1c_mshr, &sm->l1c_ring, c->l1c.hit_latency,
                           ms->l1c_shift, a, RO_L1C, now);
    case ACC_TEX:
        return cached_read(ms, sm, &sm->l1t, &sm->l1t_mshr, &sm->l1t_ring, c->l1t.hit_latency,
                           ms->l1t_shift, a, RO_L1T, now);
    default:
        break;
    }
    if (mi->is_atomic) {
        if (missq_full(sm) || !pool_ok_sm(ms, sm, 1))
            return 0;
        ring_push(&sm->missq, memsys_new_req(ms, unit_free(ms, sm), mi, a->addr, a->bytes, MEM_REQ_ATOMIC,
                                             MEM_DEST_INST, sm->cur_idx));
        sm->inst[sm->cur_idx].pending++;
        return 1;
    }
    if (mi->is_store)
        return l1d_store(ms, sm, a, now);
    if (!c->l1d_enabled && a->space == ACC_GLOBAL) {
        if (missq_full(sm) || !pool_ok_sm(ms, sm, 1))
            return 0;
        ring_push(&sm->missq, memsys_new_req(ms, unit_free(ms, sm), mi, a->addr, a->bytes, MEM_REQ_READ, MEM_DEST_INST,
                                      sm->cur_idx));
        sm->inst[sm->cur_idx].pending++;
        return 1;
    }
    return cached_read(ms, sm, &sm->l1d, &sm->l1d_mshr, &sm->l1_ring, c->l1d.hit_latency,
                       ms->l1d_shift, a, RO_L1D, now);
}

static void ldst_step(struct mem_system *ms, struct sm_mem *sm, uint64_t now)
{
    if (sm->cur_idx == MEM_REQ_NONE)
        return;
    if (sm->pos < sm->nacc) {
        if (now < sm->busy_until || !ldst_access(ms, sm, &sm->acc[sm->pos], now))
            return;
        sm->pos++;
        sm->retry = RETRY_NONE;
    }
    /* free the unit once its last access is done and its busy time ends */
    if (sm->pos == sm->nacc && sm->busy_until <= now + 1) {
        uint32_t idx = sm->cur_idx;
        sm->cur_idx = MEM_REQ_NONE;
        sm->inst[idx].left = 0;
        inst_complete(sm, idx, now);
    }
}

/* Instruction idx gets data from the L2 reply r at core cycle now. */
static void inst_l2_reply(struct sm_mem *sm, uint32_t idx, const struct mem_req *r, uint64_t now)
{
    struct ldst_inst *in = &sm->inst[idx];
    if (!r->l2_hit) {
        in->l2_missed = 1;
        return;
    }
    if (!in->l2_hits++ || now < in->t_hit_first)
        in->t_hit_first = now;
    if (now > in->t_hit_last)
        in->t_hit_last = now;
}

/* A reply arrived at the SM: fill and wake the waiting instructions. */
static int sm_reply(struct mem_system *ms, struct sm_mem *sm, uint32_t q, uint64_t now)
{
    struct mem_req *r = &ms->pool.r[q];
    if (r->dest == MEM_DEST_ACK) {
        if (ring_full(&sm->acked))
            return 0;
        ws_assert(r->slot >= 0 && sm->acks_pending[r->slot] > 0);
        if (--sm->acks_pending[r->slot] == 0)
            ring_push(&sm->acked, (uint32_t)r->slot);
        return 1;
    }
    sm->retry = RETRY_NONE; /* a fill or an MSHR release may change the access */
    if (r->dest == MEM_DEST_INST) {
        inst_l2_reply(sm, r->inst, r, now);
        inst_data(sm, r->inst, now);
        return 1;
    }
    int l1d = r->dest == MEM_DEST_L1D, l1t = r->dest == MEM_DEST_L1T;
    struct cache *c = l1d ? &sm->l1d : l1t ? &sm->l1t : &sm->l1c;
    struct mshr_table *mt = l1d ? &sm->l1d_mshr : l1t ? &sm->l1t_mshr : &sm->l1c_mshr;
    struct idx_ring *ring = l1d ? &sm->l1_ring : l1t ? &sm->l1t_ring : &sm->l1c_ring;
    uint32_t lat = l1t                    ? ms->cfg.l1t.hit_latency
                   : !l1d                 ? ms->cfg.l1c.hit_latency
                   : ms->l1d_fill_at_once ? 1
                                          : ms->cfg.l1d.hit_latency;
    uint32_t shift = l1d ? ms->l1d_shift : l1t ? ms->l1t_shift : ms->l1c_shift;
    uint64_t line = r->addr >> shift;
    int m = mshr_find(mt, line);
    ws_assert(m >= 0);
    if (ring->cap - ring->n < mt->ntargets[m])
        return 0;
    cache_fill(c, cache_set_index(c, line), mt->way[m]);
    for (uint32_t k = 0; k < mt->ntargets[m]; k++) {
        uint32_t t = mt->targets[(size_t)m * mt->max_merge + k];
        inst_l2_reply(sm, t, r, now);
        ring_push_t(ring, t, now + lat_m1(lat));
    }
    mshr_release(mt, (uint32_t)m);
    return 1;
}

void memsys_ldst_cycle(struct mem_system *ms, uint32_t s, uint64_t now)
{
    struct sm_mem *sm = &ms->sm[s];
    struct idx_ring *in = &ms->rep_net.dst[s].q;
    if (!sm->inst_used && ring_empty(in))
        return; /* idle */
    if (ring_ready(in, ms->icnt_now) && sm_reply(ms, sm, ring_head(in), now))
        mem_pool_release(&ms->pool, unit_free(ms, sm), ring_pop(in));
    ldst_step(ms, sm, now);
    /* after the unit: a 1-cycle latency completes within this cycle */
    while (ring_ready(&sm->l1_ring, now))
        inst_data(sm, ring_pop(&sm->l1_ring), now);
    while (ring_ready(&sm->l1c_ring, now))
        inst_data(sm, ring_pop(&sm->l1c_ring), now);
    while (ring_ready(&sm->l1t_ring, now))
        inst_data(sm, ring_pop(&sm->l1t_ring), now);
    while (ring_ready(&sm->smem_ring, now))
        inst_data(sm, ring_pop(&sm->smem_ring), now);
}

int memsys_pop_done(struct mem_system *ms, uint32_t sm, uint32_t *token)
{
    struct idx_ring *d = &ms->sm[sm].done;
    if (ring_empty(d))
        return 0;
    *token = ring_pop(d);
    return 1;
}

int memsys_has_completions(const struct mem_system *ms, uint32_t sm)
{
    return !ring_empty(&ms->sm[sm].done) || !ring_empty(&ms->sm[sm].acked);
}

int memsys_pop_acked(struct mem_system *ms, uint32_t sm, uint32_t *slot)
{
    struct idx_ring *d = &ms->sm[sm].acked;
    if (ring_empty(d))
        return 0;
    *slot = ring_pop(d);
    return 1;
}

int memsys_stores_pending(const struct mem_system *ms, uint32_t sm, uint32_t slot)
{
    return ms->sm[sm].acks_pending[slot] != 0;
}

/* ---------------------------------------------------------- instructions */

int memsys_ifetch(struct mem_system *ms, uint32_t sm, uint64_t addr, uint64_t now,
                  uint64_t *ready_at)
{
    struct sm_mem *m = &ms->sm[sm];
    struct cache *c = &m->l1i;
    uint64_t line = addr >> ms->l1i_shift;
    uint32_t set, way;
    /* the line of the last hit is where it was, and arrived, until the next
     * allocation: no lookup (most fetches follow their predecessor's line) */
    int r = line == m->l1i_last_line ? CACHE_HIT : CACHE_MISS;
    if (r == CACHE_HIT) {
        set = m->l1i_last_set;
        way = m->l1i_last_way;
    } else {
        set = cache_set_index(c, line);
        r = cache_probe(c, set, line << ms->l1i_shift, &way);
    }
    if (r != CACHE_MISS) {
        uint64_t t = m->l1i_ready[(size_t)set * c->assoc + way];
        if (t <= now) {
            m->l1i_accesses++;
            m->l1i_hits++;
            struct cache_access ca = {.line_addr = line, .sm = sm, .warp = -1};
            cache_touch(c, set, way, &ca);
            m->l1i_last_line = line;
            m->l1i_last_set = set;
            m->l1i_last_way = way;
            return 1;
        }
        *ready_at = t; /* the fill is on its way: same miss, not counted again */
        return 0;
    }
    m->l1i_accesses++;
    m->l1i_misses++;
    m->l1i_last_line = UINT64_MAX;
    struct cache_access ca = {.line_addr = line, .sm = sm, .warp = -1};
    struct cache_victim v;
    if (cache_allocate(c, set, line << ms->l1i_shift, &ca, &way, &v) != 0)
        panic("l1i: no way to allocate (lines are filled at once; a policy that refuses "
              "to allocate is for data caches)");
    cache_fill(c, set, way);
    *ready_at = now + ms->l1i_miss_latency;
    m->l1i_ready[(size_t)set * c->assoc + way] = *ready_at;
    return 0;
}

void memsys_l1d_warm(struct mem_system *ms, uint32_t sm, uint64_t addr, int is_write)
{
    if (!ms->cfg.l1d_enabled)
        return;
    struct cache *c = &ms->sm[sm].l1d;
    uint32_t shift = ms->l1d_shift, way;
    uint64_t line = addr >> shift;
    uint32_t set = cache_set_index(c, line);
    struct cache_access ca = {.line_addr = line, .sm = sm, .warp = -1, .is_write = is_write};
    int r = cache_probe(c, set, line << shift, &way);
    if (r == CACHE_HIT_RESERVED)
        return;
    if (is_write) { /* evict on write: a global store invalidates its line */
        if (r == CACHE_HIT)
            cache_invalidate(c, set, way);
        return;
    }
    if (r == CACHE_HIT) {
        cache_touch(c, set, way, &ca);
        return;
    }
    struct cache_victim v;
    if (cache_bypass(c, set, &ca) || cache_allocate(c, set, line << shift, &ca, &way, &v) != 0)
        return;
    cache_fill(c, set, way);
}

void memsys_l1i_warm(struct mem_system *ms, uint32_t sm, uint64_t lo, uint64_t hi)
{
    struct sm_mem *m = &ms->sm[sm];
    struct cache *c = &m->l1i;
    m->l1i_last_line = UINT64_MAX;
    for (uint64_t line = lo >> ms->l1i_shift; line << ms->l1i_shift < hi; line++) {
        uint32_t set = cache_set_index(c, line), way;
        struct cache_access ca = {.line_addr = line, .sm = sm, .warp = -1};
        if (cache_probe(c, set, line << ms->l1i_shift, &way) != CACHE_MISS) {
            cache_touch(c, set, way, &ca);
        } else {
            struct cache_victim v;
            if (cache_allocate(c, set, line << ms->l1i_shift, &ca, &way, &v) != 0)
                continue;
            cache_fill(c, set, way);
        }
        m->l1i_ready[(size_t)set * c->assoc + way] = 0;
    }
}
