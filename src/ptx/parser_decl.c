/* parser_decl.c: variable and register declarations (attributes, array
 * dimensions) and variable initializers. */
#include "ptx/parser_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/log.h"
#include "ptx/layout.h"

/* ---- initializers ------------------------------------------------------------- */

/* Largest variable with an initializer (bytes are built in host memory). */
#define INIT_MAX_BYTES (1ull << 28)

struct init_ctx {
    uint8_t type;
    unsigned esz;        /* scalar element size */
    uint64_t cap_units;  /* scalar slots available, UINT64_MAX when unsized */
    uint64_t used_units; /* highest slot written + 1 */
    uint64_t *stride;    /* scalar units per item at each brace depth */
    size_t nstride;
};

static void init_store(struct parser *p, struct init_ctx *c, uint64_t slot,
                       const struct ptx_tok *t, int neg)
{
    if (slot >= c->cap_units)
        p_fail(p, t, "too many initializers at");
    if (slot > (SIZE_MAX / 2) / c->esz)
        p_fail(p, t, "initializer too large at");
    size_t need = (size_t)(slot + 1) * c->esz;
    if (need > p->cap_init) {
        size_t nc = p->cap_init ? p->cap_init : 64;
        while (nc < need)
            nc *= 2;
        p->initbuf = xrealloc(p->initbuf, nc);
        memset(p->initbuf + p->cap_init, 0, nc - p->cap_init);
        p->cap_init = nc;
    }
    uint64_t bits = 0;
    int is_f = ptx_type_is_float(c->type);
    if (c->type == PTX_T_F32 || c->type == PTX_T_F64) {
        double d;
        if (t->kind == PTX_TOK_FLOAT) {
            d = t->fval;
        } else if (t->kind == PTX_TOK_F32) {
            uint32_t b = (uint32_t)t->ival;
            float f;
            memcpy(&f, &b, 4);
            d = f;
        } else if (t->kind == PTX_TOK_F64) {
            memcpy(&d, &t->ival, 8);
        } else {
            d = (double)t->ival;
        }
        if (neg)
            d = -d;
        if (c->type == PTX_T_F32) {
            float f = (float)d;
            uint32_t b;
            memcpy(&b, &f, 4);
            /* keep the exact bits of a 0f literal (NaN payloads) */
            if (t->kind == PTX_TOK_F32)
                b = (uint32_t)t->ival ^ (neg ? 0x80000000u : 0);
            bits = b;
        } else {
            memcpy(&bits, &d, 8);
            if (t->kind == PTX_TOK_F64)
                bits = t->ival ^ (neg ? (1ull << 63) : 0);
        }
    } else if (is_f) {
        if (t->kind != PTX_TOK_INT)
            p_unsup(p, t, "half-precision initializer literal");
        bits = neg ? (uint64_t)0 - t->ival : t->ival;
    } else {
        if (t->kind == PTX_TOK_FLOAT)
            p_fail(p, t, "floating-point initializer for an integer variable");
        bits = neg ? (uint64_t)0 - t->ival : t->ival;
    }
    for (unsigned i = 0; i < c->esz; i++)
        p->initbuf[slot * c->esz + i] = (uint8_t)(bits >> (8 * i));
    if (slot + 1 > c->used_units)
        c->used_units = slot + 1;
}

static void init_scalar(struct parser *p, struct init_ctx *c, uint64_t slot)
{
    int neg = 0;
    if (tok_punct(p_cur(p), '-')) {
        neg = 1;
        p_next(p);
    }
    const struct ptx_tok *t = p_cur(p);
    if (t->kind == PTX_TOK_IDENT)
        p_unsup(p, t, "address initializer");
    if (t->kind != PTX_TOK_INT && t->kind != PTX_TOK_FLOAT && t->kind != PTX_TOK_F32 &&
        t->kind != PTX_TOK_F64)
        p_fail(p, t, "expected an initializer value, found");
    if (t->kind == PTX_TOK_INT && t->overflow)
        p_fail(p, t, "integer literal out of range");
    init_store(p, c, slot, t, neg);
    p_next(p);
}

/* Parses the items after '{' up to and including '}'. */
static void init_list(struct parser *p, struct init_ctx *c, size_t depth, uint64_t base,
                      unsigned nest)
{
    if (nest > 64)
        p_fail(p, p_cur(p), "initializer nested too deeply at");
    uint64_t stride = depth < c->nstride ? c->stride[depth] : 1;
    uint64_t pos = 0;
    if (parser_accept(p, '}'))
        return;
    for (;;) {
        if (tok_punct(p_cur(p), '{')) {
            p_next(p);
            if (stride > 1 && pos % stride)
                pos += stride - pos % stride;
            if (base + pos < base)
                p_fail(p, p_cur(p), "initializer too large at");
            init_list(p, c, depth + 1, base + pos, nest + 1);
            pos += stride;
        } else {
            init_scalar(p, c, base + pos);
            pos++;
        }
        if (parser_accept(p, '}'))
            return;
        parser_expect(p, ',');
    }
}

/* Initializer after '='.  vecn: vector width of the element type; p->dims
 * holds the array dimensions (first 0 when unsized). */
static void parse_init(struct parser *p, uint8_t type, uint64_t size, unsigned vecn,
                       int unsized, uint8_t **out, uint64_t *size_out)
{
    struct init_ctx c = {.type = type, .esz = ptx_type_size((enum ptx_type)type)};
    if (c.esz == 0)
        p_fail(p, p_cur(p), "initializer for an untyped variable at");
    if (size > INIT_MAX_BYTES)
        p_unsup(p, p_cur(p), "initialized variable larger than 256 MiB at");
    c.cap_units = unsized ? INIT_MAX_BYTES / c.esz : size / c.esz;
    /* stride[k]: scalar units per item of a brace list at depth k */
    size_t nd = p->ndims;
    p->nstride = 0;
    for (size_t k = 0; k <= nd; k++)
        *ARRAY_PUSH(p->stride, p->nstride, p->cap_stride) = 1;
    uint64_t acc = vecn;
    for (size_t k = nd; k-- > 0;) {
        p->stride[k] = acc;
        if (p->dims[k])
            acc *= p->dims[k]; /* bounded by parser_dims_size() */
    }
    c.stride = p->stride;
    c.nstride = nd + (vecn > 1 ? 1 : 0);
    if (p->initbuf)
        memset(p->initbuf, 0, p->cap_init);
    if (tok_punct(p_cur(p), '{')) {
        p_next(p);
        init_list(p, &c, 0, 0, 0);
    } else {
        init_scalar(p, &c, 0);
    }
    if (unsized) {
        uint64_t unit = nd ? p->stride[0] : 1;
        uint64_t units = (c.used_units + unit - 1) / unit * unit;
        if (units > (1ull << 40) / c.esz)
            p_fail(p, p_cur(p), "variable too large at");
        size = units * c.esz;
    }
    uint8_t *bytes = xcalloc(size ? size : 1, 1);
    uint64_t have = c.used_units * c.esz;
    if (have)
        memcpy(bytes, p->initbuf, have < size ? have : size);
    *out = bytes;
    *size_out = size;
}

/* ---- declarations --------------------------------------------------------------- */

/* Parses ".align N", ".vN", ".ptr", state spaces after .ptr,
 * ".attribute(.managed)" and the type, in any order, stopping at the first
 * non-directive token. */
void parser_decl_attrs(struct parser *p, struct decl_attrs *a)
{
    a->type = PTX_T_NONE;
    a->vecn = 1;
    a->align = 0;
    a->ptr = 0;
    a->managed = 0;
    while (p_cur(p)->kind == PTX_TOK_DIR) {
        const struct ptx_tok *t = p_cur(p);
        enum ptx_type ty = parser_type_from_dir(t);
        if (ty != PTX_T_NONE) {
            if (a->type != PTX_T_NONE)
                p_fail(p, t, "second type in declaration");
            a->type = (uint8_t)ty;
            p_next(p);
        } else if (tok_is(t, ".align")) {
            p_next(p);
            const struct ptx_tok *nt = p_cur(p);
            uint64_t al = parser_uint(p, "alignment");
            if (al == 0 || al > (1u << 20) || (al & (al - 1)))
                p_fail(p, nt, "bad alignment");
            a->align = (uint32_t)al;
        } else if (tok_is(t, ".v2") || tok_is(t, ".v4") || tok_is(t, ".v8")) {
            a->vecn = (unsigned)(t->s[2] - '0');
            p_next(p);
        } else if (tok_is(t, ".ptr")) {
            a->ptr = 1;
            p_next(p);
        } else if (a->ptr && (tok_is(t, ".global") || tok_is(t, ".const") ||
                              tok_is(t, ".shared") || tok_is(t, ".local"))) {
            p_next(p);
        } else if (tok_is(t, ".attribute")) {
            p_next(p);
            parser_expect(p, '(');
            const struct ptx_tok *at = p_cur(p);
            if (!tok_is(at, ".managed"))
                p_unsup(p, at, "variable attribute (only .attribute(.managed) is supported):");
            p_next(p);
            parser_expect(p, ')');
            a->managed = 1;
        } else if (tok_is(t, ".texref") || tok_is(t, ".surfref") ||
                   tok_is(t, ".samplerref")) {
            p_unsup(p, t, "legacy texture, surface and sampler references (texture<>, "
                          "surface<>; removed in CUDA 12) are not supported; use texture and "
                          "surface objects:");
        } else {
            break;
        }
    }
    if (a->type == PTX_T_NONE)
        p_fail(p, p_cur(p), "expected a type, found");
}

/* Parses "[N][M]..." into p->dims; returns 1 if the first is "[]". */
int parser_dims(struct parser *p)
{
    int unsized = 0;
    p->ndims = 0;
    while (tok_punct(p_cur(p), '[')) {
        p_next(p);
        if (tok_punct(p_cur(p), ']')) {
            if (p->ndims)
                p_fail(p, p_cur(p), "only the first array dimension may be empty at");
            unsized = 1;
            *ARRAY_PUSH(p->dims, p->ndims, p->cap_dims) = 0;
        } else {
            const struct ptx_tok *t = p_cur(p);
            uint64_t n = parser_uint(p, "array size");
            if (n == 0 || n > (1ull << 40))
                p_fail(p, t, "bad array size");
            *ARRAY_PUSH(p->dims, p->ndims, p->cap_dims) = n;
        }
        parser_expect(p, ']');
    }
    return unsized;
}

uint64_t parser_dims_size(struct parser *p, const struct ptx_tok *at, uint64_t elem)
{
    uint64_t s = elem;
    for (size_t i = 0; i < p->ndims; i++) {
        if (p->dims[i] == 0)
            continue;
        if (s > (1ull << 40) / p->dims[i])
            p_fail(p, at, "variable too large");
        s *= p->dims[i];
    }
    return s;
}

/* A .global/.const/.shared/.local (or body .param) declaration; the space
 * directive is the current token. */
void parser_var_decl(struct parser *p, uint8_t space, uint32_t vflags)
{
    const struct ptx_tok *sp = p_next(p);
    struct decl_attrs a;
    parser_decl_attrs(p, &a);
    if (a.vecn > 4)
        p_unsup(p, sp, "vector width in declaration");
    if (a.managed && space != PTX_SPACE_GLOBAL)
        p_fail(p, sp, ".attribute(.managed) on a variable that is not .global:");
    unsigned esz = ptx_type_size(a.type);
    for (;;) {
        const struct ptx_tok *name = parser_ident(p, "a variable name");
        int unsized = parser_dims(p);
        uint64_t elem = (uint64_t)esz * a.vecn;
        uint64_t size = parser_dims_size(p, name, elem);
        if (unsized)
            size = 0;
        uint32_t align = a.align ? a.align : (uint32_t)elem;
        uint8_t *init = NULL;
        if (tok_punct(p_cur(p), '=')) {
            if (space != PTX_SPACE_GLOBAL && space != PTX_SPACE_CONST)
                p_fail(p, p_cur(p), "initializer not allowed for this variable at");
            p_next(p);
            parse_init(p, a.type, size, a.vecn, unsized, &init, &size);
        }
        uint32_t flags = vflags | (a.managed ? PTX_VAR_MANAGED : 0u);
        if (unsized && !(flags & PTX_VAR_EXTERN) && !init) {
            if (space == PTX_SPACE_SHARED)
                flags |= PTX_VAR_EXTERN; /* "[]" shared: dynamic shared memory */
        }
        uint32_t vi = parser_new_var(p, name, space, a.type, flags, align, size);
        p->m->vars[vi].init = init;
        parser_declare(p, name, SYM_VAR, vi);
        if (parser_accept(p, ','))
            continue;
        parser_expect(p, ';');
        break;
    }
}

void parser_reg_decl(struct parser *p)
{
    const struct ptx_tok *kw = p_next(p);
    struct decl_attrs a;
    parser_decl_attrs(p, &a);
    if (a.vecn != 1)
        p_unsup(p, kw, "vector register declaration");
    struct ptx_func *f = &p->m->funcs[p->cur_func];
    for (;;) {
        const struct ptx_tok *name = parser_ident(p, "a register name");
        if (parser_accept(p, '<')) {
            const struct ptx_tok *nt = p_cur(p);
            uint64_t n = parser_uint(p, "register count");
            if (n > (1u << 20) || f->nregs + n > (1u << 22))
                p_fail(p, nt, "register range too large");
            parser_expect(p, '>');
            for (uint64_t i = 0; i < n; i++) {
                struct ptx_reg *r = ARRAY_PUSH(f->regs, f->nregs, p->cap_regs);
                size_t ln = name->len + 24;
                r->name = xmalloc(ln);
                snprintf(r->name, ln, "%.*s%llu", (int)name->len, name->s,
                         (unsigned long long)i);
                r->type = a.type;
                if (!parser_sym_declare(&p->syms, r->name, (uint32_t)strlen(r->name), SYM_REG,
                                 f->nregs - 1))
                    p_fail(p, name, "duplicate declaration of");
            }
        } else {
            struct ptx_reg *r = ARRAY_PUSH(f->regs, f->nregs, p->cap_regs);
            r->name = xstrndup(name->s, name->len);
            r->type = a.type;
            parser_declare(p, name, SYM_REG, f->nregs - 1);
        }
        if (parser_accept(p, ','))
            continue;
        parser_expect(p, ';');
        break;
    }
}

