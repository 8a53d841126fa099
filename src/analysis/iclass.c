/* iclass.c: map each PTX instruction to the functional-unit class the timing
 * model charges it to.
 *
 * Choices beyond the class comments in analysis.h: any arithmetic with an
 * f64 operand type (including setp/set/slct comparing f64 and cvt to or from
 * f64) is DP; a non-f64 div of a float type (div.rn.f32 as well as
 * div.approx/div.full) is SFU because it is built around the reciprocal unit;
 * integer mul/mad/mul24/mad24/madc/div/rem and dp4a/dp2a are INT; ld/st in
 * an unexpected space (.tex) count as global; bar.warp.sync is WARP, not
 * BARRIER; an opcode this table does not know yet is ALU. */
#include "analysis/iclass.h"

#include <stddef.h>

static int iclass_is_f64(const struct ptx_inst *in)
{
    return in->type == PTX_T_F64 || in->type2 == PTX_T_F64;
}

static int iclass_is_floaty(uint8_t t)
{
    switch (t) {
    case PTX_T_F16: case PTX_T_F16X2: case PTX_T_BF16: case PTX_T_BF16X2:
    case PTX_T_F32: case PTX_T_F64:
        return 1;
    default:
        return 0;
    }
}

static enum inst_class iclass_load(uint8_t space)
{
    switch (space) {
    case PTX_SPACE_LOCAL: return ICLASS_LOAD_LOCAL;
    case PTX_SPACE_SHARED: return ICLASS_LOAD_SHARED;
    case PTX_SPACE_CONST: return ICLASS_LOAD_CONST;
    case PTX_SPACE_PARAM: return ICLASS_LOAD_PARAM;
    default: return ICLASS_LOAD_GLOBAL;
    }
}

static enum inst_class iclass_store(uint8_t space)
{
    switch (space) {
    case PTX_SPACE_LOCAL: return ICLASS_STORE_LOCAL;
    case PTX_SPACE_SHARED: return ICLASS_STORE_SHARED;
    case PTX_SPACE_PARAM: return ICLASS_STORE_PARAM;
    default: return ICLASS_STORE_GLOBAL;
    }
}

enum inst_class iclass_of(const struct ptx_inst *in, int in_entry)
{
    switch ((enum ptx_op)in->op) {
    /* Simple arithmetic: ALU, or DP in double precision. */
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_ADDC: case PTX_OP_SUBC:
    case PTX_OP_FMA: case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_MIN: case PTX_OP_MAX:
    case PTX_OP_COPYSIGN: case PTX_OP_TESTP: case PTX_OP_SETP: case PTX_OP_SET:
    case PTX_OP_SLCT: case PTX_OP_CVT: case PTX_OP_SAD:
        return iclass_is_f64(in) ? ICLASS_DP : ICLASS_ALU;
    /* Multiplies: floating point on the FP pipes, integer on the INT unit. */
    case PTX_OP_MUL: case PTX_OP_MAD:
        if (in->type == PTX_T_F64)
            return ICLASS_DP;
        return iclass_is_floaty(in->type) ? ICLASS_ALU : ICLASS_INT;
    case PTX_OP_MADC: case PTX_OP_MUL24: case PTX_OP_MAD24: case PTX_OP_REM:
    case PTX_OP_DP4A: case PTX_OP_DP2A:
        return ICLASS_INT;
    case PTX_OP_DIV:
        if (in->type == PTX_T_F64)
            return ICLASS_DP;
        return iclass_is_floaty(in->type) ? ICLASS_SFU : ICLASS_INT;
    case PTX_OP_RCP: case PTX_OP_SQRT: case PTX_OP_RSQRT: case PTX_OP_SIN:
    case PTX_OP_COS: case PTX_OP_LG2: case PTX_OP_EX2: case PTX_OP_TANH:
        return in->type == PTX_T_F64 ? ICLASS_DP : ICLASS_SFU;
    /* Bit manipulation, selection and moves. */
    case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR: case PTX_OP_NOT: case PTX_OP_CNOT:
    case PTX_OP_SHL: case PTX_OP_SHR: case PTX_OP_SHF: case PTX_OP_BFE: case PTX_OP_BFI:
    case PTX_OP_BMSK: case PTX_OP_PRMT: case PTX_OP_POPC: case PTX_OP_CLZ:
    case PTX_OP_BREV: case PTX_OP_FNS: case PTX_OP_LOP3: case PTX_OP_SELP:
    case PTX_OP_MOV: case PTX_OP_CVTA: case PTX_OP_BFIND:
        return ICLASS_ALU;
    case PTX_OP_LD: case PTX_OP_LDU:
        return iclass_load(in->space);
    case PTX_OP_ST:
        return iclass_store(in->space);
    /* texture fetches and surface loads: global loads (their space, .tex or
     * .global, routes them in the timing model); surface stores: global */
    case PTX_OP_TEX: case PTX_OP_TLD4: case PTX_OP_SULD:
        return ICLASS_LOAD_GLOBAL;
    case PTX_OP_SUST:
        return ICLASS_STORE_GLOBAL;
    case PTX_OP_TXQ:
        return ICLASS_ALU;
    case PTX_OP_ATOM: case PTX_OP_RED:
        return ICLASS_ATOMIC;
    case PTX_OP_BRA:
        return ICLASS_BRANCH;
    case PTX_OP_CALL:
        return ICLASS_CALL;
    case PTX_OP_RET:
        return in_entry ? ICLASS_EXIT : ICLASS_CALL;
    case PTX_OP_EXIT: case PTX_OP_TRAP:
        return ICLASS_EXIT;
    case PTX_OP_BAR:
        /* bar.warp.sync (__syncwarp) synchronises one warp, not the CTA. */
        return in->sub == PTX_SUB_BAR_WARP_SYNC ? ICLASS_WARP : ICLASS_BARRIER;
    case PTX_OP_MEMBAR: case PTX_OP_FENCE:
        return ICLASS_MEMBAR;
    case PTX_OP_SHFL: case PTX_OP_VOTE: case PTX_OP_ACTIVEMASK: case PTX_OP_MATCH:
    case PTX_OP_REDUX:
        return ICLASS_WARP;
    case PTX_OP_PREFETCH: case PTX_OP_NANOSLEEP: case PTX_OP_PMEVENT:
    case PTX_OP_INVALID: case PTX_OP_COUNT:
        return ICLASS_OTHER;
    default:
        /* An opcode added to ir.h after this table: simple integer work. */
        return ICLASS_ALU;
    }
}

int iclass_is_compute(enum inst_class c)
{
    return c == ICLASS_ALU || c == ICLASS_SFU || c == ICLASS_DP || c == ICLASS_INT ||
           c == ICLASS_WARP;
}

const char *inst_class_name(enum inst_class c)
{
    static const char *const names[ICLASS_COUNT] = {
        [ICLASS_ALU] = "alu",
        [ICLASS_SFU] = "sfu",
        [ICLASS_DP] = "dp",
        [ICLASS_INT] = "int",
        [ICLASS_LOAD_GLOBAL] = "load_global",
        [ICLASS_LOAD_LOCAL] = "load_local",
        [ICLASS_LOAD_SHARED] = "load_shared",
        [ICLASS_LOAD_CONST] = "load_const",
        [ICLASS_LOAD_PARAM] = "load_param",
        [ICLASS_STORE_GLOBAL] = "store_global",
        [ICLASS_STORE_LOCAL] = "store_local",
        [ICLASS_STORE_SHARED] = "store_shared",
        [ICLASS_STORE_PARAM] = "store_param",
        [ICLASS_ATOMIC] = "atomic",
        [ICLASS_BRANCH] = "branch",
        [ICLASS_CALL] = "call",
        [ICLASS_EXIT] = "exit",
        [ICLASS_BARRIER] = "barrier",
        [ICLASS_MEMBAR] = "membar",
        [ICLASS_WARP] = "warp",
        [ICLASS_OTHER] = "other",
    };
    if ((unsigned)c >= ICLASS_COUNT)
        return "?";
    return names[c];
}
