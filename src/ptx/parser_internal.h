/* parser_internal.h: private to the PTX parser (ptx/parser*.c): the scoped
 * name table, the parser state, token helpers and the functions shared by
 * parser.c (module, functions), parser_decl.c (declarations, initializers),
 * parser_inst.c (instructions, operands), parser_mods.c (instruction
 * modifiers) and parser_scope.c (name table). */
#ifndef WS_PTX_PARSER_INTERNAL_H
#define WS_PTX_PARSER_INTERNAL_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/err.h"
#include "ptx/ir.h"
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

/* Declare at the current depth; returns 0 if already declared at that depth. */
int parser_sym_declare(struct symtab *t, const char *k, uint32_t n, uint8_t kind, uint32_t idx);
const struct sym_ent *parser_sym_lookup(struct symtab *t, const char *k, uint32_t n);
/* Enter / leave a scope. */
void parser_sym_push(struct symtab *t);
void parser_sym_pop(struct symtab *t);
/* Forget every name (keeps the storage). */
void parser_sym_reset(struct symtab *t);
void parser_sym_free(struct symtab *t);

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
    uint32_t loc_file, loc_line; /* the last .loc in the current function */
    size_t cap_files;
};

/* Sets a "<name>:<line>:<col>: <what> '<token>'" error and longjmps out. */
_Noreturn void parser_fail_at(struct parser *p, const struct ptx_tok *t, int code,
                              const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#define p_fail(p, t, ...) parser_fail_at((p), (t), WS_ERR_PARSE, __VA_ARGS__)
#define p_unsup(p, t, ...) parser_fail_at((p), (t), WS_ERR_UNSUPPORTED, __VA_ARGS__)

static inline const struct ptx_tok *p_cur(struct parser *p)
{
    return &p->toks[p->pos];
}

static inline const struct ptx_tok *p_peek(struct parser *p, size_t k)
{
    size_t i = p->pos + k;
    return &p->toks[i < p->ntoks ? i : p->ntoks - 1];
}

static inline const struct ptx_tok *p_next(struct parser *p)
{
    const struct ptx_tok *t = &p->toks[p->pos];
    if (t->kind != PTX_TOK_EOF)
        p->pos++;
    return t;
}

static inline int tok_is(const struct ptx_tok *t, const char *s)
{
    size_t n = strlen(s);
    return t->len == n && memcmp(t->s, s, n) == 0;
}

static inline int tok_punct(const struct ptx_tok *t, char c)
{
    return t->kind == PTX_TOK_PUNCT && t->ch == c;
}

static inline int tok_dir(const struct ptx_tok *t, const char *s)
{
    return t->kind == PTX_TOK_DIR && tok_is(t, s);
}

/* parser.c */
void parser_expect(struct parser *p, char c);
int parser_accept(struct parser *p, char c);
const struct ptx_tok *parser_ident(struct parser *p, const char *what);
uint64_t parser_uint(struct parser *p, const char *what);
enum ptx_type parser_type_from_dir(const struct ptx_tok *t);
uint32_t parser_new_var(struct parser *p, const struct ptx_tok *name, uint8_t space,
                        uint8_t type, uint32_t flags, uint32_t align, uint64_t size);
/* Declares name in p->syms; a duplicate at the same depth is an error. */
void parser_declare(struct parser *p, const struct ptx_tok *name, uint8_t kind, uint32_t idx);

/* parser_decl.c */

struct decl_attrs {
    uint8_t type;
    unsigned vecn;
    uint32_t align;
    int ptr;
    int managed; /* .attribute(.managed) */
};

/* Parses ".align N", ".vN", ".ptr", state spaces after .ptr,
 * ".attribute(.managed)" and the type, in any order, stopping at the first
 * non-directive token. */
void parser_decl_attrs(struct parser *p, struct decl_attrs *a);
int parser_dims(struct parser *p);
uint64_t parser_dims_size(struct parser *p, const struct ptx_tok *at, uint64_t elem);
void parser_var_decl(struct parser *p, uint8_t space, uint32_t vflags);
void parser_reg_decl(struct parser *p);

/* parser_mods.c */

struct inst_ctx {
    struct ptx_inst in;
    const struct ptx_tok *optok;
    int is_barrier_kw; /* "barrier" rather than "bar" */
    uint8_t types[4];
    unsigned ntypes;
};

void parser_apply_mod(struct parser *p, struct inst_ctx *c, const struct ptx_tok *t);
void parser_finish_types(struct parser *p, struct inst_ctx *c);
/* The type a floating-point literal in source operand `si` is converted to. */
enum ptx_type parser_literal_type(const struct ptx_inst *in, unsigned si);

/* parser_inst.c */

void parser_inst(struct parser *p);
uint32_t parser_push_opnd(struct parser *p, const struct ptx_operand *o);
uint32_t parser_lookup_reg(struct parser *p, const struct ptx_tok *t);
/* "{a, b, ...}"; any_n: 1 to 4 elements, else 2 or 4. */
void parser_vector(struct parser *p, struct ptx_operand *o, int any_n);

/* parser_tex.c: tex, tld4, txq, suld, sust */

int parser_is_tex_op(enum ptx_op op);
/* A modifier of those instructions: 1 if it was one (applied), else 0. */
int parser_tex_mod(struct parser *p, struct inst_ctx *c, const struct ptx_tok *t);
/* Their operands, up to and including the ';'. */
void parser_tex_operands(struct parser *p, struct inst_ctx *c);

#endif
