/* parser.c: PTX tokens -> struct ptx_module (ir.h).
 *
 * A recursive-descent parser over the token array from lexer.c.  This file
 * holds the parser state helpers, functions (parameters, body, directives),
 * module-level directives and ptx_parse(); declarations and initializers are
 * in parser_decl.c, instructions and operands in parser_inst.c, instruction
 * modifiers in parser_mods.c, the scoped name table in parser_scope.c.
 * Names live in one scoped hash table (module symbols at depth 0, then the
 * function scope and nested "{ }" blocks); labels have a per-function table
 * with fix-ups for forward branches.  Errors unwind with longjmp to
 * ptx_parse(), which frees everything; every heap object is reachable from
 * the module or the parser state at any point where an error can be raised. */
#include "ptx/parser.h"

#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/log.h"
#include "ptx/layout.h"
#include "ptx/lexer.h"
#include "ptx/parser_internal.h"

/* ---- parser state ------------------------------------------------------------ */

_Noreturn void parser_fail_at(struct parser *p, const struct ptx_tok *t, int code,
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

void parser_expect(struct parser *p, char c)
{
    const struct ptx_tok *t = p_cur(p);
    if (!tok_punct(t, c)) {
        char what[32];
        snprintf(what, sizeof what, "expected '%c' before", c);
        p_fail(p, t, "%s", what);
    }
    p_next(p);
}

int parser_accept(struct parser *p, char c)
{
    if (tok_punct(p_cur(p), c)) {
        p_next(p);
        return 1;
    }
    return 0;
}

const struct ptx_tok *parser_ident(struct parser *p, const char *what)
{
    const struct ptx_tok *t = p_cur(p);
    if (t->kind != PTX_TOK_IDENT)
        p_fail(p, t, "expected %s, found", what);
    return p_next(p);
}

uint64_t parser_uint(struct parser *p, const char *what)
{
    const struct ptx_tok *t = p_cur(p);
    if (t->kind != PTX_TOK_INT)
        p_fail(p, t, "expected %s, found", what);
    if (t->overflow)
        p_fail(p, t, "integer literal out of range");
    p_next(p);
    return t->ival;
}

/* Skip all remaining tokens on the line of token t. */
static void p_skip_line(struct parser *p, uint32_t line)
{
    while (p_cur(p)->kind != PTX_TOK_EOF && p_cur(p)->line == line)
        p_next(p);
}

static uint32_t p_uint32(struct parser *p, const char *what)
{
    const struct ptx_tok *t = p_cur(p);
    uint64_t v = parser_uint(p, what);
    if (v > UINT32_MAX)
        p_fail(p, t, "%s out of range", what);
    return (uint32_t)v;
}

/* .file N "path" [, mtime, size]: module scope, often after the functions */
static void parse_file(struct parser *p)
{
    struct ptx_module *m = p->m;
    const struct ptx_tok *kw = p_next(p);
    uint32_t id = p_uint32(p, "a file number");
    const struct ptx_tok *s = p_cur(p);
    if (s->kind != PTX_TOK_STRING)
        p_fail(p, s, "expected a file name in quotes, found");
    p_next(p);
    for (uint32_t i = 0; i < m->nfiles; i++)
        if (m->files[i].id == id)
            p_fail(p, kw, "file number %u declared twice at", id);
    struct ptx_src_file *f = ARRAY_PUSH(m->files, m->nfiles, p->cap_files);
    f->id = id;
    f->path = xstrndup(s->s + 1, s->len - 2);
    p_skip_line(p, kw->line); /* the optional time stamp and size */
}

/* .loc file line column [, function_name ..., inlined_at ...]: the CUDA
 * source position of the instructions that follow */
static void parse_loc(struct parser *p)
{
    const struct ptx_tok *kw = p_next(p);
    p->loc_file = p_uint32(p, "a file number");
    p->loc_line = p_uint32(p, "a line number");
    p_skip_line(p, kw->line);
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

enum ptx_type parser_type_from_dir(const struct ptx_tok *t)
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

uint32_t parser_new_var(struct parser *p, const struct ptx_tok *name, uint8_t space,
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

void parser_declare(struct parser *p, const struct ptx_tok *name, uint8_t kind, uint32_t idx)
{
    if (!parser_sym_declare(&p->syms, name->s, name->len, kind, idx))
        p_fail(p, name, "duplicate declaration of");
}

/* ---- functions ------------------------------------------------------------------ */

/* "( .param ... , ... )" into p->pdesc (appending); the '(' is current. */
static void parse_param_list(struct parser *p, uint32_t flags)
{
    parser_expect(p, '(');
    if (parser_accept(p, ')'))
        return;
    for (;;) {
        const struct ptx_tok *kw = p_cur(p);
        if (tok_dir(kw, ".reg"))
            p_unsup(p, kw, "register parameter");
        if (!tok_dir(kw, ".param"))
            p_fail(p, kw, "expected '.param', found");
        p_next(p);
        struct decl_attrs a;
        parser_decl_attrs(p, &a);
        if (a.vecn != 1)
            p_unsup(p, kw, "vector parameter");
        const struct ptx_tok *name = parser_ident(p, "a parameter name");
        int unsized = parser_dims(p);
        if (unsized)
            p_unsup(p, name, "unsized array parameter");
        struct param_desc *d = ARRAY_PUSH(p->pdesc, p->npdesc, p->cap_pdesc);
        d->tok = (size_t)(name - p->toks);
        d->type = a.type;
        d->size = parser_dims_size(p, name, ptx_type_size(a.type));
        d->align = a.align ? a.align : ptx_type_size(a.type);
        d->flags = flags | (a.ptr ? PTX_VAR_PTR : 0);
        if (p->npdesc > 4096)
            p_fail(p, name, "too many parameters at");
        if (parser_accept(p, ')'))
            return;
        parser_expect(p, ',');
    }
}

/* CUDA's limit on a kernel's parameter buffer: 4096 bytes, raised to 32764
 * bytes by CUDA 12.1 for PTX ISA 8.1 and later on sm_70 and later (NVIDIA,
 * "CUDA 12.1 Supports Large Kernel Parameters"; ptxas rejects larger lists
 * with "Formal parameter space overflowed").  Checked at load time so a
 * launch never copies more than this from the caller's argument pointers. */
static uint64_t kernel_param_limit(const struct ptx_module *m)
{
    unsigned sm = 0;
    int new_isa = m->version_major > 8 || (m->version_major == 8 && m->version_minor >= 1);
    if (sscanf(m->target, "sm_%u", &sm) == 1 && sm >= 70 && new_isa)
        return 32764;
    return 4096;
}

/* The parameter buffer size of the list just parsed into p->pdesc[first..]. */
static void check_kernel_params(struct parser *p, const struct ptx_tok *name, size_t first)
{
    uint64_t cur = 0, limit = kernel_param_limit(p->m);
    for (size_t i = first; i < p->npdesc; i++) {
        uint64_t a = p->pdesc[i].align ? p->pdesc[i].align : 1;
        cur = (cur + a - 1) / a * a + p->pdesc[i].size; /* sizes < 2^40, at most 4097 */
    }
    if (cur > limit)
        p_fail(p, name,
               "kernel parameters take %" PRIu64 " bytes, more than CUDA's limit of %" PRIu64
               " (PTX ISA %u.%u, target %s) in",
               cur, limit, p->m->version_major, p->m->version_minor,
               p->m->target[0] ? p->m->target : "none");
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
            uint64_t v = parser_uint(p, "a number");
            if (dst) {
                if (i >= maxn || v > UINT32_MAX)
                    p_fail(p, nt, "bad value for directive");
                dst[i] = (uint32_t)v;
            }
            i++;
            if (!parser_accept(p, ','))
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
        const struct sym_ent *l = parser_sym_lookup(&p->labels, t->s, t->len);
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
    parser_sym_reset(&p->labels);
    p->nfixes = 0;
    for (;;) {
        const struct ptx_tok *t = p_cur(p);
        if (tok_punct(t, '}')) {
            p_next(p);
            if (depth == 0)
                break;
            parser_sym_pop(&p->syms);
            depth--;
        } else if (tok_punct(t, '{')) {
            if (depth > 1000)
                p_fail(p, t, "blocks nested too deeply at");
            p_next(p);
            parser_sym_push(&p->syms);
            depth++;
        } else if (t->kind == PTX_TOK_DIR) {
            if (tok_is(t, ".reg"))
                parser_reg_decl(p);
            else if (tok_is(t, ".local"))
                parser_var_decl(p, PTX_SPACE_LOCAL, 0);
            else if (tok_is(t, ".shared"))
                parser_var_decl(p, PTX_SPACE_SHARED, 0);
            else if (tok_is(t, ".param"))
                parser_var_decl(p, PTX_SPACE_PARAM, PTX_VAR_CALL_PARAM);
            else if (tok_is(t, ".const"))
                parser_var_decl(p, PTX_SPACE_CONST, 0);
            else if (tok_is(t, ".global"))
                parser_var_decl(p, PTX_SPACE_GLOBAL, 0);
            else if (tok_is(t, ".loc"))
                parse_loc(p);
            else if (tok_is(t, ".file"))
                parse_file(p);
            else if (tok_is(t, ".pragma"))
                p_skip_to_semi(p);
            else
                p_fail(p, t, "unexpected directive");
        } else if (t->kind == PTX_TOK_IDENT && tok_punct(p_peek(p, 1), ':')) {
            if (tok_dir(p_peek(p, 2), ".callprototype"))
                p_unsup(p, p_peek(p, 2), "call prototype (indirect call)");
            if (!parser_sym_declare(&p->labels, t->s, t->len, SYM_LABEL, m->ninsts))
                p_fail(p, t, "duplicate label");
            p_next(p);
            p_next(p);
        } else if (t->kind == PTX_TOK_IDENT || tok_punct(t, '@')) {
            parser_inst(p);
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
    p->loc_file = p->loc_line = 0;
    size_t nrets = 0;
    if (!is_entry && tok_punct(p_cur(p), '(')) {
        parse_param_list(p, PTX_VAR_FUNC_RET);
        nrets = p->npdesc;
    }
    const struct ptx_tok *name = parser_ident(p, "a function name");
    if (tok_punct(p_cur(p), '('))
        parse_param_list(p, is_entry ? PTX_VAR_KERNEL_PARAM : PTX_VAR_FUNC_PARAM);
    size_t nparams = p->npdesc - nrets;
    if (is_entry)
        check_kernel_params(p, name, nrets);

    const struct sym_ent *s = parser_sym_lookup(&p->syms, name->s, name->len);
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
        parser_declare(p, name, SYM_FUNC, fi);
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
            uint32_t vi = parser_new_var(p, nt, PTX_SPACE_PARAM, d->type, d->flags, d->align,
                                    d->size);
            f = &m->funcs[fi];
            if (i < nrets)
                f->rets[f->nrets++] = vi;
            else
                f->params[f->nparams++] = vi;
        }
    }
    parse_perf_directives(p, &m->funcs[fi]);
    if (parser_accept(p, ';')) {
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
    parser_sym_push(&p->syms);
    {
        struct ptx_func *f = &m->funcs[fi];
        for (uint32_t i = 0; i < f->nrets; i++) {
            const struct ptx_var *v = &m->vars[f->rets[i]];
            if (!parser_sym_declare(&p->syms, v->name, (uint32_t)strlen(v->name), SYM_VAR,
                                    f->rets[i]))
                p_fail(p, name, "duplicate parameter name in");
        }
        for (uint32_t i = 0; i < f->nparams; i++) {
            const struct ptx_var *v = &m->vars[f->params[i]];
            if (!parser_sym_declare(&p->syms, v->name, (uint32_t)strlen(v->name), SYM_VAR,
                             f->params[i]))
                p_fail(p, name, "duplicate parameter name in");
        }
    }
    p->cap_regs = m->funcs[fi].nregs;
    parse_body(p);
    parser_sym_pop(&p->syms);
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
            const struct ptx_tok *a = parser_ident(p, "a target name");
            size_t n = a->len < sizeof m->target - 1 ? a->len : sizeof m->target - 1;
            memcpy(m->target, a->s, n);
            m->target[n] = '\0';
            while (parser_accept(p, ','))
                parser_ident(p, "a target name");
        } else if (tok_is(t, ".address_size")) {
            p_next(p);
            const struct ptx_tok *a = p_cur(p);
            uint64_t v = parser_uint(p, "an address size");
            if (v != 64 && v != 32)
                p_fail(p, a, "bad address size");
            if (v != 64)
                p_unsup(p, a, "address size");
            m->address_size = (uint32_t)v;
        } else if (tok_is(t, ".file")) {
            parse_file(p);
        } else if (tok_is(t, ".loc")) {
            p_skip_line(p, t->line); /* no instruction follows at module scope */
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
            parser_var_decl(p, sp, link);
            link = 0;
            link_tok = NULL;
        } else if (tok_is(t, ".entry") || tok_is(t, ".func")) {
            parse_function(p, tok_is(t, ".entry"), link);
            link = 0;
            link_tok = NULL;
        } else if (tok_is(t, ".tex") || tok_is(t, ".texref") || tok_is(t, ".surfref") ||
                   tok_is(t, ".samplerref")) {
            p_unsup(p, t, "legacy texture, surface and sampler references (texture<>, "
                          "surface<>; removed in CUDA 12) are not supported; use texture and "
                          "surface objects:");
        } else if (tok_is(t, ".local") || tok_is(t, ".alias")) {
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
    parser_sym_free(&p->syms);
    parser_sym_free(&p->labels);
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
