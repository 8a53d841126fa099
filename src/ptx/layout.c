/* layout.c: places parameter, local and shared variables (ptx_var.offset). */
#include "ptx/layout.h"

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
    uint64_t shared = 0;
    uint32_t dyn_align = 16;
    for (uint32_t i = 0; i < m->nvars; i++) {
        struct ptx_var *v = &m->vars[i];
        if (v->space == PTX_SPACE_SHARED) {
            if (v->flags & PTX_VAR_EXTERN) {
                if (v->align > dyn_align)
                    dyn_align = v->align;
            } else {
                layout_place(v, &shared);
            }
        } else if (v->space == PTX_SPACE_LOCAL && v->func != PTX_NO_INDEX) {
            layout_place(v, &m->funcs[v->func].local_bytes);
        } else if (v->space == PTX_SPACE_PARAM && (v->flags & PTX_VAR_CALL_PARAM) &&
                   v->func != PTX_NO_INDEX) {
            layout_place(v, &m->funcs[v->func].frame_param_bytes);
        }
    }
    m->shared_static_size = shared;
    /* Dynamic shared memory starts after the static part, aligned to 16 (or
     * to a larger .align of an extern .shared declaration). */
    uint64_t dyn = layout_align_up(shared, dyn_align);
    for (uint32_t i = 0; i < m->nvars; i++) {
        struct ptx_var *v = &m->vars[i];
        if (v->space == PTX_SPACE_SHARED && (v->flags & PTX_VAR_EXTERN))
            v->offset = dyn;
    }
}
