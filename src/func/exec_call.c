/* exec_call.c: calls: call frames (argument and return value copies) and
 * calls of external functions (vprintf, __assertfail). */
#include "func/exec_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/log.h"
#include "func/vprintf.h"

/* ---- calls ---------------------------------------------------------------- */

/* Bytes of call argument/return operand o for lane, from the current frame. */
static void opnd_bytes(const struct step *s, const struct ptx_operand *o, uint32_t lane,
                       uint8_t *buf, uint64_t n)
{
    struct func_warp *w = s->w;
    memset(buf, 0, n);
    if (o->kind == PTX_OPND_VAR) {
        const struct ptx_var *v = &s->m->vars[o->sym];
        uint64_t sz = v->size < n ? v->size : n;
        uint64_t off = cur_frame(w)->param_base + v->offset;
        if (v->space == PTX_SPACE_PARAM && off + sz <= w->param_top)
            memcpy(buf, w->param + (uint64_t)lane * w->param_cap + off, sz);
        return;
    }
    uint64_t val;
    if (o->kind == PTX_OPND_REG)
        val = reg_ptr(w, o->reg)[lane];
    else if (o->kind == PTX_OPND_IMM)
        val = (uint64_t)o->imm;
    else
        val = 0;
    memcpy(buf, &val, n < 8 ? n : 8);
}

struct lane_reader {
    const struct step *s;
    uint32_t lane;
};

static int lane_read(void *ctx, uint64_t addr, void *dst, size_t n)
{
    const struct lane_reader *r = ctx;
    struct err tmp;
    struct step s2 = *r->s;
    s2.e = &tmp;
    uint8_t *p = exec_resolve(&s2, r->lane, PTX_SPACE_NONE, addr, 1, ACC_READ, 0);
    if (!p)
        return -1;
    /* byte-wise so that reads crossing nothing but one allocation stay simple */
    uint8_t *out = dst;
    for (size_t i = 0; i < n; i++) {
        p = exec_resolve(&s2, r->lane, PTX_SPACE_NONE, addr + i, 1, ACC_READ, 0);
        if (!p)
            return -1;
        out[i] = *p;
    }
    return 0;
}

static void read_cstr(const struct step *s, uint32_t lane, uint64_t addr, char *buf, size_t len)
{
    struct lane_reader lr = {s, lane};
    size_t i = 0;
    for (; addr && i + 1 < len; i++) {
        char ch;
        if (lane_read(&lr, addr + i, &ch, 1) != 0 || ch == '\0')
            break;
        buf[i] = ch;
    }
    buf[i] = '\0';
}

int exec_extern_call(const struct step *s, uint32_t mask, const struct ptx_func *callee)
{
    const struct ptx_inst *in = s->in;
    struct func_warp *w = s->w;
    unsigned nargs = in->nsrc - 1u;
    uint64_t arg[5] = {0};
    if (strcmp(callee->name, "vprintf") == 0) {
        FILE *out = s->k->env->out ? s->k->env->out : stdout;
        FOR_LANES(l, mask) {
            for (unsigned i = 0; i < nargs && i < 2; i++)
                opnd_bytes(s, ptx_src(s->m, in, 1 + i), l, (uint8_t *)&arg[i], 8);
            struct lane_reader lr = {s, l};
            struct vprintf_reader rd = {lane_read, &lr};
            uint64_t bad = 0;
            int n = vprintf_format(&rd, arg[0], arg[1], out, &bad);
            if (n < 0) {
                char why[128];
                snprintf(why, sizeof why, "vprintf: cannot read format or argument at 0x%" PRIx64,
                         bad);
                return exec_fail(s, l, WS_ERR_FAULT, why);
            }
            if (in->ndst > 0) {
                const struct ptx_operand *d = ptx_dst(s->m, in, 0);
                if (d->kind == PTX_OPND_VAR) {
                    const struct ptx_var *v = &s->m->vars[d->sym];
                    uint64_t off = cur_frame(w)->param_base + v->offset;
                    int32_t r = n;
                    if (off + 4 <= w->param_top)
                        memcpy(w->param + (uint64_t)l * w->param_cap + off, &r, 4);
                } else if (d->kind == PTX_OPND_REG) {
                    reg_ptr(w, d->reg)[l] = (uint32_t)n;
                }
            }
        }
        return WS_OK;
    }
    if (strcmp(callee->name, "__assertfail") == 0) {
        uint32_t l = first_lane(mask);
        for (unsigned i = 0; i < nargs && i < 5; i++)
            opnd_bytes(s, ptx_src(s->m, in, 1 + i), l, (uint8_t *)&arg[i], 8);
        char msg[256], file[256], fn[256], why[1024];
        read_cstr(s, l, arg[0], msg, sizeof msg);
        read_cstr(s, l, arg[1], file, sizeof file);
        read_cstr(s, l, arg[3], fn, sizeof fn);
        snprintf(why, sizeof why, "assertion failed: %s at %s:%u in %s", msg, file,
                 (uint32_t)arg[2], fn);
        return exec_fail(s, l, WS_ERR_FAULT, why);
    }
    char what[160];
    snprintf(what, sizeof what, "call to external function '%s'", callee->name);
    return exec_unsupported(s, what);
}

/* Push a call frame for `callee` and copy the arguments; the caller pushes the
 * CALL entry. */
int exec_call_push(const struct step *s, uint32_t mask, uint32_t fidx)
{
    struct func_warp *w = s->w;
    const struct ptx_module *m = s->m;
    const struct ptx_func *callee = &m->funcs[fidx];
    const struct ptx_inst *in = s->in;
    if (w->nframes >= FUNC_MAX_CALL_DEPTH)
        return exec_fail(s, first_lane(mask), WS_ERR_FAULT,
                         "call stack overflow (call depth limit)");
    uint64_t local_base = align16(w->local_top);
    uint64_t local_top = align16(local_base + callee->local_bytes);
    uint64_t limit = s->k->env->cfg.local_memory_per_thread;
    if (limit && local_top > limit) {
        char why[200];
        snprintf(why, sizeof why,
                 "local memory stack overflow: %" PRIu64 " bytes needed, limit %" PRIu64
                 " (option local_memory_per_thread)",
                 local_top, limit);
        return exec_fail(s, first_lane(mask), WS_ERR_FAULT, why);
    }
    uint64_t param_base = align16(w->param_top);
    uint64_t param_top = align16(param_base + callee->frame_param_bytes);
    exec_ensure_lanes(&w->local, &w->local_cap, local_top);
    exec_ensure_lanes(&w->param, &w->param_cap, param_top);
    if (w->nframes == w->frames_cap) {
        w->frames_cap *= 2;
        w->frames = xrealloc(w->frames, w->frames_cap * sizeof *w->frames);
    }
    struct call_frame *cf = cur_frame(w);
    const struct analysis *an = s->k->an;
    struct call_frame nf = {fidx, s->pc,
                            cf->reg_base + (uint64_t)an->func_slots[cf->func] * FUNC_WARP_SIZE,
                            local_base, param_base, func_slot_map(an, fidx)};
    /* copy arguments while the caller frame is current */
    unsigned nargs = in->nsrc - 1u;
    for (unsigned i = 0; i < nargs && i < callee->nparams; i++) {
        const struct ptx_var *f = &m->vars[callee->params[i]];
        const struct ptx_operand *a = ptx_src(m, in, 1 + i);
        uint64_t sz = f->size ? f->size : 8;
        if (param_base + f->offset + sz > param_top)
            continue;
        FOR_LANES(l, mask) {
            uint8_t buf[256];
            uint64_t n = sz < sizeof buf ? sz : sizeof buf;
            opnd_bytes(s, a, l, buf, n);
            memcpy(w->param + (uint64_t)l * w->param_cap + param_base + f->offset, buf, n);
        }
    }
    /* zero the callee's local frame */
    if (local_top > local_base)
        for (uint32_t l = 0; l < FUNC_WARP_SIZE; l++)
            memset(w->local + (uint64_t)l * w->local_cap + local_base, 0, local_top - local_base);
    w->frames[w->nframes++] = nf;
    w->local_top = local_top;
    w->param_top = param_top;
    size_t nr = (size_t)an->func_slots[fidx] * FUNC_WARP_SIZE;
    exec_ensure_regs(w, nf.reg_base + nr);
    memset(w->cur_regs, 0, nr * sizeof *w->cur_regs);
    return WS_OK;
}

/* Pop the current call frame; if copy, copy the return values for lanes `mask`. */
void exec_call_pop(struct func_warp *w, const struct ptx_module *m, uint32_t mask, int copy)
{
    ws_assert(w->nframes > 1);
    struct call_frame cf = w->frames[w->nframes - 1];
    struct call_frame *pf = &w->frames[w->nframes - 2];
    const struct ptx_func *callee = &m->funcs[cf.func];
    const struct ptx_inst *call = &m->insts[cf.call_pc];
    if (copy) {
        for (unsigned i = 0; i < call->ndst && i < callee->nrets; i++) {
            const struct ptx_var *rv = &m->vars[callee->rets[i]];
            const struct ptx_operand *d = &m->opnds[call->opnd + i];
            uint64_t sz = rv->size ? rv->size : 8;
            uint64_t src = cf.param_base + rv->offset;
            if (src + sz > w->param_top)
                continue;
            if (d->kind == PTX_OPND_VAR) {
                const struct ptx_var *dv = &m->vars[d->sym];
                uint64_t dst = pf->param_base + dv->offset;
                uint64_t n = sz < dv->size ? sz : dv->size;
                FOR_LANES(l, mask) {
                    uint8_t *lp = w->param + (uint64_t)l * w->param_cap;
                    memmove(lp + dst, lp + src, n);
                }
            } else if (d->kind == PTX_OPND_REG) {
                uint64_t *r = w->regs + pf->reg_base + (size_t)pf->slot[d->reg] * FUNC_WARP_SIZE;
                FOR_LANES(l, mask) {
                    uint64_t v = 0;
                    memcpy(&v, w->param + (uint64_t)l * w->param_cap + src, sz < 8 ? sz : 8);
                    r[l] = v;
                }
            }
        }
    }
    w->nframes--;
    w->local_top = cf.local_base;
    w->param_top = cf.param_base;
    w->cur_regs = w->regs + pf->reg_base;
    w->cur_slot = pf->slot;
    w->cur_func = pf->func;
}

