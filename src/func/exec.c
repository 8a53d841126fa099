/* exec.c: warp state, operands, the SIMT stack and the step dispatcher:
 * func_warp_step() executes one warp instruction, sending memory
 * (func/exec_mem.c), warp-level (func/exec_warp.c) and call
 * (func/exec_call.c) instructions to their files and data-processing
 * instructions to the ALU (func/alu.h). */
#include "func/func.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/demangle.h"
#include "func/alu.h"
#include "func/exec_internal.h"
#include "func/racecheck.h"
#include "func/sink.h"

uint64_t exec_reg_width_mask(const struct step *s, uint32_t r)
{
    const struct ptx_func *f = &s->m->funcs[s->in->func];
    if (r >= f->nregs)
        return ~0ull;
    unsigned sz = ptx_type_size((enum ptx_type)f->regs[r].type);
    return sz ? width_mask(sz) : ~0ull;
}

/* ---- messages ------------------------------------------------------------- */

static void inst_text(const struct ptx_module *m, const struct ptx_inst *in, char *buf,
                      size_t len)
{
    int n = snprintf(buf, len, "%s", ptx_op_name((enum ptx_op)in->op));
    if (in->space != PTX_SPACE_NONE && n >= 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, ".%s", ptx_space_name((enum ptx_space)in->space));
    if (in->vec > 1 && n >= 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, ".v%u", in->vec);
    if (in->type != PTX_T_NONE && n >= 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, ".%s", ptx_type_name((enum ptx_type)in->type));
    (void)m;
}

/* "kernel 'k(float*)' thread (1,0,0) block (0,0,0) at k.cu:7 (mod.ptx:34, PC 12:
 * ld.global.f32)", the CUDA source position when the PTX has .loc lines, else
 * "... at mod.ptx:34 (PC 12: ld.global.f32)".  The kernel name is demangled. */
int exec_where(const struct step *s, uint32_t lane, char *buf, size_t len)
{
    char txt[64], name[256], ptx[320];
    inst_text(s->m, s->in, txt, sizeof txt);
    const char *kname = demangle(s->m->funcs[s->k->func].name, name, sizeof name);
    int n = snprintf(buf, len, "kernel '%s' thread (%u,%u,%u) block (%u,%u,%u) at ", kname,
                     s->w->tid[0][lane], s->w->tid[1][lane], s->w->tid[2][lane], s->c->ctaid[0],
                     s->c->ctaid[1], s->c->ctaid[2]);
    if (n < 0 || (size_t)n >= len)
        return n;
    snprintf(ptx, sizeof ptx, "%s:%u", s->m->name ? s->m->name : "<module>", s->in->line);
    const char *src = ptx_inst_src_file(s->m, s->in);
    if (src)
        return n + snprintf(buf + n, len - (size_t)n, "%s:%u (%s, PC %u: %s)", src,
                            s->in->src_line, ptx, s->pc, txt);
    return n + snprintf(buf + n, len - (size_t)n, "%s (PC %u: %s)", ptx, s->pc, txt);
}

int exec_fail(const struct step *s, uint32_t lane, int code, const char *what)
{
    char pos[768];
    exec_where(s, lane, pos, sizeof pos);
    return err_set(s->e, code, "%s: %s", pos, what);
}

int exec_unsupported(const struct step *s, const char *what)
{
    char pos[768];
    exec_where(s, first_lane(s->active), pos, sizeof pos);
    return err_set(s->e, WS_ERR_UNSUPPORTED, "%s: unsupported %s", pos, what);
}

/* ---- warp storage --------------------------------------------------------- */

void exec_ensure_regs(struct func_warp *w, size_t need)
{
    if (need > w->regs_cap) {
        size_t cap = w->regs_cap ? w->regs_cap : 1024;
        while (cap < need)
            cap *= 2;
        w->regs = xrealloc(w->regs, cap * sizeof *w->regs);
        w->regs_cap = cap;
    }
    /* a kernel without registers has no register file (NULL + 0 is undefined) */
    w->cur_regs = w->regs ? w->regs + cur_frame(w)->reg_base : NULL;
    w->cur_slot = cur_frame(w)->slot;
    w->cur_func = cur_frame(w)->func;
}

/* Grow a lane-major per-thread buffer (lane l at buf + l * cap). */
void exec_ensure_lanes(uint8_t **buf, uint64_t *cap, uint64_t need)
{
    if (need <= *cap)
        return;
    uint64_t nc = *cap ? *cap : 256;
    while (nc < need)
        nc *= 2;
    uint8_t *nb = xcalloc(FUNC_WARP_SIZE, nc);
    if (*buf)
        for (uint32_t l = 0; l < FUNC_WARP_SIZE; l++)
            memcpy(nb + l * nc, *buf + l * *cap, *cap);
    free(*buf);
    *buf = nb;
    *cap = nc;
}

/* ---- kernel and CTA ------------------------------------------------------- */

void func_kernel_init(struct func_kernel *k, struct func_env *env, const struct ptx_module *m,
                      const struct analysis *an, uint32_t func, const uint32_t grid[3],
                      const uint32_t block[3], uint32_t dyn_shared, const uint8_t *params,
                      uint64_t param_size)
{
    memset(k, 0, sizeof *k);
    k->m = m;
    k->an = an;
    k->func = func;
    memcpy(k->grid, grid, sizeof k->grid);
    memcpy(k->block, block, sizeof k->block);
    k->dyn_shared = dyn_shared;
    k->threads_per_cta = block[0] * block[1] * block[2];
    k->warps_per_cta = (k->threads_per_cta + FUNC_WARP_SIZE - 1) / FUNC_WARP_SIZE;
    k->params = xcalloc(1, param_size ? param_size : 1);
    if (param_size)
        memcpy(k->params, params, param_size);
    k->param_size = param_size;
    k->env = env;
}

void func_kernel_fini(struct func_kernel *k)
{
    free(k->params);
    k->params = NULL;
}

void func_cta_init(struct func_cta *c, struct func_kernel *k, uint32_t linear)
{
    const struct ptx_func *f = &k->m->funcs[k->func];
    c->k = k;
    c->linear = linear;
    c->ctaid[0] = linear % k->grid[0];
    c->ctaid[1] = (linear / k->grid[0]) % k->grid[1];
    c->ctaid[2] = linear / (k->grid[0] * k->grid[1]);
    if (k->warps_per_cta > c->warps_cap) {
        c->warps = xrealloc(c->warps, k->warps_per_cta * sizeof *c->warps);
        memset(c->warps + c->warps_cap, 0,
               (k->warps_per_cta - c->warps_cap) * sizeof *c->warps);
        c->warps_cap = k->warps_per_cta;
    }
    c->nwarps = k->warps_per_cta;
    c->live_warps = c->nwarps;
    c->shared_size = k->m->funcs[k->func].shared_bytes + k->dyn_shared;
    if (c->shared_size > c->shared_cap) {
        free(c->shared);
        c->shared = xcalloc(1, c->shared_size);
        c->shared_cap = c->shared_size;
    } else if (c->shared_size) {
        memset(c->shared, 0, c->shared_size);
    }
    memset(c->bars, 0, sizeof c->bars);
    for (uint32_t b = 0; b < FUNC_NUM_BARRIERS; b++)
        c->bars[b].red_and = 1;
    if (k->env->cfg.racecheck)
        race_cta_begin(c);
    else
        race_cta_free(c);

    uint32_t bx = k->block[0], by = k->block[1];
    for (uint32_t wi = 0; wi < c->nwarps; wi++) {
        struct func_warp *w = &c->warps[wi];
        uint32_t first = wi * FUNC_WARP_SIZE;
        uint32_t n = k->threads_per_cta - first;
        if (n > FUNC_WARP_SIZE)
            n = FUNC_WARP_SIZE;
        w->id = wi;
        w->init_mask = n == FUNC_WARP_SIZE ? FULL_MASK : ((1u << n) - 1);
        w->exited = 0;
        w->state = FUNC_WARP_READY;
        w->carry = 0;
        w->ninsn = 0;
        w->bar_red_dst = PTX_NO_INDEX;
        if (w->stack_cap < 8) {
            w->stack = xrealloc(w->stack, 8 * sizeof *w->stack);
            w->stack_cap = 8;
        }
        w->depth = 1;
        w->stack[0] = (struct simt_entry){f->first_pc, PC_EXIT, w->init_mask, SIMT_NORMAL};
        if (f->ninsts == 0)
            w->stack[0].pc = PC_EXIT;
        if (w->frames_cap < 4) {
            w->frames = xrealloc(w->frames, 4 * sizeof *w->frames);
            w->frames_cap = 4;
        }
        w->nframes = 1;
        w->frames[0] = (struct call_frame){k->func, 0, 0, 0, 0, func_slot_map(k->an, k->func)};
        size_t nr = (size_t)k->an->func_slots[k->func] * FUNC_WARP_SIZE;
        exec_ensure_regs(w, nr);
        if (nr)
            memset(w->regs, 0, nr * sizeof *w->regs);
        w->local_top = align16(f->local_bytes);
        exec_ensure_lanes(&w->local, &w->local_cap, w->local_top);
        if (w->local_cap)
            memset(w->local, 0, FUNC_WARP_SIZE * w->local_cap);
        w->param_top = align16(f->frame_param_bytes);
        exec_ensure_lanes(&w->param, &w->param_cap, w->param_top);
        if (w->param_cap)
            memset(w->param, 0, FUNC_WARP_SIZE * w->param_cap);
        for (uint32_t l = 0; l < FUNC_WARP_SIZE; l++) {
            uint32_t t = first + l;
            w->tid[0][l] = t % bx;
            w->tid[1][l] = (t / bx) % by;
            w->tid[2][l] = t / (bx * by);
        }
    }
}

void func_cta_fini(struct func_cta *c)
{
    for (uint32_t i = 0; i < c->warps_cap; i++) {
        struct func_warp *w = &c->warps[i];
        free(w->stack);
        free(w->frames);
        free(w->regs);
        free(w->local);
        free(w->param);
    }
    free(c->warps);
    free(c->shared);
    race_cta_free(c);
    memset(c, 0, sizeof *c);
}

/* ---- operands ------------------------------------------------------------- */

uint64_t exec_var_addr(const struct step *s, const struct ptx_var *v)
{
    switch (v->space) {
    case PTX_SPACE_GLOBAL:
    case PTX_SPACE_CONST:
        return v->addr;
    case PTX_SPACE_SHARED:
        return v->offset;
    case PTX_SPACE_LOCAL:
        return cur_frame(s->w)->local_base + v->offset;
    case PTX_SPACE_PARAM:
        if (v->flags & PTX_VAR_KERNEL_PARAM)
            return v->offset;
        return cur_frame(s->w)->param_base + v->offset;
    default:
        return v->addr;
    }
}

static void sreg_read(const struct step *s, const struct ptx_operand *o, uint64_t out[32])
{
    const struct func_warp *w = s->w;
    const struct func_kernel *k = s->k;
    unsigned comp = o->comp < 3 ? o->comp : 0;
    uint64_t v = 0;
    switch ((enum ptx_sreg)o->reg) {
    case PTX_SREG_TID:
        for (uint32_t l = 0; l < 32; l++)
            out[l] = w->tid[comp][l];
        return;
    case PTX_SREG_LANEID:
        for (uint32_t l = 0; l < 32; l++)
            out[l] = l;
        return;
    case PTX_SREG_LANEMASK_EQ:
        for (uint32_t l = 0; l < 32; l++)
            out[l] = 1ull << l;
        return;
    case PTX_SREG_LANEMASK_LE:
        for (uint32_t l = 0; l < 32; l++)
            out[l] = (2ull << l) - 1;
        return;
    case PTX_SREG_LANEMASK_LT:
        for (uint32_t l = 0; l < 32; l++)
            out[l] = (1ull << l) - 1;
        return;
    case PTX_SREG_LANEMASK_GE:
        for (uint32_t l = 0; l < 32; l++)
            out[l] = ~((1ull << l) - 1) & FULL_MASK;
        return;
    case PTX_SREG_LANEMASK_GT:
        for (uint32_t l = 0; l < 32; l++)
            out[l] = ~((2ull << l) - 1) & FULL_MASK;
        return;
    case PTX_SREG_NTID: v = k->block[comp]; break;
    case PTX_SREG_CTAID: v = s->c->ctaid[comp]; break;
    case PTX_SREG_NCTAID: v = k->grid[comp]; break;
    case PTX_SREG_WARPID: v = w->id; break;
    case PTX_SREG_NWARPID: v = 64; break;
    case PTX_SREG_SMID: v = 0; break;
    case PTX_SREG_NSMID: v = 1; break;
    case PTX_SREG_GRIDID: v = k->env->stats ? k->env->stats->kernels_launched : 0; break;
    case PTX_SREG_CLOCK: v = (uint32_t)w->ninsn; break;
    case PTX_SREG_CLOCK64: v = w->ninsn; break;
    case PTX_SREG_GLOBALTIMER: v = k->warp_insn * 1000; break;
    case PTX_SREG_DYNAMIC_SMEM_SIZE: v = k->dyn_shared; break;
    case PTX_SREG_TOTAL_SMEM_SIZE: v = s->c->shared_size; break;
    default: v = 0; break;
    }
    for (uint32_t l = 0; l < 32; l++)
        out[l] = v;
}

void exec_opnd_read(const struct step *s, const struct ptx_operand *o, uint64_t out[32])
{
    switch (o->kind) {
    case PTX_OPND_REG:
        memcpy(out, reg_ptr(s->w, o->reg), 32 * sizeof *out);
        if (o->neg)
            for (uint32_t l = 0; l < 32; l++)
                out[l] = !out[l];
        return;
    case PTX_OPND_IMM:
        for (uint32_t l = 0; l < 32; l++)
            out[l] = (uint64_t)o->imm;
        return;
    case PTX_OPND_SREG:
        sreg_read(s, o, out);
        return;
    case PTX_OPND_VAR: {
        uint64_t a = exec_var_addr(s, &s->m->vars[o->sym]);
        for (uint32_t l = 0; l < 32; l++)
            out[l] = a;
        return;
    }
    case PTX_OPND_LABEL:
        for (uint32_t l = 0; l < 32; l++)
            out[l] = (uint64_t)o->imm;
        return;
    default:
        memset(out, 0, 32 * sizeof *out);
        return;
    }
}

/* Write lanes of `mask` of register r, truncated to the register's width. */
void exec_reg_write(const struct step *s, uint32_t r, uint32_t mask, const uint64_t v[32])
{
    if (r == PTX_NO_INDEX)
        return;
    uint64_t *d = reg_ptr(s->w, r);
    uint64_t wm = exec_reg_width_mask(s, r);
    if (mask == FULL_MASK && wm == ~0ull) {
        memcpy(d, v, 32 * sizeof *d);
        return;
    }
    FOR_LANES(l, mask) d[l] = v[l] & wm;
}

void exec_dst_write(const struct step *s, const struct ptx_operand *o, uint32_t mask,
                    const uint64_t v[32])
{
    if (o->kind == PTX_OPND_REG)
        exec_reg_write(s, o->reg, mask, v);
}

/* Element i of a vector operand {a, b, ...} for every lane: a register's
 * value or an immediate element (vec_imm).  Returns 0 for a "_" element. */
int exec_vec_elem(const struct step *s, const struct ptx_operand *o, unsigned i,
                  uint64_t out[32])
{
    if (o->vec_imm & (1u << i)) {
        for (unsigned l = 0; l < 32; l++)
            out[l] = o->vec[i];
        return 1;
    }
    if (o->vec[i] == PTX_NO_INDEX)
        return 0;
    memcpy(out, reg_ptr(s->w, o->vec[i]), 32 * sizeof out[0]);
    return 1;
}

/* ---- SIMT stack ----------------------------------------------------------- */

static void stack_push(struct func_warp *w, uint32_t pc, uint32_t rpc, uint32_t mask,
                       uint32_t type)
{
    if (w->depth == w->stack_cap) {
        w->stack_cap *= 2;
        w->stack = xrealloc(w->stack, w->stack_cap * sizeof *w->stack);
    }
    w->stack[w->depth++] = (struct simt_entry){pc, rpc, mask, type};
}

static void lanes_exit(struct func_warp *w, uint32_t m)
{
    w->exited |= m;
    for (uint32_t i = 0; i < w->depth; i++)
        w->stack[i].mask &= ~m;
}

void exec_warp_finish(struct func_cta *c, struct func_warp *w)
{
    w->state = FUNC_WARP_DONE;
    while (w->nframes > 1)
        exec_call_pop(w, c->k->m, 0, 0);
    if (c->live_warps > 0)
        c->live_warps--;
    exec_cta_release_all(c);
}

/* Bring the top of the stack to an executable entry: pop empty entries,
 * reconverged entries, finished calls; exit lanes that reach the kernel's end. */
static void settle(struct func_cta *c, struct func_warp *w)
{
    const struct ptx_module *m = c->k->m;
    while (w->depth > 0) {
        struct simt_entry *top = &w->stack[w->depth - 1];
        if (top->mask == 0) {
            if (top->type == SIMT_CALL)
                exec_call_pop(w, m, 0, 0);
            w->depth--;
            continue;
        }
        if (top->pc != PC_EXIT) {
            const struct ptx_func *f = &m->funcs[w->cur_func];
            if (top->pc - f->first_pc >= f->ninsts)
                top->pc = PC_EXIT; /* fell off the end of the function */
        }
        if (top->pc == PC_EXIT) {
            if (top->type == SIMT_CALL) {
                exec_call_pop(w, m, top->mask, 1);
                w->depth--;
                if (w->depth > 0) {
                    struct simt_entry *nt = &w->stack[w->depth - 1];
                    if (nt->type == SIMT_NORMAL && nt->pc == nt->rpc)
                        w->depth--;
                }
                continue;
            }
            if (w->nframes == 1) {
                lanes_exit(w, top->mask);
                continue;
            }
            w->depth--; /* reached the function exit: wait in the entry below */
            continue;
        }
        if (top->type == SIMT_NORMAL && top->pc == top->rpc) {
            w->depth--;
            continue;
        }
        break;
    }
    if (w->depth == 0 && w->state != FUNC_WARP_DONE)
        exec_warp_finish(c, w);
}

/* Update the stack after an instruction: lanes `taken` go to tpc, the other
 * remaining lanes to npc. */
static void simt_update(struct func_warp *w, uint32_t taken, uint32_t tpc, uint32_t npc,
                        uint32_t reconv, uint8_t *diverged)
{
    if (w->depth == 0)
        return;
    struct simt_entry *top = &w->stack[w->depth - 1];
    uint32_t rem = top->mask;
    uint32_t T = taken & rem, N = rem & ~T;
    if (rem == 0)
        return;
    if (T == 0 || N == 0) {
        uint32_t next = T ? tpc : npc;
        if (next == top->rpc && top->type == SIMT_NORMAL)
            w->depth--;
        else
            top->pc = next;
        return;
    }
    *diverged = 1;
    if (reconv != top->rpc || top->type == SIMT_CALL)
        top->pc = reconv;
    else
        w->depth--;
    if (npc != reconv)
        stack_push(w, npc, reconv, N, SIMT_NORMAL);
    if (tpc != reconv)
        stack_push(w, tpc, reconv, T, SIMT_NORMAL);
}

/* ---- the step ------------------------------------------------------------- */

static int exec_alu(const struct step *s, uint32_t mask)
{
    const struct ptx_inst *in = s->in;
    uint64_t src[ALU_MAX_SRC][32];
    uint64_t dst[ALU_MAX_DST][32];
    if (in->nsrc > ALU_MAX_SRC || in->ndst > ALU_MAX_DST)
        return exec_unsupported(s, "operand count");
    for (unsigned i = 0; i < in->nsrc; i++)
        exec_opnd_read(s, ptx_src(s->m, in, i), src[i]);
    int rc = alu_exec(in, mask, (const uint64_t(*)[32])src, dst, &s->w->carry, s->e);
    if (rc != WS_OK) {
        char pos[768], msg[ERR_MSG_MAX];
        snprintf(msg, sizeof msg, "%s", s->e->msg);
        exec_where(s, first_lane(mask), pos, sizeof pos);
        return err_set(s->e, rc, "%s: %s", pos, msg);
    }
    for (unsigned i = 0; i < in->ndst; i++) {
        const struct ptx_operand *d = ptx_dst(s->m, in, i);
        if (d->kind == PTX_OPND_REG) {
            uint64_t *r = reg_ptr(s->w, d->reg);
            if (mask == FULL_MASK)
                memcpy(r, dst[i], sizeof dst[i]);
            else
                FOR_LANES(l, mask) r[l] = dst[i][l];
        }
    }
    return WS_OK;
}

/* The instruction at s->pc for lanes `mask` (the guard applied): every
 * instruction except `call` (which pushes on the SIMT stack, done by the
 * caller).  Lanes leaving the kernel go to x->exit, a branch or return sets
 * x->taken, x->tpc and x->reconv; the caller applies both to its stack. */
int exec_inst(const struct step *s, uint32_t mask, struct func_trace *t, struct exec_out *x)
{
    const struct ptx_module *m = s->m;
    const struct ptx_inst *in = s->in;
    switch ((enum ptx_op)in->op) {
    case PTX_OP_MOV: return exec_mov(s, mask);
    case PTX_OP_LD:
    case PTX_OP_LDU: return exec_ld(s, mask, t);
    case PTX_OP_ST: return exec_st(s, mask, t);
    case PTX_OP_ATOM:
    case PTX_OP_RED: return exec_atom(s, mask, t);
    case PTX_OP_CVTA: return exec_cvta(s, mask);
    case PTX_OP_TEX:
    case PTX_OP_TLD4: return exec_tex(s, mask, t);
    case PTX_OP_TXQ: return exec_txq(s, mask);
    case PTX_OP_SULD:
    case PTX_OP_SUST: return exec_surf(s, mask, t);
    case PTX_OP_BRA:
        x->taken = mask;
        x->tpc = (uint32_t)ptx_src(m, in, 0)->imm;
        x->reconv = s->k->an->pc[s->pc].reconv;
        return WS_OK;
    case PTX_OP_RET:
        if (s->w->nframes == 1) {
            x->exit = mask;
        } else {
            x->taken = mask;
            x->tpc = PC_EXIT;
            x->reconv = PC_EXIT;
        }
        return WS_OK;
    case PTX_OP_EXIT: x->exit = mask; return WS_OK;
    case PTX_OP_TRAP:
        if (mask)
            return exec_fail(s, first_lane(mask), WS_ERR_FAULT, "trap instruction executed");
        return WS_OK;
    case PTX_OP_BAR: return exec_bar(s, mask, t);
    case PTX_OP_MEMBAR:
    case PTX_OP_FENCE:
    case PTX_OP_PREFETCH:
    case PTX_OP_NANOSLEEP:
    case PTX_OP_PMEVENT: return WS_OK;
    case PTX_OP_SHFL: return exec_shfl(s, mask);
    case PTX_OP_VOTE: return exec_vote(s, mask);
    case PTX_OP_ACTIVEMASK: {
        uint64_t v[32];
        for (uint32_t l = 0; l < 32; l++)
            v[l] = mask;
        exec_dst_write(s, ptx_dst(m, in, 0), mask, v);
        return WS_OK;
    }
    case PTX_OP_MATCH: return exec_match(s, mask);
    case PTX_OP_REDUX: return exec_redux(s, mask);
    default:
        if (alu_handles((enum ptx_op)in->op))
            return mask ? exec_alu(s, mask) : WS_OK;
        char what[64];
        snprintf(what, sizeof what, "instruction '%s'", ptx_op_name((enum ptx_op)in->op));
        return exec_unsupported(s, what);
    }
}

int func_warp_step(struct func_cta *c, struct func_warp *w, struct func_trace *t,
                   struct err *e)
{
    struct func_kernel *k = c->k;
    const struct ptx_module *m = k->m;
    settle(c, w);
    if (w->state != FUNC_WARP_READY) {
        t->exited = w->state == FUNC_WARP_DONE;
        t->mask = 0;
        return WS_OK;
    }
    struct simt_entry *top = &w->stack[w->depth - 1];
    uint32_t pc = top->pc;
    const struct ptx_inst *in = &m->insts[pc];
    uint32_t active = top->mask;
    uint32_t mask = exec_guard(w, in, active);
    struct step s = {c, w, k, m, in, pc, active, e};
    const struct pc_info *pi = &k->an->pc[pc];
    t->pc = pc;
    t->active = active;
    t->mask = mask;
    t->iclass = pi->iclass;
    t->space = PTX_SPACE_NONE;
    t->size = 0;
    t->is_mem = t->is_store = t->is_atomic = 0;
    t->diverged = t->barrier = t->exited = 0;

    struct func_sink *sk = c->sink;
    struct func_stats *st = sk ? &sk->st : k->env->stats;
    func_count_insn(st, pi, active, mask);
    if (sk)
        sk->warp_insn++;
    else
        k->warp_insn++;
    w->ninsn++;

    struct exec_out x = {0, 0, pc + 1, PC_EXIT};
    if (in->op == PTX_OP_CALL) {
        if (mask) {
            const struct ptx_operand *fo = ptx_src(m, in, 0);
            if (fo->kind != PTX_OPND_FUNC)
                return exec_unsupported(&s, "indirect call");
            const struct ptx_func *callee = &m->funcs[fo->sym];
            int rc;
            if (callee->is_extern || callee->ninsts == 0) {
                rc = exec_extern_call(&s, mask, callee);
            } else {
                rc = exec_call_push(&s, mask, fo->sym);
                if (rc == WS_OK) {
                    top->pc = pc + 1;
                    stack_push(w, callee->first_pc, PC_EXIT, mask, SIMT_CALL);
                    goto done;
                }
            }
            if (rc != WS_OK)
                return rc;
        }
    } else {
        int rc = exec_inst(&s, mask, t, &x);
        if (rc != WS_OK)
            return rc;
        if (x.exit)
            lanes_exit(w, x.exit);
    }
    simt_update(w, x.taken, x.tpc, pc + 1, x.reconv, &t->diverged);
done:
    if (sk) /* a step that faulted is counted but not recorded */
        *ARRAY_PUSH(sk->steps, sk->nsteps, sk->steps_cap) = (struct func_sink_step){w, pc};
    settle(c, w);
    t->exited = w->state == FUNC_WARP_DONE;
    return WS_OK;
}
