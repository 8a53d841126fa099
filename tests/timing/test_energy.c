/* test_energy.c: the event-energy model (timing/energy.h, analysis/power.h):
 * the per-PC register-operand and unit facts of hand-written PTX, GPGPU-Sim's
 * lane-weighted unit accesses, and on a vector add whose events are known
 * analytically (4 warps, 4 lines per array) the event counts and the
 * energies they give with GPUWattch's GTX480 coefficients. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/analysis.h"
#include "ptx/parser.h"
#include "warpsim.h"

static const char vadd_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry vadd(.param .u64 a, .param .u64 b, .param .u64 c)\n{\n"
    ".reg .b32 %r<4>;\n.reg .b64 %rd<8>;\n.reg .f32 %f<4>;\n"
    "ld.param.u64 %rd1, [a];\n"         /* 0: 0 reads, 1 write, 1 non-register */
    "ld.param.u64 %rd2, [b];\n"         /* 1 */
    "ld.param.u64 %rd3, [c];\n"         /* 2 */
    "mov.u32 %r1, %tid.x;\n"            /* 3: ialu; 0, 1, 1 */
    "mul.wide.u32 %rd4, %r1, 4;\n"      /* 4: imul32 (the source type); 1, 1, 1 */
    "add.s64 %rd5, %rd1, %rd4;\n"       /* 5: ialu; 2, 1, 0 */
    "ld.global.f32 %f1, [%rd5];\n"      /* 6: 1, 1, 1 */
    "add.s64 %rd6, %rd2, %rd4;\n"       /* 7: ialu */
    "ld.global.f32 %f2, [%rd6];\n"      /* 8 */
    "add.f32 %f3, %f1, %f2;\n"          /* 9: fpalu; 2, 1, 0 */
    "add.s64 %rd7, %rd3, %rd4;\n"       /* 10: ialu */
    "st.global.f32 [%rd7], %f3;\n"      /* 11: 2, 0, 1 */
    "ret;\n}\n";

static const char ops_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry ops(.param .u64 p)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n.reg .f32 %f<8>;\n"
    ".reg .f64 %fd<4>;\n"
    "ld.param.u64 %rd1, [p];\n"                     /* 0 */
    "mad.lo.s32 %r1, %r2, %r3, 5;\n"                /* 1: imul32; 2 reads, 1 imm */
    "mul.lo.s64 %rd2, %rd1, %rd1;\n"                /* 2: imul (64-bit) */
    "mul24.lo.s32 %r4, %r2, %r3;\n"                 /* 3: imul24 */
    "div.s32 %r5, %r2, %r3;\n"                      /* 4: idiv */
    "mul.f32 %f1, %f2, %f3;\n"                      /* 5: fpmul */
    "div.rn.f64 %fd1, %fd2, %fd3;\n"                /* 6: fpdiv */
    "rcp.approx.f32 %f4, %f2;\n"                    /* 7: fpdiv */
    "sqrt.approx.f32 %f5, %f2;\n"                   /* 8: sqrt */
    "lg2.approx.f32 %f5, %f2;\n"                    /* 9: lg */
    "sin.approx.f32 %f5, %f2;\n"                    /* 10: sin */
    "ex2.approx.f32 %f5, %f2;\n"                    /* 11: exp */
    "setp.lt.f32 %p1, %f2, %f3;\n"                  /* 12: fpalu (the compared type) */
    "ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];\n" /* 13: 1 read, 4 writes */
    "@%p1 bra $L_end;\n"                            /* 14: none; the guard is not read */
    "$L_end:\n"
    "ret;\n}\n";

static void test_power_facts(void **state)
{
    (void)state;
    struct ptx_module *m = NULL;
    struct analysis *a = NULL;
    struct err e;
    err_clear(&e);
    if (ptx_parse(ops_ptx, strlen(ops_ptx), "ops.ptx", &m, &e) != WS_OK)
        fail_msg("ptx_parse: %s", e.msg);
    assert_int_equal(analysis_run(m, &a, &e), WS_OK);
    static const uint8_t want_op[] = {
        POWER_OP_NONE, POWER_OP_IMUL32, POWER_OP_IMUL, POWER_OP_IMUL24, POWER_OP_IDIV,
        POWER_OP_FPMUL, POWER_OP_FPDIV, POWER_OP_FPDIV, POWER_OP_SQRT, POWER_OP_LG,
        POWER_OP_SIN, POWER_OP_EXP, POWER_OP_FPALU, POWER_OP_NONE, POWER_OP_NONE,
        POWER_OP_NONE,
    };
    assert_int_equal(m->ninsts, sizeof want_op);
    for (uint32_t pc = 0; pc < m->ninsts; pc++)
        if (a->pc[pc].power.op != want_op[pc])
            fail_msg("pc %u: op %u, want %u", pc, a->pc[pc].power.op, want_op[pc]);
    const struct power_facts *mad = &a->pc[1].power, *v4 = &a->pc[13].power;
    assert_int_equal(mad->rf_reads, 2);
    assert_int_equal(mad->rf_writes, 1);
    assert_int_equal(mad->non_rf, 1);
    assert_int_equal(v4->rf_reads, 1);
    assert_int_equal(v4->rf_writes, 4);
    assert_int_equal(v4->non_rf, 1);
    assert_int_equal(a->pc[14].power.rf_reads, 0);
    assert_int_equal(a->pc[14].power.non_rf, 1); /* the label */
    analysis_free(a);
    ptx_module_free(m);
}

/* GPGPU-Sim charges every lane: active x weight, plus the inactive lanes'
 * share ((32 - a) >> 1, and 2 x ((32 - a) >> 3) more on the SFU), each part
 * truncated to whole accesses; a texture fetch charges its active lanes. */
static void test_unit_accesses(void **state)
{
    (void)state;
    assert_int_equal(power_op_accesses(POWER_OP_IALU, 32), 32 * 32);
    assert_int_equal(power_op_accesses(POWER_OP_IALU, 1), 32 + 15 * 32);
    assert_int_equal(power_op_accesses(POWER_OP_FPALU, 32), 32);
    /* imul 7.2 at 22 lanes: 158.4 -> 158, plus 5 x 7.2 = 36 */
    assert_int_equal(power_op_accesses(POWER_OP_IMUL, 22), 158 + 36);
    /* at 26 lanes: 187.2 -> 187, plus 3 x 7.2 = 21.6 -> 21 */
    assert_int_equal(power_op_accesses(POWER_OP_IMUL, 26), 187 + 21);
    /* sin (12) at 1 lane: 31 idle -> 15 + 2 x 3 = 21 shares of 12 */
    assert_int_equal(power_op_accesses(POWER_OP_SIN, 1), 12 + 252);
    assert_int_equal(power_op_accesses(POWER_OP_TEX, 7), 7);
    assert_int_equal(power_op_weight[POWER_OP_FPDIV].unit, POWER_UNIT_FPU);
    assert_int_equal(power_op_weight[POWER_OP_IMUL32].unit, POWER_UNIT_SFU);
    assert_int_equal(power_op_weight[POWER_OP_TEX].unit, POWER_UNIT_FPU);
}

static double stat_d(const ws_gpu *gpu, const char *name)
{
    double v = -1;
    if (ws_stat_double(gpu, name, &v) != WS_OK)
        fail_msg("no statistic %s", name);
    return v;
}

#define assert_near(got, want) near_at(got, want, #got)
static void near_at(double got, double want, const char *what)
{
    double tol = 1e-9 * (want < 0 ? -want : want) + 1e-9;
    if (got < want - tol || got > want + tol)
        fail_msg("%s: got %.12g, want %.12g", what, got, want);
}

/* vadd over 128 threads (4 warps, one CTA) at the GTX480 defaults. */
static ws_gpu *run_vadd(const char *key, const char *value)
{
    ws_gpu *gpu;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "mode", "timing"), WS_OK);
    if (key)
        assert_int_equal(ws_gpu_set(gpu, key, value), WS_OK);
    ws_module *mod;
    if (ws_module_load_string(gpu, vadd_ptx, "vadd.ptx", &mod) != WS_OK)
        fail_msg("%s", ws_last_error(gpu));
    ws_devptr a, b, c;
    float ha[128], hb[128], hc[128];
    for (int i = 0; i < 128; i++) {
        ha[i] = (float)i;
        hb[i] = 0.5f * (float)i;
    }
    assert_int_equal(ws_malloc(gpu, sizeof ha, &a), WS_OK);
    assert_int_equal(ws_malloc(gpu, sizeof hb, &b), WS_OK);
    assert_int_equal(ws_malloc(gpu, sizeof hc, &c), WS_OK);
    assert_int_equal(ws_memcpy_htod(gpu, a, ha, sizeof ha), WS_OK);
    assert_int_equal(ws_memcpy_htod(gpu, b, hb, sizeof hb), WS_OK);
    void *args[] = {&a, &b, &c};
    if (ws_launch(mod, "vadd", ws_dim(1, 1, 1), ws_dim(128, 1, 1), 0, args) != WS_OK)
        fail_msg("%s", ws_last_error(gpu));
    assert_int_equal(ws_memcpy_dtoh(gpu, hc, c, sizeof hc), WS_OK);
    for (int i = 0; i < 128; i++)
        assert_true(hc[i] == 1.5f * (float)i);
    return gpu;
}

static void test_vadd_events(void **state)
{
    (void)state;
    ws_gpu *gpu = run_vadd(NULL, NULL);
    /* per warp: 13 register reads, 11 writes, 8 other operands (see vadd_ptx) */
    assert_near(stat_d(gpu, "rf_reads"), 4 * 13);
    assert_near(stat_d(gpu, "rf_writes"), 4 * 11);
    assert_near(stat_d(gpu, "non_rf_operands"), 4 * 8);
    /* 4 full-warp ialu (32 x 32), 1 fpalu (1 x 32), 1 imul32 (4 x 32) */
    assert_near(stat_d(gpu, "sp_acc"), 4 * 4 * 1024);
    assert_near(stat_d(gpu, "fpu_acc"), 4 * 32);
    assert_near(stat_d(gpu, "sfu_acc"), 4 * 128);
    assert_near(stat_d(gpu, "warp_insn_fp_int"), 4 * 12); /* all but ret */
    /* 128 floats = 4 lines per array: 8 cold read misses, 4 write misses */
    assert_near(stat_d(gpu, "l1d_read_misses"), 8);
    assert_near(stat_d(gpu, "l1d_read_hits"), 0);
    assert_near(stat_d(gpu, "l1d_write_misses"), 4);
    assert_near(stat_d(gpu, "l1d_write_hits"), 0);
    /* the L2 sees those and the parameters' constant-cache miss (an instruction
     * miss is timed as a round trip, not sent); the warps wait for their
     * stores' acknowledgements (sm.store_ack), so all of it is counted */
    assert_near(stat_d(gpu, "l2_read_misses"), 9);
    assert_near(stat_d(gpu, "l2_read_hits"), 0);
    assert_near(stat_d(gpu, "l2_write_misses"), 4);
    assert_near(stat_d(gpu, "l2_write_hits"), 0);
    assert_near(stat_d(gpu, "dram_read_bursts"), 9 * 2); /* 128-byte lines, 64-byte bursts */
    assert_near(stat_d(gpu, "dram_write_bursts"), 0);    /* the dirty lines stay in the L2 */
    /* 32-byte flits, 8 control bytes: 9 read requests of 1, 4 stores of 5;
     * replies: 8 lines of 5, the 64-byte constant line in 3, 4
     * acknowledgements of 1 */
    assert_near(stat_d(gpu, "icnt_flits"), 9 + 20 + 40 + 3 + 4);

    /* the one CTA is resident from the first cycle to the last, on one SM */
    double cyc = stat_d(gpu, "gpu_sim_cycle"), busy = stat_d(gpu, "sm_busy_cycles");
    assert_near(busy, cyc);
    assert_near(stat_d(gpu, "sm_idle_cycles"), 14 * cyc);
    /* the energies, GPUWattch GTX480 (nJ; 700 MHz core: 1/0.7 nJ per W-cycle) */
    assert_near(stat_d(gpu, "energy_l1d_nj"), 8 * 2.225 + 4 * 2.604);
    assert_near(stat_d(gpu, "energy_l2_nj"), 9 * 0.1020 + 4 * 15.02);
    assert_near(stat_d(gpu, "energy_icnt_nj"), 76 * 1.939);
    assert_near(stat_d(gpu, "energy_dram_nj"),
                18 * 26.95 + 4.232 * stat_d(gpu, "dram_precharges"));
    assert_near(stat_d(gpu, "energy_regfile_nj"),
                32 * (52 * 0.007267 + 44 * 0.005986 + 32 * 0.05301));
    assert_near(stat_d(gpu, "energy_units_nj"),
                16384 * 0.002695 + 128 * 0.02958 + 512 * 0.04835);
    assert_near(stat_d(gpu, "energy_constant_nj"), 11 / 0.7 * cyc);
    assert_near(stat_d(gpu, "energy_idle_sm_nj"), 1.59 / 0.7 * 14 * cyc);
    assert_near(stat_d(gpu, "energy_pipeline_nj"),
                25.46 / 0.7 / (32 * 2 * 15) * stat_d(gpu, "simt_active_lanes"));
    double dyn = 0;
    static const char *const parts[] = {
        "energy_inst_nj",     "energy_l1i_nj", "energy_l1d_nj",   "energy_tex_nj",
        "energy_l1c_nj",      "energy_smem_nj", "energy_regfile_nj", "energy_units_nj",
        "energy_pipeline_nj", "energy_l2_nj",  "energy_icnt_nj",  "energy_dram_nj"};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        dyn += stat_d(gpu, parts[i]);
    assert_near(stat_d(gpu, "energy_dynamic_nj"), dyn);
    double total = dyn + stat_d(gpu, "energy_idle_sm_nj") + stat_d(gpu, "energy_constant_nj");
    assert_near(stat_d(gpu, "energy_total_nj"), total);
    assert_near(stat_d(gpu, "energy_avg_power_w"), total / cyc * 0.7);
    assert_near(stat_d(gpu, "energy_insn_per_nj"), stat_d(gpu, "gpu_sim_insn") / total);
    assert_near(stat_d(gpu, "energy_ipc_per_j"), stat_d(gpu, "gpu_ipc") / total * 1e9);
    ws_gpu_free(gpu);
}

/* A coefficient changes its energy and nothing of the timing. */
static void test_coefficient_key(void **state)
{
    (void)state;
    ws_gpu *base = run_vadd(NULL, NULL), *x = run_vadd("energy.l1d_write_miss", "100");
    assert_near(stat_d(x, "gpu_sim_cycle"), stat_d(base, "gpu_sim_cycle"));
    assert_near(stat_d(x, "energy_l1d_nj") - stat_d(base, "energy_l1d_nj"), 4 * (100 - 2.604));
    assert_near(stat_d(x, "energy_total_nj") - stat_d(base, "energy_total_nj"),
                4 * (100 - 2.604));
    ws_gpu_free(base);
    ws_gpu_free(x);
    ws_gpu *gpu;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "energy.l1d_write_miss", "-1"), WS_ERR_INVALID);
    ws_gpu_free(gpu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_power_facts),
        cmocka_unit_test(test_unit_accesses),
        cmocka_unit_test(test_vadd_events),
        cmocka_unit_test(test_coefficient_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
