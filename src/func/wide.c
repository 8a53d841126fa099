/* wide.c: wide (large) warps: R rows of 32-lane warps under one SIMT stack
 * of R-word masks; an instruction executes as sub-steps over subsets of the
 * active threads, and the stack is updated once every active thread has
 * executed it (func/wide.h). */
#include "func/wide.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "func/exec_internal.h"
#include "func/sink.h"

int func_wide_init(struct func_wide_warp *ww, struct func_cta *c, uint32_t first,
                   uint32_t rows, struct err *e)
{
    if (rows == 0 || rows > FUNC_WIDE_MAX_ROWS)
        return err_set(e, WS_ERR_INVALID, "wide warp: %u rows (1..%u allowed)", rows,
                       FUNC_WIDE_MAX_ROWS);
    if (first > c->nwarps || rows > c->nwarps - first)
        return err_set(e, WS_ERR_INVALID, "wide warp: warps %u..%u of a CTA of %u warps",
                       first, first + rows - 1, c->nwarps);
    memset(ww, 0, sizeof *ww);
    ww->c = c;
    ww->rows = rows;
    ww->stack_cap = 8;
    ww->stack = xcalloc(ww->stack_cap, sizeof *ww->stack);
    ww->depth = 1;
    struct func_wide_entry *base = &ww->stack[0];
    for (uint32_t r = 0; r < rows; r++) {
        struct func_warp *w = &c->warps[first + r];
        if (w->depth != 1 || w->ninsn != 0 || w->state != FUNC_WARP_READY) {
            free(ww->stack);
            ww->stack = NULL;
            return err_set(e, WS_ERR_INVALID, "wide warp: warp %u has already run",
                           first + r);
        }
        ww->row[r] = w;
        base->mask[r] = w->stack[0].mask;
    }
    base->pc = ww->row[0]->stack[0].pc;
    base->rpc = PC_EXIT;
    return WS_OK;
}

void func_wide_fini(struct func_wide_warp *ww)
{
    free(ww->stack);
    memset(ww, 0, sizeof *ww);
}

uint32_t func_wide_state(const struct func_wide_warp *ww)
{
    if (ww->depth == 0)
        return FUNC_WARP_DONE;
    for (uint32_t r = 0; r < ww->rows; r++)
        if (ww->row[r]->state == FUNC_WARP_AT_BARRIER)
            return FUNC_WARP_AT_BARRIER;
    return FUNC_WARP_READY;
}

/* ---- the stack -------------------------------------------------------------- */

static int any(const uint32_t *m, uint32_t rows)
{
    uint32_t o = 0;
    for (uint32_t r = 0; r < rows; r++)
        o |= m[r];
    return o != 0;
}

static void wide_push(struct func_wide_warp *ww, uint32_t pc, uint32_t rpc, const uint32_t *mask)
{
    if (ww->depth == ww->stack_cap) {
        ww->stack_cap *= 2;
        ww->stack = xrealloc(ww->stack, ww->stack_cap * sizeof *ww->stack);
    }
    struct func_wide_entry *x = &ww->stack[ww->depth++];
    memset(x, 0, sizeof *x);
    x->pc = pc;
    x->rpc = rpc;
    memcpy(x->mask, mask, ww->rows * sizeof *mask);
}

/* Threads m leave the kernel; a row all of whose threads have left is
 * finished, as its 32-wide warp would be. */
static void wide_exit(struct func_wide_warp *ww, const uint32_t *m)
{
    for (uint32_t r = 0; r < ww->rows; r++) {
        if (!m[r])
            continue;
        struct func_warp *w = ww->row[r];
        w->exited |= m[r];
        for (uint32_t i = 0; i < ww->depth; i++)
            ww->stack[i].mask[r] &= ~m[r];
        if ((w->init_mask & ~w->exited) == 0 && w->state != FUNC_WARP_DONE)
            exec_warp_finish(ww->c, w);
    }
}

/* Bring the top of the stack to an executable entry (settle() of exec.c
 * without calls). */
static void wide_settle(struct func_wide_warp *ww)
{
    const struct ptx_func *f = &ww->c->k->m->funcs[ww->c->k->func];
    while (ww->depth > 0) {
        struct func_wide_entry *top = &ww->stack[ww->depth - 1];
        if (!any(top->mask, ww->rows)) {
            ww->depth--;
            continue;
        }
        if (top->pc != PC_EXIT && top->pc - f->first_pc >= f->ninsts)
            top->pc = PC_EXIT;
        if (top->pc == PC_EXIT) {
            uint32_t m[FUNC_WIDE_MAX_ROWS];
            memcpy(m, top->mask, sizeof m);
            wide_exit(ww, m);
            continue;
        }
        if (top->pc == top->rpc) {
            ww->depth--;
            continue;
        }
        break;
    }
    if (ww->depth == 0)
        for (uint32_t r = 0; r < ww->rows; r++)
            if (ww->row[r]->state != FUNC_WARP_DONE)
                exec_warp_finish(ww->c, ww->row[r]);
}

/* simt_update() of exec.c over R-word masks. */
static void wide_update(struct func_wide_warp *ww, uint32_t npc)
{
    if (ww->depth == 0)
        return;
    struct func_wide_entry *top = &ww->stack[ww->depth - 1];
    uint32_t T[FUNC_WIDE_MAX_ROWS], N[FUNC_WIDE_MAX_ROWS];
    for (uint32_t r = 0; r < ww->rows; r++) {
        T[r] = ww->taken[r] & top->mask[r];
        N[r] = top->mask[r] & ~T[r];
    }
    int anyT = any(T, ww->rows), anyN = any(N, ww->rows);
    if (!anyT && !anyN)
        return;
    if (!anyT || !anyN) {
        uint32_t next = anyT ? ww->tpc : npc;
        if (next == top->rpc)
            ww->depth--;
        else
            top->pc = next;
        return;
    }
    ww->diverged = 1;
    if (ww->reconv != top->rpc)
        top->pc = ww->reconv;
    else
        ww->depth--;
    if (npc != ww->reconv)
        wide_push(ww, npc, ww->reconv, N);
    if (ww->tpc != ww->reconv)
        wide_push(ww, ww->tpc, ww->reconv, T);
}

/* ---- sub-steps ---------------------------------------------------------------- */

uint32_t func_wide_pending(struct func_wide_warp *ww, uint32_t pending[])
{
    if (!ww->in_flight) {
        wide_settle(ww);
        if (func_wide_state(ww) != FUNC_WARP_READY)
            return PC_EXIT;
        const struct func_wide_entry *top = &ww->stack[ww->depth - 1];
        ww->in_flight = 1;
        ww->pc = top->pc;
        ww->tpc = top->pc + 1;
        ww->reconv = PC_EXIT;
        for (uint32_t r = 0; r < ww->rows; r++) {
            ww->active[r] = ww->pending[r] = top->mask[r];
            ww->taken[r] = ww->exit[r] = 0;
            if (top->mask[r])
                ww->row[r]->ninsn++;
        }
    }
    memcpy(pending, ww->pending, ww->rows * sizeof *pending);
    return ww->pc;
}

/* Warp-level instructions and barriers act on a row's threads together. */
static int whole_rows_only(const struct ptx_inst *in)
{
    switch ((enum ptx_op)in->op) {
    case PTX_OP_SHFL:
    case PTX_OP_VOTE:
    case PTX_OP_MATCH:
    case PTX_OP_REDUX:
    case PTX_OP_ACTIVEMASK: return 1;
    case PTX_OP_BAR: return in->sub != PTX_SUB_BAR_WARP_SYNC;
    default: return 0;
    }
}

static int check_sub(const struct func_wide_warp *ww, const struct ptx_inst *in,
                     const uint32_t sub[], struct err *e)
{
    if (!ww->in_flight)
        return err_set(e, WS_ERR_INVALID, "wide warp: no instruction in flight");
    uint32_t cols = 0;
    int whole = whole_rows_only(in);
    for (uint32_t r = 0; r < ww->rows; r++) {
        if (sub[r] & ~ww->pending[r])
            return err_set(e, WS_ERR_INVALID,
                           "wide warp: row %u: threads 0x%08x are not pending", r,
                           sub[r] & ~ww->pending[r]);
        if (sub[r] & cols)
            return err_set(e, WS_ERR_INVALID,
                           "wide warp: two threads of lane column %u in one sub-step",
                           first_lane(sub[r] & cols));
        if (whole && sub[r] && sub[r] != ww->active[r])
            return err_set(e, WS_ERR_INVALID,
                           "wide warp: PC %u is a warp-level instruction or barrier: row %u "
                           "must execute all its active threads at once",
                           ww->pc, r);
        cols |= sub[r];
    }
    if (!cols)
        return err_set(e, WS_ERR_INVALID, "wide warp: empty sub-step");
    return WS_OK;
}

/* Execute the instruction for `mask` (guard applied) of row r. */
static int row_exec(struct func_wide_warp *ww, uint32_t r, const struct step *s, uint32_t mask,
                    struct func_trace *rt)
{
    const struct ptx_inst *in = s->in;
    if (in->op == PTX_OP_CALL) {
        const struct ptx_operand *fo = ptx_src(s->m, in, 0);
        if (fo->kind != PTX_OPND_FUNC)
            return exec_unsupported(s, "indirect call");
        const struct ptx_func *callee = &s->m->funcs[fo->sym];
        if (!callee->is_extern && callee->ninsts != 0)
            return exec_unsupported(s, "function call in a wide warp");
        return mask ? exec_extern_call(s, mask, callee) : WS_OK;
    }
    struct exec_out x = {0, 0, s->pc + 1, PC_EXIT};
    int rc = exec_inst(s, mask, rt, &x);
    if (rc != WS_OK)
        return rc;
    ww->exit[r] |= x.exit;
    ww->taken[r] |= x.taken;
    ww->tpc = x.tpc;
    if (x.taken)
        ww->reconv = x.reconv;
    return WS_OK;
}

int func_wide_step(struct func_wide_warp *ww, const uint32_t sub[], struct func_trace *t,
                   struct err *e)
{
    struct func_kernel *k = ww->c->k;
    const struct ptx_module *m = k->m;
    const struct ptx_inst *in = &m->insts[ww->pc];
    int rc = check_sub(ww, in, sub, e);
    if (rc != WS_OK)
        return rc;
    const struct pc_info *pi = &k->an->pc[ww->pc];
    t->pc = ww->pc;
    t->active = t->mask = 0;
    t->iclass = pi->iclass;
    t->space = PTX_SPACE_NONE;
    t->size = 0;
    t->is_mem = t->is_store = t->is_atomic = 0;
    t->diverged = t->barrier = t->exited = 0;
    for (uint32_t r = 0; r < ww->rows; r++) {
        if (!sub[r])
            continue;
        struct func_warp *w = ww->row[r];
        uint32_t mask = exec_guard(w, in, sub[r]);
        struct step s = {ww->c, w, k, m, in, ww->pc, sub[r], e};
        struct func_trace rt;
        rt.is_mem = rt.barrier = 0;
        rc = row_exec(ww, r, &s, mask, &rt);
        if (rc != WS_OK)
            return rc;
        if (rt.is_mem) {
            t->is_mem = 1;
            t->space = rt.space;
            t->size = rt.size;
            t->is_store = rt.is_store;
            t->is_atomic = rt.is_atomic;
            FOR_LANES(l, sub[r]) t->addr[l] = rt.addr[l];
        }
        t->barrier |= rt.barrier;
        t->active |= sub[r];
        t->mask |= mask;
        ww->pending[r] &= ~sub[r];
    }
    struct func_sink *sk = ww->c->sink;
    struct func_stats *st = sk ? &sk->st : k->env->stats;
    func_count_insn(st, pi, t->active, t->mask);
    if (sk) {
        sk->warp_insn++;
        *ARRAY_PUSH(sk->steps, sk->nsteps, sk->steps_cap) =
            (struct func_sink_step){ww->row[0], ww->pc};
    } else {
        k->warp_insn++;
    }
    if (any(ww->pending, ww->rows))
        return WS_OK;
    /* every active thread has executed it: one stack update */
    ww->in_flight = 0;
    ww->diverged = 0;
    wide_exit(ww, ww->exit);
    wide_update(ww, ww->pc + 1);
    wide_settle(ww);
    t->diverged = ww->diverged;
    t->exited = func_wide_state(ww) == FUNC_WARP_DONE;
    return WS_OK;
}
