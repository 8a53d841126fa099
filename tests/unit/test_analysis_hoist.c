/* test_analysis_hoist.c: load hoisting (src/analysis/hoist.h) on
 * hand-written PTX: the order after the pass, checked instruction by
 * instruction against a hand schedule (each instruction is named by its
 * position in the source); loads move up with their address arithmetic, by
 * load level (independent loads first, then what waits for them); nothing crosses a store, a barrier, a branch target or a
 * branch or a clock read; write-after-read, write-after-write, guards and
 * the carry flag hold an instruction back; the timing model runs the same code either way
 * (same results, other issue order) in test_hoist_exec below. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/analysis.h"
#include "analysis/hoist.h"
#include "ptx/parser.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

/* Parse, hoist, and compare the order with want[] (source positions of the
 * instructions, 0 = the first instruction of the body). */
static void check_order(const char *ptx, const uint32_t *want, uint32_t n, uint32_t want_moved)
{
    struct ptx_module *m = NULL;
    struct err e;
    err_clear(&e);
    assert_int_equal(ptx_parse(ptx, strlen(ptx), "t.ptx", &m, &e), 0);
    assert_int_equal(m->ninsts, n);
    uint32_t base = m->insts[0].line;
    for (uint32_t pc = 1; pc < n; pc++)
        if (m->insts[pc].line < base)
            base = m->insts[pc].line;
    assert_int_equal(hoist_loads(m), want_moved);
    for (uint32_t pc = 0; pc < n; pc++) {
        if (m->insts[pc].line - base != want[pc])
            print_message("pc %u: instruction %u, want %u\n", pc, m->insts[pc].line - base,
                          want[pc]);
        assert_int_equal(m->insts[pc].line - base, want[pc]);
    }
    struct analysis *a = NULL;
    assert_int_equal(analysis_run(m, &a, &e), 0); /* still a well-formed module */
    analysis_free(a);
    ptx_module_free(m);
}

/* One instruction per line from the body's first; the first load's use and
 * an unrelated multiply sit between the two loads, a store ends the segment,
 * and the load after it stays after it. */
static void test_hoist_two_loads(void **state)
{
    (void)state;
    static const char ptx[] = HDR
        ".visible .entry k(.param .u64 pa, .param .u64 pb)\n{\n"
        ".reg .b32 %r<4>; .reg .f32 %f<10>; .reg .b64 %rd<8>;\n"
        "ld.param.u64 %rd1, [pa];\n"     /* 0 */
        "ld.param.u64 %rd2, [pb];\n"     /* 1 */
        "mov.u32 %r1, %tid.x;\n"         /* 2 */
        "mul.wide.u32 %rd3, %r1, 4;\n"   /* 3 */
        "add.s64 %rd4, %rd1, %rd3;\n"    /* 4 */
        "ld.global.f32 %f1, [%rd4];\n"   /* 5 load */
        "add.f32 %f2, %f1, 0f3F800000;\n"/* 6 reads the load: stays */
        "mul.f32 %f3, %f2, %f2;\n"       /* 7 */
        "add.s64 %rd5, %rd2, %rd3;\n"    /* 8 address of load 9: moves */
        "ld.global.f32 %f4, [%rd5];\n"   /* 9 load: moves above 6, 7 */
        "add.f32 %f5, %f3, %f4;\n"       /* 10 */
        "st.global.f32 [%rd4], %f5;\n"   /* 11 store: stays, ends the segment */
        "mul.f32 %f6, %f5, %f5;\n"       /* 12 */
        "ld.global.f32 %f7, [%rd5+4];\n" /* 13 load: above 12, not above 11 */
        "add.f32 %f8, %f6, %f7;\n"       /* 14 */
        "ret;\n"                         /* 15 */
        "}\n";
    static const uint32_t want[] = {0, 1, 2, 3, 4, 5, 8, 9, 6, 7, 10, 11, 13, 12, 14, 15};
    check_order(ptx, want, 16, 6);
}

/* Write-after-read and write-after-write keep an instruction with the loads:
 * 3 reads %f1, which load 4 overwrites, so 3 joins the cone and stays ahead
 * of it; 5 (a plain move into %f2) and load 6 both write %f2, so 5 moves
 * with the cone too.  3 reads load 1's result, so 3 and load 4 are level 1
 * and go behind load 6 (level 0) and the free 2; 7 (reads 3) follows them,
 * 8 (reads load 4) is level 2. */
static void test_hoist_war_waw(void **state)
{
    (void)state;
    static const char ptx[] = HDR
        ".visible .entry k(.param .u64 pa)\n{\n"
        ".reg .f32 %f<10>; .reg .b64 %rd<4>;\n"
        "ld.param.u64 %rd1, [pa];\n"      /* 0 */
        "ld.global.f32 %f1, [%rd1];\n"    /* 1 */
        "mov.f32 %f3, 0f40000000;\n"      /* 2 free */
        "add.f32 %f4, %f1, 0f3F800000;\n" /* 3 reads %f1 before load 4 writes it */
        "ld.global.f32 %f1, [%rd1+4];\n"  /* 4 */
        "mov.f32 %f2, 0f00000000;\n"      /* 5 writes %f2 before load 6 does */
        "ld.global.f32 %f2, [%rd1+8];\n"  /* 6 */
        "add.f32 %f5, %f3, %f4;\n"        /* 7 */
        "add.f32 %f6, %f1, %f2;\n"        /* 8 */
        "ret;\n"                          /* 9 */
        "}\n";
    static const uint32_t want[] = {0, 1, 5, 6, 2, 3, 4, 7, 8, 9};
    check_order(ptx, want, 10, 5);
}

/* A branch target starts a segment; a guard and the carry flag are
 * dependences; a barrier keeps its place. */
static void test_hoist_blocks_guards_carry(void **state)
{
    (void)state;
    static const char ptx[] = HDR
        ".visible .entry k(.param .u64 pa)\n{\n"
        ".reg .pred %p<3>; .reg .b32 %r<12>; .reg .b64 %rd<4>;\n"
        "ld.param.u64 %rd1, [pa];\n"        /* 0 */
        "mov.u32 %r1, %tid.x;\n"            /* 1 */
        "add.s32 %r2, %r1, 1;\n"            /* 2 free */
        "setp.eq.s32 %p1, %r1, 0;\n"        /* 3 guard of load 4 */
        "@%p1 ld.global.u32 %r3, [%rd1];\n" /* 4 */
        "bar.sync 0;\n"                     /* 5 barrier */
        "add.s32 %r4, %r2, %r3;\n"          /* 6 */
        "ld.global.u32 %r5, [%rd1+4];\n"    /* 7 above 6 */
        "@%p1 bra L1;\n"                    /* 8 */
        "add.cc.u32 %r6, %r4, %r5;\n"       /* 9 writes the carry */
        "L1: add.s32 %r7, %r4, %r4;\n"      /* 10 block start: free */
        "add.cc.u32 %r8, %r4, 7;\n"         /* 11 writes the carry */
        "addc.u32 %r9, %r4, 0;\n"           /* 12 reads the carry, free */
        "ld.global.u32 %r10, [%rd1+8];\n"   /* 13 */
        "addc.u32 %r11, %r10, 0;\n"         /* 14 reads the carry after 13 */
        "ret;\n"                            /* 15 */
        "}\n";
    /* [10, 15): the cone is 13 alone (11 and 12 do not feed it, 14 reads the
     * carry of 11, which stays ahead of it) */
    static const uint32_t want[] = {0, 1, 3, 4, 2, 5, 7, 6, 8, 9, 13, 10, 11, 12, 14, 15};
    check_order(ptx, want, 16, 9);
}

/* The carry flag is a register: a load whose address needs addc's carry
 * takes the add.cc that writes it along, though no register links them; the
 * unrelated add 2 goes behind. */
static void test_hoist_carry_chain(void **state)
{
    (void)state;
    static const char ptx[] = HDR
        ".visible .entry k(.param .u64 pa)\n{\n"
        ".reg .b32 %r<10>; .reg .b64 %rd<4>;\n"
        "ld.param.u64 %rd1, [pa];\n"     /* 0 */
        "ld.global.u32 %r1, [%rd1];\n"   /* 1 */
        "add.s32 %r9, %r1, 3;\n"         /* 2 free */
        "add.cc.u32 %r2, %r5, 1;\n"      /* 3 writes the carry */
        "addc.u32 %r3, 0, 0;\n"          /* 4 reads the carry */
        "cvt.u64.u32 %rd2, %r3;\n"       /* 5 */
        "add.s64 %rd3, %rd1, %rd2;\n"    /* 6 */
        "ld.global.u32 %r4, [%rd3];\n"   /* 7 */
        "ret;\n"                         /* 8 */
        "}\n";
    static const uint32_t want[] = {0, 1, 3, 4, 5, 6, 7, 2, 8};
    check_order(ptx, want, 9, 6);
}

/* A clock read keeps its place: the load timed between two clock reads
 * stays between them (it moves only above the add after the first). */
static void test_hoist_clock(void **state)
{
    (void)state;
    static const char ptx[] = HDR
        ".visible .entry k(.param .u64 pa)\n{\n"
        ".reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
        "ld.param.u64 %rd1, [pa];\n"     /* 0 */
        "mov.u32 %r1, %clock;\n"         /* 1 ordering */
        "add.s32 %r2, %r1, 1;\n"         /* 2 free */
        "ld.global.u32 %r3, [%rd1];\n"   /* 3 moves above 2, not above 1 */
        "mov.u32 %r4, %clock;\n"         /* 4 ordering */
        "add.s32 %r5, %r3, %r4;\n"       /* 5 */
        "ret;\n"                         /* 6 */
        "}\n";
    static const uint32_t want[] = {0, 1, 3, 2, 4, 5, 6};
    check_order(ptx, want, 7, 2);
}

/* Levels: two index loads whose values address two gathers (srad's
 * neighbours).  Both index loads issue first (level 0), then the gathers'
 * address arithmetic and the gathers (level 1), then what reads the gathered
 * values (level 2).  The multiply 3 needs no load and goes behind level 0's
 * loads. */
static void test_hoist_levels(void **state)
{
    (void)state;
    static const char ptx[] = HDR
        ".visible .entry k(.param .u64 pa)\n{\n"
        ".reg .b32 %r<8>; .reg .f32 %f<8>; .reg .b64 %rd<12>;\n"
        "ld.param.u64 %rd1, [pa];\n"     /* 0 */
        "ld.global.u32 %r1, [%rd1];\n"   /* 1 index load */
        "mul.wide.u32 %rd2, %r1, 4;\n"   /* 2 level 1: reads the index */
        "mul.lo.s32 %r2, %r1, %r1;\n"    /* 3 level 1, feeds nothing */
        "add.s64 %rd3, %rd1, %rd2;\n"    /* 4 level 1 */
        "ld.global.f32 %f1, [%rd3];\n"   /* 5 gather, level 1 */
        "ld.global.u32 %r3, [%rd1+4];\n" /* 6 index load, level 0 */
        "mul.wide.u32 %rd4, %r3, 4;\n"   /* 7 level 1 */
        "add.s64 %rd5, %rd1, %rd4;\n"    /* 8 level 1 */
        "ld.global.f32 %f2, [%rd5];\n"   /* 9 gather, level 1 */
        "sub.f32 %f3, %f1, %f2;\n"       /* 10 level 2 */
        "ret;\n"                         /* 11 */
        "}\n";
    static const uint32_t want[] = {0, 1, 6, 2, 4, 5, 7, 8, 9, 3, 10, 11};
    check_order(ptx, want, 12, 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hoist_two_loads),
        cmocka_unit_test(test_hoist_war_waw),
        cmocka_unit_test(test_hoist_blocks_guards_carry),
        cmocka_unit_test(test_hoist_carry_chain),
        cmocka_unit_test(test_hoist_clock),
        cmocka_unit_test(test_hoist_levels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
