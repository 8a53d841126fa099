/* layout.c: places parameter, local and shared variables (ptx_var.offset). */
#include "ptx/layout.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

static uint64_t layout_align_up(uint64_t x, uint64_t a)
{
    if (a <= 1)
        return x;
    return (x + a - 1) / a * a;
}

static uint64_t layout_place(struct ptx_var *v, uint64_t *cursor)
{
    uint64_t a = v->align ? v->align : 1;
    v->offset = layout_align_up(*cursor, a);
    *cursor = v->offset + v->size;
    return v->offset;
}

/* Marks in seen[] every function kernel `entry` may run (itself and its
 * callees, transitively) and in use[] (one bit per shared variable, by its
 * rank in sh_rank) every shared variable those functions declare or name. */
static void layout_kernel_uses(const struct ptx_module *m, uint32_t entry, const uint32_t *sh_rank,
                               uint8_t *seen, uint32_t *stack, uint8_t *use)
{
    uint32_t top = 0;
    seen[entry] = 1;
    stack[top++] = entry;
    while (top) {
        const struct ptx_func *f = &m->funcs[stack[--top]];
        for (uint32_t pc = f->first_pc; pc < f->first_pc + f->ninsts; pc++) {
            const struct ptx_inst *in = &m->insts[pc];
            for (uint32_t i = 0; i < (uint32_t)in->ndst + in->nsrc; i++) {
                const struct ptx_operand *o = &m->opnds[in->opnd + i];
                if (o->sym == PTX_NO_INDEX)
                    continue;
                if ((o->kind == PTX_OPND_ADDR || o->kind == PTX_OPND_VAR) &&
                    sh_rank[o->sym] != PTX_NO_INDEX) {
                    use[sh_rank[o->sym] / 8] |= (uint8_t)(1u << sh_rank[o->sym] % 8);
                } else if (o->kind == PTX_OPND_FUNC && !seen[o->sym]) {
                    seen[o->sym] = 1;
                    stack[top++] = o->sym;
                }
            }
        }
    }
    for (uint32_t i = 0; i < m->nvars; i++)
        if (sh_rank[i] != PTX_NO_INDEX && m->vars[i].func != PTX_NO_INDEX &&
            seen[m->vars[i].func])
            use[sh_rank[i] / 8] |= (uint8_t)(1u << sh_rank[i] % 8);
}

/* Shared variables.  A kernel's CTA holds only the shared variables the kernel
 * can reach: those declared in its body or in a function it calls (nvcc
 * declares a function's __shared__ variables there) and those at module scope
 * that it or a callee names.  Each variable has one offset, valid in every
 * kernel that uses it: taken in declaration order, a variable goes after the
 * variables already placed in every kernel that uses it, so a kernel's static
 * size (ptx_func.shared_bytes) counts only its own variables.  Extern
 * (dynamic) shared variables all sit at one base, past the static part of
 * every kernel that uses one, aligned to 16 or a larger .align. */
static void layout_shared(struct ptx_module *m)
{
    uint32_t *sh_rank = xmalloc(((size_t)m->nvars + 1) * sizeof *sh_rank);
    uint32_t nsh = 0, dyn_align = 16;
    for (uint32_t i = 0; i < m->nvars; i++) {
        const struct ptx_var *v = &m->vars[i];
        sh_rank[i] = v->space == PTX_SPACE_SHARED ? nsh++ : PTX_NO_INDEX;
        if (v->space == PTX_SPACE_SHARED && (v->flags & PTX_VAR_EXTERN) && v->align > dyn_align)
            dyn_align = v->align;
    }
    size_t row = ((size_t)nsh + 7) / 8;
    uint8_t *use = xcalloc((size_t)m->nfuncs * row + 1, 1); /* row per kernel */
    uint8_t *seen = xmalloc((size_t)m->nfuncs + 1);
    uint32_t *stack = xmalloc(((size_t)m->nfuncs + 1) * sizeof *stack);
    for (uint32_t k = 0; k < m->nfuncs; k++) {
        m->funcs[k].shared_bytes = 0;
        if (!m->funcs[k].is_entry)
            continue;
        memset(seen, 0, m->nfuncs);
        layout_kernel_uses(m, k, sh_rank, seen, stack, use + k * row);
    }
#define USES(k, r) (use[(size_t)(k) * row + (r) / 8] >> (r) % 8 & 1)
    uint64_t dyn = 0;
    for (uint32_t i = 0; i < m->nvars; i++) {
        struct ptx_var *v = &m->vars[i];
        if (sh_rank[i] == PTX_NO_INDEX || (v->flags & PTX_VAR_EXTERN))
            continue;
        uint64_t cursor = 0;
        for (uint32_t k = 0; k < m->nfuncs; k++)
            if (USES(k, sh_rank[i]) && m->funcs[k].shared_bytes > cursor)
                cursor = m->funcs[k].shared_bytes;
        layout_place(v, &cursor);
        for (uint32_t k = 0; k < m->nfuncs; k++)
            if (USES(k, sh_rank[i]))
                m->funcs[k].shared_bytes = cursor;
    }
    /* the dynamic base, past the static part of every kernel with an extern */
    for (uint32_t i = 0; i < m->nvars; i++)
        if (sh_rank[i] != PTX_NO_INDEX && (m->vars[i].flags & PTX_VAR_EXTERN))
            for (uint32_t k = 0; k < m->nfuncs; k++)
                if (USES(k, sh_rank[i])) {
                    uint64_t b = layout_align_up(m->funcs[k].shared_bytes, dyn_align);
                    if (b > dyn)
                        dyn = b;
                }
    for (uint32_t i = 0; i < m->nvars; i++)
        if (sh_rank[i] != PTX_NO_INDEX && (m->vars[i].flags & PTX_VAR_EXTERN)) {
            m->vars[i].offset = dyn;
            for (uint32_t k = 0; k < m->nfuncs; k++)
                if (USES(k, sh_rank[i]))
                    m->funcs[k].shared_bytes = dyn;
        }
#undef USES
    free(stack);
    free(seen);
    free(use);
    free(sh_rank);
}

void ptx_layout(struct ptx_module *m)
{
    /* Kernel parameter buffers and per-function param frames: the formals
     * (and for .func the return params first) in declaration order, then the
     * call-site .param variables in declaration order. */
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        struct ptx_func *f = &m->funcs[fi];
        uint64_t cur = 0;
        for (uint32_t i = 0; i < f->nrets; i++)
            layout_place(&m->vars[f->rets[i]], &cur);
        for (uint32_t i = 0; i < f->nparams; i++)
            layout_place(&m->vars[f->params[i]], &cur);
        if (f->is_entry) {
            f->param_bytes = cur;
            cur = 0;
        } else {
            f->param_bytes = 0;
        }
        f->frame_param_bytes = cur;
        f->local_bytes = 0;
    }
    for (uint32_t i = 0; i < m->nvars; i++) {
        struct ptx_var *v = &m->vars[i];
        if (v->space == PTX_SPACE_LOCAL && v->func != PTX_NO_INDEX) {
            layout_place(v, &m->funcs[v->func].local_bytes);
        } else if (v->space == PTX_SPACE_PARAM && (v->flags & PTX_VAR_CALL_PARAM) &&
                   v->func != PTX_NO_INDEX) {
            layout_place(v, &m->funcs[v->func].frame_param_bytes);
        }
    }
    layout_shared(m);
}
