/* test_analysis_ptx.c: analysis of a real nvcc-generated kernel (a shared
 * memory tree reduction), parsed with ptx_parse: reconvergence PCs of every
 * branch, the reduction loop and a sample of instruction classes.
 *
 * Source (nvcc 13.0, -arch=sm_75):
 *   extern "C" __global__ void reduce(const int *in, int *out, int n) {
 *     __shared__ int s[256];
 *     int t = threadIdx.x;
 *     int i = blockIdx.x * blockDim.x + t;
 *     s[t] = i < n ? in[i] : 0;
 *     __syncthreads();
 *     for (int st = blockDim.x / 2; st > 0; st >>= 1) {
 *       if (t < st) s[t] += s[t + st];
 *       __syncthreads();
 *     }
 *     if (t == 0) out[blockIdx.x] = s[0];
 *   } */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/analysis.h"
#include "ptx/parser.h"

static const char reduce_ptx[] =
    ".version 9.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    "\n"
    "\t// .globl\treduce\n"
    "// _ZZ6reduceE1s has been demoted\n"
    "\n"
    ".visible .entry reduce(\n"
    "\t.param .u64 reduce_param_0,\n"
    "\t.param .u64 reduce_param_1,\n"
    "\t.param .u32 reduce_param_2\n"
    ")\n"
    "{\n"
    "\t.reg .pred \t%p<6>;\n"
    "\t.reg .b32 \t%r<23>;\n"
    "\t.reg .b64 \t%rd<9>;\n"
    "\t// demoted variable\n"
    "\t.shared .align 4 .b8 _ZZ6reduceE1s[1024];\n"
    "\n"
    "\tld.param.u64 \t%rd1, [reduce_param_0];\n"
    "\tld.param.u64 \t%rd2, [reduce_param_1];\n"
    "\tld.param.u32 \t%r12, [reduce_param_2];\n"
    "\tmov.u32 \t%r1, %ntid.x;\n"
    "\tmov.u32 \t%r2, %ctaid.x;\n"
    "\tmov.u32 \t%r3, %tid.x;\n"
    "\tmad.lo.s32 \t%r4, %r2, %r1, %r3;\n"
    "\tsetp.ge.s32 \t%p1, %r4, %r12;\n"
    "\tmov.u32 \t%r21, 0;\n"
    "\t@%p1 bra \t$L__BB0_2;\n"
    "\n"
    "\tcvta.to.global.u64 \t%rd3, %rd1;\n"
    "\tmul.wide.s32 \t%rd4, %r4, 4;\n"
    "\tadd.s64 \t%rd5, %rd3, %rd4;\n"
    "\tld.global.u32 \t%r21, [%rd5];\n"
    "\n"
    "$L__BB0_2:\n"
    "\tshl.b32 \t%r13, %r3, 2;\n"
    "\tmov.u32 \t%r14, _ZZ6reduceE1s;\n"
    "\tadd.s32 \t%r7, %r14, %r13;\n"
    "\tst.shared.u32 \t[%r7], %r21;\n"
    "\tbar.sync \t0;\n"
    "\tshr.u32 \t%r22, %r1, 1;\n"
    "\tsetp.eq.s32 \t%p2, %r22, 0;\n"
    "\t@%p2 bra \t$L__BB0_6;\n"
    "\n"
    "$L__BB0_3:\n"
    "\tsetp.ge.s32 \t%p3, %r3, %r22;\n"
    "\t@%p3 bra \t$L__BB0_5;\n"
    "\n"
    "\tshl.b32 \t%r15, %r22, 2;\n"
    "\tadd.s32 \t%r16, %r7, %r15;\n"
    "\tld.shared.u32 \t%r17, [%r7];\n"
    "\tld.shared.u32 \t%r18, [%r16];\n"
    "\tadd.s32 \t%r19, %r17, %r18;\n"
    "\tst.shared.u32 \t[%r7], %r19;\n"
    "\n"
    "$L__BB0_5:\n"
    "\tbar.sync \t0;\n"
    "\tshr.u32 \t%r22, %r22, 1;\n"
    "\tsetp.ne.s32 \t%p4, %r22, 0;\n"
    "\t@%p4 bra \t$L__BB0_3;\n"
    "\n"
    "$L__BB0_6:\n"
    "\tsetp.ne.s32 \t%p5, %r3, 0;\n"
    "\t@%p5 bra \t$L__BB0_8;\n"
    "\n"
    "\tld.shared.u32 \t%r20, [_ZZ6reduceE1s];\n"
    "\tcvta.to.global.u64 \t%rd6, %rd2;\n"
    "\tmul.wide.u32 \t%rd7, %r2, 4;\n"
    "\tadd.s64 \t%rd8, %rd6, %rd7;\n"
    "\tst.global.u32 \t[%rd8], %r20;\n"
    "\n"
    "$L__BB0_8:\n"
    "\tret;\n"
    "\n"
    "}\n"
    "\n"
    ;

static void test_reduce_kernel(void **state)
{
    (void)state;
    struct ptx_module *m = NULL;
    struct err e;
    err_clear(&e);
    int rc = ptx_parse(reduce_ptx, strlen(reduce_ptx), "reduce.ptx", &m, &e);
    if (rc != WS_OK)
        fail_msg("ptx_parse: %s", e.msg);
    assert_int_equal(m->nfuncs, 1);
    assert_int_equal(m->funcs[0].first_pc, 0);
    assert_int_equal(m->ninsts, 42);

    struct analysis *a = NULL;
    assert_int_equal(analysis_run(m, &a, &e), WS_OK);

    /* Every branch and its reconvergence PC (PCs counted in the PTX above:
     * 9 "@%p1 bra $L__BB0_2" ... 35 "@%p5 bra $L__BB0_8"). */
    static const uint32_t bra_pc[] = {9, 21, 23, 33, 35};
    static const uint32_t reconv[] = {14, 34, 30, 34, 41};
    uint32_t k = 0;
    for (uint32_t pc = 0; pc < m->ninsts; pc++) {
        if (m->insts[pc].op != PTX_OP_BRA) {
            assert_int_equal(a->pc[pc].reconv, PC_EXIT);
            assert_int_equal(a->pc[pc].is_cond_branch, 0);
            continue;
        }
        assert_true(k < 5);
        assert_int_equal(pc, bra_pc[k]);
        if (a->pc[pc].reconv != reconv[k])
            fail_msg("bra at PC %u: reconv %u, expected %u", pc, a->pc[pc].reconv, reconv[k]);
        assert_int_equal(a->pc[pc].is_cond_branch, 1);
        k++;
    }
    assert_int_equal(k, 5);

    /* The stride loop: $L__BB0_3 (PC 22) to "@%p4 bra $L__BB0_3" (PC 33). */
    assert_int_equal(a->nloops, 1);
    const struct loop_info *li = &a->loops[0];
    assert_int_equal(li->header_pc, 22);
    assert_int_equal(li->first_pc, 22);
    assert_int_equal(li->last_pc, 33);
    assert_int_equal(li->depth, 1);
    assert_int_equal(li->parent, PTX_NO_INDEX);
    assert_int_equal(li->nlatches, 1);
    assert_int_equal(a->bbs[li->latches[0]].first_pc, 30);
    assert_int_equal(li->nexits, 1);
    assert_int_equal(a->bbs[li->exits[0]].first_pc, 34);
    assert_int_equal(li->nblocks, 3);
    for (uint32_t pc = 0; pc < m->ninsts; pc++)
        assert_int_equal(a->pc[pc].loop, pc >= 22 && pc <= 33 ? 0 : PTX_NO_INDEX);

    /* Instruction classes. */
    assert_int_equal(a->pc[0].iclass, ICLASS_LOAD_PARAM);
    assert_int_equal(a->pc[6].iclass, ICLASS_INT);          /* mad.lo.s32 */
    assert_int_equal(a->pc[13].iclass, ICLASS_LOAD_GLOBAL);
    assert_int_equal(a->pc[17].iclass, ICLASS_STORE_SHARED);
    assert_int_equal(a->pc[18].iclass, ICLASS_BARRIER);
    assert_int_equal(a->pc[26].iclass, ICLASS_LOAD_SHARED);
    assert_int_equal(a->pc[28].iclass, ICLASS_ALU);
    assert_int_equal(a->pc[40].iclass, ICLASS_STORE_GLOBAL);
    assert_int_equal(a->pc[41].iclass, ICLASS_EXIT);

    analysis_free(a);
    ptx_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reduce_kernel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
