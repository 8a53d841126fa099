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
 * Sub-warp formation.  Each time the large warp is picked, one sub-warp
 * issues: for every lane column, the lowest row's thread that is active,
 * has not yet executed the instruction and is not busy ([CHOICE] SPEC 6.1:
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
 *    reserve their destinations on the slot's scoreboard until the last of
 *    the instruction's load sub-warps has its data ([CHOICE]: dependences on
 *    loads are tracked per large warp, not per thread).
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
        w->absorbed = 1;
        return;
    }
    struct sm_lwm *lw = &sm->lwm[slot];
    uint32_t rows = w->cta->nwarps - wi < R ? w->cta->nwarps - wi : R;
    memset(lw->free_at, 0, sizeof lw->free_at);
    lw->hold_until = 0;
    lw->nloads = 0;
    struct err e;
    err_clear(&e);
    if (func_wide_init(&lw->ww, w->cta, wi, rows, &e) != WS_OK)
        panic("large warp: %s", e.msg);
    w->lw = lw;
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
    for (uint32_t r = 0; r < ww->rows; r++) {
        if (!m[r])
            continue;
        uint32_t f = lwm_free(lw, r, now);
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
        ld->pc = pc;
        ld->left = 0;
    }
    ld->left++;
    scoreboard_reserve(&sm->sb, slot, &sm->L->regs[pc], is_long);
}

void issue_lwm_load_done(struct sm *sm, uint32_t slot, uint32_t pc)
{
    struct sm_lwm *lw = sm->warps[slot].lw;
    struct sm_lwm_load *ld = lwm_load(lw, pc);
    ws_assert(ld && ld->left > 0);
    if (--ld->left)
        return;
    scoreboard_release(&sm->sb, slot, &sm->L->regs[pc]);
    *ld = lw->loads[--lw->nloads];
}

/* Form the next sub-warp of the instruction in flight from its pending
 * threads (see the banner); the chosen threads are busy until done_at. */
static void lwm_form(struct sm_lwm *lw, int mode, const uint32_t *pend, uint64_t now,
                     uint64_t done_at, uint32_t *sub)
{
    uint32_t cols = 0;
    for (uint32_t r = 0; r < lw->ww.rows; r++) {
        uint32_t avail = pend[r] & (mode == LWM_ONE ? ~0u : lwm_free(lw, r, now));
        if (mode == LWM_ROWS)
            sub[r] = pend[r] && avail == pend[r] && !(pend[r] & cols) ? pend[r] : 0;
        else
            sub[r] = avail & ~cols;
        cols |= sub[r];
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
    uint32_t pc = func_wide_pending(ww, pend);
    ws_assert(pc != PC_EXIT);
    int mode = lwm_mode(sm, pc);
    unsigned ic = sm->L->an->pc[pc].iclass;
    int mem = sm->unit_map[ic] == SM_UNIT_MEM;
    uint64_t done_at = now + (mem ? 1 : sm->cls_latency[ic]);
    struct func_trace tr;
    uint32_t active = 0, mask = 0;
    for (;;) {
        lwm_form(lw, mode, pend, now, done_at, sub);
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
    struct func_warp *rows[FUNC_WIDE_MAX_ROWS];
    uint32_t nrows = ww->rows;
    memcpy(rows, ww->row, sizeof rows);
    uint32_t cta = w->cta_slot;
    issue_retire(sm, slot, &tr, now);
    if (!tr.exited)
        return WS_OK;
    /* the large warp finished: its other rows' slots are free too */
    for (uint32_t s = 0; s < sm->nslots; s++) {
        struct sm_warp *x = &sm->warps[s];
        if (!x->valid || !x->absorbed || x->cta_slot != cta)
            continue;
        for (uint32_t r = 1; r < nrows; r++)
            if (x->fw == rows[r]) {
                x->done = 1;
                x->finish = now;
                sm_warp_try_free(sm, s, now);
                break;
            }
    }
    return WS_OK;
}
