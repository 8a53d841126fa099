/* test_analysis.c: basic blocks, successors, post-dominators (reconvergence
 * PCs), natural loops and instruction classes on hand-built modules.
 *
 * Programs are written in a tiny notation so the tests do not depend on the
 * PTX parser: statements separated by ';', each "[LABEL:] [@p|@!p] op
 * [LABEL]", where op is one of add mov setp bra bra.uni ret exit trap call
 * bar; labels are local to the function. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/analysis.h"
#include "base/alloc.h"

#define X PC_EXIT
#define NO PTX_NO_INDEX

struct tb {
    struct ptx_module m;
    size_t insts_cap, opnds_cap, funcs_cap;
};

static void tb_init(struct tb *t)
{
    memset(t, 0, sizeof *t);
    t->m.name = "test";
    t->m.address_size = 64;
}

static void tb_free(struct tb *t)
{
    free(t->m.insts);
    free(t->m.opnds);
    free(t->m.funcs);
}

static struct ptx_inst *tb_emit(struct tb *t, uint32_t func, uint16_t op)
{
    struct ptx_inst *in = ARRAY_PUSH(t->m.insts, t->m.ninsts, t->insts_cap);
    memset(in, 0, sizeof *in);
    in->op = op;
    in->type = PTX_T_S32;
    in->guard = NO;
    in->opnd = t->m.nopnds;
    in->func = func;
    in->vec = 1;
    in->line = t->m.ninsts;
    return in;
}

struct tb_label {
    char name[32];
    uint32_t pc;
};

/* Split the next statement off *s; NULL at the end. */
static char *tb_next_stmt(char **s)
{
    while (**s == ' ' || **s == ';')
        (*s)++;
    if (**s == '\0')
        return NULL;
    char *start = *s;
    char *semi = strchr(start, ';');
    if (semi) {
        *semi = '\0';
        *s = semi + 1;
    } else {
        *s = start + strlen(start);
    }
    return start;
}

/* Append a function with the given body; returns its index. */
static uint32_t tb_func(struct tb *t, const char *name, int is_entry, const char *body)
{
    uint32_t fi = t->m.nfuncs;
    struct ptx_func *f = ARRAY_PUSH(t->m.funcs, t->m.nfuncs, t->funcs_cap);
    memset(f, 0, sizeof *f);
    f->name = (char *)name;
    f->is_entry = is_entry;
    f->first_pc = t->m.ninsts;
    struct tb_label labels[64];
    unsigned nlabels = 0;
    for (int pass = 0; pass < 2; pass++) {
        char *copy = xstrdup(body), *cur = copy, *stmt;
        uint32_t pc = f->first_pc;
        while ((stmt = tb_next_stmt(&cur)) != NULL) {
            char *tok[4];
            int ntok = 0;
            for (char *w = strtok(stmt, " "); w && ntok < 4; w = strtok(NULL, " "))
                tok[ntok++] = w;
            int i = 0;
            if (ntok > 0 && tok[0][strlen(tok[0]) - 1] == ':') {
                if (pass == 0) {
                    assert_true(nlabels < 64);
                    snprintf(labels[nlabels].name, sizeof labels[nlabels].name, "%.*s",
                             (int)strlen(tok[0]) - 1, tok[0]);
                    labels[nlabels++].pc = pc;
                }
                i++;
            }
            if (pass == 1) {
                uint32_t guard = NO;
                uint8_t neg = 0;
                if (i < ntok && tok[i][0] == '@') {
                    neg = tok[i][1] == '!';
                    guard = 0;
                    i++;
                }
                assert_true(i < ntok);
                const char *op = tok[i++];
                static const struct { const char *name; uint16_t op; uint32_t flags; } ops[] = {
                    {"add", PTX_OP_ADD, 0},  {"mov", PTX_OP_MOV, 0},
                    {"setp", PTX_OP_SETP, 0}, {"bra", PTX_OP_BRA, 0},
                    {"bra.uni", PTX_OP_BRA, PTX_F_UNI}, {"ret", PTX_OP_RET, 0},
                    {"exit", PTX_OP_EXIT, 0}, {"trap", PTX_OP_TRAP, 0},
                    {"call", PTX_OP_CALL, 0}, {"bar", PTX_OP_BAR, 0},
                };
                size_t k = 0;
                while (k < sizeof ops / sizeof ops[0] && strcmp(ops[k].name, op) != 0)
                    k++;
                if (k == sizeof ops / sizeof ops[0])
                    fail_msg("unknown op '%s'", op);
                struct ptx_inst *in = tb_emit(t, fi, ops[k].op);
                in->flags = ops[k].flags;
                in->guard = guard;
                in->guard_neg = neg;
                if (ops[k].op == PTX_OP_BRA) {
                    assert_true(i < ntok);
                    unsigned l = 0;
                    while (l < nlabels && strcmp(labels[l].name, tok[i]) != 0)
                        l++;
                    if (l == nlabels)
                        fail_msg("unknown label '%s'", tok[i]);
                    struct ptx_operand *o = ARRAY_PUSH(t->m.opnds, t->m.nopnds, t->opnds_cap);
                    memset(o, 0, sizeof *o);
                    o->kind = PTX_OPND_LABEL;
                    o->reg = o->sym = NO;
                    o->imm = labels[l].pc;
                    in->nsrc = 1;
                }
            }
            pc++;
        }
        free(copy);
    }
    f = &t->m.funcs[fi];
    f->ninsts = t->m.ninsts - f->first_pc;
    return fi;
}

static struct analysis *run_ok(struct tb *t)
{
    struct analysis *a = NULL;
    struct err e;
    err_clear(&e);
    int rc = analysis_run(&t->m, &a, &e);
    if (rc != WS_OK)
        fail_msg("analysis_run: %s", e.msg);
    assert_non_null(a);
    return a;
}

/* Block b spans [first, last] with successors s0, s1 (NO = absent). */
static void check_block(const struct analysis *a, uint32_t b, uint32_t first, uint32_t last,
                        uint32_t s0, uint32_t s1, uint32_t ipdom)
{
    assert_true(b < a->nbbs);
    const struct basic_block *bb = &a->bbs[b];
    assert_int_equal(bb->first_pc, first);
    assert_int_equal(bb->last_pc, last);
    uint32_t ns = (s0 != NO) + (s1 != NO);
    assert_int_equal(bb->nsucc, ns);
    if (ns > 0)
        assert_int_equal(bb->succ[0], s0);
    if (ns > 1)
        assert_int_equal(bb->succ[1], s1);
    assert_int_equal(bb->ipdom, ipdom);
    for (uint32_t pc = first; pc <= last; pc++)
        assert_int_equal(a->pc[pc].bb, b);
}

/* reconv[] gives every PC's expected reconvergence PC. */
static void check_reconv(const struct analysis *a, const uint32_t *reconv, uint32_t n)
{
    for (uint32_t pc = 0; pc < n; pc++) {
        if (a->pc[pc].reconv != reconv[pc])
            fail_msg("PC %u: reconv %u, expected %u", pc, a->pc[pc].reconv, reconv[pc]);
    }
}

static void check_list(const uint32_t *got, uint32_t ngot, const uint32_t *want, uint32_t nwant)
{
    assert_int_equal(ngot, nwant);
    for (uint32_t i = 0; i < nwant; i++)
        assert_int_equal(got[i], want[i]);
}

struct want_loop {
    uint32_t header_bb, header_pc, first_pc, last_pc, parent, depth, func;
    uint32_t latches[4], nlatches;
    uint32_t exits[4], nexits;
    uint32_t blocks[16], nblocks;
};

static void check_loop(const struct analysis *a, uint32_t l, const struct want_loop *w)
{
    assert_true(l < a->nloops);
    const struct loop_info *li = &a->loops[l];
    assert_int_equal(li->header_bb, w->header_bb);
    assert_int_equal(li->header_pc, w->header_pc);
    assert_int_equal(li->first_pc, w->first_pc);
    assert_int_equal(li->last_pc, w->last_pc);
    assert_int_equal(li->parent, w->parent);
    assert_int_equal(li->depth, w->depth);
    assert_int_equal(li->func, w->func);
    check_list(li->latches, li->nlatches, w->latches, w->nlatches);
    check_list(li->exits, li->nexits, w->exits, w->nexits);
    check_list(li->blocks, li->nblocks, w->blocks, w->nblocks);
}

/* loop[] gives every PC's expected innermost loop. */
static void check_pc_loops(const struct analysis *a, const uint32_t *loop, uint32_t n)
{
    for (uint32_t pc = 0; pc < n; pc++) {
        if (a->pc[pc].loop != loop[pc])
            fail_msg("PC %u: loop %u, expected %u", pc, a->pc[pc].loop, loop[pc]);
    }
}

/* ---- tests ---------------------------------------------------------------- */

static void test_straight_line(void **state)
{
    (void)state;
    struct tb t;
    tb_init(&t);
    tb_func(&t, "k", 1, "mov; add; add; ret");
    struct analysis *a = run_ok(&t);
    assert_int_equal(a->nbbs, 1);
    check_block(a, 0, 0, 3, NO, NO, NO);
    uint32_t rc[] = {X, X, X, X};
    check_reconv(a, rc, 4);
    assert_int_equal(a->nloops, 0);
    for (uint32_t pc = 0; pc < 4; pc++) {
        assert_int_equal(a->pc[pc].loop, NO);
        assert_int_equal(a->pc[pc].is_cond_branch, 0);
    }
    assert_int_equal(a->pc[3].iclass, ICLASS_EXIT);
    analysis_free(a);
    tb_free(&t);
}

static void test_if_then(void **state)
{
    (void)state;
    struct tb t;
    tb_init(&t);
    tb_func(&t, "k", 1, "setp; @p bra L; add; L: add; ret");
    struct analysis *a = run_ok(&t);
    assert_int_equal(a->nbbs, 3);
    check_block(a, 0, 0, 1, 2, 1, 2);
    check_block(a, 1, 2, 2, 2, NO, 2);
    check_block(a, 2, 3, 4, NO, NO, NO);
    uint32_t rc[] = {X, 3, X, X, X};
    check_reconv(a, rc, 5);
    assert_int_equal(a->pc[1].is_cond_branch, 1);
    assert_int_equal(a->pc[1].iclass, ICLASS_BRANCH);
    assert_int_equal(a->nloops, 0);
    analysis_free(a);
    tb_free(&t);
}

static void test_if_else(void **state)
{
    (void)state;
    struct tb t;
    tb_init(&t);
    tb_func(&t, "k", 1, "setp; @!p bra ELSE; add; bra END; ELSE: add; END: ret");
    struct analysis *a = run_ok(&t);
    assert_int_equal(a->nbbs, 4);
    check_block(a, 0, 0, 1, 2, 1, 3);
    check_block(a, 1, 2, 3, 3, NO, 3);
    check_block(a, 2, 4, 4, 3, NO, 3);
    check_block(a, 3, 5, 5, NO, NO, NO);
    uint32_t rc[] = {X, 5, X, 5, X, X};
    check_reconv(a, rc, 6);
    assert_int_equal(a->pc[1].is_cond_branch, 1);
    assert_int_equal(a->pc[3].is_cond_branch, 0);
    analysis_free(a);
    tb_free(&t);
}

static void test_nested_if(void **state)
{
    (void)state;
    struct tb t;
    tb_init(&t);
    tb_func(&t, "k", 1, "setp; @p bra END; setp; @p bra IN; add; IN: add; END: ret");
    struct analysis *a = run_ok(&t);
    assert_int_equal(a->nbbs, 5);
    check_block(a, 0, 0, 1, 4, 1, 4);
    check_block(a, 1, 2, 3, 3, 2, 3);
    check_block(a, 2, 4, 4, 3, NO, 3);
    check_block(a, 3, 5, 5, 4, NO, 4);
    check_block(a, 4, 6, 6, NO, NO, NO);
    uint32_t rc[] = {X, 6, X, 5, X, X, X};
    check_reconv(a, rc, 7);
    analysis_free(a);
    tb_free(&t);
}

static void test_while_loop(void **state)
{
    (void)state;
    struct tb t;
    tb_init(&t);
    tb_func(&t, "k", 1, "mov; HEAD: setp; @p bra DONE; add; bra HEAD; DONE: ret");
    struct analysis *a = run_ok(&t);
    assert_int_equal(a->nbbs, 4);
    check_block(a, 0, 0, 0, 1, NO, 1);
    check_block(a, 1, 1, 2, 3, 2, 3);
    check_block(a, 2, 3, 4, 1, NO, 1);
    check_block(a, 3, 5, 5, NO, NO, NO);
    uint32_t rc[] = {X, X, 5, X, 1, X};
    check_reconv(a, rc, 6);
    assert_int_equal(a->nloops, 1);
    struct want_loop w = {.header_bb = 1, .header_pc = 1, .first_pc = 1, .last_pc = 4,
                          .parent = NO, .depth = 1, .func = 0,
                          .latches = {2}, .nlatches = 1, .exits = {3}, .nexits = 1,
                          .blocks = {1, 2}, .nblocks = 2};
    check_loop(a, 0, &w);
    uint32_t lp[] = {NO, 0, 0, 0, 0, NO};
    check_pc_loops(a, lp, 6);
    analysis_free(a);
    tb_free(&t);
}

static void test_do_while(void **state)
{
    (void)state;
    struct tb t;
    tb_init(&t);
    tb_func(&t, "k", 1, "mov; BODY: add; setp; @p bra BODY; ret");
    struct analysis *a = run_ok(&t);
    assert_int_equal(a->nbbs, 3);
    check_block(a, 0, 0, 0, 1, NO, 1);
    check_block(a, 1, 1, 3, 1, 2, 2);
    check_block(a, 2, 4, 4, NO, NO, NO);
    uint32_t rc[] = {X, X, X, 4, X};
    check_reconv(a, rc, 5);
    assert_int_equal(a->nloops, 1);
    struct want_loop w = {.header_bb = 1, .header_pc = 1, .first_pc = 1, .last_pc = 3,
                          .parent = NO, .depth = 1, .func = 0,
                          .latches = {1}, .nlatches = 1, .exits = {2}, .nexits = 1,
                          .blocks = {1}, .nblocks = 1};
    check_loop(a, 0, &w);
    uint32_t lp[] = {NO, 0, 0, 0, NO};
    check_pc_loops(a, lp, 5);
    analysis_free(a);
    tb_free(&t);
}

/* for (..) { for (..) { if (a) continue; if (b) break; body } tail } */
static void test_nested_loops_break_continue(void **state)
{
    (void)state;
    struct tb t;
    tb_init(&t);
    tb_func(&t, "k", 1,
            "mov;"                          /* 0  B0 */
            "OUTER: setp; @p bra ODONE;"    /* 1,2 B1 */
            "mov;"                          /* 3  B2 */
            "INNER: setp; @p bra IDONE;"    /* 4,5 B3 */
            "setp; @p bra ILATCH;"          /* 6,7 B4 continue */
            "setp; @p bra IDONE;"           /* 8,9 B5 break */
            "add;"                          /* 10 B6 */
            "ILATCH: add; bra INNER;"       /* 11,12 B7 */
            "IDONE: add; bra OUTER;"        /* 13,14 B8 */
            "ODONE: ret");                  /* 15 B9 */
    struct analysis *a = run_ok(&t);
    assert_int_equal(a->nbbs, 10);
    check_block(a, 0, 0, 0, 1, NO, 1);
    check_block(a, 1, 1, 2, 9, 2, 9);
    check_block(a, 2, 3, 3, 3, NO, 3);
    check_block(a, 3, 4, 5, 8, 4, 8);
    check_block(a, 4, 6, 7, 7, 5, 8);
    check_block(a, 5, 8, 9, 8, 6, 8);
    check_block(a, 6, 10, 10, 7, NO, 7);
    check_block(a, 7, 11, 12, 3, NO, 3);
    check_block(a, 8, 13, 14, 1, NO, 1);
    check_block(a, 9, 15, 15, NO, NO, NO);
    uint32_t rc[] = {X, X, 15, X, X, 13, X, 13, X, 13, X, X, 4, X, 1, X};
    check_reconv(a, rc, 16);
    assert_int_equal(a->nloops, 2);
    struct want_loop outer = {.header_bb = 1, .header_pc = 1, .first_pc = 1, .last_pc = 14,
                              .parent = NO, .depth = 1, .func = 0,
                              .latches = {8}, .nlatches = 1, .exits = {9}, .nexits = 1,
                              .blocks = {1, 2, 3, 4, 5, 6, 7, 8}, .nblocks = 8};
    struct want_loop inner = {.header_bb = 3, .header_pc = 4, .first_pc = 4, .last_pc = 12,
                              .parent = 0, .depth = 2, .func = 0,
                              .latches = {7}, .nlatches = 1, .exits = {8}, .nexits = 1,
                              .blocks = {3, 4, 5, 6, 7}, .nblocks = 5};
    check_loop(a, 0, &outer);
    check_loop(a, 1, &inner);
    uint32_t lp[] = {NO, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, NO};
    check_pc_loops(a, lp, 16);
    analysis_free(a);
    tb_free(&t);
}

static void test_loop_two_exits(void **state)
{
    (void)state;
    struct tb t;
    tb_init(&t);
    tb_func(&t, "k", 1,
            "mov; HEAD: setp; @p bra E1; setp; @p bra E2; bra HEAD;"
            "E1: add; bra END; E2: add; END: ret");
    struct analysis *a = run_ok(&t);
    assert_int_equal(a->nbbs, 7);
    check_block(a, 1, 1, 2, 4, 2, 6);
    check_block(a, 2, 3, 4, 5, 3, 6);
    check_block(a, 3, 5, 5, 1, NO, 1);
    check_block(a, 4, 6, 7, 6, NO, 6);
    check_block(a, 5, 8, 8, 6, NO, 6);
    uint32_t rc[] = {X, X, 9, X, 9, 1, X, 9, X, X};
    check_reconv(a, rc, 10);
    assert_int_equal(a->nloops, 1);
    struct want_loop w = {.header_bb = 1, .header_pc = 1, .first_pc = 1, .last_pc = 5,
                          .parent = NO, .depth = 1, .func = 0,
                          .latches = {3}, .nlatches = 1, .exits = {4, 5}, .nexits = 2,
                          .blocks = {1, 2, 3}, .nblocks = 3};
    check_loop(a, 0, &w);
    analysis_free(a);
    tb_free(&t);
}

static void test_early_return_in_loop(void **state)
{
    (void)state;
    struct tb t;
    tb_init(&t);
    tb_func(&t, "k", 1, "mov; HEAD: setp; @p bra DONE; setp; @p ret; add; bra HEAD;"
                        "DONE: add; ret");
    struct analysis *a = run_ok(&t);
    assert_int_equal(a->nbbs, 5);
    check_block(a, 1, 1, 2, 4, 2, NO);
    check_block(a, 2, 3, 4, 3, NO, NO);
    check_block(a, 3, 5, 6, 1, NO, 1);
    check_block(a, 4, 7, 8, NO, NO, NO);
    uint32_t rc[] = {X, X, X, X, X, X, 1, X, X};
    check_reconv(a, rc, 9);
    assert_int_equal(a->pc[4].iclass, ICLASS_EXIT);
    assert_int_equal(a->pc[4].is_cond_branch, 0);
    assert_int_equal(a->nloops, 1);
    struct want_loop w = {.header_bb = 1, .header_pc = 1, .first_pc = 1, .last_pc = 6,
                          .parent = NO, .depth = 1, .func = 0,
                          .latches = {3}, .nlatches = 1, .exits = {4}, .nexits = 1,
                          .blocks = {1, 2, 3}, .nblocks = 3};
    check_loop(a, 0, &w);
    analysis_free(a);
    tb_free(&t);
}

static void test_both_sides_return(void **state)
{
    (void)state;
    struct tb t;
    tb_init(&t);
    tb_func(&t, "k", 1, "setp; @p bra ELSE; add; ret; ELSE: add; exit");
    struct analysis *a = run_ok(&t);
    assert_int_equal(a->nbbs, 3);
    check_block(a, 0, 0, 1, 2, 1, NO);
    check_block(a, 1, 2, 3, NO, NO, NO);
    check_block(a, 2, 4, 5, NO, NO, NO);
    uint32_t rc[] = {X, X, X, X, X, X};
    check_reconv(a, rc, 6);
    assert_int_equal(a->pc[1].is_cond_branch, 1);
    assert_int_equal(a->pc[5].iclass, ICLASS_EXIT);
    analysis_free(a);
    tb_free(&t);
}

static void test_infinite_loop(void **state)
{
    (void)state;
    struct tb t;
    tb_init(&t);
    /* A branch into a spin loop that never exits. */
    tb_func(&t, "k", 1, "setp; @p bra SPIN; ret; SPIN: add; bra SPIN");
    /* A loop with no exit at all and a diamond inside it. */
    tb_func(&t, "k2", 1, "mov; L: setp; @p bra J; add; J: add; bra L");
    struct analysis *a = run_ok(&t);
    assert_int_equal(a->nbbs, 7);
    check_block(a, 0, 0, 1, 2, 1, NO);
    check_block(a, 1, 2, 2, NO, NO, NO);
    check_block(a, 2, 3, 4, 2, NO, NO);
    check_block(a, 3, 5, 5, 4, NO, 4);
    check_block(a, 4, 6, 7, 6, 5, 6);
    check_block(a, 5, 8, 8, 6, NO, 6);
    check_block(a, 6, 9, 10, 4, NO, NO);
    uint32_t rc[] = {X, X, X, X, X, X, X, 9, X, X, X};
    check_reconv(a, rc, 11);
    assert_int_equal(a->nloops, 2);
    struct want_loop w0 = {.header_bb = 2, .header_pc = 3, .first_pc = 3, .last_pc = 4,
                           .parent = NO, .depth = 1, .func = 0,
                           .latches = {2}, .nlatches = 1, .nexits = 0,
                           .blocks = {2}, .nblocks = 1};
    struct want_loop w1 = {.header_bb = 4, .header_pc = 6, .first_pc = 6, .last_pc = 10,
                           .parent = NO, .depth = 1, .func = 1,
                           .latches = {6}, .nlatches = 1, .nexits = 0,
                           .blocks = {4, 5, 6}, .nblocks = 3};
    check_loop(a, 0, &w0);
    check_loop(a, 1, &w1);
    analysis_free(a);
    tb_free(&t);
}

static void test_two_functions_and_calls(void **state)
{
    (void)state;
    struct tb t;
    tb_init(&t);
    tb_func(&t, "f", 0, "setp; @p bra L; add; L: ret");
    uint32_t ext = tb_func(&t, "vprintf", 0, "");
    t.m.funcs[ext].is_extern = 1;
    tb_func(&t, "k", 1, "mov; call; L: add; call; setp; @p bra L; call; ret");
    struct analysis *a = run_ok(&t);
    assert_int_equal(a->nbbs, 6);
    check_block(a, 0, 0, 1, 2, 1, 2);
    check_block(a, 1, 2, 2, 2, NO, 2);
    check_block(a, 2, 3, 3, NO, NO, NO);
    check_block(a, 3, 4, 5, 4, NO, 4);
    check_block(a, 4, 6, 9, 4, 5, 5);
    check_block(a, 5, 10, 11, NO, NO, NO);
    for (uint32_t b = 0; b < 3; b++)
        assert_int_equal(a->bbs[b].func, 0);
    for (uint32_t b = 3; b < 6; b++)
        assert_int_equal(a->bbs[b].func, 2);
    uint32_t rc[] = {X, 3, X, X, X, X, X, X, X, 10, X, X};
    check_reconv(a, rc, 12);
    assert_int_equal(a->pc[3].iclass, ICLASS_CALL);  /* ret from a .func */
    assert_int_equal(a->pc[11].iclass, ICLASS_EXIT); /* ret from the .entry */
    assert_int_equal(a->pc[5].iclass, ICLASS_CALL);
    assert_int_equal(a->nloops, 1);
    struct want_loop w = {.header_bb = 4, .header_pc = 6, .first_pc = 6, .last_pc = 9,
                          .parent = NO, .depth = 1, .func = 2,
                          .latches = {4}, .nlatches = 1, .exits = {5}, .nexits = 1,
                          .blocks = {4}, .nblocks = 1};
    check_loop(a, 0, &w);
    uint32_t lp[] = {NO, NO, NO, NO, NO, NO, 0, 0, 0, 0, NO, NO};
    check_pc_loops(a, lp, 12);
    analysis_free(a);
    tb_free(&t);
}

/* The condition at the bottom, entered by a jump: the header is not the
 * loop's first PC. */
static void test_rotated_loop(void **state)
{
    (void)state;
    struct tb t;
    tb_init(&t);
    tb_func(&t, "k", 1, "mov; bra COND; BODY: add; COND: setp; @p bra BODY; ret");
    struct analysis *a = run_ok(&t);
    assert_int_equal(a->nbbs, 4);
    check_block(a, 0, 0, 1, 2, NO, 2);
    check_block(a, 1, 2, 2, 2, NO, 2);
    check_block(a, 2, 3, 4, 1, 3, 3);
    check_block(a, 3, 5, 5, NO, NO, NO);
    uint32_t rc[] = {X, 3, X, X, 5, X};
    check_reconv(a, rc, 6);
    assert_int_equal(a->nloops, 1);
    struct want_loop w = {.header_bb = 2, .header_pc = 3, .first_pc = 2, .last_pc = 4,
                          .parent = NO, .depth = 1, .func = 0,
                          .latches = {1}, .nlatches = 1, .exits = {3}, .nexits = 1,
                          .blocks = {1, 2}, .nblocks = 2};
    check_loop(a, 0, &w);
    uint32_t lp[] = {NO, NO, 0, 0, 0, NO};
    check_pc_loops(a, lp, 6);
    analysis_free(a);
    tb_free(&t);
}

/* Two back edges to one header make one loop with two latches. */
static void test_shared_header(void **state)
{
    (void)state;
    struct tb t;
    tb_init(&t);
    tb_func(&t, "k", 1, "mov; H: setp; @p bra H; setp; @p bra H; ret");
    struct analysis *a = run_ok(&t);
    assert_int_equal(a->nbbs, 4);
    check_block(a, 1, 1, 2, 1, 2, 2);
    check_block(a, 2, 3, 4, 1, 3, 3);
    uint32_t rc[] = {X, X, 3, X, 5, X};
    check_reconv(a, rc, 6);
    assert_int_equal(a->nloops, 1);
    struct want_loop w = {.header_bb = 1, .header_pc = 1, .first_pc = 1, .last_pc = 4,
                          .parent = NO, .depth = 1, .func = 0,
                          .latches = {1, 2}, .nlatches = 2, .exits = {3}, .nexits = 1,
                          .blocks = {1, 2}, .nblocks = 2};
    check_loop(a, 0, &w);
    analysis_free(a);
    tb_free(&t);
}

static void test_irreducible(void **state)
{
    (void)state;
    struct tb t;
    tb_init(&t);
    /* Two entries into the cycle LA <-> LB: no natural loop. */
    tb_func(&t, "k", 1,
            "setp; @p bra LB; LA: setp; @p bra DONE; LB: setp; @p bra LA; DONE: ret");
    struct analysis *a = run_ok(&t);
    assert_int_equal(a->nbbs, 4);
    check_block(a, 0, 0, 1, 2, 1, 3);
    check_block(a, 1, 2, 3, 3, 2, 3);
    check_block(a, 2, 4, 5, 1, 3, 3);
    uint32_t rc[] = {X, 6, X, 6, X, 6, X};
    check_reconv(a, rc, 7);
    assert_int_equal(a->nloops, 0);
    analysis_free(a);
    tb_free(&t);
}

static void test_branch_forms(void **state)
{
    (void)state;
    struct tb t;
    tb_init(&t);
    /* Guarded bra to the next instruction: one successor.  bra.uni with a
     * guard is not a divergent branch.  A guarded trap falls through.  The
     * body falls off its end (no ret). */
    tb_func(&t, "k", 1, "setp; @p bra N; N: @p bra.uni M; add; M: @!p trap; bar; add");
    struct analysis *a = run_ok(&t);
    assert_int_equal(a->nbbs, 5);
    check_block(a, 0, 0, 1, 1, NO, 1);
    check_block(a, 1, 2, 2, 3, 2, 3);
    check_block(a, 2, 3, 3, 3, NO, 3);
    check_block(a, 3, 4, 4, 4, NO, NO);
    check_block(a, 4, 5, 6, NO, NO, NO);
    assert_int_equal(a->pc[1].is_cond_branch, 1);
    assert_int_equal(a->pc[2].is_cond_branch, 0);
    assert_int_equal(a->pc[4].iclass, ICLASS_EXIT);
    assert_int_equal(a->pc[5].iclass, ICLASS_BARRIER);
    uint32_t rc[] = {X, 2, 4, X, X, X, X};
    check_reconv(a, rc, 7);
    analysis_free(a);
    tb_free(&t);
}

static void test_bad_target(void **state)
{
    (void)state;
    struct tb t;
    tb_init(&t);
    tb_func(&t, "f", 0, "add; ret");
    tb_func(&t, "k", 1, "setp; L: @p bra L; ret");
    t.m.opnds[0].imm = 1; /* points into f */
    struct analysis *a = (struct analysis *)&t; /* must be reset to NULL */
    struct err e;
    err_clear(&e);
    assert_int_equal(analysis_run(&t.m, &a, &e), WS_ERR_PARSE);
    assert_null(a);
    assert_non_null(strstr(e.msg, "PC 3"));
    t.m.opnds[0].imm = 5; /* past the end */
    assert_int_equal(analysis_run(&t.m, &a, &e), WS_ERR_PARSE);
    assert_non_null(strstr(e.msg, "PC 3"));
    t.m.opnds[0].imm = 2; /* fine again */
    err_clear(&e);
    assert_int_equal(analysis_run(&t.m, &a, &e), WS_OK);
    analysis_free(a);
    tb_free(&t);
}

struct iclass_case {
    uint16_t op;
    uint8_t type, type2, space;
    uint32_t flags;
    uint8_t want;
    uint8_t sub;
};

static void test_iclass(void **state)
{
    (void)state;
    static const struct iclass_case cases[] = {
        {PTX_OP_ADD, PTX_T_S32, 0, 0, 0, ICLASS_ALU, 0},
        {PTX_OP_ADD, PTX_T_F32, 0, 0, 0, ICLASS_ALU, 0},
        {PTX_OP_ADD, PTX_T_F64, 0, 0, 0, ICLASS_DP, 0},
        {PTX_OP_FMA, PTX_T_F64, 0, 0, 0, ICLASS_DP, 0},
        {PTX_OP_FMA, PTX_T_F32, 0, 0, 0, ICLASS_ALU, 0},
        {PTX_OP_MUL, PTX_T_S32, 0, 0, 0, ICLASS_INT, 0},
        {PTX_OP_MUL, PTX_T_F32, 0, 0, 0, ICLASS_ALU, 0},
        {PTX_OP_MAD, PTX_T_U64, PTX_T_U32, 0, 0, ICLASS_INT, 0},
        {PTX_OP_DIV, PTX_T_S32, 0, 0, 0, ICLASS_INT, 0},
        {PTX_OP_REM, PTX_T_U32, 0, 0, 0, ICLASS_INT, 0},
        {PTX_OP_DIV, PTX_T_F32, 0, 0, PTX_F_APPROX, ICLASS_SFU, 0},
        {PTX_OP_DIV, PTX_T_F32, 0, 0, PTX_F_FULL, ICLASS_SFU, 0},
        {PTX_OP_DIV, PTX_T_F64, 0, 0, 0, ICLASS_DP, 0},
        {PTX_OP_SIN, PTX_T_F32, 0, 0, PTX_F_APPROX, ICLASS_SFU, 0},
        {PTX_OP_EX2, PTX_T_F32, 0, 0, PTX_F_APPROX, ICLASS_SFU, 0},
        {PTX_OP_RSQRT, PTX_T_F32, 0, 0, PTX_F_APPROX, ICLASS_SFU, 0},
        {PTX_OP_TANH, PTX_T_F32, 0, 0, PTX_F_APPROX, ICLASS_SFU, 0},
        {PTX_OP_SQRT, PTX_T_F64, 0, 0, 0, ICLASS_DP, 0},
        {PTX_OP_SETP, PTX_T_PRED, PTX_T_F64, 0, 0, ICLASS_DP, 0},
        {PTX_OP_SETP, PTX_T_PRED, PTX_T_S32, 0, 0, ICLASS_ALU, 0},
        {PTX_OP_CVT, PTX_T_F32, PTX_T_F64, 0, 0, ICLASS_DP, 0},
        {PTX_OP_SHL, PTX_T_B32, 0, 0, 0, ICLASS_ALU, 0},
        {PTX_OP_MOV, PTX_T_F64, 0, 0, 0, ICLASS_ALU, 0},
        {PTX_OP_LD, PTX_T_F32, 0, PTX_SPACE_GLOBAL, 0, ICLASS_LOAD_GLOBAL, 0},
        {PTX_OP_LD, PTX_T_F32, 0, PTX_SPACE_NONE, 0, ICLASS_LOAD_GLOBAL, 0},
        {PTX_OP_LDU, PTX_T_F32, 0, PTX_SPACE_GLOBAL, 0, ICLASS_LOAD_GLOBAL, 0},
        {PTX_OP_LD, PTX_T_U32, 0, PTX_SPACE_LOCAL, 0, ICLASS_LOAD_LOCAL, 0},
        {PTX_OP_LD, PTX_T_U32, 0, PTX_SPACE_SHARED, 0, ICLASS_LOAD_SHARED, 0},
        {PTX_OP_LD, PTX_T_F32, 0, PTX_SPACE_CONST, 0, ICLASS_LOAD_CONST, 0},
        {PTX_OP_LD, PTX_T_U64, 0, PTX_SPACE_PARAM, 0, ICLASS_LOAD_PARAM, 0},
        {PTX_OP_ST, PTX_T_F32, 0, PTX_SPACE_GLOBAL, 0, ICLASS_STORE_GLOBAL, 0},
        {PTX_OP_ST, PTX_T_F32, 0, PTX_SPACE_NONE, 0, ICLASS_STORE_GLOBAL, 0},
        {PTX_OP_ST, PTX_T_U32, 0, PTX_SPACE_LOCAL, 0, ICLASS_STORE_LOCAL, 0},
        {PTX_OP_ST, PTX_T_U32, 0, PTX_SPACE_SHARED, 0, ICLASS_STORE_SHARED, 0},
        {PTX_OP_ST, PTX_T_U32, 0, PTX_SPACE_PARAM, 0, ICLASS_STORE_PARAM, 0},
        {PTX_OP_ATOM, PTX_T_U32, 0, PTX_SPACE_GLOBAL, 0, ICLASS_ATOMIC, 0},
        {PTX_OP_RED, PTX_T_U32, 0, PTX_SPACE_SHARED, 0, ICLASS_ATOMIC, 0},
        {PTX_OP_CALL, 0, 0, 0, 0, ICLASS_CALL, 0},
        {PTX_OP_EXIT, 0, 0, 0, 0, ICLASS_EXIT, 0},
        {PTX_OP_BAR, 0, 0, 0, 0, ICLASS_BARRIER, 0},
        {PTX_OP_BFIND, PTX_T_U32, 0, 0, 0, ICLASS_ALU, 0},
        {PTX_OP_BAR, 0, 0, 0, PTX_F_SYNC, ICLASS_WARP, PTX_SUB_BAR_WARP_SYNC},
        {PTX_OP_MEMBAR, 0, 0, 0, 0, ICLASS_MEMBAR, 0},
        {PTX_OP_FENCE, 0, 0, 0, 0, ICLASS_MEMBAR, 0},
        {PTX_OP_SHFL, PTX_T_B32, 0, 0, PTX_F_SYNC, ICLASS_WARP, 0},
        {PTX_OP_VOTE, PTX_T_PRED, 0, 0, PTX_F_SYNC, ICLASS_WARP, 0},
        {PTX_OP_ACTIVEMASK, PTX_T_B32, 0, 0, 0, ICLASS_WARP, 0},
        {PTX_OP_REDUX, PTX_T_U32, 0, 0, 0, ICLASS_WARP, 0},
        {PTX_OP_NANOSLEEP, 0, 0, 0, 0, ICLASS_OTHER, 0},
        {PTX_OP_PREFETCH, 0, 0, PTX_SPACE_GLOBAL, 0, ICLASS_OTHER, 0},
        {PTX_OP_RET, 0, 0, 0, 0, ICLASS_EXIT, 0},
    };
    size_t n = sizeof cases / sizeof cases[0];
    struct tb t;
    tb_init(&t);
    struct ptx_func *f = ARRAY_PUSH(t.m.funcs, t.m.nfuncs, t.funcs_cap);
    memset(f, 0, sizeof *f);
    f->name = "k";
    f->is_entry = 1;
    for (size_t i = 0; i < n; i++) {
        struct ptx_inst *in = tb_emit(&t, 0, cases[i].op);
        in->type = cases[i].type;
        in->type2 = cases[i].type2;
        in->space = cases[i].space;
        in->flags = cases[i].flags;
        in->sub = cases[i].sub;
    }
    f->ninsts = t.m.ninsts;
    struct analysis *a = run_ok(&t);
    for (size_t i = 0; i < n; i++) {
        if (a->pc[i].iclass != cases[i].want)
            fail_msg("case %zu (op %u): class %s, expected %s", i, cases[i].op,
                     inst_class_name(a->pc[i].iclass), inst_class_name(cases[i].want));
    }
    assert_string_equal(inst_class_name(ICLASS_LOAD_GLOBAL), "load_global");
    assert_string_equal(inst_class_name(ICLASS_SFU), "sfu");
    for (int c = 0; c < ICLASS_COUNT; c++)
        assert_true(strlen(inst_class_name(c)) > 1);
    analysis_free(a);
    tb_free(&t);
}

/* Generated programs: many diamonds and deeply nested loops, to check the
 * results at scale and that the analysis stays fast. */
static void test_large(void **state)
{
    (void)state;
    enum { DIAMONDS = 20000, DEPTH = 200 };
    struct tb t;
    tb_init(&t);
    /* The label table in tb_func is small, so build diamonds directly. */
    struct ptx_func *f = ARRAY_PUSH(t.m.funcs, t.m.nfuncs, t.funcs_cap);
    memset(f, 0, sizeof *f);
    f->name = "k";
    f->is_entry = 1;
    for (uint32_t i = 0; i < DIAMONDS; i++) {
        uint32_t base = t.m.ninsts;
        tb_emit(&t, 0, PTX_OP_SETP);
        struct ptx_inst *br = tb_emit(&t, 0, PTX_OP_BRA);
        br->guard = 0;
        br->nsrc = 1;
        struct ptx_operand *o = ARRAY_PUSH(t.m.opnds, t.m.nopnds, t.opnds_cap);
        memset(o, 0, sizeof *o);
        o->kind = PTX_OPND_LABEL;
        o->imm = base + 3;
        tb_emit(&t, 0, PTX_OP_ADD);
    }
    /* Nested loops: headers at h_i, latches in reverse order. */
    uint32_t *heads = xmalloc(DEPTH * sizeof *heads);
    for (uint32_t d = 0; d < DEPTH; d++) {
        heads[d] = t.m.ninsts;
        tb_emit(&t, 0, PTX_OP_ADD);
    }
    for (uint32_t d = DEPTH; d-- > 0;) {
        struct ptx_inst *br = tb_emit(&t, 0, PTX_OP_BRA);
        br->guard = 0;
        br->nsrc = 1;
        struct ptx_operand *o = ARRAY_PUSH(t.m.opnds, t.m.nopnds, t.opnds_cap);
        memset(o, 0, sizeof *o);
        o->kind = PTX_OPND_LABEL;
        o->imm = heads[d];
    }
    tb_emit(&t, 0, PTX_OP_RET);
    f = &t.m.funcs[0];
    f->ninsts = t.m.ninsts;
    struct analysis *a = run_ok(&t);
    for (uint32_t i = 0; i < DIAMONDS; i++) {
        uint32_t br = 3 * i + 1;
        assert_int_equal(a->pc[br].reconv, 3 * i + 3);
        assert_int_equal(a->pc[br].is_cond_branch, 1);
    }
    assert_int_equal(a->nloops, DEPTH);
    for (uint32_t d = 0; d < DEPTH; d++) {
        const struct loop_info *li = &a->loops[d];
        assert_int_equal(li->header_pc, heads[d]);
        assert_int_equal(li->depth, d + 1);
        assert_int_equal(li->parent, d == 0 ? NO : d - 1);
        uint32_t latch_pc = heads[DEPTH - 1] + 1 + (DEPTH - 1 - d);
        assert_int_equal(li->last_pc, latch_pc);
        assert_int_equal(a->pc[latch_pc].reconv, latch_pc + 1);
    }
    assert_int_equal(a->pc[heads[DEPTH - 1]].loop, DEPTH - 1);
    free(heads);
    analysis_free(a);
    tb_free(&t);
}

/* ---- randomized check against brute-force set computations ----------------- */

static uint32_t rnd_next(uint64_t *st)
{
    *st = *st * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*st >> 33);
}

/* One random function of len instructions at the end of t's module. */
static void rnd_func(struct tb *t, uint64_t *st, uint32_t len)
{
    uint32_t fi = t->m.nfuncs;
    struct ptx_func *f = ARRAY_PUSH(t->m.funcs, t->m.nfuncs, t->funcs_cap);
    memset(f, 0, sizeof *f);
    f->name = "r";
    f->is_entry = 1;
    f->first_pc = t->m.ninsts;
    for (uint32_t i = 0; i < len; i++) {
        uint32_t r = rnd_next(st) % 100;
        uint16_t op = r < 50 ? PTX_OP_ADD : r < 70 ? PTX_OP_BRA : r < 75 ? PTX_OP_RET
                    : r < 80 ? PTX_OP_EXIT : PTX_OP_CALL;
        if (i == len - 1 && rnd_next(st) % 4 != 0)
            op = PTX_OP_RET;
        struct ptx_inst *in = tb_emit(t, fi, op);
        if ((op == PTX_OP_BRA && rnd_next(st) % 3 != 0) ||
            (op == PTX_OP_RET && rnd_next(st) % 2 == 0))
            in->guard = 0;
        if (op == PTX_OP_BRA) {
            struct ptx_operand *o = ARRAY_PUSH(t->m.opnds, t->m.nopnds, t->opnds_cap);
            memset(o, 0, sizeof *o);
            o->kind = PTX_OPND_LABEL;
            o->imm = t->m.funcs[fi].first_pc + rnd_next(st) % len;
            in->nsrc = 1;
        }
    }
    t->m.funcs[fi].ninsts = len;
}

/* Check function fi's blocks, post-dominators and loops (at most 64 blocks). */
static void rnd_check(const struct ptx_module *m, const struct analysis *a, uint32_t fi)
{
    const struct ptx_func *f = &m->funcs[fi];
    uint32_t base = a->pc[f->first_pc].bb, end = f->first_pc + f->ninsts;
    uint32_t n = a->pc[end - 1].bb - base + 1;
    assert_true(n <= 64);
    uint64_t succ[64] = {0}, pred[64] = {0}, exits = 0;
    for (uint32_t b = 0; b < n; b++) {
        const struct basic_block *bb = &a->bbs[base + b];
        const struct ptx_inst *last = &m->insts[bb->last_pc];
        /* Only the last instruction of a block transfers control. */
        for (uint32_t pc = bb->first_pc; pc < bb->last_pc; pc++) {
            uint16_t op = m->insts[pc].op;
            assert_true(op != PTX_OP_BRA && op != PTX_OP_RET && op != PTX_OP_EXIT);
        }
        for (uint32_t i = 0; i < bb->nsucc; i++) {
            uint32_t s = bb->succ[i] - base;
            assert_true(s < n);
            assert_int_equal(a->bbs[base + s].first_pc,
                             i == 0 && last->op == PTX_OP_BRA
                                 ? (uint32_t)ptx_src(m, last, 0)->imm
                                 : bb->last_pc + 1);
            succ[b] |= 1ull << s;
            pred[s] |= 1ull << b;
        }
        if (last->op == PTX_OP_RET || last->op == PTX_OP_EXIT || bb->nsucc == 0 ||
            (last->op != PTX_OP_BRA && bb->last_pc + 1 == end) ||
            (last->op == PTX_OP_BRA && last->guard != NO && bb->last_pc + 1 == end))
            exits |= 1ull << b;
    }
    /* Which blocks reach the exit. */
    uint64_t reach = exits;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t b = 0; b < n; b++)
            if (!(reach >> b & 1) && (succ[b] & reach)) {
                reach |= 1ull << b;
                changed = 1;
            }
    }
    uint64_t all = n == 64 ? ~0ull : (1ull << n) - 1;
    if (reach == all) {
        /* Post-dominator sets. */
        uint64_t pd[64];
        for (uint32_t b = 0; b < n; b++)
            pd[b] = all;
        for (int changed = 1; changed;) {
            changed = 0;
            for (uint32_t b = n; b-- > 0;) {
                uint64_t x = (exits >> b & 1) ? 0 : all;
                for (uint32_t s = 0; s < n; s++)
                    if (succ[b] >> s & 1)
                        x &= pd[s];
                x |= 1ull << b;
                if (x != pd[b]) {
                    pd[b] = x;
                    changed = 1;
                }
            }
        }
        for (uint32_t b = 0; b < n; b++) {
            uint64_t strict = pd[b] & ~(1ull << b);
            uint32_t want = NO;
            for (uint32_t d = 0; d < n; d++)
                if ((strict >> d & 1) && pd[d] == strict)
                    want = base + d;
            assert_true(strict == 0 || want != NO);
            assert_int_equal(a->bbs[base + b].ipdom, want);
            const struct basic_block *bb = &a->bbs[base + b];
            if (m->insts[bb->last_pc].op == PTX_OP_BRA)
                assert_int_equal(a->pc[bb->last_pc].reconv,
                                 want == NO ? PC_EXIT : a->bbs[want].first_pc);
        }
    }
    /* Dominator sets over blocks reachable from the entry. */
    uint64_t live = 1;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t b = 0; b < n; b++)
            if ((live >> b & 1) && (succ[b] & ~live)) {
                live |= succ[b];
                changed = 1;
            }
    }
    uint64_t dom[64];
    for (uint32_t b = 0; b < n; b++)
        dom[b] = b == 0 ? 1 : all;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t b = 1; b < n; b++) {
            if (!(live >> b & 1))
                continue;
            uint64_t x = all;
            for (uint32_t p = 0; p < n; p++)
                if ((pred[b] >> p & 1) && (live >> p & 1))
                    x &= dom[p];
            x |= 1ull << b;
            if (x != dom[b]) {
                dom[b] = x;
                changed = 1;
            }
        }
    }
    /* Natural loops: one per header of a back edge, body by backward walk. */
    uint32_t nheaders = 0;
    uint32_t best[64];
    uint32_t best_size[64];
    for (uint32_t b = 0; b < n; b++) {
        best[b] = NO;
        best_size[b] = UINT32_MAX;
    }
    for (uint32_t h = 0; h < n; h++) {
        uint64_t latches = 0;
        for (uint32_t u = 0; u < n; u++)
            if ((live >> u & 1) && (succ[u] >> h & 1) && (dom[u] >> h & 1))
                latches |= 1ull << u;
        if (!latches)
            continue;
        nheaders++;
        uint64_t body = (1ull << h) | latches;
        for (int changed = 1; changed;) {
            changed = 0;
            for (uint32_t v = 0; v < n; v++)
                if ((body >> v & 1) && v != h && ((pred[v] & live) & ~body)) {
                    body |= pred[v] & live;
                    changed = 1;
                }
        }
        uint32_t L = 0;
        while (L < a->nloops && a->loops[L].header_bb != base + h)
            L++;
        if (L == a->nloops)
            fail_msg("no loop for header block %u", base + h);
        const struct loop_info *li = &a->loops[L];
        uint64_t got = 0, got_latches = 0, got_exits = 0, want_exits = 0;
        for (uint32_t i = 0; i < li->nblocks; i++) {
            got |= 1ull << (li->blocks[i] - base);
            if (i > 0)
                assert_true(li->blocks[i] > li->blocks[i - 1]);
        }
        for (uint32_t i = 0; i < li->nlatches; i++)
            got_latches |= 1ull << (li->latches[i] - base);
        for (uint32_t i = 0; i < li->nexits; i++)
            got_exits |= 1ull << (li->exits[i] - base);
        for (uint32_t v = 0; v < n; v++)
            if (body >> v & 1)
                want_exits |= succ[v] & ~body;
        assert_int_equal(got, body);
        assert_int_equal(got_latches, latches);
        assert_int_equal(got_exits, want_exits);
        uint32_t size = (uint32_t)__builtin_popcountll(body);
        for (uint32_t v = 0; v < n; v++)
            if ((body >> v & 1) && size < best_size[v]) {
                best_size[v] = size;
                best[v] = L;
            }
        /* The parent is the smallest other loop containing this one. */
        if (li->parent != NO) {
            const struct loop_info *pl = &a->loops[li->parent];
            assert_int_equal(li->depth, pl->depth + 1);
            assert_true(pl->nblocks > li->nblocks);
        } else {
            assert_int_equal(li->depth, 1);
        }
    }
    uint32_t nloops_here = 0;
    for (uint32_t L = 0; L < a->nloops; L++)
        nloops_here += a->loops[L].func == fi;
    assert_int_equal(nloops_here, nheaders);
    for (uint32_t b = 0; b < n; b++) {
        const struct basic_block *bb = &a->bbs[base + b];
        for (uint32_t pc = bb->first_pc; pc <= bb->last_pc; pc++)
            assert_int_equal(a->pc[pc].loop, best[b]);
    }
}

static void test_random_programs(void **state)
{
    (void)state;
    uint64_t st = 12345;
    for (int round = 0; round < 300; round++) {
        struct tb t;
        tb_init(&t);
        uint32_t nf = 1 + rnd_next(&st) % 3;
        for (uint32_t i = 0; i < nf; i++)
            rnd_func(&t, &st, 1 + rnd_next(&st) % 40);
        struct analysis *a = run_ok(&t);
        for (uint32_t i = 0; i < nf; i++)
            rnd_check(&t.m, a, i);
        analysis_free(a);
        tb_free(&t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_straight_line),
        cmocka_unit_test(test_if_then),
        cmocka_unit_test(test_if_else),
        cmocka_unit_test(test_nested_if),
        cmocka_unit_test(test_while_loop),
        cmocka_unit_test(test_do_while),
        cmocka_unit_test(test_nested_loops_break_continue),
        cmocka_unit_test(test_loop_two_exits),
        cmocka_unit_test(test_early_return_in_loop),
        cmocka_unit_test(test_both_sides_return),
        cmocka_unit_test(test_infinite_loop),
        cmocka_unit_test(test_two_functions_and_calls),
        cmocka_unit_test(test_rotated_loop),
        cmocka_unit_test(test_shared_header),
        cmocka_unit_test(test_irreducible),
        cmocka_unit_test(test_branch_forms),
        cmocka_unit_test(test_bad_target),
        cmocka_unit_test(test_iclass),
        cmocka_unit_test(test_large),
        cmocka_unit_test(test_random_programs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
