/* test_analysis_phase.c: program phases (src/analysis/phase.h, SPEC-policies
 * 5.1) of hand-written PTX kernels, checked against hand counts: where phases
 * start (first reader of a long-op register, every block; the long-op set is
 * cleared at each start, an address base counts as a read), phase distance
 * and length at a given latency table with long-latency instructions at
 * their issue cost, saturation at 512 per PC but not per phase, and the
 * basic-block length of every PC; the Phase-aware paper's Fig. 4 (two phases
 * of 18 and 10 cycles); the raw-PTX rules of phase.h (shared, const and
 * param reads are operands; hoisting a load above its phase's start). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/analysis.h"
#include "analysis/phase.h"
#include "ptx/parser.h"

/* c[i] = a[i] + b[i], shaped like the Phase-aware paper's Fig. 4: index
 * arithmetic and two loads (phase 0), then the add that reads both loaded
 * values starts phase 1. */
static const char vadd_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry vadd(.param .u64 pa, .param .u64 pb, .param .u64 pc)\n"
    "{\n"
    "\t.reg .b32 %r<6>;\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<8>;\n"
    "\tld.param.u64 %rd1, [pa];\n"          /* 0 */
    "\tld.param.u64 %rd2, [pb];\n"          /* 1 */
    "\tld.param.u64 %rd3, [pc];\n"          /* 2 */
    "\tmov.u32 %r1, %ctaid.x;\n"            /* 3 */
    "\tmov.u32 %r2, %ntid.x;\n"             /* 4 */
    "\tmov.u32 %r3, %tid.x;\n"              /* 5 */
    "\tmad.lo.s32 %r4, %r1, %r2, %r3;\n"    /* 6  INT */
    "\tmul.wide.s32 %rd4, %r4, 4;\n"        /* 7  INT */
    "\tadd.s64 %rd5, %rd1, %rd4;\n"         /* 8 */
    "\tadd.s64 %rd6, %rd2, %rd4;\n"         /* 9 */
    "\tld.global.f32 %f1, [%rd5];\n"        /* 10 long */
    "\tld.global.f32 %f2, [%rd6];\n"        /* 11 long */
    "\tadd.s64 %rd7, %rd3, %rd4;\n"         /* 12 reads no long-op register */
    "\tadd.f32 %f3, %f1, %f2;\n"            /* 13 phase 1 */
    "\tst.global.f32 [%rd7], %f3;\n"        /* 14 long */
    "\tret;\n"                              /* 15 */
    "}\n";

/* Pointer chasing, two loads whose readers come in one phase, a loop. */
static const char chase_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry chase(.param .u64 pp, .param .u32 pn)\n"
    "{\n"
    "\t.reg .pred %p<2>;\n\t.reg .b32 %r<10>;\n\t.reg .b64 %rd<4>;\n"
    "\tld.param.u64 %rd1, [pp];\n"          /* 0  B0 P0 */
    "\tld.param.u32 %r1, [pn];\n"           /* 1 */
    "\tld.global.u64 %rd2, [%rd1];\n"       /* 2  long: %rd2 */
    "\tld.global.u32 %r2, [%rd1+8];\n"      /* 3  long: %r2 */
    "\tld.global.u32 %r3, [%rd1+12];\n"     /* 4  long: %r3 */
    "\tadd.s32 %r4, %r2, 1;\n"              /* 5  P1: reads %r2, set cleared */
    "\tadd.s32 %r5, %r3, 1;\n"              /* 6  %r3 no longer in the set */
    "\tld.global.u32 %r6, [%rd2];\n"        /* 7  %rd2 was cleared too: P1 */
    "\tld.global.u64 %rd3, [%rd2+8];\n"     /* 8  long: %r6, %rd3 */
    "\tmov.u32 %r7, 0;\n"                   /* 9 */
    "$L_loop:\n"
    "\tadd.s32 %r7, %r7, %r4;\n"            /* 10 B1 P2 (block start) */
    "\tld.global.u32 %r8, [%rd3];\n"        /* 11 address base %rd3 from B0: set was cleared */
    "\tadd.s32 %r9, %r8, %r5;\n"            /* 12 P3 */
    "\tsetp.lt.s32 %p1, %r7, %r1;\n"        /* 13 */
    "\t@%p1 bra $L_loop;\n"                 /* 14 */
    "\tst.global.u32 [%rd1], %r9;\n"        /* 15 B2 P4 */
    "\tret;\n"                              /* 16 */
    "}\n";

/* The Phase-aware paper's Fig. 4 (vector add), written as PTX in the order
 * of the figure's PTX-plus: four index/address instructions (IMAD, SHL, two
 * IADD there; mov, mul.wide, two add here) and the two loads (GLD) form phase
 * 1; phase 2 starts at the add of the loaded values (IADD32 R1, R1, R0), then
 * the store address, the store (GST) and the exit.  Parameters are operands
 * in PTX-plus, so ld.param is free. */
static const char fig4_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry fig4(.param .u64 pa, .param .u64 pb, .param .u64 pc)\n"
    "{\n"
    "\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<8>;\n"
    "\tld.param.u64 %rd1, [pa];\n"          /* 0  0 cycles */
    "\tld.param.u64 %rd2, [pb];\n"          /* 1  0 */
    "\tld.param.u64 %rd3, [pc];\n"          /* 2  0 */
    "\tmov.u32 %r1, %tid.x;\n"              /* 3  4 */
    "\tmul.wide.u32 %rd4, %r1, 4;\n"        /* 4  4 */
    "\tadd.s64 %rd5, %rd1, %rd4;\n"         /* 5  4 */
    "\tadd.s64 %rd6, %rd2, %rd4;\n"         /* 6  4 */
    "\tld.global.u32 %r2, [%rd5];\n"        /* 7  1 (issue) */
    "\tld.global.u32 %r3, [%rd6];\n"        /* 8  1        = 18 */
    "\tadd.s32 %r4, %r2, %r3;\n"            /* 9  4  phase 2 */
    "\tadd.s64 %rd7, %rd3, %rd4;\n"         /* 10 4 */
    "\tst.global.u32 [%rd7], %r4;\n"        /* 11 1 (issue) */
    "\tret;\n"                              /* 12 1        = 10 */
    "}\n";

/* The raw-PTX rules (phase.h): a shared read is an operand; a load that could
 * move above its phase's start does not start a phase at its reader; loads
 * that read a register written in the phase or a long-op register of the
 * previous phase, or that follow a store, stay. */
static const char hoist_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry hoist(.param .u64 pp)\n"
    "{\n"
    "\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<4>;\n"
    "\tld.param.u64 %rd1, [pp];\n"          /* 0  P0 */
    "\tld.global.u64 %rd2, [%rd1];\n"       /* 1  long: %rd2 (first phase of the block) */
    "\tld.shared.u32 %r1, [%rd1];\n"        /* 2  operand, not long-latency */
    "\tadd.s32 %r2, %r1, 1;\n"              /* 3  no new phase */
    "\tadd.s64 %rd3, %rd2, 8;\n"            /* 4  P1: reads %rd2 */
    "\tld.global.u32 %r3, [%rd1+4];\n"      /* 5  hoisted above PC 4 */
    "\tadd.s32 %r4, %r3, %r2;\n"            /* 6  so no new phase here */
    "\tld.global.u32 %r5, [%rd3];\n"        /* 7  %rd3 written in P1: stays */
    "\tld.global.u32 %r6, [%rd2+4];\n"      /* 8  %rd2 long-op of P0: stays */
    "\tst.global.u32 [%rd1], %r4;\n"        /* 9  store */
    "\tld.global.u32 %r7, [%rd1+8];\n"      /* 10 after the store: stays */
    "\tadd.s32 %r8, %r7, 1;\n"              /* 11 P2: reads %r7 */
    "\tld.global.u32 %r9, [%rd1+12];\n"     /* 12 hoisted above PC 11 */
    "\tadd.s32 %r10, %r9, %r5;\n"           /* 13 no new phase (%r5: P1's) */
    "\tadd.s32 %r11, %r10, %r6;\n"          /* 14 */
    "\tret;\n"                              /* 15 */
    "}\n";

struct parsed {
    struct ptx_module *m;
    struct analysis *a;
};

static struct parsed parse(const char *text)
{
    struct parsed p = {NULL, NULL};
    struct err e;
    err_clear(&e);
    if (ptx_parse(text, strlen(text), "phase.ptx", &p.m, &e) != WS_OK)
        fail_msg("ptx_parse: %s", e.msg);
    if (analysis_run(p.m, &p.a, &e) != WS_OK)
        fail_msg("analysis_run: %s", e.msg);
    return p;
}

static void release(struct parsed *p)
{
    analysis_free(p->a);
    ptx_module_free(p->m);
}

/* Every class costs `other`, INT costs `intl`, SFU `sfu`. */
static void table(uint32_t *lat, uint32_t other, uint32_t intl, uint32_t sfu)
{
    for (unsigned c = 0; c < ICLASS_COUNT; c++)
        lat[c] = other;
    lat[ICLASS_INT] = intl;
    lat[ICLASS_SFU] = sfu;
}

static void test_vadd_phases(void **state)
{
    (void)state;
    struct parsed p = parse(vadd_ptx);
    assert_int_equal(p.m->ninsts, 16);
    assert_int_equal(p.a->nphases, 2);
    assert_int_equal(p.a->phases[0].first_pc, 0);
    assert_int_equal(p.a->phases[0].last_pc, 12);
    assert_int_equal(p.a->phases[1].first_pc, 13);
    assert_int_equal(p.a->phases[1].last_pc, 15);
    for (uint32_t pc = 0; pc < 16; pc++) {
        assert_int_equal(p.a->pc[pc].phase, pc < 13 ? 0 : 1);
        assert_int_equal(p.a->pc[pc].bb_len, 16);
    }
    /* ALU-like 4, INT 6, loads/stores at issue cost 1:
     * phase 0 = 6 x 4 (PCs 0-5) + 2 x 6 + 2 x 4 + 2 x 1 + 4 = 50;
     * phase 1 = 4 (add) + 1 (st) + 4 (ret) = 9 */
    uint32_t lat[ICLASS_COUNT];
    table(lat, 4, 6, 20);
    struct pc_phase pcp[16];
    uint32_t len[2];
    phase_size(p.m, p.a, lat, 1, pcp, len);
    assert_int_equal(len[0], 50);
    assert_int_equal(len[1], 9);
    static const uint16_t dist[16] = {50, 46, 42, 38, 34, 30, 26, 20, 14, 10, 6, 5, 4,
                                      9,  5,  4};
    for (uint32_t pc = 0; pc < 16; pc++) {
        assert_int_equal(pcp[pc].dist, dist[pc]);
        assert_int_equal(pcp[pc].len, pc < 13 ? 50 : 9);
    }
    /* a long-latency instruction counts what the caller says it costs */
    phase_size(p.m, p.a, lat, 3, pcp, len);
    assert_int_equal(len[0], 54);
    assert_int_equal(len[1], 11);
    release(&p);
}

static void test_chase_phases(void **state)
{
    (void)state;
    struct parsed p = parse(chase_ptx);
    assert_int_equal(p.m->ninsts, 17);
    assert_int_equal(p.a->nbbs, 3);
    static const uint32_t first[] = {0, 5, 10, 12, 15}, last[] = {4, 9, 11, 14, 16};
    assert_int_equal(p.a->nphases, 5);
    for (uint32_t i = 0; i < 5; i++) {
        assert_int_equal(p.a->phases[i].first_pc, first[i]);
        assert_int_equal(p.a->phases[i].last_pc, last[i]);
        assert_int_equal(p.a->phases[i].func, 0);
        for (uint32_t pc = first[i]; pc <= last[i]; pc++)
            assert_int_equal(p.a->pc[pc].phase, i);
    }
    /* block lengths: B0 = PCs 0-9, B1 = 10-14, B2 = 15-16 */
    for (uint32_t pc = 0; pc < 17; pc++)
        assert_int_equal(p.a->pc[pc].bb_len, pc < 10 ? 10 : pc < 15 ? 5 : 2);
    /* every class 2, long-latency 1: P3 = setp 2 + bra 1 + add 2 = 5 */
    uint32_t lat[ICLASS_COUNT];
    table(lat, 2, 2, 2);
    struct pc_phase pcp[17];
    uint32_t len[5];
    phase_size(p.m, p.a, lat, 1, pcp, len);
    static const uint32_t want[] = {2 + 2 + 1 + 1 + 1, 2 + 2 + 1 + 1 + 2, 2 + 1, 2 + 2 + 1,
                                    1 + 2};
    for (uint32_t i = 0; i < 5; i++)
        assert_int_equal(len[i], want[i]);
    assert_int_equal(pcp[14].dist, 1);
    assert_int_equal(pcp[12].dist, 5);
    release(&p);
}

static void test_fig4(void **state)
{
    (void)state;
    struct parsed p = parse(fig4_ptx);
    assert_int_equal(p.m->ninsts, 13);
    assert_int_equal(p.a->nphases, 2);
    assert_int_equal(p.a->phases[0].last_pc, 8);
    assert_int_equal(p.a->phases[1].first_pc, 9);
    /* the figure's latencies [CHOICE]: 4-cycle ALU and integer pipeline, the
     * memory instructions and the exit at their 1-cycle issue cost,
     * parameters free (operands in PTX-plus) */
    uint32_t lat[ICLASS_COUNT];
    table(lat, 4, 4, 4);
    lat[ICLASS_LOAD_PARAM] = 0;
    lat[ICLASS_EXIT] = 1;
    struct pc_phase pcp[13];
    uint32_t len[2];
    phase_size(p.m, p.a, lat, 1, pcp, len);
    assert_int_equal(len[0], 18);
    assert_int_equal(len[1], 10);
    assert_int_equal(pcp[3].dist, 18);
    assert_int_equal(pcp[7].dist, 2);
    assert_int_equal(pcp[9].dist, 10);
    assert_int_equal(pcp[12].dist, 1);
    release(&p);
}

static void test_hoist(void **state)
{
    (void)state;
    struct parsed p = parse(hoist_ptx);
    assert_int_equal(p.m->ninsts, 16);
    assert_int_equal(p.a->nbbs, 1);
    static const uint32_t first[] = {0, 4, 11}, last[] = {3, 10, 15};
    assert_int_equal(p.a->nphases, 3);
    for (uint32_t i = 0; i < 3; i++) {
        assert_int_equal(p.a->phases[i].first_pc, first[i]);
        assert_int_equal(p.a->phases[i].last_pc, last[i]);
    }
    assert_false(phase_is_long_latency(ICLASS_LOAD_SHARED));
    assert_false(phase_is_long_latency(ICLASS_LOAD_CONST));
    assert_false(phase_is_long_latency(ICLASS_LOAD_PARAM));
    assert_true(phase_is_long_latency(ICLASS_LOAD_GLOBAL));
    assert_true(phase_is_long_latency(ICLASS_STORE_SHARED));
    release(&p);
}

static void test_saturation(void **state)
{
    (void)state;
    /* 40 dependent rsqrt (SFU) and a ret: 40 x 20 + 4 = 804 cycles, one phase */
    static char text[4096];
    size_t n = (size_t)snprintf(text, sizeof text,
                                ".version 9.0\n.target sm_75\n.address_size 64\n"
                                ".visible .entry sat()\n{\n\t.reg .f32 %%f<2>;\n"
                                "\tmov.f32 %%f1, 0f3F800000;\n");
    for (int i = 0; i < 40; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "\trsqrt.approx.f32 %%f1, %%f1;\n");
    snprintf(text + n, sizeof text - n, "\tret;\n}\n");
    struct parsed p = parse(text);
    assert_int_equal(p.a->nphases, 1);
    uint32_t lat[ICLASS_COUNT];
    table(lat, 4, 4, 20);
    struct pc_phase pcp[42];
    uint32_t len[1];
    phase_size(p.m, p.a, lat, 1, pcp, len);
    assert_int_equal(len[0], 4 + 40 * 20 + 4);
    assert_int_equal(pcp[0].dist, PHASE_SATURATE);
    assert_int_equal(pcp[0].len, PHASE_SATURATE);
    assert_int_equal(pcp[41].dist, 4);
    assert_int_equal(pcp[41 - 25].dist, 4 + 25 * 20); /* 504: below the limit */
    assert_int_equal(pcp[41 - 26].dist, PHASE_SATURATE);
    release(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vadd_phases),
        cmocka_unit_test(test_chase_phases),
        cmocka_unit_test(test_saturation),
        cmocka_unit_test(test_fig4),
        cmocka_unit_test(test_hoist),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
