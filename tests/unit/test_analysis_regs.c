/* test_analysis_regs.c: register-pressure estimate (src/analysis/regs.c) on
 * hand-written PTX parsed by ptx_parse: straight-line peaks, a loop keeping
 * values live across its back edge, 64-bit and predicate weights, calls,
 * a large generated kernel and the real workloads' kernels; and the storage
 * slots the functional core keeps registers in (regs_slots). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "analysis/analysis.h"
#include "analysis/regs.h"
#include "base/file.h"
#include "ptx/parser.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

struct parsed {
    struct ptx_module *m;
    struct analysis *a;
};

static struct parsed parse(const char *text, const char *name)
{
    struct parsed p = {NULL, NULL};
    struct err e;
    err_clear(&e);
    if (ptx_parse(text, strlen(text), name, &p.m, &e) != WS_OK)
        fail_msg("ptx_parse %s: %s", name, e.msg);
    if (analysis_run(p.m, &p.a, &e) != WS_OK)
        fail_msg("analysis_run %s: %s", name, e.msg);
    return p;
}

static void parsed_free(struct parsed *p)
{
    analysis_free(p->a);
    ptx_module_free(p->m);
}

static uint32_t fidx(const struct parsed *p, const char *name)
{
    uint32_t f = ptx_find_func(p->m, name);
    if (f == PTX_NO_INDEX)
        fail_msg("no function %s", name);
    return f;
}

/* %r1 stays live to the end; %r1..%r5 are all live just after %r5 is
 * written: peak 5. */
static const char straight_ptx[] = HDR
    ".visible .entry k(.param .u32 p0, .param .u64 p1)\n"
    "{\n"
    " .reg .b32 %r<12>;\n"
    " .reg .b64 %rd<3>;\n"
    " ld.param.u32 %r1, [p0];\n"
    " add.s32 %r2, %r1, 1;\n"
    " add.s32 %r3, %r1, 2;\n"
    " add.s32 %r4, %r1, 3;\n"
    " add.s32 %r5, %r1, 4;\n"
    " add.s32 %r6, %r2, %r3;\n"
    " add.s32 %r7, %r6, %r4;\n"
    " add.s32 %r8, %r7, %r5;\n"
    " add.s32 %r9, %r8, %r1;\n"
    " ld.param.u64 %rd1, [p1];\n"
    " st.global.u32 [%rd1], %r9;\n"
    " ret;\n"
    "}\n";

static void test_straight_line(void **state)
{
    (void)state;
    struct parsed p = parse(straight_ptx, "straight");
    uint32_t f = fidx(&p, "k");
    assert_int_equal(p.a->func_max_live_regs32[f], 5);
    assert_int_equal(p.a->func_regs[f], 5 + REGS_OVERHEAD);
    parsed_free(&p);
}

/* A dead result still needs a register when it is written; registers read
 * but never written (and destinations written only under a guard before any
 * plain write) do not count before their definition. */
static const char dead_ptx[] = HDR
    ".visible .entry k(.param .u64 p1)\n"
    "{\n"
    " .reg .pred %p<2>;\n"
    " .reg .b32 %r<12>;\n"
    " .reg .b64 %rd<3>;\n"
    " ld.param.u64 %rd1, [p1];\n"   /* {rd1} = 2 */
    " mov.u32 %r1, %tid.x;\n"       /* {rd1, r1} = 3 */
    " add.s32 %r2, %r1, 1;\n"       /* r2 dead: {rd1, r1, r2} = 4 at the write */
    " setp.eq.s32 %p1, %r1, 0;\n"
    " @%p1 mov.u32 %r3, 9;\n"       /* guarded: r3 undefined on the other path */
    " @%p1 st.global.u32 [%rd1], %r3;\n"
    " st.global.u32 [%rd1], %r1;\n"
    " ret;\n"
    "}\n";

static void test_dead_and_guarded(void **state)
{
    (void)state;
    struct parsed p = parse(dead_ptx, "dead");
    uint32_t f = fidx(&p, "k");
    /* Peak 4: rd1 (2) + r1 + the dead r2, or rd1 + r1 + r3.  Had r3 counted
     * from the entry (guarded def does not kill) the peak would be 5. */
    assert_int_equal(p.a->func_max_live_regs32[f], 4);
    parsed_free(&p);
}

/* %r4 is used only at the top of the loop: it is live at the bottom only
 * through the back edge.  Live just after %r6: rd1(2) r1 r2 r3 r4 r6 = 7;
 * without the back edge it would be 6. */
static const char loop_ptx[] = HDR
    ".visible .entry k(.param .u64 p0, .param .u32 p1)\n"
    "{\n"
    " .reg .pred %p<2>;\n"
    " .reg .b32 %r<8>;\n"
    " .reg .b64 %rd<3>;\n"
    " ld.param.u64 %rd1, [p0];\n"
    " ld.param.u32 %r1, [p1];\n"
    " mov.u32 %r2, 0;\n"
    " mov.u32 %r3, 0;\n"
    " mov.u32 %r4, 7;\n"
    "$L1:\n"
    " add.s32 %r5, %r2, %r4;\n"
    " add.s32 %r3, %r3, %r5;\n"
    " add.s32 %r2, %r2, 1;\n"
    " mul.lo.s32 %r6, %r2, 3;\n"
    " add.s32 %r7, %r6, %r3;\n"
    " add.s32 %r3, %r7, 1;\n"
    " setp.lt.s32 %p1, %r2, %r1;\n"
    " @%p1 bra $L1;\n"
    " st.global.u32 [%rd1], %r3;\n"
    " ret;\n"
    "}\n";

static void test_loop_back_edge(void **state)
{
    (void)state;
    struct parsed p = parse(loop_ptx, "loop");
    uint32_t f = fidx(&p, "k");
    assert_int_equal(p.a->func_max_live_regs32[f], 7);
    assert_int_equal(p.a->func_regs[f], 7 + REGS_OVERHEAD);
    parsed_free(&p);
}

/* 64-bit registers count 2: rd1 rd2 rd3 and r1 live together = 7. */
static const char wide_ptx[] = HDR
    ".visible .entry k(.param .u64 p0, .param .u32 p1)\n"
    "{\n"
    " .reg .b32 %r<3>;\n"
    " .reg .b64 %rd<8>;\n"
    " .reg .f64 %fd<3>;\n"
    " ld.param.u64 %rd1, [p0];\n"
    " ld.param.u32 %r1, [p1];\n"
    " add.s64 %rd2, %rd1, 1;\n"
    " add.s64 %rd3, %rd1, 2;\n"
    " add.s64 %rd4, %rd2, %rd3;\n"
    " add.s64 %rd5, %rd4, %rd1;\n"
    " cvt.rn.f64.s32 %fd1, %r1;\n"
    " st.global.f64 [%rd5], %fd1;\n"
    " st.global.u32 [%rd5], %r1;\n"
    " ret;\n"
    "}\n";

static void test_wide_registers(void **state)
{
    (void)state;
    assert_int_equal(regs_type_weight(PTX_T_B64), 2);
    assert_int_equal(regs_type_weight(PTX_T_F64), 2);
    assert_int_equal(regs_type_weight(PTX_T_U16), 1);
    assert_int_equal(regs_type_weight(PTX_T_F32), 1);
    assert_int_equal(regs_type_weight(PTX_T_PRED), 0);
    struct parsed p = parse(wide_ptx, "wide");
    uint32_t f = fidx(&p, "k");
    assert_int_equal(p.a->func_max_live_regs32[f], 7);
    parsed_free(&p);
}

/* Three predicates live together with r1 and rd1: they weigh nothing. */
static const char pred_ptx[] = HDR
    ".visible .entry k(.param .u32 p0, .param .u64 p1)\n"
    "{\n"
    " .reg .pred %p<4>;\n"
    " .reg .b32 %r<3>;\n"
    " .reg .b64 %rd<3>;\n"
    " ld.param.u32 %r1, [p0];\n"
    " setp.eq.s32 %p1, %r1, 0;\n"
    " setp.eq.s32 %p2, %r1, 1;\n"
    " setp.eq.s32 %p3, %r1, 2;\n"
    " ld.param.u64 %rd1, [p1];\n"
    " @%p1 st.global.u32 [%rd1], %r1;\n"
    " @%p2 st.global.u32 [%rd1], 1;\n"
    " @!%p3 st.global.u32 [%rd1], %r1;\n"
    " ret;\n"
    "}\n";

static void test_predicates_free(void **state)
{
    (void)state;
    struct parsed p = parse(pred_ptx, "pred");
    uint32_t f = fidx(&p, "k");
    assert_int_equal(p.a->func_max_live_regs32[f], 3);
    parsed_free(&p);
}

/* Callee peaks add to the caller's: f1 peaks at 3, the recursive f2 at 2
 * and calls f1; the kernel peaks at 3 and calls f2. */
static const char call_ptx[] = HDR
    ".func (.param .b32 ret0) f1(.param .b32 a0)\n"
    "{\n"
    " .reg .b32 %r<6>;\n"
    " ld.param.b32 %r1, [a0];\n"
    " add.s32 %r2, %r1, 1;\n"
    " add.s32 %r3, %r1, 2;\n"
    " add.s32 %r4, %r2, %r3;\n"
    " add.s32 %r5, %r4, %r1;\n"
    " st.param.b32 [ret0], %r5;\n"
    " ret;\n"
    "}\n"
    ".func (.param .b32 ret0) f2(.param .b32 a0)\n"
    "{\n"
    " .reg .pred %p<2>;\n"
    " .reg .b32 %r<5>;\n"
    " ld.param.b32 %r1, [a0];\n"
    " setp.eq.s32 %p1, %r1, 0;\n"
    " @%p1 bra $Ldone;\n"
    " add.s32 %r2, %r1, -1;\n"
    " {\n"
    " .param .b32 pa;\n"
    " st.param.b32 [pa], %r2;\n"
    " .param .b32 rv;\n"
    " call.uni (rv), f2, (pa);\n"
    " ld.param.b32 %r3, [rv];\n"
    " }\n"
    " {\n"
    " .param .b32 pa;\n"
    " st.param.b32 [pa], %r3;\n"
    " .param .b32 rv;\n"
    " call.uni (rv), f1, (pa);\n"
    " ld.param.b32 %r4, [rv];\n"
    " }\n"
    " add.s32 %r1, %r4, %r1;\n"
    "$Ldone:\n"
    " st.param.b32 [ret0], %r1;\n"
    " ret;\n"
    "}\n"
    ".visible .entry k(.param .u64 p0)\n"
    "{\n"
    " .reg .b32 %r<3>;\n"
    " .reg .b64 %rd<3>;\n"
    " ld.param.u64 %rd1, [p0];\n"
    " mov.u32 %r1, 5;\n"
    " {\n"
    " .param .b32 pa;\n"
    " st.param.b32 [pa], %r1;\n"
    " .param .b32 rv;\n"
    " call.uni (rv), f2, (pa);\n"
    " ld.param.b32 %r2, [rv];\n"
    " }\n"
    " st.global.u32 [%rd1], %r2;\n"
    " ret;\n"
    "}\n";

static void test_calls(void **state)
{
    (void)state;
    struct parsed p = parse(call_ptx, "call");
    uint32_t f1 = fidx(&p, "f1"), f2 = fidx(&p, "f2"), k = fidx(&p, "k");
    assert_int_equal(p.a->func_max_live_regs32[f1], 3);
    assert_int_equal(p.a->func_max_live_regs32[f2], 2);
    assert_int_equal(p.a->func_max_live_regs32[k], 3);
    assert_int_equal(p.a->func_regs[f1], 3 + REGS_OVERHEAD);
    assert_int_equal(p.a->func_regs[f2], 2 + 3 + REGS_OVERHEAD);
    assert_int_equal(p.a->func_regs[k], 3 + 3 + REGS_OVERHEAD);
    parsed_free(&p);
}

/* Clamping to REGS_MAX: 300 32-bit registers live at once. */
static void test_clamp(void **state)
{
    (void)state;
    size_t cap = 64 * 1024, len = 0;
    char *t = malloc(cap);
    assert_non_null(t);
    len += (size_t)snprintf(t + len, cap - len,
                            HDR ".visible .entry k(.param .u64 p0)\n{\n .reg .b32 %%r<301>;\n"
                                " .reg .b64 %%rd<2>;\n ld.param.u64 %%rd1, [p0];\n");
    for (int i = 0; i < 300; i++)
        len += (size_t)snprintf(t + len, cap - len, " mov.u32 %%r%d, %d;\n", i, i);
    for (int i = 0; i < 300; i++)
        len += (size_t)snprintf(t + len, cap - len, " st.global.u32 [%%rd1+%d], %%r%d;\n",
                                4 * i, i);
    len += (size_t)snprintf(t + len, cap - len, " ret;\n}\n");
    assert_true(len < cap);
    struct parsed p = parse(t, "clamp");
    assert_int_equal(p.a->func_max_live_regs32[0], 302);
    assert_int_equal(p.a->func_regs[0], REGS_MAX);
    parsed_free(&p);
    free(t);
}

/* ~95k instructions, ~5300 blocks, ~85k registers: r(i) = r(i-1) + r(i-8)
 * keeps exactly 8 registers live; a loop around it all keeps the last 8
 * alive across the back edge (copied into r0..r7). */
static void test_large_kernel(void **state)
{
    (void)state;
    enum { N = 85000 };
    size_t cap = (size_t)N * 64 + 4096, len = 0;
    char *t = malloc(cap);
    assert_non_null(t);
    len += (size_t)snprintf(t + len, cap - len,
                            HDR ".visible .entry big(.param .u64 p0, .param .u32 p1)\n{\n"
                                " .reg .pred %%p<2>;\n .reg .b32 %%r<%d>;\n .reg .b32 %%n<3>;\n"
                                " .reg .b64 %%rd<2>;\n ld.param.u32 %%n1, [p1];\n"
                                " mov.u32 %%n2, 0;\n",
                            N);
    for (int i = 0; i < 8; i++)
        len += (size_t)snprintf(t + len, cap - len, " mov.u32 %%r%d, %d;\n", i, i);
    len += (size_t)snprintf(t + len, cap - len, "$Ltop:\n");
    for (int i = 8; i < N; i++) {
        len += (size_t)snprintf(t + len, cap - len, " add.s32 %%r%d, %%r%d, %%r%d;\n", i, i - 1,
                                i - 8);
        if (i % 16 == 0)
            len += (size_t)snprintf(t + len, cap - len,
                                    " setp.eq.s32 %%p1, %%r%d, 0;\n @%%p1 bra $Lb%d;\n$Lb%d:\n", i,
                                    i, i);
    }
    for (int i = 0; i < 8; i++)
        len += (size_t)snprintf(t + len, cap - len, " mov.u32 %%r%d, %%r%d;\n", i, N - 8 + i);
    len += (size_t)snprintf(t + len, cap - len,
                            " add.s32 %%n2, %%n2, 1;\n setp.lt.s32 %%p1, %%n2, %%n1;\n"
                            " @%%p1 bra $Ltop;\n ld.param.u64 %%rd1, [p0];\n"
                            " st.global.u32 [%%rd1], %%r7;\n ret;\n}\n");
    assert_true(len < cap);
    clock_t t0 = clock();
    struct parsed p = parse(t, "big");
    double s = (double)(clock() - t0) / CLOCKS_PER_SEC;
    printf("big kernel: %u instructions, %u blocks, parse+analysis %.3f s, peak %u\n",
           p.m->ninsts, p.a->nbbs, s, p.a->func_max_live_regs32[0]);
    assert_true(p.m->ninsts > 90000);
    /* 8 chain registers + the loop bound and counter. */
    assert_int_equal(p.a->func_max_live_regs32[0], 10);
    assert_true(s < 8.0);
    parsed_free(&p);
    free(t);
}

/* Register r of function f's slot (regs_slots through the analysis). */
static uint32_t slot_of(const struct parsed *p, uint32_t f, const char *name)
{
    const struct ptx_func *fn = &p->m->funcs[f];
    for (uint32_t r = 0; r < fn->nregs; r++)
        if (strcmp(fn->regs[r].name, name) == 0)
            return p->a->reg_slot[p->a->func_reg_first[f] + r];
    fail_msg("no register %s", name);
    return 0;
}

/* Storage slots on straight_ptx, positions 0-11: r1 [0,8], r2 [1,5],
 * r3 [2,5], r4 [3,6], r5 [4,7], r6 [5,6], r7 [6,7], r8 [7,8], r9 [8,10],
 * rd1 [9,10].  r1-r6 are live at once (6 slots); r6 does not take r2's slot:
 * its write and r2's last read are one instruction.  Each later register
 * takes the lowest slot free before it starts: r7 r2's (r2's last read is at
 * 5, r7's write at 6), r8 r3's, r9 r7's (so r2's again), rd1 r1's.
 * r0, r10, r11, rd0 and rd2 are never named: one more slot. */
static void test_slots_straight(void **state)
{
    (void)state;
    struct parsed p = parse(straight_ptx, "straight");
    uint32_t f = fidx(&p, "k");
    assert_int_equal(p.a->func_slots[f], 7);
    const char *live[] = {"%r1", "%r2", "%r3", "%r4", "%r5", "%r6"};
    for (int i = 0; i < 6; i++)
        for (int j = i + 1; j < 6; j++)
            assert_int_not_equal(slot_of(&p, f, live[i]), slot_of(&p, f, live[j]));
    assert_int_equal(slot_of(&p, f, "%r7"), slot_of(&p, f, "%r2"));
    assert_int_equal(slot_of(&p, f, "%r8"), slot_of(&p, f, "%r3"));
    assert_int_equal(slot_of(&p, f, "%r9"), slot_of(&p, f, "%r2"));
    assert_int_equal(slot_of(&p, f, "%rd1"), slot_of(&p, f, "%r1"));
    assert_int_equal(slot_of(&p, f, "%r0"), 6);
    assert_int_equal(slot_of(&p, f, "%rd2"), 6);
    parsed_free(&p);
}

/* %r4 is read only at the top of the loop, so it lives through the back
 * edge: no register written in the loop body may share its slot. */
static void test_slots_loop(void **state)
{
    (void)state;
    struct parsed p = parse(loop_ptx, "loop");
    uint32_t f = fidx(&p, "k");
    const char *body[] = {"%r5", "%r6", "%r7", "%r2", "%r3", "%p1"};
    for (int i = 0; i < 6; i++)
        assert_int_not_equal(slot_of(&p, f, "%r4"), slot_of(&p, f, body[i]));
    parsed_free(&p);
}

/* A register read before any write (%r5) is live from the entry: the value
 * it reads (the zero of a new warp) is not one another register wrote, even
 * one dead by then (%r1); the same for a register written only under a guard
 * before a read (%r3, as in dead_ptx). */
static const char uninit_ptx[] = HDR
    ".visible .entry k(.param .u64 p0)\n"
    "{\n"
    " .reg .pred %p<2>;\n"
    " .reg .b32 %r<6>;\n"
    " .reg .b64 %rd<2>;\n"
    " ld.param.u64 %rd1, [p0];\n"
    " mov.u32 %r1, 7;\n"
    " st.global.u32 [%rd1], %r1;\n"
    " setp.eq.s32 %p1, %r1, 0;\n"
    " mov.u32 %r2, 9;\n"
    " @%p1 mov.u32 %r3, %r2;\n"
    " st.global.u32 [%rd1+4], %r3;\n"
    " st.global.u32 [%rd1+8], %r5;\n"
    " ret;\n"
    "}\n";

static void test_slots_uninitialised(void **state)
{
    (void)state;
    struct parsed p = parse(uninit_ptx, "uninit");
    uint32_t f = fidx(&p, "k");
    const char *written[] = {"%r1", "%r2", "%p1", "%rd1"};
    for (int i = 0; i < 4; i++) {
        assert_int_not_equal(slot_of(&p, f, "%r5"), slot_of(&p, f, written[i]));
        assert_int_not_equal(slot_of(&p, f, "%r3"), slot_of(&p, f, written[i]));
    }
    parsed_free(&p);
}

static void test_workloads(void **state)
{
    (void)state;
    static const char *const names[] = {"bfs",         "histo",       "kmeans", "reduce",
                                        "spmv_scalar", "spmv_vector", "vecadd"};
    unsigned nentries = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/workloads/%s/%s.ptx", WS_SOURCE_DIR, names[i], names[i]);
        char *text = NULL;
        size_t len = 0;
        struct err e;
        err_clear(&e);
        if (file_read_all(path, &text, &len, &e) != WS_OK)
            fail_msg("%s", e.msg);
        struct parsed p = parse(text, path);
        for (uint32_t f = 0; f < p.m->nfuncs; f++) {
            const struct ptx_func *fn = &p.m->funcs[f];
            if (!fn->is_entry)
                continue;
            nentries++;
            uint32_t declared = 0;
            for (uint32_t r = 0; r < fn->nregs; r++)
                declared += regs_type_weight((enum ptx_type)fn->regs[r].type);
            printf("%-12s %-28s max_live %3u  estimate %3u  (declared %u)\n", names[i],
                   fn->name, p.a->func_max_live_regs32[f], p.a->func_regs[f], declared);
            assert_true(p.a->func_regs[f] >= 4 && p.a->func_regs[f] <= 64);
            assert_true(p.a->func_max_live_regs32[f] <= declared);
            /* storage: no more slots than registers (+ the unnamed ones'),
             * and nvcc's virtual registers share them */
            printf("%-12s %-28s %u registers in %u slots\n", names[i], fn->name, fn->nregs,
                   p.a->func_slots[f]);
            assert_true(p.a->func_slots[f] <= fn->nregs + 1);
            assert_true(p.a->func_slots[f] * 2 <= fn->nregs);
        }
        parsed_free(&p);
        free(text);
    }
    assert_true(nentries >= 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_straight_line),  cmocka_unit_test(test_dead_and_guarded),
        cmocka_unit_test(test_loop_back_edge), cmocka_unit_test(test_wide_registers),
        cmocka_unit_test(test_predicates_free), cmocka_unit_test(test_calls),
        cmocka_unit_test(test_clamp),          cmocka_unit_test(test_large_kernel),
        cmocka_unit_test(test_slots_straight), cmocka_unit_test(test_slots_loop),
        cmocka_unit_test(test_slots_uninitialised),
        cmocka_unit_test(test_workloads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
