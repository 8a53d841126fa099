/* sm.c: one SM of the timing model: warp slots, instruction buffers and
 * fetch, scoreboard checks, scheduler units calling the warp-scheduling
 * policy and handing the picked warp to the issue model (timing/issue.c),
 * policy and classifier events, writeback and memory completions, barrier
 * release and CTA completion (SPEC-policies 1.1). */
#include "timing/sm.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/log.h"
#include "policy/registry.h"
#include "stats/stats.h"
#include "timing/engine.h"
#include "timing/issue.h"

enum sm_class { CLS_ISSUED, CLS_NO_INST, CLS_NOT_READY, CLS_PIPE, CLS_HELD };

static int iclass_is_mem(unsigned c)
{
    return (c >= ICLASS_LOAD_GLOBAL && c <= ICLASS_ATOMIC);
}

/* ---- events to policies ---------------------------------------------------- */

static void unit_event(struct sm *sm, uint32_t unit, struct sched_event *ev)
{
    struct sm_sched_unit *U = &sm->units[unit];
    if (U->ops->events >> ev->kind & 1)
        U->ops->on_event(U->priv, ev);
}

/* An event about SM slot ev->slot (-1: no slot) goes to the classifier with
 * the SM slot, then to the scheduler units: the slot's own unit sees its
 * unit slot; the other units see it (with slot -1) only when `all` is set or
 * the event has no slot. */
static void sm_event(struct sm *sm, struct sched_event *ev, int all)
{
    if (!(sm->ev_kinds >> ev->kind & 1))
        return;
    int known = ev->slot >= 0 && (uint32_t)ev->slot < sm->nslots;
    if (!known)
        ev->slot = -1;
    if (sm->cls_ops->events >> ev->kind & 1)
        sm->cls_ops->on_event(sm->cls_priv, ev);
    if (!known) {
        for (uint32_t u = 0; u < sm->nunits; u++)
            unit_event(sm, u, ev);
        return;
    }
    uint32_t own_unit = (uint32_t)ev->slot % sm->nunits;
    int32_t unit_slot = (int32_t)((uint32_t)ev->slot / sm->nunits);
    if (!all) {
        ev->slot = unit_slot;
        unit_event(sm, own_unit, ev);
        return;
    }
    for (uint32_t u = 0; u < sm->nunits; u++) {
        ev->slot = u == own_unit ? unit_slot : -1;
        unit_event(sm, u, ev);
    }
}

/* Event about the warp in SM slot `slot` (or every unit when slot < 0);
 * ev carries the kind, pc, now and any kind-specific fields. */
void sm_warp_event(struct sm *sm, int32_t slot, struct sched_event *ev)
{
    ev->slot = slot;
    if (slot >= 0) {
        const struct sm_warp *w = &sm->warps[slot];
        ev->cta = w->cta_slot;
        ev->age = w->age;
    }
    sm_event(sm, ev, 0);
}

void sm_slot_event(struct sm *sm, int32_t slot, uint32_t kind, uint32_t pc, uint64_t now)
{
    if (!sm_wants(sm, kind))
        return;
    struct sched_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = kind;
    ev.pc = pc;
    ev.now = now;
    sm_warp_event(sm, slot, &ev);
}

/* Memory-system events carry the SM warp slot; a unit sees its own slot
 * number, or -1 for a warp of another unit.  Stores (and slot-less events)
 * go to every unit. */
static void mem_listener(void *ctx, const struct sched_event *ev)
{
    struct sm *sm = ctx;
    struct sched_event e2 = *ev;
    sm_event(sm, &e2, ev->kind == SCHED_EV_STORE);
}

/* ---- construction ----------------------------------------------------------- */

static void pipe_init(struct sm_pipe *p, uint32_t n, uint32_t lat, uint32_t ii)
{
    p->n = n ? n : 1;
    p->latency = lat ? lat : 1;
    p->ii = ii ? ii : 1;
    p->free_at = xcalloc(p->n, sizeof *p->free_at);
}

/* Latency and II come from the operation's own unit (as GPGPU-Sim's
 * per-opcode latencies); a fallback unit is only the structure. */
static unsigned sm_own_unit(unsigned c)
{
    return c == ICLASS_SFU ? SM_UNIT_SFU
           : c == ICLASS_DP  ? SM_UNIT_DP
           : c == ICLASS_INT ? SM_UNIT_INT
                             : SM_UNIT_SP;
}

void sm_class_latency(const struct gpu_config *cfg, uint32_t *lat)
{
    const uint32_t unit_lat[SM_UNIT_COUNT] = {
        [SM_UNIT_SP] = cfg->sp_latency, [SM_UNIT_SFU] = cfg->sfu_latency,
        [SM_UNIT_DP] = cfg->dp_latency, [SM_UNIT_INT] = cfg->int_latency};
    for (unsigned c = 0; c < ICLASS_COUNT; c++) {
        uint32_t l = unit_lat[sm_own_unit(c)];
        lat[c] = l ? l : 1;
    }
}

int sm_init(struct sm *sm, uint32_t id, const struct gpu_config *cfg, struct mem_system *ms,
            char *priv, size_t priv_stride, void *cls_priv, struct err *e)
{
    memset(sm, 0, sizeof *sm);
    sm->id = id;
    sm->cfg = cfg;
    sm->ms = ms;
    sm->nslots = cfg->max_warps_per_sm ? cfg->max_warps_per_sm : 1;
    sm->nunits = cfg->n_schedulers ? cfg->n_schedulers : 1;
    sm->issue = issue_model_find(cfg->issue_model);
    if (!sm->issue)
        return err_set(e, WS_ERR_INVALID, "sm.issue_model: unknown issue model '%s'",
                       cfg->issue_model);
    if (strcmp(cfg->issue_model, "lwm") == 0)
        sm->lwm = xcalloc(sm->nslots, sizeof *sm->lwm);
    uint32_t per_unit = (sm->nslots + sm->nunits - 1) / sm->nunits;
    if (per_unit > SCHED_MAX_WARPS)
        return err_set(e, WS_ERR_INVALID,
                       "max_warps_per_sm %u with n_schedulers %u gives %u warps per scheduler "
                       "(at most %u)",
                       sm->nslots, sm->nunits, per_unit, SCHED_MAX_WARPS);
    sm->warps = xcalloc(sm->nslots, sizeof *sm->warps);
    sm->slot_unit = xmalloc(sm->nslots);
    sm->slot_index = xmalloc(sm->nslots);
    for (uint32_t s = 0; s < sm->nslots; s++) {
        sm->slot_unit[s] = (uint8_t)(s % sm->nunits);
        sm->slot_index[s] = (uint8_t)(s / sm->nunits);
    }
    sm->dirty_words = (sm->nslots + 63) / 64;
    sm->dirty = xcalloc(sm->dirty_words, sizeof *sm->dirty);
    sm->want_fetch = xcalloc(sm->dirty_words, sizeof *sm->want_fetch);
    sm->fetch_waiting = xcalloc(sm->dirty_words, sizeof *sm->fetch_waiting);
    sm->nctas = cfg->max_ctas_per_sm ? cfg->max_ctas_per_sm : 1;
    sm->ctas = xcalloc(sm->nctas, sizeof *sm->ctas);
    sm->starting = xcalloc(sm->nctas, sizeof *sm->starting);
    sm->fctas = xcalloc(sm->nctas, sizeof *sm->fctas);
    sm->units = xcalloc(sm->nunits, sizeof *sm->units);
    for (uint32_t u = 0; u < sm->nunits; u++) {
        struct sm_sched_unit *U = &sm->units[u];
        struct param_set ps;
        int rc = registry_sched(cfg->sched, &U->ops, &ps, e);
        if (rc != WS_OK)
            return rc;
        ws_assert(U->ops->priv_size <= priv_stride);
        U->priv = priv + (size_t)u * priv_stride;
        uint32_t ns = 0;
        for (uint32_t s = u; s < sm->nslots; s += sm->nunits)
            ns++;
        struct sched_init in = {ns, id, u, sm->nunits};
        if (U->ops->init) {
            rc = U->ops->init(U->priv, &ps, &in, e);
            if (rc != WS_OK)
                return rc;
        }
        U->view.nslots = ns;
        U->view.age = U->age;
        U->view.pc = U->pc;
        U->view.active = U->active;
        U->view.cta = U->cta;
        U->view.last_issued = -1;
        U->last_class = CLS_NO_INST;
    }
    pipe_init(&sm->pipes[SM_UNIT_SP], cfg->sp_units, cfg->sp_latency, cfg->sp_ii);
    pipe_init(&sm->pipes[SM_UNIT_SFU], cfg->sfu_units, cfg->sfu_latency, cfg->sfu_ii);
    pipe_init(&sm->pipes[SM_UNIT_DP], cfg->dp_units, cfg->dp_latency, cfg->dp_ii);
    pipe_init(&sm->pipes[SM_UNIT_INT], cfg->int_units, cfg->int_latency, cfg->int_ii);
    pipe_init(&sm->pipes[SM_UNIT_MEM], 1, 1, 1);
    for (unsigned c = 0; c < ICLASS_COUNT; c++) {
        uint8_t u = SM_UNIT_SP;
        if (c == ICLASS_SFU)
            u = SM_UNIT_SFU;
        else if (c == ICLASS_DP)
            u = cfg->dp_units ? SM_UNIT_DP : SM_UNIT_SFU;
        else if (c == ICLASS_INT)
            u = cfg->int_units ? SM_UNIT_INT : SM_UNIT_SP;
        else if (iclass_is_mem(c))
            u = SM_UNIT_MEM;
        sm->unit_map[c] = u;
        sm->cls_ii[c] = sm->pipes[sm_own_unit(c)].ii;
    }
    sm_class_latency(cfg, sm->cls_latency);
    uint32_t maxlat = 2;
    for (int u = 0; u < SM_UNIT_COUNT; u++)
        if (sm->pipes[u].latency + 2 > maxlat)
            maxlat = sm->pipes[u].latency + 2;
    sm->wheel_size = 4;
    while (sm->wheel_size <= maxlat)
        sm->wheel_size *= 2;
    sm->wheel = xcalloc(sm->wheel_size, sizeof *sm->wheel);
    /* a bucket receives at most one cycle's issues per distinct latency:
     * sized so that it never grows in the cycle loop */
    size_t per_cycle = (size_t)sm->nunits * SM_UNIT_COUNT *
                       (cfg->max_issue_per_warp ? cfg->max_issue_per_warp : 1);
    for (uint32_t i = 0; i < sm->wheel_size; i++) {
        sm->wheel[i].cap = per_cycle;
        sm->wheel[i].e = xcalloc(per_cycle, sizeof *sm->wheel[i].e);
    }
    sm->ntok = sm->nslots * 4;
    sm->tok = xcalloc(sm->ntok, sizeof *sm->tok);
    for (uint32_t i = 0; i < sm->ntok; i++)
        sm->tok[i].next_free = i + 1;
    sm->tok_free = 0;
    sm->board.n_units = sm->nunits;
    sm->board.tag = xcalloc((size_t)sm->nunits * SCHED_MAX_WARPS, sizeof *sm->board.tag);
    sm->board.score = xcalloc((size_t)sm->nunits * SCHED_MAX_WARPS, sizeof *sm->board.score);
    for (uint32_t u = 0; u < sm->nunits; u++) {
        sm->units[u].view.warp_tag = sm->board.tag + (size_t)u * SCHED_MAX_WARPS;
        sm->units[u].view.warp_score = sm->board.score + (size_t)u * SCHED_MAX_WARPS;
    }
    struct param_set ps;
    int rc = registry_classify(cfg->classifier, &sm->cls_ops, &ps, e);
    if (rc != WS_OK)
        return rc;
    sm->cls_priv = cls_priv;
    struct classify_init cin = {sm->nslots, id, sm->nunits, &sm->board};
    if (sm->cls_ops->init) {
        rc = sm->cls_ops->init(sm->cls_priv, &ps, &cin, e);
        if (rc != WS_OK)
            return rc;
    }
    sm->ev_kinds = sm->cls_ops->on_event ? sm->cls_ops->events : 0;
    for (uint32_t u = 0; u < sm->nunits; u++)
        sm->ev_kinds |= sm->units[u].ops->on_event ? sm->units[u].ops->events : 0;
    memsys_set_listener(ms, id, mem_listener, sm, sm->ev_kinds);
    return WS_OK;
}

void sm_fini(struct sm *sm)
{
    if (sm->lwm)
        for (uint32_t s = 0; s < sm->nslots; s++) {
            func_wide_fini(&sm->lwm[s].ww);
            free(sm->lwm[s].loads);
        }
    free(sm->lwm);
    free(sm->units);
    free(sm->board.tag);
    free(sm->board.score);
    free(sm->scratch);
    for (int u = 0; u < SM_UNIT_COUNT; u++)
        free(sm->pipes[u].free_at);
    if (sm->wheel)
        for (uint32_t i = 0; i < sm->wheel_size; i++)
            free(sm->wheel[i].e);
    free(sm->wheel);
    free(sm->tok);
    if (sm->fctas)
        for (uint32_t i = 0; i < sm->nctas; i++)
            func_cta_fini(&sm->fctas[i]);
    free(sm->fctas);
    free(sm->ctas);
    free(sm->starting);
    free(sm->warps);
    free(sm->slot_unit);
    free(sm->slot_index);
    free(sm->dirty);
    free(sm->want_fetch);
    free(sm->fetch_waiting);
    scoreboard_fini(&sm->sb);
    memset(sm, 0, sizeof *sm);
}

/* Per-kernel scratch bytes of one policy instance, rounded up for alignment. */
static size_t scratch_bytes(size_t n)
{
    size_t align = _Alignof(max_align_t);
    return (n + align - 1) / align * align;
}

/* Size, allocate (zeroed, reused across kernels) and hand out the policies'
 * per-kernel scratch areas: the classifier's and one per scheduler unit. */
static void kernel_scratch(struct sm *sm)
{
    const struct sched_kernel *k = &sm->kinfo;
    sm->cls_kinfo = *k;
    sm->cls_kinfo.scratch_size =
        sm->cls_ops->kernel_scratch ? sm->cls_ops->kernel_scratch(sm->cls_priv, k) : 0;
    size_t total = scratch_bytes(sm->cls_kinfo.scratch_size);
    for (uint32_t u = 0; u < sm->nunits; u++) {
        struct sm_sched_unit *U = &sm->units[u];
        U->kinfo = *k;
        U->kinfo.scratch_size = U->ops->kernel_scratch ? U->ops->kernel_scratch(U->priv, k) : 0;
        total += scratch_bytes(U->kinfo.scratch_size);
    }
    if (total > sm->scratch_cap) {
        free(sm->scratch);
        sm->scratch = xmalloc(total);
        sm->scratch_cap = total;
    }
    if (total)
        memset(sm->scratch, 0, total);
    /* offsets, not pointer arithmetic: sm->scratch is NULL while no policy
     * has asked for scratch */
    size_t at = 0;
    sm->cls_kinfo.scratch = sm->cls_kinfo.scratch_size ? sm->scratch + at : NULL;
    at += scratch_bytes(sm->cls_kinfo.scratch_size);
    for (uint32_t u = 0; u < sm->nunits; u++) {
        struct sm_sched_unit *U = &sm->units[u];
        U->kinfo.scratch = U->kinfo.scratch_size ? sm->scratch + at : NULL;
        at += scratch_bytes(U->kinfo.scratch_size);
    }
}

void sm_launch_begin(struct sm *sm, struct timing_launch *L, uint32_t nregs, uint64_t now)
{
    sm->L = L;
    sm->nstarting = 0;
    scoreboard_init(&sm->sb, sm->nslots, nregs);
    for (uint32_t u = 0; u < sm->nunits; u++) {
        struct sm_sched_unit *U = &sm->units[u];
        U->view.pcinfo = L->an->pc;
        U->view.last_issued = -1;
    }
    sm->kinfo = (struct sched_kernel){
        .name = L->m->funcs[L->k->func].name,
        .func = L->k->func,
        .m = L->m,
        .an = L->an,
        .l1d_lines = sm->cfg->l1d.sets * sm->cfg->l1d.assoc,
        .class_latency = sm->cls_latency,
        .phase = L->phase,
        .path = L->path,
    };
    kernel_scratch(sm);
    struct sched_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = SCHED_EV_KERNEL_START;
    ev.slot = -1;
    ev.kernel = &sm->cls_kinfo;
    ev.now = now;
    if (sm->cls_ops->events >> ev.kind & 1)
        sm->cls_ops->on_event(sm->cls_priv, &ev);
    for (uint32_t u = 0; u < sm->nunits; u++) {
        ev.kernel = &sm->units[u].kinfo;
        unit_event(sm, u, &ev);
    }
}

/* ---- warp state --------------------------------------------------------------- */

static inline uint32_t s_of(const struct sm *sm, const struct sm_warp *w)
{
    return (uint32_t)(w - sm->warps);
}

static inline void mark_dirty(struct sm *sm, uint32_t slot)
{
    sm->dirty[slot / 64] |= 1ull << (slot % 64);
}

/* The host memory the next functional step of (non-large) warp w reads
 * first, r being the registers of its next instruction: its functional
 * state, the top of its SIMT stack and the registers the instruction reads
 * and writes (32 lanes of 8 bytes, four cache lines each).  Fetched when the
 * warp becomes ready, so that the step that issues it does not wait on them:
 * hundreds of warps' register files do not fit the host's caches. */
static void prefetch_step(const struct sm_warp *w, const struct sb_inst_regs *r)
{
    __builtin_prefetch(w->fw);
    if (w->fpc == PC_EXIT || !w->fregs)
        return;
    __builtin_prefetch(w->ftop);
    for (unsigned k = 0; k < r->nread; k++)
        for (unsigned q = 0; q < FUNC_WARP_SIZE; q += 8)
            __builtin_prefetch(w->fregs + (size_t)w->fslot[r->read[k]] * FUNC_WARP_SIZE + q, 0);
    for (unsigned k = 0; k < r->nwrite; k++)
        for (unsigned q = 0; q < FUNC_WARP_SIZE; q += 8)
            __builtin_prefetch(w->fregs + (size_t)w->fslot[r->write[k]] * FUNC_WARP_SIZE + q, 1);
}

/* The bits of slot (bit `bit` of unit U) that follow from its instruction
 * buffer and hazards, its next instruction being pc of class ic: want_fetch,
 * has_inst and can_issue, set where they hold (the caller cleared them). */
static void refresh_buffer(struct sm *sm, uint32_t slot, const struct sm_warp *w,
                           struct sm_sched_unit *U, uint64_t bit, uint32_t pc, unsigned ic)
{
    const struct timing_launch *L = sm->L;
    if (w->ib_n < (sm->cfg->ibuffer_entries ? sm->cfg->ibuffer_entries : 1) &&
        w->ib_pc != PC_EXIT)
        sm->want_fetch[slot / 64] |= 1ull << (slot % 64);
    if (w->ib_n == 0 || w->ib_pc != pc)
        return;
    U->has_inst |= bit;
    if (w->at_bar)
        return;
    if (ic == ICLASS_MEMBAR &&
        (w->pend_stores > 0 || memsys_stores_pending(sm->ms, sm->id, slot)))
        return;
    /* a large warp checks its rows' scoreboards itself */
    if (w->lw ? !issue_lwm_ready(sm, slot, sm->now)
              : scoreboard_hazard(&sm->sb, slot, &L->regs[pc]))
        return;
    /* barrel processing: no result of the warp may be in flight (a store
     * completes when the LD/ST unit takes it, as a large warp's) */
    if (!w->lw && sm->cfg->barrel && (w->pend_wb || w->pend_mem > w->pend_stores))
        return;
    U->can_issue |= bit;
    if (!w->lw)
        prefetch_step(w, &L->regs[pc]);
}

/* Recompute the ready bits of one slot from its state. */
void sm_warp_refresh(struct sm *sm, uint32_t slot)
{
    struct sm_warp *w = &sm->warps[slot];
    struct sm_sched_unit *U = &sm->units[sm->slot_unit[slot]];
    uint32_t i = sm->slot_index[slot];
    uint64_t bit = 1ull << i, keep = ~bit;
    struct sched_view *v = &U->view;
    sm->dirty[slot / 64] &= ~(1ull << (slot % 64));
    sm->want_fetch[slot / 64] &= ~(1ull << (slot % 64));
    v->valid &= keep;
    v->next_is_load &= keep;
    v->next_is_mem &= keep;
    v->long_op_pending &= keep;
    v->next_waits_long &= keep;
    v->at_barrier &= keep;
    U->has_inst &= keep;
    U->can_issue &= keep;
    for (int u = 0; u < SM_UNIT_COUNT; u++)
        U->unit_mask[u] &= keep;
    if (!w->valid || w->done || w->absorbed)
        return;
    v->valid |= bit;
    if (w->lw ? issue_lwm_has_long(sm, slot) : scoreboard_has_long(&sm->sb, slot))
        v->long_op_pending |= bit;
    if (w->at_bar)
        v->at_barrier |= bit;
    uint32_t active;
    uint32_t pc = sm_warp_next_pc(w, &active);
    if (pc == PC_EXIT)
        return;
    U->pc[i] = pc;
    U->active[i] = active;
    const struct timing_launch *L = sm->L;
    unsigned ic = L->an->pc[pc].iclass;
    if (iclass_is_mem(ic)) {
        v->next_is_mem |= bit;
        if (ic == ICLASS_LOAD_GLOBAL || ic == ICLASS_LOAD_LOCAL)
            v->next_is_load |= bit;
    }
    U->unit_mask[sm->unit_map[ic]] |= bit;
    if (w->lw ? issue_lwm_waits_long(sm, slot, pc)
              : scoreboard_long_hazard(&sm->sb, slot, &L->regs[pc]))
        v->next_waits_long |= bit;
    refresh_buffer(sm, slot, w, U, bit, pc, ic);
}

#ifndef NDEBUG
/* Debug builds: the ready bits of a slot that is not marked dirty must be
 * what a full refresh gives (it then replaces them, so a debug build
 * behaves as the full refresh would).  Called where the incremental update
 * stands in for the full one. */
static void check_ready_bits(struct sm *sm, uint32_t slot)
{
    if (sm->dirty[slot / 64] >> (slot % 64) & 1)
        return;
    struct sm_sched_unit *U = &sm->units[sm->slot_unit[slot]];
    uint32_t i = sm->slot_index[slot];
    uint64_t bit = 1ull << i;
    const struct sched_view *v = &U->view;
    uint64_t bits[8 + SM_UNIT_COUNT], now_bits[8 + SM_UNIT_COUNT];
    for (int pass = 0; pass < 2; pass++) {
        uint64_t *b = pass ? now_bits : bits;
        b[0] = v->valid & bit;
        b[1] = v->next_is_load & bit;
        b[2] = v->next_is_mem & bit;
        b[3] = (v->long_op_pending & bit) | (v->next_waits_long & bit) << 1;
        b[4] = v->at_barrier & bit;
        b[5] = (U->has_inst & bit) | (U->can_issue & bit) << 1;
        b[6] = sm->want_fetch[slot / 64] >> (slot % 64) & 1;
        b[7] = (uint64_t)U->pc[i] << 32 | U->active[i];
        for (int u = 0; u < SM_UNIT_COUNT; u++)
            b[8 + u] = U->unit_mask[u] & bit;
        if (!pass)
            sm_warp_refresh(sm, slot);
    }
    for (int k = 0; k < 8 + SM_UNIT_COUNT; k++)
        if (bits[k] != now_bits[k])
            panic("SM %u slot %u: incremental ready bits differ from a full refresh (word %d: "
                  "%#llx, full %#llx)",
                  sm->id, slot, k, (unsigned long long)bits[k], (unsigned long long)now_bits[k]);
}
#else
static inline void check_ready_bits(struct sm *sm, uint32_t slot)
{
    (void)sm;
    (void)slot;
}
#endif

/* What sm_warp_refresh would give after a change to a (non-large) warp's
 * instruction buffer (a fetch) or a release of short-latency registers,
 * the rest of its state as at its last refresh: only want_fetch, has_inst
 * and can_issue can change.  A slot marked dirty is left to its full
 * refresh.  This rests on two facts a change elsewhere must keep (or mark
 * the slot dirty instead): a plain warp's ready bits depend neither on the
 * cycle nor on other warps, and a short result's register never carries a
 * long-latency mark (an instruction issues only when none of its
 * destinations is pending). */
static void refresh_buffer_update(struct sm *sm, uint32_t slot)
{
    struct sm_warp *w = &sm->warps[slot];
    struct sm_sched_unit *U = &sm->units[sm->slot_unit[slot]];
    uint64_t bit = 1ull << sm->slot_index[slot];
    uint32_t active;
    uint32_t pc = sm_warp_next_pc(w, &active);
    if (!(U->view.valid & bit) || pc == PC_EXIT)
        return; /* no such bit set, none to set */
    sm->want_fetch[slot / 64] &= ~(1ull << (slot % 64));
    U->has_inst &= ~bit;
    U->can_issue &= ~bit;
    refresh_buffer(sm, slot, w, U, bit, pc, sm->L->an->pc[pc].iclass);
}

static void refresh_buffer_only(struct sm *sm, uint32_t slot)
{
    if (sm->dirty[slot / 64] >> (slot % 64) & 1)
        return;
    refresh_buffer_update(sm, slot);
    check_ready_bits(sm, slot);
}

static void cta_complete(struct sm *sm, uint32_t cs, uint64_t now)
{
    struct sm_cta *c = &sm->ctas[cs];
    uint64_t span = c->last_finish - c->first_finish;
    uint64_t total = c->last_finish - c->start;
    uint64_t ppm = total ? span * 1000000u / total : 0;
    sm->c.cta_disparity_sum_ppm += ppm;
    if (ppm > sm->c.cta_disparity_max_ppm)
        sm->c.cta_disparity_max_ppm = ppm;
    sm->c.ctas_done++;
    sm->used_threads -= c->threads;
    sm->used_regs -= c->regs;
    sm->used_shared -= c->shared;
    if (--sm->used_ctas == 0) /* busy through this cycle */
        sm->c.busy_cycles += now + 1 - sm->busy_since;
    c->used = 0;
}

void sm_warp_free_finished(struct sm *sm, uint32_t slot, uint64_t now)
{
    struct sm_warp *w = &sm->warps[slot];
    if (w->pend_wb || w->pend_mem || memsys_stores_pending(sm->ms, sm->id, slot))
        return;
    struct sm_cta *c = &sm->ctas[w->cta_slot];
    w->valid = 0;
    uint32_t rows = 0, rs[FUNC_WIDE_MAX_ROWS];
    if (w->lw) {
        /* a large warp: its other rows' slots go with it */
        rows = w->lw->ww.rows;
        memcpy(rs, w->lw->row_slot, sizeof rs);
        func_wide_fini(&w->lw->ww);
        w->lw->nloads = 0;
        w->lw = NULL;
    }
    scoreboard_clear_warp(&sm->sb, slot);
    sm_warp_refresh(sm, slot);
    sm->used_warps--;
    sm->c.active_warps--;
    if (--c->warps_left == 0)
        cta_complete(sm, w->cta_slot, now);
    for (uint32_t r = 1; r < rows; r++)
        sm_warp_try_free(sm, rs[r], now);
}

/* ---- CTA launch ----------------------------------------------------------------- */

int sm_cta_fits(const struct sm *sm, uint32_t threads, uint32_t warps, uint32_t regs,
                uint32_t shared)
{
    const struct gpu_config *cfg = sm->cfg;
    return sm->used_ctas < sm->nctas && sm->used_warps + warps <= sm->nslots &&
           sm->used_threads + threads <= cfg->max_threads_per_sm &&
           sm->used_regs + regs <= cfg->regs_per_sm &&
           sm->used_shared + shared <= cfg->shared_per_sm;
}

void sm_cta_launch(struct sm *sm, uint32_t linear, uint32_t regs, uint32_t shared,
                   uint64_t now)
{
    struct timing_launch *L = sm->L;
    uint32_t cs = 0;
    while (cs < sm->nctas && sm->ctas[cs].used)
        cs++;
    ws_assert(cs < sm->nctas);
    struct sm_cta *c = &sm->ctas[cs];
    memset(c, 0, sizeof *c);
    c->used = 1;
    c->linear = linear;
    c->nwarps = c->warps_left = L->k->warps_per_cta;
    c->threads = L->k->threads_per_cta;
    c->regs = regs;
    c->shared = shared;
    c->start = now;
    c->bar_event = now;
    c->first_finish = UINT64_MAX;
    if (sm->used_ctas++ == 0)
        sm->busy_since = now;
    sm->used_threads += c->threads;
    sm->used_regs += regs;
    sm->used_shared += shared;
    sm->used_warps += c->nwarps;
    struct func_stats *fs = L->k->env->stats;
    fs->ctas_launched++;
    fs->warps_launched += c->nwarps;
    sm->starting[sm->nstarting++] = cs;
}

/* Build the warps of CTA slot cs, which sm_cta_launch placed (sm_cycle,
 * cycle sm->now). */
static void cta_start(struct sm *sm, uint32_t cs)
{
    struct timing_launch *L = sm->L;
    struct sm_cta *c = &sm->ctas[cs];
    struct func_cta *fc = &sm->fctas[cs];
    func_cta_init(fc, L->k, c->linear);
    uint64_t now = sm->now;
    uint32_t slot = 0;
    for (uint32_t wi = 0; wi < fc->nwarps; wi++) {
        while (slot < sm->nslots && sm->warps[slot].valid)
            slot++;
        ws_assert(slot < sm->nslots);
        struct sm_warp *w = &sm->warps[slot];
        memset(w, 0, sizeof *w);
        sm_set_fetch_wait(sm, slot, 0);
        w->valid = 1;
        w->cta = fc;
        w->fw = &fc->warps[wi];
        w->cta_slot = cs;
        w->age = sm->next_age++;
        w->issued_cycle = UINT64_MAX;
        if (sm->lwm)
            issue_lwm_group(sm, slot, wi);
        sm_warp_sync(w);
        uint32_t act;
        w->ib_pc = sm_warp_next_pc(w, &act);
        struct sm_sched_unit *U = &sm->units[slot % sm->nunits];
        U->age[slot / sm->nunits] = w->age;
        U->cta[slot / sm->nunits] = cs;
        scoreboard_clear_warp(&sm->sb, slot);
        sm_warp_refresh(sm, slot);
        sm->c.active_warps++;
        if (!w->absorbed) {
            struct sched_event lev;
            memset(&lev, 0, sizeof lev);
            lev.kind = SCHED_EV_WARP_LAUNCH;
            lev.pc = w->ib_pc;
            lev.now = now;
            lev.cta_id = c->linear;
            lev.warp_in_cta = wi;
            sm_warp_event(sm, (int32_t)slot, &lev);
        }
    }
}

int sm_busy(const struct sm *sm)
{
    return sm->used_ctas != 0;
}

/* ---- writeback wheel and memory completions -------------------------------------- */

static void writebacks(struct sm *sm, uint64_t now)
{
    struct sm_wheel_bucket *b = &sm->wheel[now & (sm->wheel_size - 1)];
    for (size_t i = 0; i < b->n; i++) {
        struct sm_wb *x = &b->e[i];
        struct sm_warp *w = &sm->warps[x->slot];
        if (x->kind == SM_WB_WAKE) {
            mark_dirty(sm, x->slot);
            continue;
        }
        w->pend_wb--;
        sm->c.alu_inflight--;
        if (x->kind == SM_WB_RELEASE) {
            scoreboard_release(&sm->sb, x->slot, &sm->L->regs[x->pc]);
            /* a short result's release touches no long-latency register:
             * only the hazards of the buffered instruction can clear, and
             * none is left where the warp could issue already */
            if (!(sm->units[sm->slot_unit[x->slot]].can_issue >> sm->slot_index[x->slot] & 1))
                refresh_buffer_only(sm, x->slot);
            else
                check_ready_bits(sm, x->slot);
        } else {
            mark_dirty(sm, s_of(sm, w));
        }
        sm_warp_try_free(sm, x->slot, now);
        sm->progressed = 1;
    }
    sm->wheel_pending -= b->n;
    b->n = 0;
}

static void mem_completions(struct sm *sm, uint64_t now)
{
    uint32_t token;
    while (memsys_pop_done(sm->ms, sm->id, &token)) {
        ws_assert(token < sm->ntok && sm->tok[token].used);
        struct sm_memtok *t = &sm->tok[token];
        struct sm_warp *w = &sm->warps[t->slot];
        if (t->lwm && !t->is_store)
            issue_lwm_load_done(sm, t->slot, t->pc, t->rows);
        else if (!t->is_store)
            scoreboard_release(&sm->sb, t->slot, &sm->L->regs[t->pc]);
        else
            w->pend_stores--;
        w->pend_mem--;
        sm->c.mem_inflight--;
        mark_dirty(sm, s_of(sm, w));
        if (t->is_long)
            sm_slot_event(sm, (int32_t)t->slot, SCHED_EV_LOAD_DONE, t->pc, now);
        uint32_t slot = t->slot;
        t->used = 0;
        t->next_free = sm->tok_free;
        sm->tok_free = token;
        sm_warp_try_free(sm, slot, now);
        sm->progressed = 1;
    }
    uint32_t slot;
    while (memsys_pop_acked(sm->ms, sm->id, &slot)) {
        mark_dirty(sm, s_of(sm, &sm->warps[slot]));
        sm_warp_try_free(sm, slot, now);
        sm->progressed = 1;
    }
}

/* ---- barriers and scheduler units ------------------------------------------------------ */

/* After warp activity in a CTA, wake warps released from a barrier. */
void sm_barrier_scan(struct sm *sm, uint32_t cta_slot, uint64_t now)
{
    int released = 0;
    sm->ctas[cta_slot].bar_event = now;
    for (uint32_t s = 0; s < sm->nslots; s++) {
        struct sm_warp *w = &sm->warps[s];
        if (w->valid && w->cta_slot == cta_slot && w->at_bar &&
            (w->lw ? func_wide_state(&w->lw->ww) : w->fw->state) != FUNC_WARP_AT_BARRIER) {
            w->at_bar = 0;
            mark_dirty(sm, s_of(sm, w));
            released = 1;
        }
    }
    if (released) {
        struct sched_event ev;
        memset(&ev, 0, sizeof ev);
        ev.kind = SCHED_EV_BARRIER_RELEASE;
        ev.slot = -1;
        ev.cta = cta_slot;
        ev.now = now;
        sm_event(sm, &ev, 1);
    }
}

/* Can execution unit u (enum sm_unit) take an instruction this cycle? */
static int unit_free(struct sm *sm, int u, uint64_t now)
{
    if (u == SM_UNIT_MEM)
        return sm->ldst_used < (sm->cfg->ldst_units ? sm->cfg->ldst_units : 1) &&
               memsys_can_issue(sm->ms, sm->id);
    return sm_pipe_free(&sm->pipes[u], now) >= 0;
}

static uint64_t unit_ready(struct sm *sm, struct sm_sched_unit *U, uint64_t now)
{
    uint64_t ready = 0;
    for (int u = 0; u < SM_UNIT_COUNT; u++) {
        uint64_t m = U->can_issue & U->unit_mask[u];
        if (m && unit_free(sm, u, now))
            ready |= m;
    }
    return ready;
}

/* Is scheduler slot i of U ready (unit_ready's bit i), after an issue? */
static int slot_ready(struct sm *sm, struct sm_sched_unit *U, uint32_t i, uint64_t now)
{
    uint64_t bit = 1ull << i;
    if (!(U->can_issue & bit))
        return 0;
    for (int u = 0; u < SM_UNIT_COUNT; u++)
        if (U->unit_mask[u] & bit)
            return unit_free(sm, u, now);
    return 0;
}

static void classify(struct sm *sm, struct sm_sched_unit *U, int cls, uint64_t n)
{
    U->last_class = cls;
    sm->c.sched_cycles += n;
    switch (cls) {
    case CLS_ISSUED: sm->c.sched_issued += n; break;
    case CLS_NO_INST: sm->c.sched_idle_no_inst += n; break;
    case CLS_NOT_READY: sm->c.sched_not_ready += n; break;
    case CLS_PIPE: sm->c.sched_pipe_stall += n; break;
    default: sm->c.sched_held_back += n; break;
    }
    /* the large-warp slides' "all warps stalled", as two_level_fg tests it */
    const struct sched_view *v = &U->view;
    if (cls != CLS_ISSUED && v->valid && !(v->valid & ~(v->long_op_pending | v->at_barrier)))
        sm->c.sched_all_stalled += n;
}

static int unit_cycle(struct sm *sm, uint32_t u, uint64_t now, struct err *e)
{
    struct sm_sched_unit *U = &sm->units[u];
    U->view.now = now;
    int cooling = now < U->next_issue;
    uint64_t ready = cooling ? 0 : unit_ready(sm, U, now);
    if (!ready) {
        int cls = !(U->has_inst & U->view.valid) ? CLS_NO_INST
                  : !U->can_issue                ? CLS_NOT_READY
                                                 : CLS_PIPE;
        classify(sm, U, cls, 1);
        return WS_OK;
    }
    U->view.ready = ready;
    /* issue model lwm: the large warp whose instruction the scheduler last
     * chose keeps issuing its sub-warps, one per cycle, while it can (the
     * instruction sits in the sub-warping stage; issue_lwm.c); the policy
     * chooses the next large-warp instruction */
    int last = U->view.last_issued;
    int pick = last >= 0 && (ready >> last & 1) &&
                       sm->warps[(uint32_t)last * sm->nunits + u].lw &&
                       sm->warps[(uint32_t)last * sm->nunits + u].lw->ww.in_flight
                   ? last
                   : U->ops->pick(U->priv, &U->view);
    if (pick < 0) {
        classify(sm, U, CLS_HELD, 1);
        return WS_OK;
    }
    if ((uint32_t)pick >= U->view.nslots || !(ready & (1ull << pick)))
        panic("scheduler '%s' picked slot %d which is not ready", U->ops->name, pick);
    uint32_t slot = (uint32_t)pick * sm->nunits + u;
    uint32_t max = sm->cfg->max_issue_per_warp ? sm->cfg->max_issue_per_warp : 1;
    for (uint32_t n = 0; n < max; n++) {
        int rc = sm->issue->issue(sm, slot, now, e);
        if (rc != WS_OK)
            return rc;
        if (n + 1 < max && !slot_ready(sm, U, (uint32_t)pick, now))
            break;
    }
    U->view.last_issued = pick;
    U->next_issue = now + (sm->cfg->issue_interval ? sm->cfg->issue_interval : 1);
    classify(sm, U, CLS_ISSUED, 1);
    return WS_OK;
}

/* ---- fetch -------------------------------------------------------------------------- */

/* Next slot at or after `from` (wrapping) whose bit is set in `set`, or -1. */
static int next_set(const uint64_t *set, uint32_t words, uint32_t nslots, uint32_t from)
{
    for (uint32_t pass = 0; pass < 2; pass++) {
        uint32_t start = pass ? 0 : from;
        uint32_t end = pass ? from : nslots;
        for (uint32_t wd = start / 64; wd < words && wd * 64 < end; wd++) {
            uint64_t m = set[wd];
            if (wd == start / 64)
                m &= ~0ull << (start % 64);
            if (!m)
                continue;
            uint32_t s = wd * 64 + (uint32_t)__builtin_ctzll(m);
            if (s < end)
                return (int)s;
        }
    }
    return -1;
}

static void fetch(struct sm *sm, uint64_t now)
{
    uint32_t cap = sm->cfg->ibuffer_entries ? sm->cfg->ibuffer_entries : 1;
    uint32_t from = sm->fetch_rr;
    for (uint32_t tries = 0; tries < sm->nslots; tries++) {
        int si = next_set(sm->want_fetch, sm->dirty_words, sm->nslots, from);
        if (si < 0)
            return;
        uint32_t s = (uint32_t)si;
        struct sm_warp *w = &sm->warps[s];
        from = s + 1 < sm->nslots ? s + 1 : 0;
        if (w->ib_n >= cap || (w->fetch_wait && now < w->fetch_ready_at)) {
            if (from == sm->fetch_rr)
                return;
            continue;
        }
        uint64_t ready_at = now;
        uint64_t addr = (uint64_t)(w->ib_pc + w->ib_n) * 8u;
        sm->fetch_rr = from;
        sm->progressed = 1;
        if (w->fetch_wait || memsys_ifetch(sm->ms, sm->id, addr, now, &ready_at)) {
            sm_set_fetch_wait(sm, s, 0);
            w->ib_n = cap;
            if (w->lw)
                mark_dirty(sm, s);
            else
                refresh_buffer_only(sm, s);
        } else {
            sm->c.ifetch_miss++;
            sm_set_fetch_wait(sm, s, 1);
            w->fetch_ready_at = ready_at > now ? ready_at : now + 1;
        }
        return;
    }
}

/* ---- the cycle ----------------------------------------------------------------------- */

/* Account n cycles to the ALU/memory load breakdown (what is in flight). */
static void load_account(struct sm *sm, uint64_t n)
{
    sm->c.load_cycles[(sm->c.alu_inflight ? 1 : 0) + (sm->c.mem_inflight ? 2 : 0)] += n;
}

int sm_cycle(struct sm *sm, uint64_t now, struct err *e)
{
    uint32_t first_unit = sm->unit_rr;
    sm->unit_rr = (sm->unit_rr + 1) % sm->nunits; /* the first unit rotates every cycle */
    sm->progressed = 0;
    sm->ldst_used = 0;
    sm->now = now;
    if (sm->nstarting) {
        for (uint32_t i = 0; i < sm->nstarting; i++) /* in the order they were placed */
            cta_start(sm, sm->starting[i]);
        sm->nstarting = 0;
    }
    if (!sm->used_ctas && !sm->wheel_pending) {
        for (uint32_t u = 0; u < sm->nunits; u++)
            classify(sm, &sm->units[u], CLS_NO_INST, 1);
        load_account(sm, 1);
        return WS_OK;
    }
    mem_completions(sm, now);
    writebacks(sm, now);
    for (uint32_t wd = 0; wd < sm->dirty_words; wd++)
        while (sm->dirty[wd]) {
            uint32_t s = wd * 64 + (uint32_t)__builtin_ctzll(sm->dirty[wd]);
            sm_warp_refresh(sm, s); /* clears the bit */
        }
    for (uint32_t k = 0; k < sm->nunits; k++) {
        uint32_t u = first_unit + k < sm->nunits ? first_unit + k : first_unit + k - sm->nunits;
        int rc = unit_cycle(sm, u, now, e);
        if (rc != WS_OK)
            return rc;
    }
    fetch(sm, now);
    load_account(sm, 1);
    return WS_OK;
}

/* The earliest cycle > now at which sm_cycle can find something to do, from
 * the SM's own state, after a cycle without progress.  A warp that waits
 * only for the LD/ST unit gives now + 1, or with ldst_wait set *ldst_wait
 * and counts for nothing (the caller watches the unit). */
static uint64_t next_internal(const struct sm *sm, uint64_t now, int *ldst_wait)
{
    uint64_t next = UINT64_MAX;
    for (uint32_t u = 0; u < sm->nunits; u++) {
        const struct sm_sched_unit *U = &sm->units[u];
        if (U->can_issue) {
            /* hazards clear, blocked by a unit or the issue interval */
            uint64_t t = U->next_issue > now + 1 ? U->next_issue : now + 1;
            for (int p = 0; p < SM_UNIT_COUNT; p++) {
                if (p == SM_UNIT_MEM || !(U->can_issue & U->unit_mask[p]))
                    continue;
                for (uint32_t j = 0; j < sm->pipes[p].n; j++) {
                    uint64_t f = sm->pipes[p].free_at[j];
                    uint64_t c = f > t ? f : t;
                    if (c < next)
                        next = c;
                }
            }
            if (U->can_issue & U->unit_mask[SM_UNIT_MEM]) {
                if (!ldst_wait)
                    return now + 1; /* LD/ST availability depends on the memory system */
                *ldst_wait = 1;
            }
        }
    }
    for (uint32_t wd = 0; wd < sm->dirty_words; wd++)
        if (sm->dirty[wd])
            return now + 1;
    for (uint32_t wd = 0; wd < sm->dirty_words; wd++)
        for (uint64_t m = sm->fetch_waiting[wd]; m; m &= m - 1) {
            const struct sm_warp *w = &sm->warps[wd * 64 + (uint32_t)__builtin_ctzll(m)];
            if (w->fetch_ready_at < next)
                next = w->fetch_ready_at > now ? w->fetch_ready_at : now + 1;
        }
    if (sm->wheel_pending)
        for (uint64_t t = now + 1; t < now + 1 + sm->wheel_size && t < next; t++)
            if (sm->wheel[t & (sm->wheel_size - 1)].n) {
                next = t;
                break;
            }
    return next;
}

uint64_t sm_next_event(const struct sm *sm, uint64_t now, int *idle)
{
    *idle = !sm->progressed;
    return sm->progressed ? now + 1 : next_internal(sm, now, NULL);
}

void sm_sleep(struct sm *sm, uint64_t now)
{
    int ldst_wait = 0;
    uint64_t next = sm->progressed ? now + 1 : next_internal(sm, now, &ldst_wait);
    if (next <= now + 1)
        return;
    sm->asleep = 1;
    sm->sleep_ldst = (uint8_t)ldst_wait;
    sm->sleep_from = now + 1;
    sm->sleep_until = next;
}

int sm_awake(struct sm *sm, uint64_t now)
{
    if (!sm->asleep)
        return 1;
    if (now < sm->sleep_until && !sm->nstarting && !memsys_has_completions(sm->ms, sm->id) &&
        !(sm->sleep_ldst && memsys_can_issue(sm->ms, sm->id)))
        return 0;
    sm_catch_up(sm, now);
    return 1;
}

void sm_catch_up(struct sm *sm, uint64_t now)
{
    if (!sm->asleep)
        return;
    sm->asleep = 0;
    if (now > sm->sleep_from)
        sm_skip(sm, now - sm->sleep_from);
}

void sm_skip(struct sm *sm, uint64_t n)
{
    load_account(sm, n);
    sm->unit_rr = (uint32_t)((sm->unit_rr + n) % sm->nunits); /* as n sm_cycle() calls */
    for (uint32_t u = 0; u < sm->nunits; u++) {
        struct sm_sched_unit *U = &sm->units[u];
        int cls = !(U->has_inst & U->view.valid) ? CLS_NO_INST
                  : !U->can_issue                ? CLS_NOT_READY
                                                 : CLS_PIPE;
        classify(sm, U, cls, n);
    }
}

/* ---- deadlock report -------------------------------------------------------------------- */

void sm_dump(const struct sm *sm, FILE *out)
{
    for (uint32_t s = 0; s < sm->nslots; s++) {
        const struct sm_warp *w = &sm->warps[s];
        if (!w->valid)
            continue;
        uint32_t act;
        /* a warp at a barrier is shown at the barrier, as the summary shows it */
        uint32_t pc = w->at_bar ? w->fw->bar_pc : sm_warp_next_pc(w, &act);
        fprintf(out, "  SM %u slot %u (CTA slot %u, warp %u): ", sm->id, s, w->cta_slot,
                w->fw->id);
        if (pc == PC_EXIT)
            fprintf(out, "finished, ");
        else
            fprintf(out, "PC %u (line %u), ", pc, sm->L ? sm->L->m->insts[pc].line : 0);
        if (w->at_bar)
            fprintf(out, "waits at barrier %u, ", w->fw->bar_id);
        uint32_t regs[8];
        uint32_t n = scoreboard_pending(&sm->sb, s, regs, 8);
        if (n) {
            fprintf(out, "scoreboard:");
            for (uint32_t i = 0; i < n && i < 8; i++) {
                const char *name = "?";
                if (sm->L && pc != PC_EXIT) {
                    const struct ptx_func *f = &sm->L->m->funcs[sm->L->m->insts[pc].func];
                    if (regs[i] < f->nregs)
                        name = f->regs[regs[i]].name;
                }
                fprintf(out, " %s", name);
            }
            fprintf(out, "%s, ", n > 8 ? " ..." : "");
        }
        if (!w->done && w->ib_n == 0)
            fprintf(out, "ibuffer empty%s, ", w->fetch_wait ? " (fetch miss)" : "");
        if (w->pend_mem)
            fprintf(out, "memory: %u in flight (%u stores), ", w->pend_mem, w->pend_stores);
        if (w->pend_wb)
            fprintf(out, "pipeline: %u results in flight, ", w->pend_wb);
        fprintf(out, "age %" PRIu64 "\n", w->age);
    }
}

int32_t sm_livelocked(const struct sm *sm, uint64_t now, uint64_t limit)
{
    for (uint32_t cs = 0; cs < sm->nctas; cs++) {
        if (!sm->ctas[cs].used || now - sm->ctas[cs].bar_event <= limit)
            continue;
        for (uint32_t s = 0; s < sm->nslots; s++)
            if (sm->warps[s].valid && sm->warps[s].cta_slot == cs && sm->warps[s].at_bar)
                return (int32_t)cs;
    }
    return -1;
}

size_t sm_summary(const struct sm *sm, char *buf, size_t len, size_t cap)
{
    for (uint32_t cs = 0; cs < sm->nctas; cs++) {
        if (!sm->ctas[cs].used || len + 1 >= cap)
            continue;
        const struct func_cta *fc = &sm->fctas[cs];
        int n = snprintf(buf + len, cap - len, " SM %u CTA (%u,%u,%u):", sm->id, fc->ctaid[0],
                         fc->ctaid[1], fc->ctaid[2]);
        len = n > 0 && (size_t)n < cap - len ? len + (size_t)n : cap - 1;
        for (uint32_t s = 0; s < sm->nslots && len + 1 < cap; s++) {
            const struct sm_warp *w = &sm->warps[s];
            if (!w->valid || w->cta_slot != cs)
                continue;
            uint32_t act, pc = sm_warp_next_pc(w, &act);
            if (w->at_bar)
                n = snprintf(buf + len, cap - len, " warp %u waits at barrier %u (PC %u, line %u);",
                             w->fw->id, w->fw->bar_id, w->fw->bar_pc,
                             sm->L ? sm->L->m->insts[w->fw->bar_pc].line : 0);
            else if (pc == PC_EXIT)
                n = snprintf(buf + len, cap - len, " warp %u exited;", w->fw->id);
            else
                n = snprintf(buf + len, cap - len, " warp %u at PC %u;", w->fw->id, pc);
            len = n > 0 && (size_t)n < cap - len ? len + (size_t)n : cap - 1;
        }
    }
    return len;
}
