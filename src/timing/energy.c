/* energy.c: the event-energy model's statistics (energy.h): weighted sums of
 * the event counters with the energy.* coefficients as weights. */
#include "timing/energy.h"

#include <stdio.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define SUM(name, desc, terms, weights)                                                        \
    stats_sum(s, name, desc, (uint32_t)N(terms), terms, weights)

/* Counts of reads and writes apart, hits including merged misses, as
 * GPGPU-Sim's power statistics (power_stat.h: hits = accesses - misses). */
static void energy_split_counts(struct stats *s, const char *cache)
{
    char n[6][48], d[2][96];
    snprintf(n[0], sizeof n[0], "%s_misses", cache);
    snprintf(n[1], sizeof n[1], "%s_write_misses", cache);
    snprintf(n[2], sizeof n[2], "%s_accesses", cache);
    snprintf(n[3], sizeof n[3], "%s_writes", cache);
    snprintf(n[4], sizeof n[4], "%s_read_misses", cache);
    snprintf(n[5], sizeof n[5], "%s_read_hits", cache);
    const char *miss[] = {n[0], n[1]};
    const char *hit[] = {n[2], n[3], n[4]};
    static const double diff[] = {1, -1}, rest[] = {1, -1, -1};
    snprintf(d[0], sizeof d[0], "%s read misses (misses - write misses)", cache);
    stats_sum(s, n[4], d[0], 2, miss, diff);
    snprintf(d[1], sizeof d[1], "%s read hits and merged read misses", cache);
    stats_sum(s, n[5], d[1], 3, hit, rest);
    char wh[48], whd[64];
    snprintf(wh, sizeof wh, "%s_write_hits", cache);
    snprintf(whd, sizeof whd, "%s write hits and merged write misses", cache);
    const char *w[] = {n[3], n[1]};
    stats_sum(s, wh, whd, 2, w, diff);
}

void energy_register(struct stats *s, const struct gpu_config *cfg)
{
    const struct energy_coeffs *E = &cfg->energy;
    /* nJ per core cycle of one W */
    const double nj_per_w_cycle = 1e3 / cfg->core_mhz;

    energy_split_counts(s, "l1d");
    energy_split_counts(s, "l2");
    const char *idle[] = {"gpu_sim_cycle", "sm_busy_cycles"};
    const double idle_w[] = {(double)cfg->n_sms, -1};
    SUM("sm_idle_cycles", "SM cycles with no resident CTA", idle, idle_w);
    const char *fi[] = {"warp_insn", "warp_insn_branch", "warp_insn_call", "warp_insn_exit",
                        "warp_insn_barrier", "warp_insn_membar"};
    const double fi_w[] = {1, -1, -1, -1, -1, -1};
    SUM("warp_insn_fp_int", "warp instructions with an integer or float operation "
        "(GPGPU-Sim's INT/FP decoded instructions)", fi, fi_w);

    const char *inst[] = {"warp_insn", "warp_insn_fp_int"};
    const double inst_w[] = {E->inst, E->fp_int};
    SUM("energy_inst_nj", "fetch/decode and scheduling energy (nJ)", inst, inst_w);
    const char *l1i[] = {"l1i_hits", "l1i_misses"};
    const double l1i_w[] = {E->l1i_hit, E->l1i_miss};
    SUM("energy_l1i_nj", "instruction-cache energy (nJ)", l1i, l1i_w);
    const char *l1d[] = {"l1d_read_hits", "l1d_read_misses", "l1d_write_hits",
                         "l1d_write_misses"};
    const double l1d_w[] = {E->l1d_read_hit, E->l1d_read_miss, E->l1d_write_hit,
                            E->l1d_write_miss};
    SUM("energy_l1d_nj", "L1D energy, with the coalescer (nJ)", l1d, l1d_w);
    const char *tex[] = {"tex_cache_hit", "tex_cache_hit_reserved", "tex_cache_miss"};
    const double tex_w[] = {E->tex_hit, E->tex_hit, E->tex_miss};
    SUM("energy_tex_nj", "texture-cache energy (nJ)", tex, tex_w);
    const char *l1c[] = {"l1c_hits", "l1c_hit_reserved", "l1c_misses"};
    const double l1c_w[] = {E->l1c_hit, E->l1c_hit, E->l1c_miss};
    SUM("energy_l1c_nj", "constant-cache energy (nJ)", l1c, l1c_w);
    const char *smem[] = {"smem_cycles"};
    const double smem_w[] = {E->smem};
    SUM("energy_smem_nj", "shared-memory energy (nJ)", smem, smem_w);
    /* register operands are counted per warp; GPGPU-Sim charges 32 threads */
    const char *rf[] = {"rf_reads", "rf_writes", "non_rf_operands"};
    const double rf_w[] = {32 * E->rf_read, 32 * E->rf_write, 32 * E->non_rf};
    SUM("energy_regfile_nj", "register-file and operand energy (nJ)", rf, rf_w);
    const char *fu[] = {"sp_acc", "fpu_acc", "sfu_acc"};
    const double fu_w[] = {E->sp, E->fpu, E->sfu};
    SUM("energy_units_nj", "execution-unit energy: integer ALU, FPU, SFU (nJ)", fu, fu_w);
    const char *pipe[] = {"simt_active_lanes"};
    const double pipe_w[] = {E->pipeline_w * nj_per_w_cycle /
                             (32.0 * cfg->n_schedulers * cfg->n_sms)};
    SUM("energy_pipeline_nj", "SM pipeline energy by its duty (nJ)", pipe, pipe_w);
    const char *l2[] = {"l2_read_hits", "l2_read_misses", "l2_write_hits", "l2_write_misses"};
    const double l2_w[] = {E->l2_read_hit, E->l2_read_miss, E->l2_write_hit, E->l2_write_miss};
    SUM("energy_l2_nj", "L2 energy (nJ)", l2, l2_w);
    const char *icnt[] = {"icnt_flits"};
    const double icnt_w[] = {E->icnt_flit};
    SUM("energy_icnt_nj", "interconnect energy (nJ)", icnt, icnt_w);
    const char *dram[] = {"dram_read_bursts", "dram_write_bursts", "dram_precharges"};
    const double dram_w[] = {E->dram_read, E->dram_write, E->dram_precharge};
    SUM("energy_dram_nj", "DRAM and memory-controller energy (nJ)", dram, dram_w);
    const char *idl[] = {"sm_idle_cycles"};
    const double idl_w[] = {E->idle_sm_w * nj_per_w_cycle};
    SUM("energy_idle_sm_nj", "energy of the SMs with no resident CTA (nJ)", idl, idl_w);
    const char *cst[] = {"gpu_sim_cycle"};
    const double cst_w[] = {E->constant_w * nj_per_w_cycle};
    SUM("energy_constant_nj", "constant power over the cycles (nJ)", cst, cst_w);

    const char *dyn[] = {"energy_inst_nj", "energy_l1i_nj", "energy_l1d_nj", "energy_tex_nj",
                         "energy_l1c_nj", "energy_smem_nj", "energy_regfile_nj",
                         "energy_units_nj", "energy_pipeline_nj", "energy_l2_nj",
                         "energy_icnt_nj", "energy_dram_nj"};
    const double ones[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    SUM("energy_dynamic_nj", "dynamic energy: the events (nJ)", dyn, ones);
    const char *tot[] = {"energy_dynamic_nj", "energy_idle_sm_nj", "energy_constant_nj"};
    SUM("energy_total_nj", "total energy (nJ; an event model, not a circuit model)", tot, ones);
    stats_ratio(s, "energy_avg_power_w", "average power (W)", "energy_total_nj",
                "gpu_sim_cycle", cfg->core_mhz / 1e3);
    stats_ratio(s, "energy_insn_per_nj", "thread instructions per nJ (performance per watt)",
                "gpu_sim_insn", "energy_total_nj", 1.0);
    stats_ratio(s, "energy_ipc_per_j", "IPC divided by the energy in J (MeDiC's energy "
                "efficiency, Fig. 12)", "gpu_ipc", "energy_total_nj", 1e9);
}
