/* issue_lwm.c: the Large Warp Microarchitecture issue model, sm.issue_model
 * = lwm (Narasiman, Shebanow, Lee, Miftakhutdinov, Mutlu, Patt, "Improving
 * GPU Performance via Large Warps and Two-Level Warp Scheduling", MICRO 2011;
 * SPEC-policies 6.1).
 *
 * Large warps.  Every lwm.rows consecutive warps of a CTA (8 x 32 = 256
 * threads by default; fewer rows at the CTA's end) form one large warp with
 * one SIMT stack of row masks (func/wide.h).  It lives in the slot of its
 * first row; the other rows' slots stay occupied (the thread contexts are
 * the same) but never reach a scheduler.  A scheduler picks among large
 * warps.
 *
 * Sub-warp formation.  The scheduler policy chooses a large warp per
 * instruction: once chosen, the large warp issues one sub-warp per cycle
 * until every active thread issued the instruction (sm.c: the instruction
 * sits in the sub-warping stage, as in the paper's pipeline; were the
 * policy to choose per sub-warp, round robin would interleave the sub-warps
 * of all large warps, advance them in lock step and finish their branches
 * together).  When the chosen large warp cannot form a sub-warp in a cycle
 * (its remaining threads busy or their rows waiting on a load), the policy
 * chooses among the others ([CHOICE]: the slides do not say; a stalled
 * in-order stage would leave a bubble, but warpsim's loads, as its
 * baseline's, do not block a warp as a whole).  Each sub-warp takes, for
 * every lane column, the lowest row's thread that is active, has not yet
 * executed the instruction and is not busy ([CHOICE] SPEC 6.1:
 * lowest row first).  The instruction finishes, and the stack is updated
 * once, when its last active thread has issued; the number of sub-warps is
 * the largest count of active threads in one column.  A sub-warp goes down
 * the pipeline as a 32-lane warp: its memory instruction coalesces as a
 * warp's (one request set per sub-warp).
 *
 * Barrel processing.
 *  - Per-thread busy bits: a thread joins no sub-warp until its previous
 *    sub-warp completed, i.e. left its pipeline: the unit's latency for an
 *    ALU/SFU/DP/INT instruction, 1 cycle for one handed to the LD/ST unit
 *    ([CHOICE]).  So the next instruction's first sub-warp can issue once the
 *    previous instruction's first sub-warp completed, and ALU dependences need
 *    no scoreboard: a large warp's non-load results reserve nothing.  Loads
 *    reserve their destinations on the scoreboard of each row they cover (a
 *    row's slot), until the last of the instruction's load sub-warps with
 *    threads of that row has its data ([CHOICE]: dependences on loads are
 *    tracked per row of 32 threads, the unit the restructured register file
 *    reads, not per thread).  A row joins the sub-warps of an instruction once
 *    its scoreboard clears; rows that already issued some of the
 *    instruction's threads are not checked again.  Under sm.barrel (barrel
 *    processing, as the paper's core) a row with any load in flight joins
 *    no sub-warp: a load's busy bits last until its data returned
 *    ([CHOICE]: per row, as loads are tracked).
 *  - After a conditional branch the large warp waits until the branch's last
 *    sub-warp completed (its divergence outcome is known only then).
 *  - An unconditional branch issues as one sub-warp in one cycle whatever
 *    the active mask (once every active thread is free).
 *  - Warp-level instructions (shfl, vote, ...) and barriers act per row
 *    (func/wide.h): their sub-warps take whole rows, lowest first, each row
 *    once all its threads are free.  A barrier is reached row by row: the
 *    rows that arrived wait while the large warp issues the others, so a
 *    barrier inside a large warp cannot deadlock it.
 * Statistics: lwm_insn (large-warp instructions), lwm_subwarps (sub-warps
 * issued for them) and their ratio; SIMD utilisation is the lane histogram
 * sched_lane_activity, one entry per sub-warp. */
#include "timing/issue.h"

#include <string.h>

#include "base/alloc.h"
#include "base/log.h"
#include "timing/engine.h"
#include "timing/issue_int.h"
#include "timing/sm.h"

enum { LWM_THREADS, LWM_ROWS, LWM_ONE };

static int lwm_mode(const struct sm *sm, uint32_t pc)
{
    const struct pc_info *pi = &sm->L->an->pc[pc];
    if (pi->iclass == ICLASS_BRANCH && !pi->is_cond_branch)
        return LWM_ONE;
    if (pi->iclass == ICLASS_WARP || pi->iclass == ICLASS_BARRIER)
        return LWM_ROWS;
    return LWM_THREADS;
}

/* Threads of row r not busy at cycle now. */
static uint32_t lwm_free(const struct sm_lwm *lw, uint32_t r, uint64_t now)
{
    uint32_t m = 0;
    for (uint32_t l = 0; l < 32; l++)
        if (lw->free_at[r][l] <= now)
            m |= 1u << l;
    return m;
}

void issue_lwm_group(struct sm *sm, uint32_t slot, uint32_t wi)
{
    struct sm_warp *w = &sm->warps[slot];
    uint32_t R = sm->cfg->lwm_rows ? sm->cfg->lwm_rows : 1;
    if (wi % R) {
        /* a later row: its large warp was placed with warp wi - wi % R */
        w->absorbed = 1;
        for (uint32_t s = 0; s < sm->nslots; s++) {
            struct sm_warp *x = &sm->warps[s];
            if (x->valid && x->lw && x->cta == w->cta && x->lw->ww.row[wi % R] == w->fw)
                x->lw->row_slot[wi % R] = slot;
        }
        return;
    }
    struct sm_lwm *lw = &sm->lwm[slot];
    uint32_t rows = w->cta->nwarps - wi < R ? w->cta->nwarps - wi : R;
    memset(lw->free_at, 0, sizeof lw->free_at);
    lw->hold_until = 0;
    lw->nloads = 0;
    lw->started = lw->cur_rows = 0;
    lw->row_slot[0] = slot;
    struct err e;
    err_clear(&e);
    if (func_wide_init(&lw->ww, w->cta, wi, rows, &e) != WS_OK)
        panic("large warp: %s", e.msg);
    w->lw = lw;
}

/* Rows with a load in flight (data not yet returned). */
static uint32_t lwm_rows_loading(const struct sm_lwm *lw)
{
    uint32_t m = 0;
    for (size_t i = 0; i < lw->nloads; i++)
        for (uint32_t r = 0; r < lw->ww.rows; r++)
            if (lw->loads[i].left[r])
                m |= 1u << r;
    return m;
}

/* Rows whose threads may join a sub-warp of the instruction at pc: those
 * that already issued some of its threads, and those whose own scoreboard
 * shows no hazard for it (under sm.barrel, those with no load in flight). */
static uint32_t lwm_rows_ok(const struct sm *sm, const struct sm_lwm *lw, uint32_t pc)
{
    uint32_t ok = lw->ww.in_flight ? lw->started : 0;
    uint32_t busy = sm->cfg->barrel ? lwm_rows_loading(lw) : 0;
    for (uint32_t r = 0; r < lw->ww.rows; r++)
        if (!(ok >> r & 1) && !(busy >> r & 1) &&
            !scoreboard_hazard(&sm->sb, lw->row_slot[r], &sm->L->regs[pc]))
            ok |= 1u << r;
    return ok;
}

int issue_lwm_ready(const struct sm *sm, uint32_t slot, uint64_t now)
{
    const struct sm_warp *w = &sm->warps[slot];
    const struct sm_lwm *lw = w->lw;
    if (now < lw->hold_until)
        return 0;
    uint32_t act, pc = sm_lwm_next_pc(w, &act);
    if (pc == PC_EXIT)
        return 0;
    const struct func_wide_warp *ww = &lw->ww;
    const uint32_t *m = ww->in_flight ? ww->pending : ww->stack[ww->depth - 1].mask;
    int mode = lwm_mode(sm, pc), any = 0, all = 1;
    uint32_t ok = lwm_rows_ok(sm, lw, pc);
    for (uint32_t r = 0; r < ww->rows; r++) {
        if (!m[r])
            continue;
        uint32_t f = ok >> r & 1 ? lwm_free(lw, r, now) : 0;
        if (m[r] & ~f)
            all = 0;
        else if (mode == LWM_ROWS)
            return 1;
        any |= (m[r] & f) != 0;
    }
    return mode == LWM_ONE ? all : mode == LWM_ROWS ? 0 : any;
}

static struct sm_lwm_load *lwm_load(struct sm_lwm *lw, uint32_t pc)
{
    for (size_t i = 0; i < lw->nloads; i++)
        if (lw->loads[i].pc == pc)
            return &lw->loads[i];
    return NULL;
}

void issue_lwm_load_issued(struct sm *sm, uint32_t slot, uint32_t pc, int is_long)
{
    struct sm_lwm *lw = sm->warps[slot].lw;
    struct sm_lwm_load *ld = lwm_load(lw, pc);
    if (!ld) {
        ld = ARRAY_PUSH(lw->loads, lw->nloads, lw->cap);
        memset(ld, 0, sizeof *ld);
        ld->pc = pc;
    }
    for (uint32_t r = 0; r < lw->ww.rows; r++)
        if (lw->cur_rows >> r & 1) {
            ld->left[r]++;
            scoreboard_reserve(&sm->sb, lw->row_slot[r], &sm->L->regs[pc], is_long);
        }
}

void issue_lwm_load_done(struct sm *sm, uint32_t slot, uint32_t pc, uint32_t rows)
{
    struct sm_lwm *lw = sm->warps[slot].lw;
    struct sm_lwm_load *ld = lwm_load(lw, pc);
    ws_assert(ld);
    uint32_t left = 0;
    for (uint32_t r = 0; r < lw->ww.rows; r++) {
        if (rows >> r & 1) {
            ws_assert(ld->left[r] > 0);
            if (--ld->left[r] == 0)
                scoreboard_release(&sm->sb, lw->row_slot[r], &sm->L->regs[pc]);
        }
        left += ld->left[r];
    }
    if (!left)
        *ld = lw->loads[--lw->nloads];
}

int issue_lwm_has_long(const struct sm *sm, uint32_t slot)
{
    const struct sm_lwm *lw = sm->warps[slot].lw;
    for (uint32_t r = 0; r < lw->ww.rows; r++)
        if (scoreboard_has_long(&sm->sb, lw->row_slot[r]))
            return 1;
    return 0;
}

int issue_lwm_waits_long(const struct sm *sm, uint32_t slot, uint32_t pc)
{
    const struct sm_warp *w = &sm->warps[slot];
    const struct func_wide_warp *ww = &w->lw->ww;
    if (ww->depth == 0)
        return 0;
    const uint32_t *m = ww->in_flight ? ww->pending : ww->stack[ww->depth - 1].mask;
    uint32_t started = ww->in_flight ? w->lw->started : 0;
    int any = 0;
    for (uint32_t r = 0; r < ww->rows; r++) {
        if (!m[r])
            continue;
        if (started >> r & 1 ||
            !scoreboard_long_hazard(&sm->sb, w->lw->row_slot[r], &sm->L->regs[pc]))
            return 0;
        any = 1;
    }
    return any;
}

/* Form the next sub-warp of the instruction in flight from its pending
 * threads (see the banner); the chosen threads are busy until done_at. */
static void lwm_form(struct sm_lwm *lw, int mode, const uint32_t *pend, uint32_t ok,
                     uint64_t now, uint64_t done_at, uint32_t *sub)
{
    uint32_t cols = 0;
    lw->cur_rows = 0;
    for (uint32_t r = 0; r < lw->ww.rows; r++) {
        uint32_t avail = !(ok >> r & 1)  ? 0
                         : mode == LWM_ONE ? pend[r]
                                           : pend[r] & lwm_free(lw, r, now);
        if (mode == LWM_ROWS)
            sub[r] = pend[r] && avail == pend[r] && !(pend[r] & cols) ? pend[r] : 0;
        else
            sub[r] = avail & ~cols;
        cols |= sub[r];
        if (sub[r])
            lw->cur_rows |= 1u << r;
        for (uint32_t l = 0; l < 32; l++)
            if (sub[r] >> l & 1)
                lw->free_at[r][l] = done_at;
    }
}

int issue_lwm(struct sm *sm, uint32_t slot, uint64_t now, struct err *e)
{
    struct sm_warp *w = &sm->warps[slot];
    struct sm_lwm *lw = w->lw;
    struct func_wide_warp *ww = &lw->ww;
    uint32_t pend[FUNC_WIDE_MAX_ROWS], sub[FUNC_WIDE_MAX_ROWS];
    lw->first = !ww->in_flight;
    if (lw->first)
        lw->started = 0;
    uint32_t pc = func_wide_pending(ww, pend);
    ws_assert(pc != PC_EXIT);
    uint32_t ok = lwm_rows_ok(sm, lw, pc);
    int mode = lwm_mode(sm, pc);
    unsigned ic = sm->L->an->pc[pc].iclass;
    int mem = sm->unit_map[ic] == SM_UNIT_MEM;
    uint64_t done_at = now + (mem ? 1 : sm->cls_latency[ic]);
    struct func_trace tr;
    uint32_t active = 0, mask = 0;
    for (;;) {
        lwm_form(lw, mode, pend, ok, now, done_at, sub);
        lw->started |= lw->cur_rows;
        int rc = func_wide_step(ww, sub, &tr, e);
        if (rc == WS_OK)
            rc = issue_check_limit(sm, slot, pc, e);
        if (rc != WS_OK)
            return rc;
        active |= tr.active;
        mask |= tr.mask;
        /* an unconditional branch: every active thread in this one issue */
        if (mode != LWM_ONE || !ww->in_flight)
            break;
        func_wide_pending(ww, pend);
    }
    tr.active = active;
    tr.mask = mask;
    issue_dispatch(sm, slot, &tr, now, 1);
    if (mem)
        issue_wheel_add(sm, done_at, slot, pc, SM_WB_WAKE);
    sm->c.lwm_subwarps++;
    sm->progressed = 1;
    if (ww->in_flight) {
        sm_warp_refresh(sm, slot);
        return WS_OK;
    }
    sm->c.lwm_insn++;
    if (sm->L->an->pc[pc].is_cond_branch)
        lw->hold_until = done_at;
    uint32_t nrows = ww->rows, rs[FUNC_WIDE_MAX_ROWS];
    memcpy(rs, lw->row_slot, sizeof rs);
    issue_retire(sm, slot, &tr, now);
    /* the large warp finished: its other rows are done too (their slots are
     * freed with the first row's, sm_warp_try_free) */
    if (tr.exited)
        for (uint32_t r = 1; r < nrows; r++) {
            sm->warps[rs[r]].done = 1;
            sm->warps[rs[r]].finish = now;
        }
    return WS_OK;
}
