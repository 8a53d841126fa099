/* parser.c: PTX tokens -> struct ptx_module (ir.h).
 *
 * A recursive-descent parser over the token array from lexer.c.  Names live in
 * one scoped hash table (module symbols at depth 0, then the function scope
 * and nested "{ }" blocks); labels have a per-function table with fix-ups for
 * forward branches.  Errors unwind with longjmp to ptx_parse(), which frees
 * everything; every heap object is reachable from the module or the parser
 * state at any point where an error can be raised. */
#include "ptx/parser.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/log.h"
#include "ptx/layout.h"
#include "ptx/lexer.h"

/* ---- scoped symbol table ---------------------------------------------------- */

enum sym_kind { SYM_NONE = 0, SYM_REG, SYM_VAR, SYM_FUNC, SYM_LABEL };

struct sym_ent {
    const char *key; /* points into the source text or a module-owned string */
    uint32_t klen;
    uint32_t hash;
    uint8_t kind;    /* enum sym_kind; SYM_NONE: name currently undeclared */
    uint32_t depth;  /* scope depth of the visible declaration */
    uint32_t idx;
};

struct sym_undo {
    const char *key;
    uint32_t klen;
    uint8_t kind;
    uint32_t depth;
    uint32_t idx;
};

struct symtab {
    struct sym_ent *ents;
    size_t cap, used;
    struct sym_undo *log;
    size_t nlog, cap_log;
    size_t *marks;   /* log length at each scope entry */
    size_t nmarks, cap_marks;
};

static uint32_t sym_hash(const char *s, uint32_t n)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

static struct sym_ent *sym_slot(struct symtab *t, const char *k, uint32_t n, uint32_t h)
{
    size_t mask = t->cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        struct sym_ent *e = &t->ents[i];
        if (!e->key || (e->hash == h && e->klen == n && memcmp(e->key, k, n) == 0))
            return e;
    }
}

static void sym_grow(struct symtab *t)
{
    struct sym_ent *old = t->ents;
    size_t oldcap = t->cap;
    t->cap = oldcap ? oldcap * 2 : 256;
    t->ents = xcalloc(t->cap, sizeof *t->ents);
    for (size_t i = 0; i < oldcap; i++) {
        if (old[i].key)
            *sym_slot(t, old[i].key, old[i].klen, old[i].hash) = old[i];
    }
    free(old);
}

static const struct sym_ent *sym_lookup(struct symtab *t, const char *k, uint32_t n)
{
    if (!t->cap)
        return NULL;
    const struct sym_ent *e = sym_slot(t, k, n, sym_hash(k, n));
    return (e->key && e->kind != SYM_NONE) ? e : NULL;
}

/* Declare at the current depth; returns 0 if already declared at that depth. */
static int sym_declare(struct symtab *t, const char *k, uint32_t n, uint8_t kind, uint32_t idx)
{
    if ((t->used + 1) * 2 > t->cap)
        sym_grow(t);
    uint32_t h = sym_hash(k, n);
    struct sym_ent *e = sym_slot(t, k, n, h);
    uint32_t depth = (uint32_t)t->nmarks;
    if (!e->key) {
        e->key = k;
        e->klen = n;
        e->hash = h;
        e->kind = SYM_NONE;
        t->used++;
    } else if (e->kind != SYM_NONE && e->depth == depth) {
        return 0;
    }
    if (t->nmarks) {
        struct sym_undo *u = ARRAY_PUSH(t->log, t->nlog, t->cap_log);
        u->key = e->key;
        u->klen = n;
        u->kind = e->kind;
        u->depth = e->depth;
        u->idx = e->idx;
    }
    e->kind = kind;
    e->depth = depth;
    e->idx = idx;
    return 1;
}

static void sym_push(struct symtab *t)
{
    *ARRAY_PUSH(t->marks, t->nmarks, t->cap_marks) = t->nlog;
}

static void sym_pop(struct symtab *t)
{
    ws_assert(t->nmarks > 0);
    size_t mark = t->marks[--t->nmarks];
    while (t->nlog > mark) {
        struct sym_undo *u = &t->log[--t->nlog];
        struct sym_ent *e = sym_slot(t, u->key, u->klen, sym_hash(u->key, u->klen));
        e->kind = u->kind;
        e->depth = u->depth;
        e->idx = u->idx;
    }
}

static void sym_reset(struct symtab *t)
{
    if (t->cap)
        memset(t->ents, 0, t->cap * sizeof *t->ents);
    t->used = 0;
    t->nlog = 0;
    t->nmarks = 0;
}

static void sym_free(struct symtab *t)
{
    free(t->ents);
    free(t->log);
    free(t->marks);
}

/* ---- parser state ------------------------------------------------------------ */

struct label_fix {
    uint32_t opnd; /* index into module->opnds */
    size_t tok;    /* the label token, for the error message */
};

/* A formal parameter while the function header is parsed. */
struct param_desc {
    size_t tok;     /* name token */
    uint8_t type;
    uint32_t align;
    uint64_t size;
    uint32_t flags;
};

struct parser {
    const char *name;
    struct ptx_tok *toks;
    size_t ntoks, pos;
    struct err *e;
    jmp_buf jb;
    struct ptx_module *m;
    size_t cap_funcs, cap_vars, cap_insts, cap_opnds, cap_regs;
    struct symtab syms;
    struct symtab labels;
    struct label_fix *fixes;
    size_t nfixes, cap_fixes;
    struct param_desc *pdesc;
    size_t npdesc, cap_pdesc;
    uint64_t *dims;
    size_t ndims, cap_dims;
    uint64_t *stride;
    size_t nstride, cap_stride;
    uint8_t *fdef;    /* per function: a body has been parsed */
    size_t cap_fdef;
    uint8_t *initbuf; /* initializer bytes being built */
    size_t cap_init;
    uint32_t cur_func; /* PTX_NO_INDEX at module scope */
};

static _Noreturn void p_fail_at(struct parser *p, const struct ptx_tok *t, int code,
                                const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static _Noreturn void p_fail_at(struct parser *p, const struct ptx_tok *t, int code,
                                const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (t->kind == PTX_TOK_EOF) {
        err_set(p->e, code, "%s:%u:%u: %s 'end of file'", p->name, t->line, t->col, what);
    } else {
        int n = t->len > 80 ? 80 : (int)t->len;
        err_set(p->e, code, "%s:%u:%u: %s '%.*s%s'", p->name, t->line, t->col, what, n, t->s,
                t->len > 80 ? "..." : "");
    }
    longjmp(p->jb, 1);
}

#define p_fail(p, t, ...) p_fail_at((p), (t), WS_ERR_PARSE, __VA_ARGS__)
#define p_unsup(p, t, ...) p_fail_at((p), (t), WS_ERR_UNSUPPORTED, __VA_ARGS__)

static const struct ptx_tok *p_cur(struct parser *p)
{
    return &p->toks[p->pos];
}

static const struct ptx_tok *p_peek(struct parser *p, size_t k)
{
    size_t i = p->pos + k;
    return &p->toks[i < p->ntoks ? i : p->ntoks - 1];
}

static const struct ptx_tok *p_next(struct parser *p)
{
    const struct ptx_tok *t = &p->toks[p->pos];
    if (t->kind != PTX_TOK_EOF)
        p->pos++;
    return t;
}

static int tok_is(const struct ptx_tok *t, const char *s)
{
    size_t n = strlen(s);
    return t->len == n && memcmp(t->s, s, n) == 0;
}

static int tok_punct(const struct ptx_tok *t, char c)
{
    return t->kind == PTX_TOK_PUNCT && t->ch == c;
}

static int tok_dir(const struct ptx_tok *t, const char *s)
{
    return t->kind == PTX_TOK_DIR && tok_is(t, s);
}

static void p_expect(struct parser *p, char c)
{
    const struct ptx_tok *t = p_cur(p);
    if (!tok_punct(t, c)) {
        char what[32];
        snprintf(what, sizeof what, "expected '%c' before", c);
        p_fail(p, t, "%s", what);
    }
    p_next(p);
}

static int p_accept(struct parser *p, char c)
{
    if (tok_punct(p_cur(p), c)) {
        p_next(p);
        return 1;
    }
    return 0;
}

static const struct ptx_tok *p_ident(struct parser *p, const char *what)
{
    const struct ptx_tok *t = p_cur(p);
    if (t->kind != PTX_TOK_IDENT)
        p_fail(p, t, "expected %s, found", what);
    return p_next(p);
}

static uint64_t p_uint(struct parser *p, const char *what)
{
    const struct ptx_tok *t = p_cur(p);
    if (t->kind != PTX_TOK_INT)
        p_fail(p, t, "expected %s, found", what);
    if (t->overflow)
        p_fail(p, t, "integer literal out of range");
    p_next(p);
    return t->ival;
}

/* Skip all remaining tokens on the line of token t (for .loc / .file). */
static void p_skip_line(struct parser *p, uint32_t line)
{
    while (p_cur(p)->kind != PTX_TOK_EOF && p_cur(p)->line == line)
        p_next(p);
}

static void p_skip_to_semi(struct parser *p)
{
    while (!tok_punct(p_cur(p), ';')) {
        if (p_cur(p)->kind == PTX_TOK_EOF)
            p_fail(p, p_cur(p), "expected ';' before");
        p_next(p);
    }
    p_next(p);
}

/* ---- types ------------------------------------------------------------------ */

static enum ptx_type type_from_dir(const struct ptx_tok *t)
{
    static const struct {
        const char *n;
        enum ptx_type t;
    } tab[] = {
        {".b8", PTX_T_B8},     {".b16", PTX_T_B16},   {".b32", PTX_T_B32},
        {".b64", PTX_T_B64},   {".b128", PTX_T_B128}, {".u8", PTX_T_U8},
        {".u16", PTX_T_U16},   {".u32", PTX_T_U32},   {".u64", PTX_T_U64},
        {".s8", PTX_T_S8},     {".s16", PTX_T_S16},   {".s32", PTX_T_S32},
        {".s64", PTX_T_S64},   {".f16", PTX_T_F16},   {".f16x2", PTX_T_F16X2},
        {".bf16", PTX_T_BF16}, {".bf16x2", PTX_T_BF16X2}, {".f32", PTX_T_F32},
        {".f64", PTX_T_F64},   {".pred", PTX_T_PRED},
    };
    if (t->kind != PTX_TOK_DIR)
        return PTX_T_NONE;
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (tok_is(t, tab[i].n))
            return tab[i].t;
    return PTX_T_NONE;
}

/* ---- module arrays ------------------------------------------------------------ */

static uint32_t p_new_var(struct parser *p, const struct ptx_tok *name, uint8_t space,
                          uint8_t type, uint32_t flags, uint32_t align, uint64_t size)
{
    struct ptx_module *m = p->m;
    if (m->nvars == UINT32_MAX - 1)
        p_fail(p, name, "too many variables");
    struct ptx_var *v = ARRAY_PUSH(m->vars, m->nvars, p->cap_vars);
    memset(v, 0, sizeof *v);
    v->name = xstrndup(name->s, name->len);
    v->space = space;
    v->type = type;
    v->flags = flags;
    v->align = align;
    v->size = size;
    v->func = p->cur_func;
    return m->nvars - 1;
}

static void p_declare(struct parser *p, const struct ptx_tok *name, uint8_t kind, uint32_t idx)
{
    if (!sym_declare(&p->syms, name->s, name->len, kind, idx))
        p_fail(p, name, "duplicate declaration of");
}

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
    if (p_accept(p, '}'))
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
        if (p_accept(p, '}'))
            return;
        p_expect(p, ',');
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
            acc *= p->dims[k]; /* bounded by dims_size() */
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

struct decl_attrs {
    uint8_t type;
    unsigned vecn;
    uint32_t align;
    int ptr;
};

/* Parses ".align N", ".vN", ".ptr", state spaces after .ptr, and the type, in
 * any order, stopping at the first non-directive token. */
static void parse_decl_attrs(struct parser *p, struct decl_attrs *a)
{
    a->type = PTX_T_NONE;
    a->vecn = 1;
    a->align = 0;
    a->ptr = 0;
    while (p_cur(p)->kind == PTX_TOK_DIR) {
        const struct ptx_tok *t = p_cur(p);
        enum ptx_type ty = type_from_dir(t);
        if (ty != PTX_T_NONE) {
            if (a->type != PTX_T_NONE)
                p_fail(p, t, "second type in declaration");
            a->type = (uint8_t)ty;
            p_next(p);
        } else if (tok_is(t, ".align")) {
            p_next(p);
            const struct ptx_tok *nt = p_cur(p);
            uint64_t al = p_uint(p, "alignment");
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
        } else {
            break;
        }
    }
    if (a->type == PTX_T_NONE)
        p_fail(p, p_cur(p), "expected a type, found");
}

/* Parses "[N][M]..." into p->dims; returns 1 if the first is "[]". */
static int parse_dims(struct parser *p)
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
            uint64_t n = p_uint(p, "array size");
            if (n == 0 || n > (1ull << 40))
                p_fail(p, t, "bad array size");
            *ARRAY_PUSH(p->dims, p->ndims, p->cap_dims) = n;
        }
        p_expect(p, ']');
    }
    return unsized;
}

static uint64_t dims_size(struct parser *p, const struct ptx_tok *at, uint64_t elem)
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
static void parse_var_decl(struct parser *p, uint8_t space, uint32_t vflags)
{
    const struct ptx_tok *sp = p_next(p);
    struct decl_attrs a;
    parse_decl_attrs(p, &a);
    if (a.vecn > 4)
        p_unsup(p, sp, "vector width in declaration");
    unsigned esz = ptx_type_size(a.type);
    for (;;) {
        const struct ptx_tok *name = p_ident(p, "a variable name");
        int unsized = parse_dims(p);
        uint64_t elem = (uint64_t)esz * a.vecn;
        uint64_t size = dims_size(p, name, elem);
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
        uint32_t flags = vflags;
        if (unsized && !(flags & PTX_VAR_EXTERN) && !init) {
            if (space == PTX_SPACE_SHARED)
                flags |= PTX_VAR_EXTERN; /* "[]" shared: dynamic shared memory */
        }
        uint32_t vi = p_new_var(p, name, space, a.type, flags, align, size);
        p->m->vars[vi].init = init;
        p_declare(p, name, SYM_VAR, vi);
        if (p_accept(p, ','))
            continue;
        p_expect(p, ';');
        break;
    }
}

static void parse_reg_decl(struct parser *p)
{
    const struct ptx_tok *kw = p_next(p);
    struct decl_attrs a;
    parse_decl_attrs(p, &a);
    if (a.vecn != 1)
        p_unsup(p, kw, "vector register declaration");
    struct ptx_func *f = &p->m->funcs[p->cur_func];
    for (;;) {
        const struct ptx_tok *name = p_ident(p, "a register name");
        if (p_accept(p, '<')) {
            const struct ptx_tok *nt = p_cur(p);
            uint64_t n = p_uint(p, "register count");
            if (n > (1u << 20) || f->nregs + n > (1u << 22))
                p_fail(p, nt, "register range too large");
            p_expect(p, '>');
            for (uint64_t i = 0; i < n; i++) {
                struct ptx_reg *r = ARRAY_PUSH(f->regs, f->nregs, p->cap_regs);
                size_t ln = name->len + 24;
                r->name = xmalloc(ln);
                snprintf(r->name, ln, "%.*s%llu", (int)name->len, name->s,
                         (unsigned long long)i);
                r->type = a.type;
                if (!sym_declare(&p->syms, r->name, (uint32_t)strlen(r->name), SYM_REG,
                                 f->nregs - 1))
                    p_fail(p, name, "duplicate declaration of");
            }
        } else {
            struct ptx_reg *r = ARRAY_PUSH(f->regs, f->nregs, p->cap_regs);
            r->name = xstrndup(name->s, name->len);
            r->type = a.type;
            p_declare(p, name, SYM_REG, f->nregs - 1);
        }
        if (p_accept(p, ','))
            continue;
        p_expect(p, ';');
        break;
    }
}

/* ---- instructions ------------------------------------------------------------------ */

static const struct {
    const char *name;
    enum ptx_op op;
} op_table[] = {
    {"add", PTX_OP_ADD}, {"sub", PTX_OP_SUB}, {"addc", PTX_OP_ADDC}, {"subc", PTX_OP_SUBC},
    {"mul", PTX_OP_MUL}, {"mad", PTX_OP_MAD}, {"madc", PTX_OP_MADC}, {"mul24", PTX_OP_MUL24},
    {"mad24", PTX_OP_MAD24}, {"sad", PTX_OP_SAD}, {"fma", PTX_OP_FMA}, {"div", PTX_OP_DIV},
    {"rem", PTX_OP_REM}, {"abs", PTX_OP_ABS}, {"neg", PTX_OP_NEG}, {"min", PTX_OP_MIN},
    {"max", PTX_OP_MAX}, {"copysign", PTX_OP_COPYSIGN}, {"testp", PTX_OP_TESTP},
    {"rcp", PTX_OP_RCP}, {"sqrt", PTX_OP_SQRT}, {"rsqrt", PTX_OP_RSQRT}, {"sin", PTX_OP_SIN},
    {"cos", PTX_OP_COS}, {"lg2", PTX_OP_LG2}, {"ex2", PTX_OP_EX2}, {"tanh", PTX_OP_TANH},
    {"and", PTX_OP_AND}, {"or", PTX_OP_OR}, {"xor", PTX_OP_XOR}, {"not", PTX_OP_NOT},
    {"cnot", PTX_OP_CNOT}, {"shl", PTX_OP_SHL}, {"shr", PTX_OP_SHR}, {"shf", PTX_OP_SHF},
    {"bfe", PTX_OP_BFE}, {"bfi", PTX_OP_BFI}, {"bmsk", PTX_OP_BMSK}, {"prmt", PTX_OP_PRMT},
    {"popc", PTX_OP_POPC}, {"clz", PTX_OP_CLZ}, {"brev", PTX_OP_BREV}, {"fns", PTX_OP_FNS},
    {"dp4a", PTX_OP_DP4A}, {"dp2a", PTX_OP_DP2A}, {"lop3", PTX_OP_LOP3},
    {"setp", PTX_OP_SETP}, {"set", PTX_OP_SET}, {"selp", PTX_OP_SELP}, {"slct", PTX_OP_SLCT},
    {"mov", PTX_OP_MOV}, {"cvt", PTX_OP_CVT}, {"cvta", PTX_OP_CVTA}, {"ld", PTX_OP_LD},
    {"ldu", PTX_OP_LDU}, {"st", PTX_OP_ST}, {"prefetch", PTX_OP_PREFETCH},
    {"prefetchu", PTX_OP_PREFETCH}, {"atom", PTX_OP_ATOM}, {"red", PTX_OP_RED},
    {"bra", PTX_OP_BRA}, {"call", PTX_OP_CALL}, {"ret", PTX_OP_RET}, {"exit", PTX_OP_EXIT},
    {"trap", PTX_OP_TRAP}, {"bar", PTX_OP_BAR}, {"barrier", PTX_OP_BAR},
    {"membar", PTX_OP_MEMBAR}, {"fence", PTX_OP_FENCE}, {"shfl", PTX_OP_SHFL},
    {"vote", PTX_OP_VOTE}, {"activemask", PTX_OP_ACTIVEMASK}, {"match", PTX_OP_MATCH},
    {"redux", PTX_OP_REDUX}, {"nanosleep", PTX_OP_NANOSLEEP}, {"pmevent", PTX_OP_PMEVENT},
    {"bfind", PTX_OP_BFIND},
};

/* Valid PTX instructions that warpsim does not implement. */
static const char *const unsupported_ops[] = {
    "brx", "brkpt", "tex", "tld4", "txq", "suld", "sust", "sured", "suq", "mma", "wmma",
    "wgmma", "ldmatrix", "stmatrix", "movmatrix", "cp", "mbarrier", "isspacep", "istypeof",
    "mapa", "getctarank", "elect", "griddepcontrol", "setmaxnreg", "alloca", "stacksave",
    "stackrestore", "applypriority", "discard", "createpolicy", "multimem", "tcgen05",
    "vabsdiff", "vadd", "vsub", "vmad", "vmax", "vmin", "vset", "vshl", "vshr", "vabsdiff2",
    "vadd2", "vsub2", "vavrg2", "vmax2", "vmin2", "vset2", "vabsdiff4", "vadd4", "vsub4",
    "vavrg4", "vmax4", "vmin4", "vset4", "szext", "cvt.pack", "clusterlaunchcontrol",
    "ex2.approx.atype", "tensormap", "red.async", "st.async", "st.bulk", "cos.approx.f64",
};

static enum ptx_op op_lookup(const struct ptx_tok *t)
{
    for (size_t i = 0; i < sizeof op_table / sizeof op_table[0]; i++)
        if (tok_is(t, op_table[i].name))
            return op_table[i].op;
    return PTX_OP_INVALID;
}

static const struct {
    const char *n;
    enum ptx_cmp c;
} cmp_table[] = {
    {".eq", PTX_CMP_EQ},   {".ne", PTX_CMP_NE},   {".lt", PTX_CMP_LT},   {".le", PTX_CMP_LE},
    {".gt", PTX_CMP_GT},   {".ge", PTX_CMP_GE},   {".lo", PTX_CMP_LO},   {".ls", PTX_CMP_LS},
    {".hi", PTX_CMP_HI},   {".hs", PTX_CMP_HS},   {".equ", PTX_CMP_EQU}, {".neu", PTX_CMP_NEU},
    {".ltu", PTX_CMP_LTU}, {".leu", PTX_CMP_LEU}, {".gtu", PTX_CMP_GTU}, {".geu", PTX_CMP_GEU},
    {".num", PTX_CMP_NUM}, {".nan", PTX_CMP_NAN},
};

static const struct {
    const char *n;
    enum ptx_sub s;
} atom_table[] = {
    {".add", PTX_SUB_ATOM_ADD}, {".min", PTX_SUB_ATOM_MIN},   {".max", PTX_SUB_ATOM_MAX},
    {".inc", PTX_SUB_ATOM_INC}, {".dec", PTX_SUB_ATOM_DEC},   {".cas", PTX_SUB_ATOM_CAS},
    {".exch", PTX_SUB_ATOM_EXCH}, {".and", PTX_SUB_ATOM_AND}, {".or", PTX_SUB_ATOM_OR},
    {".xor", PTX_SUB_ATOM_XOR},
};

struct inst_ctx {
    struct ptx_inst in;
    const struct ptx_tok *optok;
    int is_barrier_kw; /* "barrier" rather than "bar" */
    uint8_t types[4];
    unsigned ntypes;
};

static int mod_in(const struct ptx_tok *t, const char *const *list)
{
    for (size_t i = 0; list[i]; i++)
        if (tok_is(t, list[i]))
            return 1;
    return 0;
}

static void set_sub(struct parser *p, struct inst_ctx *c, const struct ptx_tok *t, int sub)
{
    if (c->in.sub != PTX_SUB_NONE)
        p_fail(p, t, "conflicting modifier");
    c->in.sub = (uint8_t)sub;
}

static void apply_mod(struct parser *p, struct inst_ctx *c, const struct ptx_tok *t)
{
    struct ptx_inst *in = &c->in;
    enum ptx_op op = in->op;
    static const char *const rnd_names[] = {".rn", ".rz", ".rm", ".rp", ".rni",
                                            ".rzi", ".rmi", ".rpi", ".rna", NULL};
    static const char *const cache_names[] = {".ca", ".cg", ".cs", ".lu", ".cv", ".wb",
                                              ".wt", ".L1", ".L2", NULL};
    static const char *const order_names[] = {".relaxed", ".acquire", ".release",
                                              ".acq_rel", ".sc", ".mmio", NULL};
    static const char *const scope_names[] = {".cta", ".gpu", ".sys", ".cluster", NULL};

    enum ptx_type ty = type_from_dir(t);
    if (ty != PTX_T_NONE) {
        if (c->ntypes >= 3)
            p_fail(p, t, "too many types");
        c->types[c->ntypes++] = (uint8_t)ty;
        return;
    }
    /* family-specific modifiers first: they reuse generic names (.lo, .and) */
    switch (op) {
    case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_MUL24: case PTX_OP_MAD24:
    case PTX_OP_DP2A: case PTX_OP_MADC:
        if (tok_is(t, ".lo")) return set_sub(p, c, t, PTX_SUB_LO);
        if (tok_is(t, ".hi")) return set_sub(p, c, t, PTX_SUB_HI);
        if (tok_is(t, ".wide")) return set_sub(p, c, t, PTX_SUB_WIDE);
        break;
    case PTX_OP_SETP: case PTX_OP_SET: case PTX_OP_SLCT:
        for (size_t i = 0; i < sizeof cmp_table / sizeof cmp_table[0]; i++) {
            if (tok_is(t, cmp_table[i].n)) {
                if (in->cmp)
                    p_fail(p, t, "second comparison operator");
                in->cmp = (uint8_t)cmp_table[i].c;
                return;
            }
        }
        if (op != PTX_OP_SLCT) {
            if (tok_is(t, ".and")) { in->boolop = PTX_BOOL_AND; return; }
            if (tok_is(t, ".or")) { in->boolop = PTX_BOOL_OR; return; }
            if (tok_is(t, ".xor")) { in->boolop = PTX_BOOL_XOR; return; }
        }
        break;
    case PTX_OP_ATOM: case PTX_OP_RED: case PTX_OP_REDUX:
        for (size_t i = 0; i < sizeof atom_table / sizeof atom_table[0]; i++)
            if (tok_is(t, atom_table[i].n))
                return set_sub(p, c, t, atom_table[i].s);
        if (tok_is(t, ".noftz"))
            return;
        break;
    case PTX_OP_SHFL:
        if (tok_is(t, ".up")) return set_sub(p, c, t, PTX_SUB_SHFL_UP);
        if (tok_is(t, ".down")) return set_sub(p, c, t, PTX_SUB_SHFL_DOWN);
        if (tok_is(t, ".bfly")) return set_sub(p, c, t, PTX_SUB_SHFL_BFLY);
        if (tok_is(t, ".idx")) return set_sub(p, c, t, PTX_SUB_SHFL_IDX);
        break;
    case PTX_OP_VOTE:
        if (tok_is(t, ".all")) return set_sub(p, c, t, PTX_SUB_VOTE_ALL);
        if (tok_is(t, ".any")) return set_sub(p, c, t, PTX_SUB_VOTE_ANY);
        if (tok_is(t, ".uni")) return set_sub(p, c, t, PTX_SUB_VOTE_UNI);
        if (tok_is(t, ".ballot")) return set_sub(p, c, t, PTX_SUB_VOTE_BALLOT);
        break;
    case PTX_OP_MATCH:
        if (tok_is(t, ".any")) return set_sub(p, c, t, PTX_SUB_MATCH_ANY);
        if (tok_is(t, ".all")) return set_sub(p, c, t, PTX_SUB_MATCH_ALL);
        break;
    case PTX_OP_BAR:
        if (tok_is(t, ".sync")) {
            in->flags |= PTX_F_SYNC;
            if (!c->is_barrier_kw)
                in->flags |= PTX_F_ALIGNED; /* bar.sync == barrier.sync.aligned */
            if (in->sub == PTX_SUB_BAR_WARP_SYNC)
                return;
            return set_sub(p, c, t, PTX_SUB_BAR_SYNC);
        }
        if (tok_is(t, ".warp") && !c->is_barrier_kw)
            return set_sub(p, c, t, PTX_SUB_BAR_WARP_SYNC);
        if (tok_is(t, ".arrive")) {
            if (!c->is_barrier_kw)
                in->flags |= PTX_F_ALIGNED;
            return set_sub(p, c, t, PTX_SUB_BAR_ARRIVE);
        }
        if (tok_is(t, ".red")) {
            if (!c->is_barrier_kw)
                in->flags |= PTX_F_ALIGNED;
            return set_sub(p, c, t, PTX_SUB_BAR_RED_POPC); /* refined below */
        }
        if (in->sub == PTX_SUB_BAR_RED_POPC || in->sub == PTX_SUB_BAR_RED_AND ||
            in->sub == PTX_SUB_BAR_RED_OR) {
            if (tok_is(t, ".popc")) { in->sub = PTX_SUB_BAR_RED_POPC; return; }
            if (tok_is(t, ".and")) { in->sub = PTX_SUB_BAR_RED_AND; return; }
            if (tok_is(t, ".or")) { in->sub = PTX_SUB_BAR_RED_OR; return; }
        }
        if (tok_is(t, ".aligned")) { in->flags |= PTX_F_ALIGNED; return; }
        if (tok_is(t, ".cta")) return;
        break;
    case PTX_OP_SHF:
        if (tok_is(t, ".l")) return set_sub(p, c, t, PTX_SUB_SHF_L);
        if (tok_is(t, ".r")) return set_sub(p, c, t, PTX_SUB_SHF_R);
        if (tok_is(t, ".clamp")) { in->flags &= ~(uint32_t)PTX_F_WRAP; return; }
        if (tok_is(t, ".wrap")) { in->flags |= PTX_F_WRAP; return; }
        break;
    case PTX_OP_BMSK:
        if (tok_is(t, ".clamp")) return set_sub(p, c, t, PTX_SUB_CLAMP);
        if (tok_is(t, ".wrap")) {
            in->flags |= PTX_F_WRAP;
            return set_sub(p, c, t, PTX_SUB_WRAP);
        }
        break;
    case PTX_OP_MIN: case PTX_OP_MAX:
        if (tok_is(t, ".relu")) { in->flags |= PTX_F_RELU; return; }
        if (tok_is(t, ".NaN")) { in->flags |= PTX_F_NAN; return; }
        break;
    case PTX_OP_TESTP:
        if (tok_is(t, ".finite")) return set_sub(p, c, t, PTX_SUB_TESTP_FINITE);
        if (tok_is(t, ".infinite")) return set_sub(p, c, t, PTX_SUB_TESTP_INFINITE);
        if (tok_is(t, ".number")) return set_sub(p, c, t, PTX_SUB_TESTP_NUMBER);
        if (tok_is(t, ".notanumber")) return set_sub(p, c, t, PTX_SUB_TESTP_NOTANUMBER);
        if (tok_is(t, ".normal")) return set_sub(p, c, t, PTX_SUB_TESTP_NORMAL);
        if (tok_is(t, ".subnormal")) return set_sub(p, c, t, PTX_SUB_TESTP_SUBNORMAL);
        break;
    case PTX_OP_CVTA:
        if (tok_is(t, ".to")) return set_sub(p, c, t, PTX_SUB_CVTA_TO);
        break;
    case PTX_OP_PRMT:
        if (tok_is(t, ".f4e")) return set_sub(p, c, t, PTX_SUB_PRMT_F4E);
        if (tok_is(t, ".b4e")) return set_sub(p, c, t, PTX_SUB_PRMT_B4E);
        if (tok_is(t, ".rc8")) return set_sub(p, c, t, PTX_SUB_PRMT_RC8);
        if (tok_is(t, ".ecl")) return set_sub(p, c, t, PTX_SUB_PRMT_ECL);
        if (tok_is(t, ".ecr")) return set_sub(p, c, t, PTX_SUB_PRMT_ECR);
        if (tok_is(t, ".rc16")) return set_sub(p, c, t, PTX_SUB_PRMT_RC16);
        break;
    case PTX_OP_MEMBAR:
        if (tok_is(t, ".gl") || tok_is(t, ".cta") || tok_is(t, ".sys") || tok_is(t, ".proxy"))
            return;
        break;
    case PTX_OP_FENCE:
        if (mod_in(t, order_names) || mod_in(t, scope_names) || tok_is(t, ".proxy") ||
            tok_is(t, ".alias") || tok_is(t, ".async") || tok_is(t, ".acquire"))
            return;
        break;
    default:
        break;
    }
    /* generic modifiers */
    if (mod_in(t, rnd_names)) {
        if (in->rnd)
            p_fail(p, t, "second rounding modifier");
        for (int i = 0; rnd_names[i]; i++)
            if (tok_is(t, rnd_names[i]))
                in->rnd = (uint8_t)(PTX_RND_RN + i);
        return;
    }
    if (tok_is(t, ".v2") || tok_is(t, ".v4")) {
        in->vec = (uint8_t)(t->s[2] - '0');
        return;
    }
    if (tok_is(t, ".v8"))
        p_unsup(p, t, "vector width");
    if (op == PTX_OP_LD || op == PTX_OP_LDU || op == PTX_OP_ST || op == PTX_OP_ATOM ||
        op == PTX_OP_RED || op == PTX_OP_CVTA || op == PTX_OP_PREFETCH) {
        uint8_t sp = PTX_SPACE_NONE;
        if (tok_is(t, ".global")) sp = PTX_SPACE_GLOBAL;
        else if (tok_is(t, ".shared") || tok_is(t, ".shared::cta")) sp = PTX_SPACE_SHARED;
        else if (tok_is(t, ".local")) sp = PTX_SPACE_LOCAL;
        else if (tok_is(t, ".const")) sp = PTX_SPACE_CONST;
        else if (tok_is(t, ".param") || tok_is(t, ".param::func") || tok_is(t, ".param::entry"))
            sp = PTX_SPACE_PARAM;
        else if (tok_is(t, ".shared::cluster"))
            p_unsup(p, t, "state space");
        if (sp != PTX_SPACE_NONE) {
            if (in->space != PTX_SPACE_NONE)
                p_fail(p, t, "second state space");
            in->space = sp;
            return;
        }
        if (mod_in(t, cache_names) ||
            (t->len > 5 && (memcmp(t->s, ".L1::", 5) == 0 || memcmp(t->s, ".L2::", 5) == 0))) {
            in->flags |= PTX_F_CACHE_HINT;
            return;
        }
        if (tok_is(t, ".nc")) { in->flags |= PTX_F_NC; return; }
        if (tok_is(t, ".volatile")) { in->flags |= PTX_F_VOLATILE; return; }
        if (mod_in(t, order_names)) { in->flags |= PTX_F_RELAXED_SCOPE; return; }
        if (mod_in(t, scope_names) || tok_is(t, ".weak"))
            return;
    }
    if (tok_is(t, ".ftz")) { in->flags |= PTX_F_FTZ; return; }
    if (tok_is(t, ".sat")) { in->flags |= PTX_F_SAT; return; }
    if (tok_is(t, ".approx")) { in->flags |= PTX_F_APPROX; return; }
    if (tok_is(t, ".full")) { in->flags |= PTX_F_FULL; return; }
    if (tok_is(t, ".cc")) { in->flags |= PTX_F_CC; return; }
    if (tok_is(t, ".sync")) { in->flags |= PTX_F_SYNC; return; }
    if (tok_is(t, ".aligned")) { in->flags |= PTX_F_ALIGNED; return; }
    if (tok_is(t, ".uni") && (op == PTX_OP_BRA || op == PTX_OP_CALL || op == PTX_OP_RET)) {
        in->flags |= PTX_F_UNI;
        return;
    }
    if (tok_is(t, ".shiftamt")) { in->flags |= PTX_F_SHIFTAMT; return; }
    /* valid PTX that warpsim does not model vs. plain garbage */
    static const char *const known_unsupported[] = {
        ".satfinite", ".xorsign", ".abs", ".relu", ".oob", ".unified", ".tf32", ".e4m3x2",
        ".e5m2x2", ".e2m1x2", ".e2m3x2", ".e3m2x2", ".ue8m0x2", ".s2f6x2", ".async", ".bulk",
        ".mmio", ".b128", ".v8", ".noftz", ".NaN", ".sync", ".clamp", ".wrap", ".lo", ".hi",
        ".wide", ".and", ".or", ".xor", ".min", ".max", ".add", ".inc", ".dec", ".cas",
        ".exch", ".global", ".shared", ".local", ".const", ".param", ".cta", ".gpu", ".sys",
        ".cluster", ".uni", ".to", ".acquire", ".release", ".relaxed", ".acq_rel", ".sc",
        ".weak", ".volatile", ".nc", ".ca", ".cg", ".cs", ".lu", ".cv", ".wb", ".wt", ".L1",
        ".L2", ".all", ".any", ".ballot", ".up", ".down", ".bfly", ".idx", ".red", ".popc",
        ".arrive", ".aligned", ".l", ".r", NULL};
    if (mod_in(t, known_unsupported) || memchr(t->s, ':', t->len))
        p_unsup(p, t, "unsupported modifier");
    p_fail(p, t, "unknown modifier");
}

static enum ptx_type widen(enum ptx_type t)
{
    switch (t) {
    case PTX_T_U16: return PTX_T_U32;
    case PTX_T_S16: return PTX_T_S32;
    case PTX_T_U32: return PTX_T_U64;
    case PTX_T_S32: return PTX_T_S64;
    case PTX_T_B16: return PTX_T_B32;
    case PTX_T_B32: return PTX_T_B64;
    default: return t;
    }
}

/* Sets inst type/type2 from the type modifiers (see ir.h for the meaning).
 * Choices where ir.h leaves room:
 *   setp:        type = PRED, type2 = compared type
 *   set/slct/cvt: type = first (destination) type, type2 = second
 *   mul/mad(24).wide: type = widened destination, type2 = source type
 *   dp4a/dp2a:   type = a's type, type2 = b's type
 *   testp, cvta: type = type2 = the given type
 *   bfind:       type = the source type (the result is always u32)
 *   vote.ballot: b32; vote.all/any/uni: pred; bar.red: u32 or pred
 * Integer literals are never converted: "add.f32 %f1, %f2, 1" keeps the
 * integer 1 (nvcc always writes float operands as 0f/0d literals). */
static void finish_types(struct parser *p, struct inst_ctx *c)
{
    struct ptx_inst *in = &c->in;
    unsigned want = 1;
    switch (in->op) {
    case PTX_OP_CVT: case PTX_OP_SET: case PTX_OP_SLCT: case PTX_OP_DP4A: case PTX_OP_DP2A:
        want = 2;
        break;
    case PTX_OP_BRA: case PTX_OP_CALL: case PTX_OP_RET: case PTX_OP_EXIT: case PTX_OP_TRAP:
    case PTX_OP_MEMBAR: case PTX_OP_FENCE: case PTX_OP_PREFETCH: case PTX_OP_PMEVENT:
        want = 0;
        break;
    case PTX_OP_BAR:
        want = (in->sub == PTX_SUB_BAR_RED_POPC || in->sub == PTX_SUB_BAR_RED_AND ||
                in->sub == PTX_SUB_BAR_RED_OR) ? 1 : 0;
        break;
    case PTX_OP_MOV: case PTX_OP_CVTA:
        want = 1;
        break;
    default:
        break;
    }
    if (c->ntypes != want) {
        if (c->ntypes < want)
            p_fail(p, c->optok, "missing type for instruction");
        p_fail(p, c->optok, "too many types for instruction");
    }
    if (want == 0)
        return;
    in->type = c->types[0];
    if (want == 2)
        in->type2 = c->types[1];
    switch (in->op) {
    case PTX_OP_SETP:
        in->type = PTX_T_PRED;
        in->type2 = c->types[0];
        break;
    case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_MUL24: case PTX_OP_MAD24:
        if (in->sub == PTX_SUB_WIDE) {
            in->type2 = c->types[0];
            in->type = (uint8_t)widen((enum ptx_type)c->types[0]);
        }
        break;
    case PTX_OP_CVTA: case PTX_OP_TESTP:
        in->type2 = c->types[0];
        break;
    default:
        break;
    }
}

/* The type a floating-point literal in source operand `si` is converted to. */
static enum ptx_type literal_type(const struct ptx_inst *in, unsigned si)
{
    switch (in->op) {
    case PTX_OP_CVT: case PTX_OP_SETP: case PTX_OP_SET:
        return (enum ptx_type)in->type2;
    case PTX_OP_SLCT:
        return si == 2 ? (enum ptx_type)in->type2 : (enum ptx_type)in->type;
    default:
        return (enum ptx_type)in->type;
    }
}

static uint32_t p_push_opnd(struct parser *p, const struct ptx_operand *o)
{
    struct ptx_module *m = p->m;
    if (m->nopnds == UINT32_MAX - 1)
        p_fail(p, p_cur(p), "too many operands at");
    *ARRAY_PUSH(m->opnds, m->nopnds, p->cap_opnds) = *o;
    return m->nopnds - 1;
}

static const struct {
    const char *n;
    enum ptx_sreg s;
    int has_comp;
} sreg_table[] = {
    {"%tid", PTX_SREG_TID, 1}, {"%ntid", PTX_SREG_NTID, 1}, {"%ctaid", PTX_SREG_CTAID, 1},
    {"%nctaid", PTX_SREG_NCTAID, 1}, {"%laneid", PTX_SREG_LANEID, 0},
    {"%warpid", PTX_SREG_WARPID, 0}, {"%nwarpid", PTX_SREG_NWARPID, 0},
    {"%smid", PTX_SREG_SMID, 0}, {"%nsmid", PTX_SREG_NSMID, 0},
    {"%gridid", PTX_SREG_GRIDID, 0}, {"%clock", PTX_SREG_CLOCK, 0},
    {"%clock64", PTX_SREG_CLOCK64, 0}, {"%globaltimer", PTX_SREG_GLOBALTIMER, 0},
    {"%lanemask_eq", PTX_SREG_LANEMASK_EQ, 0}, {"%lanemask_le", PTX_SREG_LANEMASK_LE, 0},
    {"%lanemask_lt", PTX_SREG_LANEMASK_LT, 0}, {"%lanemask_ge", PTX_SREG_LANEMASK_GE, 0},
    {"%lanemask_gt", PTX_SREG_LANEMASK_GT, 0},
    {"%dynamic_smem_size", PTX_SREG_DYNAMIC_SMEM_SIZE, 0},
    {"%total_smem_size", PTX_SREG_TOTAL_SMEM_SIZE, 0},
};

static uint32_t p_lookup_reg(struct parser *p, const struct ptx_tok *t)
{
    const struct sym_ent *s = sym_lookup(&p->syms, t->s, t->len);
    if (!s || s->kind != SYM_REG)
        p_fail(p, t, "undeclared register");
    return s->idx;
}

static int64_t p_signed_int(struct parser *p)
{
    int neg = 0;
    if (tok_punct(p_cur(p), '-')) {
        neg = 1;
        p_next(p);
    }
    const struct ptx_tok *t = p_cur(p);
    if (t->kind != PTX_TOK_INT)
        p_fail(p, t, "expected an integer offset, found");
    if (t->overflow)
        p_fail(p, t, "integer literal out of range");
    p_next(p);
    return neg ? (int64_t)(0 - t->ival) : (int64_t)t->ival;
}

static void parse_address(struct parser *p, struct ptx_operand *o)
{
    p_expect(p, '[');
    o->kind = PTX_OPND_ADDR;
    o->reg = PTX_NO_INDEX;
    o->sym = PTX_NO_INDEX;
    const struct ptx_tok *t = p_cur(p);
    if (t->kind == PTX_TOK_IDENT) {
        const struct sym_ent *s = sym_lookup(&p->syms, t->s, t->len);
        if (!s || (s->kind != SYM_REG && s->kind != SYM_VAR))
            p_fail(p, t, "undeclared identifier");
        if (s->kind == SYM_REG)
            o->reg = s->idx;
        else
            o->sym = s->idx;
        p_next(p);
        if (p_accept(p, '+')) {
            o->imm = p_signed_int(p);
        } else if (tok_punct(p_cur(p), '-')) {
            o->imm = p_signed_int(p);
        }
    } else if (t->kind == PTX_TOK_INT) {
        o->imm = p_signed_int(p);
    } else {
        p_fail(p, t, "expected an address, found");
    }
    p_expect(p, ']');
}

static void parse_vector(struct parser *p, struct ptx_operand *o)
{
    p_expect(p, '{');
    o->kind = PTX_OPND_VEC;
    o->reg = PTX_NO_INDEX;
    o->sym = PTX_NO_INDEX;
    for (;;) {
        const struct ptx_tok *t = p_cur(p);
        if (o->vec_n >= 4)
            p_fail(p, t, "too many vector elements at");
        if (t->kind == PTX_TOK_IDENT && tok_is(t, "_")) {
            o->vec[o->vec_n++] = PTX_NO_INDEX;
            p_next(p);
        } else if (t->kind == PTX_TOK_IDENT) {
            o->vec[o->vec_n++] = p_lookup_reg(p, t);
            p_next(p);
        } else if (t->kind == PTX_TOK_INT || t->kind == PTX_TOK_F32 ||
                   t->kind == PTX_TOK_FLOAT || tok_punct(t, '-')) {
            /* an immediate element: kept as its low 32 bits (see vec_imm) */
            int neg = p_accept(p, '-');
            const struct ptx_tok *nt = p_cur(p);
            uint64_t v;
            if (nt->kind == PTX_TOK_INT && !nt->overflow) {
                v = neg ? 0 - nt->ival : nt->ival;
                if ((int64_t)v < INT32_MIN || (v > UINT32_MAX && (int64_t)v >= 0))
                    p_unsup(p, nt, "64-bit immediate vector element");
            } else if (nt->kind == PTX_TOK_F32) {
                v = nt->ival ^ (neg ? 0x80000000u : 0);
            } else if (nt->kind == PTX_TOK_FLOAT) {
                float f = (float)(neg ? -nt->fval : nt->fval);
                uint32_t b;
                memcpy(&b, &f, 4);
                v = b;
            } else {
                p_unsup(p, nt, "immediate vector element");
            }
            o->vec_imm |= (uint8_t)(1u << o->vec_n);
            o->vec[o->vec_n++] = (uint32_t)v;
            p_next(p);
        } else if (t->kind == PTX_TOK_F64) {
            p_unsup(p, t, "64-bit immediate vector element");
        } else {
            p_fail(p, t, "expected a register, found");
        }
        if (p_accept(p, '}'))
            break;
        p_expect(p, ',');
    }
    if (o->vec_n != 2 && o->vec_n != 4)
        p_fail(p, p_peek(p, 0), "vector operand must have 2 or 4 elements before");
}

static void parse_operand(struct parser *p, struct inst_ctx *c, unsigned si, int is_src,
                          struct ptx_operand *o)
{
    memset(o, 0, sizeof *o);
    o->reg = PTX_NO_INDEX;
    o->sym = PTX_NO_INDEX;
    const struct ptx_tok *t = p_cur(p);
    if (tok_punct(t, '[')) {
        parse_address(p, o);
        return;
    }
    if (tok_punct(t, '{')) {
        parse_vector(p, o);
        return;
    }
    if (tok_punct(t, '!')) {
        p_next(p);
        const struct ptx_tok *r = p_cur(p);
        if (r->kind != PTX_TOK_IDENT)
            p_fail(p, r, "expected a predicate register, found");
        o->kind = PTX_OPND_REG;
        o->neg = 1;
        o->reg = p_lookup_reg(p, r);
        p_next(p);
        return;
    }
    int neg = 0;
    if (tok_punct(t, '-')) {
        neg = 1;
        p_next(p);
        t = p_cur(p);
    }
    switch (t->kind) {
    case PTX_TOK_INT:
        if (t->overflow)
            p_fail(p, t, "integer literal out of range");
        o->kind = PTX_OPND_IMM;
        o->imm = (int64_t)(neg ? 0 - t->ival : t->ival);
        p_next(p);
        return;
    case PTX_TOK_F32:
        o->kind = PTX_OPND_IMM;
        o->imm = (int64_t)(uint32_t)(t->ival ^ (neg ? 0x80000000u : 0));
        p_next(p);
        return;
    case PTX_TOK_F64:
        o->kind = PTX_OPND_IMM;
        o->imm = (int64_t)(t->ival ^ (neg ? (1ull << 63) : 0));
        p_next(p);
        return;
    case PTX_TOK_FLOAT: {
        /* a decimal literal takes the operand's type: f64 bits for f64
         * instructions, otherwise f32 bits */
        double d = neg ? -t->fval : t->fval;
        o->kind = PTX_OPND_IMM;
        if (literal_type(&c->in, si) == PTX_T_F64) {
            uint64_t b;
            memcpy(&b, &d, 8);
            o->imm = (int64_t)b;
        } else {
            float f = (float)d;
            uint32_t b;
            memcpy(&b, &f, 4);
            o->imm = (int64_t)b;
        }
        p_next(p);
        return;
    }
    case PTX_TOK_IDENT:
        break;
    default:
        p_fail(p, t, "expected an operand, found");
    }
    if (neg)
        p_fail(p, t, "expected a number after '-', found");
    if (tok_is(t, "_")) {
        o->kind = PTX_OPND_SINK;
        p_next(p);
        return;
    }
    if (tok_is(t, "WARP_SZ")) {
        o->kind = PTX_OPND_IMM;
        o->imm = 32;
        p_next(p);
        return;
    }
    const struct sym_ent *s = sym_lookup(&p->syms, t->s, t->len);
    if (s && s->kind == SYM_REG) {
        o->kind = PTX_OPND_REG;
        o->reg = s->idx;
        p_next(p);
        return;
    }
    if (s && s->kind == SYM_VAR && c->in.op != PTX_OP_BRA) {
        o->kind = PTX_OPND_VAR;
        o->sym = s->idx;
        p_next(p);
        return;
    }
    if (s && s->kind == SYM_FUNC && c->in.op != PTX_OP_BRA) {
        o->kind = PTX_OPND_FUNC;
        o->sym = s->idx;
        p_next(p);
        return;
    }
    if (t->s[0] == '%') {
        for (size_t i = 0; i < sizeof sreg_table / sizeof sreg_table[0]; i++) {
            if (!tok_is(t, sreg_table[i].n))
                continue;
            o->kind = PTX_OPND_SREG;
            o->reg = (uint32_t)sreg_table[i].s;
            p_next(p);
            const struct ptx_tok *d = p_cur(p);
            if (d->kind == PTX_TOK_DIR && sreg_table[i].has_comp) {
                if (tok_is(d, ".x")) o->comp = 0;
                else if (tok_is(d, ".y")) o->comp = 1;
                else if (tok_is(d, ".z")) o->comp = 2;
                else p_fail(p, d, "bad special register component");
                p_next(p);
            }
            if (!is_src)
                p_fail(p, t, "special register as destination");
            return;
        }
        p_fail(p, t, "undeclared register");
    }
    if (c->in.op == PTX_OP_BRA) {
        o->kind = PTX_OPND_LABEL;
        const struct sym_ent *l = sym_lookup(&p->labels, t->s, t->len);
        uint32_t oi = p_push_opnd(p, o);
        if (l) {
            p->m->opnds[oi].imm = l->idx;
        } else {
            struct label_fix *f = ARRAY_PUSH(p->fixes, p->nfixes, p->cap_fixes);
            f->opnd = oi;
            f->tok = (size_t)(t - p->toks);
        }
        o->kind = PTX_OPND_NONE; /* already pushed */
        p_next(p);
        return;
    }
    p_fail(p, t, "undeclared identifier");
}

/* call{.uni} [(rets),] func[, (args)]; */
static void parse_call(struct parser *p, struct inst_ctx *c)
{
    struct ptx_inst *in = &c->in;
    struct ptx_operand o;
    in->opnd = p->m->nopnds;
    unsigned nret = 0, narg = 0;
    if (p_accept(p, '(')) {
        for (;;) {
            const struct ptx_tok *t = p_ident(p, "a return parameter");
            const struct sym_ent *s = sym_lookup(&p->syms, t->s, t->len);
            memset(&o, 0, sizeof o);
            o.reg = PTX_NO_INDEX;
            if (s && s->kind == SYM_VAR) {
                o.kind = PTX_OPND_VAR;
                o.sym = s->idx;
            } else if (s && s->kind == SYM_REG) {
                o.kind = PTX_OPND_REG;
                o.reg = s->idx;
                o.sym = PTX_NO_INDEX;
            } else {
                p_fail(p, t, "undeclared identifier");
            }
            p_push_opnd(p, &o);
            if (++nret > 8)
                p_fail(p, t, "too many return values at");
            if (p_accept(p, ')'))
                break;
            p_expect(p, ',');
        }
        p_expect(p, ',');
    }
    const struct ptx_tok *ft = p_ident(p, "a function name");
    const struct sym_ent *s = sym_lookup(&p->syms, ft->s, ft->len);
    if (s && s->kind == SYM_REG)
        p_unsup(p, ft, "indirect call through");
    if (!s || s->kind != SYM_FUNC)
        p_fail(p, ft, "undeclared function");
    uint32_t callee = s->idx;
    memset(&o, 0, sizeof o);
    o.kind = PTX_OPND_FUNC;
    o.reg = PTX_NO_INDEX;
    o.sym = callee;
    p_push_opnd(p, &o);
    if (p_accept(p, ',')) {
        p_expect(p, '(');
        if (!p_accept(p, ')')) {
            for (;;) {
                parse_operand(p, c, 1 + narg, 1, &o);
                if (o.kind != PTX_OPND_VAR && o.kind != PTX_OPND_REG && o.kind != PTX_OPND_IMM)
                    p_fail(p, &p->toks[p->pos - 1], "bad call argument");
                p_push_opnd(p, &o);
                if (++narg > 250)
                    p_fail(p, p_cur(p), "too many call arguments at");
                if (p_accept(p, ')'))
                    break;
                p_expect(p, ',');
            }
        }
        if (tok_punct(p_cur(p), ','))
            p_unsup(p, p_cur(p), "call with a prototype (indirect call)");
    }
    const struct ptx_func *cf = &p->m->funcs[callee];
    if (cf->is_entry)
        p_fail(p, ft, "call of a kernel");
    if (narg != cf->nparams)
        p_fail(p, ft, "wrong number of arguments in call of");
    if (nret > cf->nrets)
        p_fail(p, ft, "too many return values in call of");
    p_expect(p, ';');
    in->ndst = (uint8_t)nret;
    in->nsrc = (uint8_t)(1 + narg);
}

static void src_range(const struct ptx_inst *in, unsigned *lo, unsigned *hi)
{
    unsigned a = 1, b = 1;
    switch (in->op) {
    case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_NOT: case PTX_OP_CNOT: case PTX_OP_RCP:
    case PTX_OP_SQRT: case PTX_OP_RSQRT: case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_LG2:
    case PTX_OP_EX2: case PTX_OP_TANH: case PTX_OP_POPC: case PTX_OP_CLZ: case PTX_OP_BREV:
    case PTX_OP_CVTA: case PTX_OP_MOV: case PTX_OP_TESTP: case PTX_OP_BRA:
    case PTX_OP_PREFETCH: case PTX_OP_NANOSLEEP: case PTX_OP_PMEVENT: case PTX_OP_BFIND:
        break;
    case PTX_OP_CVT:
        b = 2; /* cvt.f16x2.f32 d, a, b */
        break;
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_ADDC: case PTX_OP_SUBC: case PTX_OP_MUL:
    case PTX_OP_MUL24: case PTX_OP_DIV: case PTX_OP_REM: case PTX_OP_COPYSIGN:
    case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR: case PTX_OP_SHL: case PTX_OP_SHR:
    case PTX_OP_BMSK: case PTX_OP_MATCH: case PTX_OP_REDUX:
        a = b = 2;
        break;
    case PTX_OP_MIN: case PTX_OP_MAX: case PTX_OP_SETP: case PTX_OP_SET:
        a = 2;
        b = 3;
        break;
    case PTX_OP_MAD: case PTX_OP_MADC: case PTX_OP_MAD24: case PTX_OP_SAD: case PTX_OP_FMA:
    case PTX_OP_BFE: case PTX_OP_SELP: case PTX_OP_SLCT: case PTX_OP_PRMT: case PTX_OP_SHF:
    case PTX_OP_DP4A: case PTX_OP_DP2A: case PTX_OP_FNS:
        a = b = 3;
        break;
    case PTX_OP_BFI: case PTX_OP_SHFL:
        a = b = 4;
        break;
    case PTX_OP_LOP3:
        a = 4;
        b = 5;
        break;
    case PTX_OP_LD: case PTX_OP_LDU:
        a = 1;
        b = 2; /* .L2::cache_hint adds a cache-policy operand */
        break;
    case PTX_OP_ST: case PTX_OP_RED:
        a = 2;
        b = 3;
        break;
    case PTX_OP_ATOM:
        a = 2;
        b = 4;
        break;
    case PTX_OP_VOTE:
        a = 1;
        b = 2;
        break;
    case PTX_OP_ACTIVEMASK: case PTX_OP_RET: case PTX_OP_EXIT: case PTX_OP_TRAP:
    case PTX_OP_MEMBAR: case PTX_OP_FENCE:
        a = b = 0;
        break;
    case PTX_OP_BAR:
        if (in->sub == PTX_SUB_BAR_RED_POPC || in->sub == PTX_SUB_BAR_RED_AND ||
            in->sub == PTX_SUB_BAR_RED_OR) {
            a = 2;
            b = 3;
        } else if (in->sub == PTX_SUB_BAR_WARP_SYNC) {
            a = b = 1;
        } else {
            a = 0; /* barrier.sync.aligned with no id is not valid, but harmless */
            b = 2;
        }
        break;
    default:
        break;
    }
    *lo = a;
    *hi = b;
}

static unsigned dst_count(const struct ptx_inst *in)
{
    switch (in->op) {
    case PTX_OP_ST: case PTX_OP_RED: case PTX_OP_BRA: case PTX_OP_RET: case PTX_OP_EXIT:
    case PTX_OP_TRAP: case PTX_OP_MEMBAR: case PTX_OP_FENCE: case PTX_OP_PREFETCH:
    case PTX_OP_NANOSLEEP: case PTX_OP_PMEVENT:
        return 0;
    case PTX_OP_BAR:
        return (in->sub == PTX_SUB_BAR_RED_POPC || in->sub == PTX_SUB_BAR_RED_AND ||
                in->sub == PTX_SUB_BAR_RED_OR) ? 1 : 0;
    default:
        return 1;
    }
}

static void parse_inst(struct parser *p)
{
    struct ptx_module *m = p->m;
    struct inst_ctx c;
    memset(&c, 0, sizeof c);
    c.in.guard = PTX_NO_INDEX;
    c.in.vec = 1;
    c.in.func = p->cur_func;
    if (p_accept(p, '@')) {
        if (p_accept(p, '!'))
            c.in.guard_neg = 1;
        const struct ptx_tok *g = p_ident(p, "a guard predicate");
        c.in.guard = p_lookup_reg(p, g);
        if (m->funcs[p->cur_func].regs[c.in.guard].type != PTX_T_PRED)
            p_fail(p, g, "guard is not a predicate register");
    }
    const struct ptx_tok *ot = p_cur(p);
    if (ot->kind != PTX_TOK_IDENT)
        p_fail(p, ot, "expected an instruction, found");
    p_next(p);
    c.optok = ot;
    c.in.op = (uint16_t)op_lookup(ot);
    c.in.line = ot->line;
    c.in.col = ot->col;
    if (c.in.op == PTX_OP_INVALID) {
        for (size_t i = 0; i < sizeof unsupported_ops / sizeof unsupported_ops[0]; i++)
            if (tok_is(ot, unsupported_ops[i]))
                p_unsup(p, ot, "unsupported instruction");
        p_fail(p, ot, "unknown instruction");
    }
    c.is_barrier_kw = tok_is(ot, "barrier");
    while (p_cur(p)->kind == PTX_TOK_DIR)
        apply_mod(p, &c, p_next(p));
    if (c.in.op == PTX_OP_BAR && c.in.sub == PTX_SUB_NONE)
        p_fail(p, ot, "missing barrier operation for");
    if (c.in.op == PTX_OP_SHF && c.in.sub == PTX_SUB_NONE)
        p_fail(p, ot, "missing .l or .r for");
    if (c.in.op == PTX_OP_CVTA && c.in.sub == PTX_SUB_NONE)
        c.in.sub = PTX_SUB_CVTA_FROM;
    if ((c.in.op == PTX_OP_ATOM || c.in.op == PTX_OP_RED || c.in.op == PTX_OP_REDUX ||
         c.in.op == PTX_OP_SHFL || c.in.op == PTX_OP_VOTE || c.in.op == PTX_OP_MATCH ||
         c.in.op == PTX_OP_TESTP) && c.in.sub == PTX_SUB_NONE)
        p_fail(p, ot, "missing operation modifier for");
    if ((c.in.op == PTX_OP_SETP || c.in.op == PTX_OP_SET) && c.in.cmp == PTX_CMP_NONE)
        p_fail(p, ot, "missing comparison operator for");
    if (c.in.op == PTX_OP_CVTA && c.in.space == PTX_SPACE_NONE)
        p_fail(p, ot, "missing state space for");
    finish_types(p, &c);

    if (m->ninsts == UINT32_MAX - 1)
        p_fail(p, ot, "too many instructions at");
    if (c.in.op == PTX_OP_CALL) {
        parse_call(p, &c);
    } else {
        c.in.opnd = m->nopnds;
        unsigned want_dst = dst_count(&c.in);
        unsigned n = 0, ndst = 0;
        int piped = 0;
        if (!tok_punct(p_cur(p), ';')) {
            for (;;) {
                struct ptx_operand o;
                unsigned si = n >= want_dst ? n - want_dst : 0;
                const struct ptx_tok *at = p_cur(p);
                parse_operand(p, &c, si, n >= want_dst, &o);
                if (o.kind != PTX_OPND_NONE)
                    p_push_opnd(p, &o);
                if (n < want_dst && o.kind != PTX_OPND_REG && o.kind != PTX_OPND_VEC &&
                    o.kind != PTX_OPND_SINK)
                    p_fail(p, at, "bad destination operand");
                if (n < want_dst && o.neg)
                    p_fail(p, at, "bad destination operand");
                n++;
                if (n == 1 && want_dst == 1 && tok_punct(p_cur(p), '|')) {
                    p_next(p);
                    const struct ptx_tok *at2 = p_cur(p);
                    parse_operand(p, &c, 0, 0, &o);
                    if (o.kind != PTX_OPND_REG && o.kind != PTX_OPND_SINK)
                        p_fail(p, at2, "bad destination operand");
                    p_push_opnd(p, &o);
                    piped = 1;
                    n++;
                }
                if (n > 16)
                    p_fail(p, p_cur(p), "too many operands at");
                if (p_accept(p, ','))
                    continue;
                break;
            }
        }
        const struct ptx_tok *semi = p_cur(p);
        if (!tok_punct(semi, ';'))
            p_fail(p, semi, "expected ';' or ',' before");
        ndst = want_dst + (piped ? 1 : 0);
        if (n < ndst)
            p_fail(p, semi, "missing operands before");
        unsigned nsrc = n - ndst, lo, hi;
        src_range(&c.in, &lo, &hi);
        if (nsrc < lo || nsrc > hi)
            p_fail(p, ot, "wrong number of operands for");
        p_next(p);
        c.in.ndst = (uint8_t)ndst;
        c.in.nsrc = (uint8_t)nsrc;
        if (piped)
            c.in.flags |= PTX_F_PRED_OUT;
        /* memory operations: the address comes first among the sources */
        const struct ptx_operand *ops = &m->opnds[c.in.opnd];
        int needs_addr = c.in.op == PTX_OP_LD || c.in.op == PTX_OP_LDU ||
                         c.in.op == PTX_OP_ST || c.in.op == PTX_OP_ATOM ||
                         c.in.op == PTX_OP_RED || c.in.op == PTX_OP_PREFETCH;
        for (unsigned i = 0; i < n; i++) {
            if (ops[i].kind == PTX_OPND_VEC && needs_addr && ops[i].vec_n != c.in.vec)
                p_fail(p, ot, "vector operand size does not match the vector width of");
            int is_addr = ops[i].kind == PTX_OPND_ADDR;
            if (is_addr != (needs_addr && i == ndst))
                p_fail(p, ot, is_addr ? "unexpected address operand in"
                                      : "missing address operand in");
        }
    }
    *ARRAY_PUSH(m->insts, m->ninsts, p->cap_insts) = c.in;
}

/* ---- functions ------------------------------------------------------------------ */

/* "( .param ... , ... )" into p->pdesc (appending); the '(' is current. */
static void parse_param_list(struct parser *p, uint32_t flags)
{
    p_expect(p, '(');
    if (p_accept(p, ')'))
        return;
    for (;;) {
        const struct ptx_tok *kw = p_cur(p);
        if (tok_dir(kw, ".reg"))
            p_unsup(p, kw, "register parameter");
        if (!tok_dir(kw, ".param"))
            p_fail(p, kw, "expected '.param', found");
        p_next(p);
        struct decl_attrs a;
        parse_decl_attrs(p, &a);
        if (a.vecn != 1)
            p_unsup(p, kw, "vector parameter");
        const struct ptx_tok *name = p_ident(p, "a parameter name");
        int unsized = parse_dims(p);
        if (unsized)
            p_unsup(p, name, "unsized array parameter");
        struct param_desc *d = ARRAY_PUSH(p->pdesc, p->npdesc, p->cap_pdesc);
        d->tok = (size_t)(name - p->toks);
        d->type = a.type;
        d->size = dims_size(p, name, ptx_type_size(a.type));
        d->align = a.align ? a.align : ptx_type_size(a.type);
        d->flags = flags | (a.ptr ? PTX_VAR_PTR : 0);
        if (p->npdesc > 4096)
            p_fail(p, name, "too many parameters at");
        if (p_accept(p, ')'))
            return;
        p_expect(p, ',');
    }
}

static void parse_perf_directives(struct parser *p, struct ptx_func *f)
{
    while (p_cur(p)->kind == PTX_TOK_DIR) {
        const struct ptx_tok *t = p_next(p);
        uint32_t *dst = NULL;
        unsigned maxn = 3;
        if (tok_is(t, ".maxntid"))
            dst = f->maxntid;
        else if (tok_is(t, ".reqntid"))
            dst = f->reqntid;
        else if (tok_is(t, ".minnctapersm")) {
            dst = &f->minnctapersm;
            maxn = 1;
        } else if (!(tok_is(t, ".noreturn") || tok_is(t, ".maxnreg") ||
                     tok_is(t, ".maxclusterrank") || tok_is(t, ".reqnctapercluster") ||
                     tok_is(t, ".explicitcluster") || tok_is(t, ".blocksareclusters") ||
                     tok_is(t, ".maxnctapersm") || tok_is(t, ".abi_preserve") ||
                     tok_is(t, ".abi_preserve_control"))) {
            p_fail(p, t, "unexpected directive");
        }
        /* values: INT {, INT} */
        unsigned i = 0;
        while (p_cur(p)->kind == PTX_TOK_INT) {
            const struct ptx_tok *nt = p_cur(p);
            uint64_t v = p_uint(p, "a number");
            if (dst) {
                if (i >= maxn || v > UINT32_MAX)
                    p_fail(p, nt, "bad value for directive");
                dst[i] = (uint32_t)v;
            }
            i++;
            if (!p_accept(p, ','))
                break;
        }
        if (dst == f->maxntid || dst == f->reqntid) {
            for (; i < 3; i++)
                dst[i] = 1;
        }
    }
}

static void resolve_labels(struct parser *p)
{
    for (size_t i = 0; i < p->nfixes; i++) {
        const struct ptx_tok *t = &p->toks[p->fixes[i].tok];
        const struct sym_ent *l = sym_lookup(&p->labels, t->s, t->len);
        if (!l)
            p_fail(p, t, "undeclared label");
        p->m->opnds[p->fixes[i].opnd].imm = l->idx;
    }
    p->nfixes = 0;
}

static void parse_body(struct parser *p)
{
    struct ptx_module *m = p->m;
    unsigned depth = 0;
    sym_reset(&p->labels);
    p->nfixes = 0;
    for (;;) {
        const struct ptx_tok *t = p_cur(p);
        if (tok_punct(t, '}')) {
            p_next(p);
            if (depth == 0)
                break;
            sym_pop(&p->syms);
            depth--;
        } else if (tok_punct(t, '{')) {
            if (depth > 1000)
                p_fail(p, t, "blocks nested too deeply at");
            p_next(p);
            sym_push(&p->syms);
            depth++;
        } else if (t->kind == PTX_TOK_DIR) {
            if (tok_is(t, ".reg"))
                parse_reg_decl(p);
            else if (tok_is(t, ".local"))
                parse_var_decl(p, PTX_SPACE_LOCAL, 0);
            else if (tok_is(t, ".shared"))
                parse_var_decl(p, PTX_SPACE_SHARED, 0);
            else if (tok_is(t, ".param"))
                parse_var_decl(p, PTX_SPACE_PARAM, PTX_VAR_CALL_PARAM);
            else if (tok_is(t, ".const"))
                parse_var_decl(p, PTX_SPACE_CONST, 0);
            else if (tok_is(t, ".global"))
                parse_var_decl(p, PTX_SPACE_GLOBAL, 0);
            else if (tok_is(t, ".loc") || tok_is(t, ".file"))
                p_skip_line(p, t->line);
            else if (tok_is(t, ".pragma"))
                p_skip_to_semi(p);
            else
                p_fail(p, t, "unexpected directive");
        } else if (t->kind == PTX_TOK_IDENT && tok_punct(p_peek(p, 1), ':')) {
            if (tok_dir(p_peek(p, 2), ".callprototype"))
                p_unsup(p, p_peek(p, 2), "call prototype (indirect call)");
            if (!sym_declare(&p->labels, t->s, t->len, SYM_LABEL, m->ninsts))
                p_fail(p, t, "duplicate label");
            p_next(p);
            p_next(p);
        } else if (t->kind == PTX_TOK_IDENT || tok_punct(t, '@')) {
            parse_inst(p);
        } else if (t->kind == PTX_TOK_EOF) {
            p_fail(p, t, "unexpected end of file in body of function");
        } else {
            p_fail(p, t, "unexpected token");
        }
    }
    resolve_labels(p);
}

static void parse_function(struct parser *p, int is_entry, uint32_t link_flags)
{
    struct ptx_module *m = p->m;
    const struct ptx_tok *kw = p_next(p);
    p->npdesc = 0;
    size_t nrets = 0;
    if (!is_entry && tok_punct(p_cur(p), '(')) {
        parse_param_list(p, PTX_VAR_FUNC_RET);
        nrets = p->npdesc;
    }
    const struct ptx_tok *name = p_ident(p, "a function name");
    if (tok_punct(p_cur(p), '('))
        parse_param_list(p, is_entry ? PTX_VAR_KERNEL_PARAM : PTX_VAR_FUNC_PARAM);
    size_t nparams = p->npdesc - nrets;

    const struct sym_ent *s = sym_lookup(&p->syms, name->s, name->len);
    uint32_t fi;
    int existing = 0;
    if (s) {
        if (s->kind != SYM_FUNC)
            p_fail(p, name, "duplicate declaration of");
        fi = s->idx;
        existing = 1;
        struct ptx_func *f = &m->funcs[fi];
        if (f->is_entry != is_entry || f->nparams != nparams || f->nrets != nrets)
            p_fail(p, name, "declaration does not match earlier declaration of");
    } else {
        if (m->nfuncs == UINT32_MAX - 1)
            p_fail(p, name, "too many functions at");
        struct ptx_func *f = ARRAY_PUSH(m->funcs, m->nfuncs, p->cap_funcs);
        memset(f, 0, sizeof *f);
        fi = m->nfuncs - 1;
        array_reserve((void **)&p->fdef, &p->cap_fdef, m->nfuncs, 1);
        p->fdef[fi] = 0;
        f->name = xstrndup(name->s, name->len);
        f->is_entry = is_entry;
        f->line = kw->line;
        f->first_pc = m->ninsts;
        f->is_extern = (link_flags & PTX_VAR_EXTERN) ? 1 : 0;
        p_declare(p, name, SYM_FUNC, fi);
    }
    /* create (or, for a definition after a prototype, update) the parameter vars */
    p->cur_func = fi;
    if (!existing) {
        struct ptx_func *f = &m->funcs[fi];
        f->rets = nrets ? xmalloc(nrets * sizeof *f->rets) : NULL;
        f->params = nparams ? xmalloc(nparams * sizeof *f->params) : NULL;
    }
    for (size_t i = 0; i < p->npdesc; i++) {
        struct param_desc *d = &p->pdesc[i];
        const struct ptx_tok *nt = &p->toks[d->tok];
        struct ptx_func *f = &m->funcs[fi];
        if (existing && p->fdef[fi]) {
            /* a prototype after the definition: names stay as defined (they
             * are keys of the symbol table) */
            continue;
        } else if (existing) {
            uint32_t vi = i < nrets ? f->rets[i] : f->params[i - nrets];
            struct ptx_var *v = &m->vars[vi];
            if (v->type != d->type && ptx_type_size(v->type) != ptx_type_size(d->type))
                p_fail(p, nt, "parameter does not match earlier declaration:");
            free(v->name);
            v->name = xstrndup(nt->s, nt->len);
            v->type = d->type;
            v->align = d->align;
            v->size = d->size;
            v->flags = d->flags;
        } else {
            uint32_t vi = p_new_var(p, nt, PTX_SPACE_PARAM, d->type, d->flags, d->align,
                                    d->size);
            f = &m->funcs[fi];
            if (i < nrets)
                f->rets[f->nrets++] = vi;
            else
                f->params[f->nparams++] = vi;
        }
    }
    parse_perf_directives(p, &m->funcs[fi]);
    if (p_accept(p, ';')) {
        p->cur_func = PTX_NO_INDEX;
        return;
    }
    const struct ptx_tok *lb = p_cur(p);
    if (!tok_punct(lb, '{'))
        p_fail(p, lb, "expected '{' or ';' before");
    {
        struct ptx_func *f = &m->funcs[fi];
        if (p->fdef[fi])
            p_fail(p, name, "redefinition of function");
        p->fdef[fi] = 1;
        if (link_flags & PTX_VAR_EXTERN)
            p_fail(p, lb, "body given for .extern function at");
        f->first_pc = m->ninsts;
        f->line = kw->line;
        f->is_extern = 0;
    }
    p_next(p);
    sym_push(&p->syms);
    {
        struct ptx_func *f = &m->funcs[fi];
        for (uint32_t i = 0; i < f->nrets; i++) {
            const struct ptx_var *v = &m->vars[f->rets[i]];
            if (!sym_declare(&p->syms, v->name, (uint32_t)strlen(v->name), SYM_VAR, f->rets[i]))
                p_fail(p, name, "duplicate parameter name in");
        }
        for (uint32_t i = 0; i < f->nparams; i++) {
            const struct ptx_var *v = &m->vars[f->params[i]];
            if (!sym_declare(&p->syms, v->name, (uint32_t)strlen(v->name), SYM_VAR,
                             f->params[i]))
                p_fail(p, name, "duplicate parameter name in");
        }
    }
    p->cap_regs = m->funcs[fi].nregs;
    parse_body(p);
    sym_pop(&p->syms);
    struct ptx_func *f = &m->funcs[fi];
    f->ninsts = m->ninsts - f->first_pc;
    p->cur_func = PTX_NO_INDEX;
}

/* ---- module --------------------------------------------------------------------- */

static void parse_version(struct parser *p)
{
    const struct ptx_tok *t = p_cur(p);
    if (t->kind != PTX_TOK_FLOAT)
        p_fail(p, t, "expected a version number, found");
    unsigned long maj = 0, min = 0;
    uint32_t i = 0;
    while (i < t->len && t->s[i] >= '0' && t->s[i] <= '9' && maj < 100000)
        maj = maj * 10 + (unsigned long)(t->s[i++] - '0');
    if (i >= t->len || t->s[i] != '.')
        p_fail(p, t, "bad version number");
    i++;
    while (i < t->len && t->s[i] >= '0' && t->s[i] <= '9' && min < 100000)
        min = min * 10 + (unsigned long)(t->s[i++] - '0');
    if (i != t->len)
        p_fail(p, t, "bad version number");
    p->m->version_major = (uint32_t)maj;
    p->m->version_minor = (uint32_t)min;
    p_next(p);
}

static void parse_section(struct parser *p)
{
    p_next(p); /* .section */
    while (!tok_punct(p_cur(p), '{')) {
        if (p_cur(p)->kind == PTX_TOK_EOF || tok_punct(p_cur(p), ';'))
            p_fail(p, p_cur(p), "expected '{' before");
        p_next(p);
    }
    unsigned depth = 0;
    for (;;) {
        const struct ptx_tok *t = p_next(p);
        if (t->kind == PTX_TOK_EOF)
            p_fail(p, t, "unterminated .section block at");
        if (tok_punct(t, '{'))
            depth++;
        else if (tok_punct(t, '}') && --depth == 0)
            break;
    }
}

static void parse_module(struct parser *p)
{
    struct ptx_module *m = p->m;
    uint32_t link = 0;
    const struct ptx_tok *link_tok = NULL;
    for (;;) {
        const struct ptx_tok *t = p_cur(p);
        if (t->kind == PTX_TOK_EOF) {
            if (link_tok)
                p_fail(p, t, "expected a declaration before");
            break;
        }
        if (t->kind != PTX_TOK_DIR)
            p_fail(p, t, "unexpected token");
        if (tok_is(t, ".version")) {
            p_next(p);
            parse_version(p);
        } else if (tok_is(t, ".target")) {
            p_next(p);
            const struct ptx_tok *a = p_ident(p, "a target name");
            size_t n = a->len < sizeof m->target - 1 ? a->len : sizeof m->target - 1;
            memcpy(m->target, a->s, n);
            m->target[n] = '\0';
            while (p_accept(p, ','))
                p_ident(p, "a target name");
        } else if (tok_is(t, ".address_size")) {
            p_next(p);
            const struct ptx_tok *a = p_cur(p);
            uint64_t v = p_uint(p, "an address size");
            if (v != 64 && v != 32)
                p_fail(p, a, "bad address size");
            if (v != 64)
                p_unsup(p, a, "address size");
            m->address_size = (uint32_t)v;
        } else if (tok_is(t, ".file") || tok_is(t, ".loc")) {
            p_skip_line(p, t->line);
        } else if (tok_is(t, ".section")) {
            parse_section(p);
        } else if (tok_is(t, ".pragma") || tok_is(t, ".globl")) {
            p_skip_to_semi(p);
        } else if (tok_is(t, ".visible")) {
            link |= PTX_VAR_VISIBLE;
            link_tok = p_next(p);
        } else if (tok_is(t, ".extern")) {
            link |= PTX_VAR_EXTERN;
            link_tok = p_next(p);
        } else if (tok_is(t, ".weak") || tok_is(t, ".common")) {
            link_tok = p_next(p);
        } else if (tok_is(t, ".global") || tok_is(t, ".const") || tok_is(t, ".shared")) {
            uint8_t sp = tok_is(t, ".global") ? PTX_SPACE_GLOBAL
                         : tok_is(t, ".const") ? PTX_SPACE_CONST
                                               : PTX_SPACE_SHARED;
            parse_var_decl(p, sp, link);
            link = 0;
            link_tok = NULL;
        } else if (tok_is(t, ".entry") || tok_is(t, ".func")) {
            parse_function(p, tok_is(t, ".entry"), link);
            link = 0;
            link_tok = NULL;
        } else if (tok_is(t, ".local") || tok_is(t, ".tex") || tok_is(t, ".texref") ||
                   tok_is(t, ".surfref") || tok_is(t, ".samplerref") || tok_is(t, ".alias")) {
            p_unsup(p, t, "unsupported module-level directive");
        } else {
            p_fail(p, t, "unexpected directive");
        }
    }
    /* functions declared but never defined have no body */
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        if (!p->fdef[i]) {
            if (m->funcs[i].is_entry)
                p_fail(p, &p->toks[p->ntoks - 1], "kernel declared without a body before");
            m->funcs[i].is_extern = 1;
        }
    }
}

int ptx_parse(const char *text, size_t len, const char *name, struct ptx_module **out,
              struct err *e)
{
    struct parser *p = xcalloc(1, sizeof *p);
    int rc;
    *out = NULL;
    if (!name)
        name = "<string>";
    p->name = name;
    p->e = e;
    p->cur_func = PTX_NO_INDEX;
    rc = ptx_lex(text, len, name, &p->toks, &p->ntoks, e);
    if (rc != WS_OK) {
        free(p);
        return rc;
    }
    p->m = xcalloc(1, sizeof *p->m);
    p->m->name = xstrdup(name);
    p->m->address_size = 64;
    if (setjmp(p->jb) == 0) {
        parse_module(p);
        ptx_layout(p->m);
        *out = p->m;
        p->m = NULL;
        err_clear(e);
        rc = WS_OK;
    } else {
        rc = e->code;
        ptx_module_free(p->m);
    }
    sym_free(&p->syms);
    sym_free(&p->labels);
    free(p->fixes);
    free(p->pdesc);
    free(p->dims);
    free(p->initbuf);
    free(p->stride);
    free(p->fdef);
    free(p->toks);
    free(p);
    return rc;
}
