/* power.c: per-PC facts for the event-energy model: register-file operands
 * and the execution-unit operation, as GPGPU-Sim counts them for GPUWattch
 * (see power.h for the sources and choices). */
#include "analysis/power.h"

#include <stddef.h>

/* The type GPGPU-Sim's get_type() gives: the written type (setp: the compared
 * type; mul/mad.wide: the source type, not the widened destination). */
static uint8_t power_type(const struct ptx_inst *in)
{
    switch ((enum ptx_op)in->op) {
    case PTX_OP_SETP:
        return in->type2;
    case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_MUL24: case PTX_OP_MAD24:
        return in->sub == PTX_SUB_WIDE ? in->type2 : in->type;
    default:
        return in->type;
    }
}

static int power_is_control(enum ptx_op op)
{
    switch (op) {
    case PTX_OP_BRA: case PTX_OP_CALL: case PTX_OP_RET: case PTX_OP_EXIT: case PTX_OP_BAR:
    case PTX_OP_MEMBAR: case PTX_OP_FENCE:
        return 1;
    default:
        return 0;
    }
}

static enum power_op power_op_of(const struct ptx_inst *in, int is_compute)
{
    enum ptx_op op = (enum ptx_op)in->op;
    if (op == PTX_OP_TEX || op == PTX_OP_TLD4)
        return POWER_OP_TEX;
    if (power_is_control(op))
        return POWER_OP_NONE;
    uint8_t t = power_type(in);
    if (t == PTX_T_F32 || t == PTX_T_F64) {
        switch (op) {
        case PTX_OP_MUL: case PTX_OP_MAD: return POWER_OP_FPMUL;
        case PTX_OP_DIV: case PTX_OP_RCP: return POWER_OP_FPDIV;
        case PTX_OP_LG2: return POWER_OP_LG;
        case PTX_OP_SQRT: case PTX_OP_RSQRT: return POWER_OP_SQRT;
        case PTX_OP_SIN: case PTX_OP_COS: return POWER_OP_SIN;
        case PTX_OP_EX2: return POWER_OP_EXP;
        default: return is_compute ? POWER_OP_FPALU : POWER_OP_NONE;
        }
    }
    switch (op) {
    case PTX_OP_MUL24: case PTX_OP_MAD24:
        return POWER_OP_IMUL24;
    case PTX_OP_MUL: case PTX_OP_MAD:
        return t == PTX_T_U32 || t == PTX_T_S32 || t == PTX_T_B32 ? POWER_OP_IMUL32
                                                                 : POWER_OP_IMUL;
    case PTX_OP_DIV:
        return POWER_OP_IDIV;
    default:
        return is_compute ? POWER_OP_IALU : POWER_OP_NONE;
    }
}

static uint32_t power_vec_regs(const struct ptx_operand *o)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < o->vec_n && i < 4; i++)
        n += o->vec[i] != PTX_NO_INDEX && !(o->vec_imm >> i & 1);
    return n;
}

static uint8_t power_sat(uint32_t n)
{
    return n > UINT8_MAX ? UINT8_MAX : (uint8_t)n;
}

struct power_facts power_facts_of(const struct ptx_module *m, const struct ptx_inst *in,
                                  int is_compute)
{
    uint32_t rd = 0, wr = 0, non = 0;
    for (unsigned i = 0; i < in->ndst; i++) {
        const struct ptx_operand *o = ptx_dst(m, in, i);
        if (o->kind == PTX_OPND_REG)
            wr++;
        else if (o->kind == PTX_OPND_VEC)
            wr += power_vec_regs(o);
    }
    for (unsigned i = 0; i < in->nsrc; i++) {
        const struct ptx_operand *o = ptx_src(m, in, i);
        switch ((enum ptx_opnd_kind)o->kind) {
        case PTX_OPND_REG:
            rd++;
            break;
        case PTX_OPND_VEC:
            rd += power_vec_regs(o);
            break;
        case PTX_OPND_ADDR: /* a memory operand; its base register is read */
            rd += o->reg != PTX_NO_INDEX;
            non++;
            break;
        case PTX_OPND_NONE: case PTX_OPND_SINK:
            break;
        default:
            non++;
            break;
        }
    }
    return (struct power_facts){power_sat(rd), power_sat(wr), power_sat(non),
                                (uint8_t)power_op_of(in, is_compute)};
}
