/* issue.c: the issue path of an SM (timing/issue.h): the issue models, the
 * back end one issued (sub-)warp goes to (execution pipelines, LD/ST hand-off
 * to the memory system with the classifier's request tag, scoreboard,
 * writeback wheel, ISSUE event) and the retirement of an instruction from
 * its warp (instruction buffer, exit, barrier). */
#include "timing/issue.h"
#include "timing/issue_int.h"

#include <inttypes.h>
#include <string.h>

#include "base/alloc.h"
#include "base/bits.h"
#include "base/demangle.h"
#include "base/log.h"
#include "timing/engine.h"
#include "timing/sm.h"

static int iclass_is_long_load(unsigned c)
{
    return c == ICLASS_LOAD_GLOBAL || c == ICLASS_LOAD_LOCAL || c == ICLASS_ATOMIC;
}

/* ---- back-end resources ------------------------------------------------------------ */

void issue_wheel_add(struct sm *sm, uint64_t at, uint32_t slot, uint32_t pc, uint8_t kind)
{
    struct sm_wheel_bucket *b = &sm->wheel[at & (sm->wheel_size - 1)];
    struct sm_wb *x = ARRAY_PUSH(b->e, b->n, b->cap);
    x->slot = slot;
    x->pc = pc;
    x->kind = kind;
    sm->wheel_pending++;
}

static uint32_t tok_alloc(struct sm *sm)
{
    if (sm->tok_free >= sm->ntok) {
        uint32_t old = sm->ntok;
        sm->ntok *= 2;
        sm->tok = xrealloc(sm->tok, sm->ntok * sizeof *sm->tok);
        memset(sm->tok + old, 0, (sm->ntok - old) * sizeof *sm->tok);
        for (uint32_t i = old; i < sm->ntok; i++)
            sm->tok[i].next_free = i + 1;
        sm->tok_free = old;
    }
    uint32_t t = sm->tok_free;
    sm->tok_free = sm->tok[t].next_free;
    sm->tok[t].used = 1;
    return t;
}

/* ---- dispatch and retire ------------------------------------------------------------- */

/* WS_ERR_DEADLOCK once the launch has run more warp instructions than
 * max_warp_insn allows (checked after every functional step). */
int issue_limit_error(const struct sm *sm, uint32_t slot, uint32_t pc, struct err *e)
{
    const struct timing_launch *L = sm->L;
    char nb[256];
    return err_set(e, WS_ERR_DEADLOCK,
                   "kernel '%s' exceeded the limit of %" PRIu64
                   " warp instructions (option max_warp_insn): infinite loop? SM %u warp "
                   "slot %u at PC %u",
                   demangle(L->m->funcs[L->k->func].name, nb, sizeof nb), L->max_warp_insn,
                   sm->id, slot, pc);
}

int issue_check_limit(const struct sm *sm, uint32_t slot, uint32_t pc, struct err *e)
{
    const struct timing_launch *L = sm->L;
    /* a CTA with a sink counts its steps there: the engine's merge finds the
     * step that crossed the limit (and reading the launch's count here would
     * move its cache line between the threads every cycle) */
    if (sm->warps[slot].cta->sink)
        return WS_OK;
    if (L->max_warp_insn && L->k->warp_insn > L->max_warp_insn)
        return issue_limit_error(sm, slot, pc, e);
    return WS_OK;
}

unsigned load_path_of(const struct gpu_config *cfg, const struct ptx_inst *in, unsigned iclass)
{
    if (iclass != ICLASS_LOAD_GLOBAL && iclass != ICLASS_LOAD_LOCAL)
        return LOAD_PATH_NONE;
    if (!cfg->tex_enabled) /* texture fetches too read through the L1D */
        return LOAD_PATH_L1D;
    if (in->op == PTX_OP_TEX || in->op == PTX_OP_TLD4)
        return LOAD_PATH_TEX;
    /* tex.nc: non-coherent global loads take the read-only (texture) path */
    if (cfg->tex_nc && in->op == PTX_OP_LD && (in->flags & PTX_F_NC))
        return LOAD_PATH_TEX;
    return LOAD_PATH_L1D;
}

void issue_dispatch(struct sm *sm, uint32_t slot, const struct func_trace *tr, uint64_t now,
                    int lwm)
{
    struct timing_launch *L = sm->L;
    struct sm_warp *w = &sm->warps[slot];
    uint32_t pc = tr->pc;
    unsigned ic = tr->iclass;
    unsigned unit = sm->unit_map[ic];
    unsigned act = ws_popc32(tr->active);
    sm->c.lanes[act <= 4 ? 0 : (act - 1) / 4]++;
    sm->c.warp_insn++;
    sm->c.lanes_issued += act;
    const struct sb_inst_regs *regs = &L->regs[pc];
    if (unit == SM_UNIT_MEM) {
        sm->ldst_used++;
        if (tr->is_mem && tr->mask) {
            int store = tr->is_store && !tr->is_atomic;
            int is_long = !store && iclass_is_long_load(ic);
            uint32_t t = tok_alloc(sm);
            struct sm_memtok *tk = &sm->tok[t];
            tk->slot = slot;
            tk->pc = pc;
            tk->is_store = (uint8_t)store;
            tk->is_long = (uint8_t)is_long;
            tk->lwm = (uint8_t)lwm;
            tk->rows = (uint16_t)(lwm ? w->lw->cur_rows : 0);
            struct mem_inst *mi = &sm->mi;
            mi->sm = sm->id;
            mi->slot = slot;
            mi->age = w->age;
            mi->cta = w->cta_slot;
            mi->pc = pc;
            mi->space = tr->space;
            if (tr->space == PTX_SPACE_GLOBAL && !tr->is_store && L->path[pc] == LOAD_PATH_TEX)
                mi->space = PTX_SPACE_TEX;
            mi->is_store = tr->is_store;
            mi->is_atomic = tr->is_atomic;
            mi->size = tr->size;
            mi->mask = tr->mask;
            memcpy(mi->addr, tr->addr, sizeof mi->addr);
            mi->token = t;
            struct classify_req cr = {.slot = slot, .pc = pc, .cta = w->cta_slot, .age = w->age,
                                      .space = tr->space, .is_store = tr->is_store,
                                      .is_atomic = tr->is_atomic,
                                      .lanes = ws_popc32(tr->mask),
                                      .now = now};
            mi->policy_tag = sm->cls_ops->tag(sm->cls_priv, &cr);
            if (!store && lwm)
                issue_lwm_load_issued(sm, slot, pc, is_long);
            else if (!store)
                scoreboard_reserve(&sm->sb, slot, regs, is_long);
            else
                w->pend_stores++;
            w->pend_mem++;
            sm->c.mem_inflight++;
            memsys_issue(sm->ms, mi, now);
        } else {
            if (!lwm)
                scoreboard_reserve(&sm->sb, slot, regs, 0);
            issue_wheel_add(sm, now + 1, slot, pc, lwm ? SM_WB_COUNT : SM_WB_RELEASE);
            w->pend_wb++;
            sm->c.alu_inflight++;
        }
    } else {
        struct sm_pipe *p = &sm->pipes[unit];
        int j = sm_pipe_free(p, now);
        ws_assert(j >= 0);
        p->free_at[j] = now + sm->cls_ii[ic];
        if (!lwm)
            scoreboard_reserve(&sm->sb, slot, regs, 0);
        issue_wheel_add(sm, now + sm->cls_latency[ic], slot, pc,
                        lwm ? SM_WB_COUNT : SM_WB_RELEASE);
        w->pend_wb++;
        sm->c.alu_inflight++;
    }
    if (!sm_wants(sm, SCHED_EV_ISSUE))
        return;
    /* the warp's next PC after this (sub-)warp (the same PC while sub-warps
     * of the instruction remain) and whether a branch went elsewhere */
    uint32_t nact;
    uint32_t npc = tr->exited ? PC_EXIT : sm_warp_next_pc(w, &nact);
    struct sched_event iev;
    memset(&iev, 0, sizeof iev);
    iev.kind = SCHED_EV_ISSUE;
    iev.pc = pc;
    iev.now = now;
    iev.next_pc = npc;
    iev.taken = ic == ICLASS_BRANCH && npc != pc + 1;
    iev.cont = (uint8_t)(lwm && !w->lw->first);
    sm_warp_event(sm, (int32_t)slot, &iev);
}

void issue_retire(struct sm *sm, uint32_t slot, const struct func_trace *tr, uint64_t now)
{
    struct sm_warp *w = &sm->warps[slot];
    uint32_t pc = tr->pc;
    /* the instruction buffer: pop the issued entry; flush on a control hazard */
    if (w->ib_n > 0 && w->ib_pc == pc) {
        w->ib_pc++;
        w->ib_n--;
    }
    uint32_t nact;
    if (tr->exited) {
        w->done = 1;
        w->finish = now;
        struct sm_cta *c = &sm->ctas[w->cta_slot];
        if (now < c->first_finish)
            c->first_finish = now;
        if (now > c->last_finish)
            c->last_finish = now;
        sm_slot_event(sm, (int32_t)slot, SCHED_EV_WARP_EXIT, pc, now);
    }
    uint32_t npc = sm_warp_next_pc(w, &nact);
    if (npc != w->ib_pc) {
        w->ib_pc = npc;
        w->ib_n = 0;
        sm_set_fetch_wait(sm, slot, 0);
    }
    if (tr->barrier) {
        w->at_bar = 1;
        sm_slot_event(sm, (int32_t)slot, SCHED_EV_BARRIER, pc, now);
    }
    if (tr->barrier || tr->exited)
        sm_barrier_scan(sm, w->cta_slot, now);
    sm_warp_refresh(sm, slot);
    sm_warp_try_free(sm, slot, now);
    sm->progressed = 1;
}

/* ---- the issue models ---------------------------------------------------------------- */

/* "warp": one issue = one functional step of the whole 32-lane warp. */
static int issue_warp(struct sm *sm, uint32_t slot, uint64_t now, struct err *e)
{
    struct sm_warp *w = &sm->warps[slot];
    struct func_trace tr;
    int rc = func_warp_step(w->cta, w->fw, &tr, e);
    if (rc != WS_OK)
        return rc;
    sm_warp_sync(w);
    ws_assert(tr.pc == sm->units[slot % sm->nunits].pc[slot / sm->nunits]);
    rc = issue_check_limit(sm, slot, tr.pc, e);
    if (rc != WS_OK)
        return rc;
    issue_dispatch(sm, slot, &tr, now, 0);
    issue_retire(sm, slot, &tr, now);
    return WS_OK;
}

static const struct issue_model issue_models[] = {
    {"warp", issue_warp},
    {"lwm", issue_lwm},
};

const struct issue_model *issue_model_find(const char *name)
{
    for (size_t i = 0; i < sizeof issue_models / sizeof issue_models[0]; i++)
        if (strcmp(issue_models[i].name, name) == 0)
            return &issue_models[i];
    return NULL;
}
