/* power.h: the per-PC facts the event-energy model (timing/energy.h) counts,
 * classified as GPGPU-Sim's GPUWattch interface counts them, so that the
 * energies per event taken from GPUWattch's GTX480 model apply to the same
 * events:
 *   - register-file operands: source operands read from registers (a
 *     register, each register of a vector, the base register of an
 *     address), destination registers written, and source operands that are
 *     not registers (immediates, addresses, special registers, symbols);
 *     GPGPU-Sim's operand collector charges each 32 thread accesses
 *     (register-file clock gating off, its default);
 *   - the execution-unit operation (its sp_op: shader.cc incexecstat), which
 *     selects the unit (SP integer ALU, FPU, SFU) and a latency weight;
 *     every lane of the warp is charged, an inactive one at a fraction
 *     (gpgpu_clock_gated_lanes off, its default).
 * The guard predicate is not counted as a register read [CHOICE]. */
#ifndef WS_ANALYSIS_POWER_H
#define WS_ANALYSIS_POWER_H

#include <stdint.h>

#include "ptx/ir.h"

/* GPGPU-Sim's sp_op of an instruction (cuda-sim.cc
 * set_mul_div_or_other_archop), or a texture fetch (its mem_op TEX);
 * POWER_OP_NONE charges no unit. */
enum power_op {
    POWER_OP_NONE = 0,
    POWER_OP_IALU, POWER_OP_IMUL, POWER_OP_IMUL24, POWER_OP_IMUL32, POWER_OP_IDIV,
    POWER_OP_FPALU, POWER_OP_FPMUL, POWER_OP_FPDIV,
    POWER_OP_SQRT, POWER_OP_LG, POWER_OP_SIN, POWER_OP_EXP,
    POWER_OP_TEX, /* a texture fetch: its active lanes count as FPU accesses */
    POWER_OP_COUNT
};

/* The unit an operation is charged to (GPUWattch SP_ACC, FPU_ACC, SFU_ACC). */
enum power_unit { POWER_UNIT_SP, POWER_UNIT_FPU, POWER_UNIT_SFU, POWER_UNIT_COUNT };

struct power_facts {
    uint8_t rf_reads;  /* source register operands (warp operands) */
    uint8_t rf_writes; /* destination registers */
    uint8_t non_rf;    /* source operands that are not registers */
    uint8_t op;        /* enum power_op */
};

/* The facts of one instruction; is_compute: its instruction class runs on an
 * arithmetic unit (GPGPU-Sim's ALU_OP), the condition for the default
 * integer / float ALU operation. */
struct power_facts power_facts_of(const struct ptx_module *m, const struct ptx_inst *in,
                                  int is_compute);

/* Per operation: the unit it is charged to (power_stat.h: SP_ACC the integer
 * ALU; FPU_ACC fp, fpmul, fpdiv, imul24, imul and a texture fetch's lanes;
 * SFU_ACC imul32, idiv and the transcendentals), its latency weight x 10
 * (shader.cc incexecstat: ialu 32, imul 7.2, imul24 4.2, imul32 4, idiv 40,
 * fp 1, fpmul 1.8, fpdiv 48, sqrt 25, lg 35, sin 12, exp 35; tex 1) and how
 * its inactive lanes are charged (shader.h inactive_lanes_accesses_nonsfu,
 * _sfu; inctex_stat charges none). */
enum power_idle { POWER_IDLE_NONE, POWER_IDLE_NONSFU, POWER_IDLE_SFU };
static const struct {
    uint8_t unit; /* enum power_unit */
    uint8_t idle; /* enum power_idle */
    uint16_t w10;
} power_op_weight[POWER_OP_COUNT] = {
    [POWER_OP_IALU] = {POWER_UNIT_SP, POWER_IDLE_NONSFU, 320},
    [POWER_OP_IMUL] = {POWER_UNIT_FPU, POWER_IDLE_NONSFU, 72},
    [POWER_OP_IMUL24] = {POWER_UNIT_FPU, POWER_IDLE_NONSFU, 42},
    [POWER_OP_IMUL32] = {POWER_UNIT_SFU, POWER_IDLE_SFU, 40},
    [POWER_OP_IDIV] = {POWER_UNIT_SFU, POWER_IDLE_SFU, 400},
    [POWER_OP_FPALU] = {POWER_UNIT_FPU, POWER_IDLE_NONSFU, 10},
    [POWER_OP_FPMUL] = {POWER_UNIT_FPU, POWER_IDLE_NONSFU, 18},
    [POWER_OP_FPDIV] = {POWER_UNIT_FPU, POWER_IDLE_SFU, 480},
    [POWER_OP_SQRT] = {POWER_UNIT_SFU, POWER_IDLE_SFU, 250},
    [POWER_OP_LG] = {POWER_UNIT_SFU, POWER_IDLE_SFU, 350},
    [POWER_OP_SIN] = {POWER_UNIT_SFU, POWER_IDLE_SFU, 120},
    [POWER_OP_EXP] = {POWER_UNIT_SFU, POWER_IDLE_SFU, 350},
    [POWER_OP_TEX] = {POWER_UNIT_FPU, POWER_IDLE_NONE, 10},
};

/* Unit accesses for one warp instruction of `op` with `active` SIMT-active
 * lanes (1..32): active x weight plus the inactive lanes' share, each part
 * truncated to whole accesses as GPGPU-Sim's unsigned counters do (shader.h
 * inc*_stat). */
static inline uint32_t power_op_accesses(enum power_op op, uint32_t active)
{
    uint32_t w10 = power_op_weight[op].w10, idle = 32 - active, k = 0;
    if (power_op_weight[op].idle != POWER_IDLE_NONE)
        k = (idle >> 1) + (power_op_weight[op].idle == POWER_IDLE_SFU ? 2 * (idle >> 3) : 0);
    return active * w10 / 10 + k * w10 / 10;
}

#endif
