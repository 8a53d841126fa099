/* test_func_wide.c: wide (large) warps of the functional core (func/wide.h).
 *
 * A hand-written kernel with a divergent branch, a data-dependent loop, an
 * early exit and a warp vote runs once as ordinary 32-wide warps
 * (func_warp_step) and once as one wide warp of 8 rows x 32 lanes whose
 * instructions execute as sub-steps (one thread per lane column, lowest row
 * first as LWM forms sub-warps, or highest row first): memory and every
 * register of every thread must match.  The SIMT stack of the wide warp must
 * stay untouched until the last subset of a divergent branch has executed,
 * then hold the taken and not-taken threads of all rows, and reconverge to
 * the full mask at the join.  Malformed subsets are rejected. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/analysis.h"
#include "func/func.h"
#include "func/wide.h"
#include "ptx/parser.h"

/* out[t] = (t & 5) ? sum_{i <= t % 7} i * t : t + 1000;  threads with
 * t % 11 == 3 exit before storing;  votes[t] = ballot(out[t] & 1). */
static const char kernel_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u64 votes)\n{\n"
    ".reg .pred %p<5>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [out];\n"          /* 0 */
    "ld.param.u64 %rd4, [votes];\n"        /* 1 */
    "mov.u32 %r1, %tid.x;\n"               /* 2 */
    "mov.u32 %r2, 0;\n"                    /* 3 */
    "and.b32 %r3, %r1, 5;\n"               /* 4 */
    "setp.eq.u32 %p1, %r3, 0;\n"           /* 5 */
    "@%p1 bra $L_else;\n"                  /* 6: the divergent branch */
    "rem.u32 %r4, %r1, 7;\n"               /* 7 */
    "mov.u32 %r5, 0;\n"                    /* 8 */
    "$L_loop:\n"
    "mad.lo.s32 %r2, %r5, %r1, %r2;\n"     /* 9 */
    "add.s32 %r5, %r5, 1;\n"               /* 10 */
    "setp.le.u32 %p2, %r5, %r4;\n"         /* 11 */
    "@%p2 bra $L_loop;\n"                  /* 12 */
    "bra.uni $L_join;\n"                   /* 13 */
    "$L_else:\n"
    "add.s32 %r2, %r1, 1000;\n"            /* 14 */
    "$L_join:\n"
    "rem.u32 %r6, %r1, 11;\n"              /* 15: the join */
    "setp.eq.u32 %p3, %r6, 3;\n"           /* 16 */
    "@%p3 exit;\n"                         /* 17 */
    "mul.wide.u32 %rd2, %r1, 4;\n"         /* 18 */
    "add.s64 %rd3, %rd1, %rd2;\n"          /* 19 */
    "st.global.u32 [%rd3], %r2;\n"         /* 20 */
    "and.b32 %r7, %r2, 1;\n"               /* 21 */
    "setp.ne.u32 %p4, %r7, 0;\n"           /* 22 */
    "vote.ballot.b32 %r8, %p4;\n"          /* 23 */
    "add.s64 %rd5, %rd4, %rd2;\n"          /* 24 */
    "st.global.u32 [%rd5], %r8;\n"         /* 25 */
    "ret;\n}\n";

#define ROWS 8
#define THREADS 250 /* the last row is partial */
#define PC_BRANCH 6
#define PC_JOIN 15

struct fixture {
    struct ptx_module *m;
    struct analysis *an;
    struct dev_mem mem;
    struct func_stats stats;
    struct func_env env;
    uint64_t out, votes;
    uint32_t narrow_out[ROWS * 32], narrow_votes[ROWS * 32]; /* the 32-wide run's */
    struct func_kernel k[2];
    struct func_cta c[2];
};

static void fill(struct fixture *f)
{
    memset(mem_lookup(&f->mem, f->out, 4 * ROWS * 32), 0xee, 4 * ROWS * 32);
    memset(mem_lookup(&f->mem, f->votes, 4 * ROWS * 32), 0xee, 4 * ROWS * 32);
}

static int setup(void **state)
{
    static struct fixture f;
    memset(&f, 0, sizeof f);
    struct err e;
    err_clear(&e);
    assert_int_equal(ptx_parse(kernel_ptx, strlen(kernel_ptx), "wide.ptx", &f.m, &e), WS_OK);
    assert_int_equal(analysis_run(f.m, &f.an, &e), WS_OK);
    mem_init(&f.mem, 1 << 20);
    f.env.mem = &f.mem;
    f.env.out = stdout;
    f.env.cfg.local_memory_per_thread = 1024;
    f.env.stats = &f.stats;
    uint32_t grid[3] = {1, 1, 1}, block[3] = {THREADS, 1, 1};
    assert_int_equal(mem_alloc(&f.mem, 4 * ROWS * 32, &f.out, &e), WS_OK);
    assert_int_equal(mem_alloc(&f.mem, 4 * ROWS * 32, &f.votes, &e), WS_OK);
    fill(&f);
    for (int i = 0; i < 2; i++) {
        uint64_t params[2] = {f.out, f.votes};
        func_kernel_init(&f.k[i], &f.env, f.m, f.an, 0, grid, block, 0, (uint8_t *)params,
                         sizeof params);
        func_cta_init(&f.c[i], &f.k[i], 0);
    }
    assert_int_equal(f.c[1].nwarps, ROWS);
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    for (int i = 0; i < 2; i++) {
        func_cta_fini(&f->c[i]);
        func_kernel_fini(&f->k[i]);
    }
    mem_fini(&f->mem);
    analysis_free(f->an);
    ptx_module_free(f->m);
    return 0;
}

/* The reference: every row as an ordinary 32-wide warp; its memory results
 * are saved and the arrays refilled for the wide run. */
static void run_narrow(struct fixture *f)
{
    struct err e;
    err_clear(&e);
    struct func_trace t;
    for (uint32_t w = 0; w < f->c[0].nwarps; w++)
        while (f->c[0].warps[w].state == FUNC_WARP_READY)
            assert_int_equal(func_warp_step(&f->c[0], &f->c[0].warps[w], &t, &e), WS_OK);
    memcpy(f->narrow_out, mem_lookup(&f->mem, f->out, sizeof f->narrow_out),
           sizeof f->narrow_out);
    memcpy(f->narrow_votes, mem_lookup(&f->mem, f->votes, sizeof f->narrow_votes),
           sizeof f->narrow_votes);
    fill(f);
}

/* One sub-warp from the pending threads: per lane column one thread, the
 * lowest row first (or the highest); a vote takes one whole row. */
static void form(const uint32_t *pend, int vote, int highest_first, uint32_t *sub)
{
    uint32_t cols = 0;
    memset(sub, 0, ROWS * sizeof *sub);
    for (uint32_t i = 0; i < ROWS; i++) {
        uint32_t r = highest_first ? ROWS - 1 - i : i;
        if (vote) {
            if (pend[r]) {
                sub[r] = pend[r];
                return;
            }
            continue;
        }
        sub[r] = pend[r] & ~cols;
        cols |= sub[r];
    }
}

static void wide_run_to_end(struct func_wide_warp *ww, int highest_first, uint64_t *substeps)
{
    struct err e;
    err_clear(&e);
    struct func_trace t;
    uint32_t pend[ROWS], sub[ROWS];
    uint32_t pc;
    while ((pc = func_wide_pending(ww, pend)) != PC_EXIT) {
        form(pend, ww->c->k->m->insts[pc].op == PTX_OP_VOTE, highest_first, sub);
        assert_int_equal(func_wide_step(ww, sub, &t, &e), WS_OK);
        assert_int_equal(t.pc, pc);
        (*substeps)++;
    }
    assert_int_equal(func_wide_state(ww), FUNC_WARP_DONE);
}

static void compare(struct fixture *f)
{
    const uint32_t *o0 = f->narrow_out, *v0 = f->narrow_votes;
    uint32_t *o1 = (uint32_t *)mem_lookup(&f->mem, f->out, 4 * ROWS * 32);
    uint32_t *v1 = (uint32_t *)mem_lookup(&f->mem, f->votes, 4 * ROWS * 32);
    for (uint32_t t = 0; t < ROWS * 32; t++) {
        /* the CPU's answer where a thread stores, else untouched */
        uint32_t want = 0xeeeeeeeeu;
        if (t < THREADS && t % 11 != 3) {
            want = t + 1000;
            if (t & 5)
                for (uint32_t i = 0, s = 0; i <= t % 7; i++)
                    want = s += i * t;
        }
        assert_int_equal(o0[t], want);
        assert_int_equal(o1[t], o0[t]);
        assert_int_equal(v1[t], v0[t]);
    }
    uint32_t nslots = f->an->func_slots[0]; /* the registers' storage */
    for (uint32_t r = 0; r < ROWS; r++) {
        const struct func_warp *a = &f->c[0].warps[r], *b = &f->c[1].warps[r];
        assert_int_equal(b->state, FUNC_WARP_DONE);
        assert_int_equal(a->exited, b->exited);
        assert_memory_equal(a->regs, b->regs, (size_t)nslots * 32 * sizeof *a->regs);
    }
}

static void test_wide_matches_narrow(void **state)
{
    struct fixture *f = *state;
    run_narrow(f);
    struct err e;
    err_clear(&e);
    struct func_wide_warp ww;
    assert_int_equal(func_wide_init(&ww, &f->c[1], 0, ROWS, &e), WS_OK);
    uint64_t before = f->stats.warp_insn, substeps = 0;
    wide_run_to_end(&ww, 0, &substeps);
    assert_int_equal(f->stats.warp_insn - before, substeps);
    compare(f);
    func_wide_fini(&ww);
}

static void test_wide_highest_row_first(void **state)
{
    struct fixture *f = *state;
    run_narrow(f);
    struct err e;
    err_clear(&e);
    struct func_wide_warp ww;
    assert_int_equal(func_wide_init(&ww, &f->c[1], 0, ROWS, &e), WS_OK);
    uint64_t substeps = 0;
    wide_run_to_end(&ww, 1, &substeps);
    compare(f);
    func_wide_fini(&ww);
}

/* Run sub-steps until the instruction at `pc` is next. */
static void advance_to(struct func_wide_warp *ww, uint32_t pc)
{
    struct err e;
    err_clear(&e);
    struct func_trace t;
    uint32_t pend[ROWS], sub[ROWS];
    while (func_wide_pending(ww, pend) != pc) {
        form(pend, 0, 0, sub);
        assert_int_equal(func_wide_step(ww, sub, &t, &e), WS_OK);
    }
}

static void test_wide_stack_diverges_and_reconverges(void **state)
{
    struct fixture *f = *state;
    struct err e;
    err_clear(&e);
    struct func_wide_warp ww;
    assert_int_equal(func_wide_init(&ww, &f->c[1], 0, ROWS, &e), WS_OK);
    advance_to(&ww, PC_BRANCH);
    assert_int_equal(ww.depth, 1);

    /* the branch as one subset per row, the last row last */
    uint32_t pend[ROWS], sub[ROWS], all[ROWS];
    assert_int_equal(func_wide_pending(&ww, pend), PC_BRANCH);
    memcpy(all, pend, sizeof all);
    assert_int_equal(all[ROWS - 1], (1u << (THREADS - 32 * (ROWS - 1))) - 1);
    struct func_trace t;
    for (uint32_t r = 0; r < ROWS; r++) {
        memset(sub, 0, sizeof sub);
        sub[r] = pend[r];
        assert_int_equal(func_wide_step(&ww, sub, &t, &e), WS_OK);
        if (r + 1 < ROWS) { /* not yet: the stack waits for every active thread */
            assert_int_equal(ww.depth, 1);
            assert_int_equal(ww.stack[0].pc, PC_BRANCH);
            assert_false(t.diverged);
        }
        func_wide_pending(&ww, pend);
    }
    assert_true(t.diverged);
    /* taken (t & 5) == 0 -> else at 14, on top; the loop side below it */
    assert_int_equal(ww.depth, 3);
    const struct func_wide_entry *top = &ww.stack[2], *mid = &ww.stack[1], *base = &ww.stack[0];
    assert_int_equal(top->pc, 14);
    assert_int_equal(top->rpc, PC_JOIN);
    assert_int_equal(mid->pc, PC_BRANCH + 1);
    assert_int_equal(mid->rpc, PC_JOIN);
    assert_int_equal(base->pc, PC_JOIN);
    for (uint32_t r = 0; r < ROWS; r++) {
        uint32_t taken = 0;
        for (uint32_t l = 0; l < 32; l++)
            if ((all[r] >> l & 1) && ((r * 32 + l) & 5) == 0)
                taken |= 1u << l;
        assert_int_equal(top->mask[r], taken);
        assert_int_equal(mid->mask[r], all[r] & ~taken);
        assert_int_equal(base->mask[r], all[r]);
    }

    /* the else side (one instruction: 8 lane columns of 8 rows, 8 sub-steps)
     * reaches the join: its entry pops */
    unsigned n = 0;
    for (; func_wide_pending(&ww, pend) == 14; n++) {
        form(pend, 0, 0, sub);
        assert_int_equal(func_wide_step(&ww, sub, &t, &e), WS_OK);
    }
    assert_int_equal(n, 8);
    assert_int_equal(func_wide_pending(&ww, pend), PC_BRANCH + 1);
    assert_int_equal(ww.depth, 2);
    /* then the loop side, with its own divergence inside */
    advance_to(&ww, PC_JOIN);
    assert_int_equal(ww.depth, 1);
    func_wide_pending(&ww, pend);
    assert_memory_equal(pend, all, sizeof all);
    func_wide_fini(&ww);
}

static void test_wide_rejects_bad_subsets(void **state)
{
    struct fixture *f = *state;
    struct err e;
    err_clear(&e);
    struct func_wide_warp ww;
    assert_int_equal(func_wide_init(&ww, &f->c[1], 0, 17, &e), WS_ERR_INVALID);
    assert_int_equal(func_wide_init(&ww, &f->c[1], 4, 5, &e), WS_ERR_INVALID);
    assert_int_equal(func_wide_init(&ww, &f->c[1], 0, ROWS, &e), WS_OK);
    uint32_t pend[ROWS], sub[ROWS];
    struct func_trace t;
    func_wide_pending(&ww, pend);
    memset(sub, 0, sizeof sub);
    sub[0] = 1;
    sub[1] = 1; /* two threads of column 0 */
    assert_int_equal(func_wide_step(&ww, sub, &t, &e), WS_ERR_INVALID);
    assert_non_null(strstr(e.msg, "lane column 0"));
    memset(sub, 0, sizeof sub);
    assert_int_equal(func_wide_step(&ww, sub, &t, &e), WS_ERR_INVALID);
    sub[0] = 1;
    assert_int_equal(func_wide_step(&ww, sub, &t, &e), WS_OK);
    assert_int_equal(func_wide_step(&ww, sub, &t, &e), WS_ERR_INVALID); /* not pending */
    /* the vote: half a row is refused */
    advance_to(&ww, 23);
    func_wide_pending(&ww, pend);
    memset(sub, 0, sizeof sub);
    sub[2] = pend[2] & 0xffff;
    assert_int_equal(func_wide_step(&ww, sub, &t, &e), WS_ERR_INVALID);
    assert_non_null(strstr(e.msg, "warp-level"));
    sub[2] = pend[2];
    assert_int_equal(func_wide_step(&ww, sub, &t, &e), WS_OK);
    func_wide_fini(&ww);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_wide_matches_narrow, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wide_highest_row_first, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wide_stack_diverges_and_reconverges, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_wide_rejects_bad_subsets, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
