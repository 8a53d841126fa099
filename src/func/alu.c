/* alu.c: entry point of the ALU — decides which family executor (integer, f32/f64,
 * half precision, conversion, comparison) runs an instruction, plus the type helpers and
 * the "unsupported instruction" message shared by all of them. */
#include "func/alu.h"

#include <stdio.h>
#include <string.h>

unsigned alu_type_bits(enum ptx_type t)
{
    switch (t) {
    case PTX_T_B8: case PTX_T_U8: case PTX_T_S8: return 8;
    case PTX_T_B16: case PTX_T_U16: case PTX_T_S16: case PTX_T_F16: case PTX_T_BF16: return 16;
    case PTX_T_B32: case PTX_T_U32: case PTX_T_S32: case PTX_T_F32: case PTX_T_F16X2:
    case PTX_T_BF16X2: return 32;
    case PTX_T_B64: case PTX_T_U64: case PTX_T_S64: case PTX_T_F64: return 64;
    case PTX_T_B128: return 128;
    case PTX_T_PRED: return 1;
    default: return 0;
    }
}

int alu_type_signed(enum ptx_type t)
{
    return t == PTX_T_S8 || t == PTX_T_S16 || t == PTX_T_S32 || t == PTX_T_S64;
}

static const char *alu_op_str(enum ptx_op op)
{
    static const char *const names[PTX_OP_COUNT] = {
        [PTX_OP_ADD] = "add", [PTX_OP_SUB] = "sub", [PTX_OP_ADDC] = "addc",
        [PTX_OP_SUBC] = "subc", [PTX_OP_MUL] = "mul", [PTX_OP_MAD] = "mad",
        [PTX_OP_MADC] = "madc", [PTX_OP_MUL24] = "mul24", [PTX_OP_MAD24] = "mad24",
        [PTX_OP_SAD] = "sad", [PTX_OP_FMA] = "fma", [PTX_OP_DIV] = "div", [PTX_OP_REM] = "rem",
        [PTX_OP_ABS] = "abs", [PTX_OP_NEG] = "neg", [PTX_OP_MIN] = "min", [PTX_OP_MAX] = "max",
        [PTX_OP_COPYSIGN] = "copysign", [PTX_OP_TESTP] = "testp", [PTX_OP_RCP] = "rcp",
        [PTX_OP_SQRT] = "sqrt", [PTX_OP_RSQRT] = "rsqrt", [PTX_OP_SIN] = "sin",
        [PTX_OP_COS] = "cos", [PTX_OP_LG2] = "lg2", [PTX_OP_EX2] = "ex2",
        [PTX_OP_TANH] = "tanh", [PTX_OP_AND] = "and", [PTX_OP_OR] = "or",
        [PTX_OP_XOR] = "xor", [PTX_OP_NOT] = "not", [PTX_OP_CNOT] = "cnot",
        [PTX_OP_SHL] = "shl", [PTX_OP_SHR] = "shr", [PTX_OP_SHF] = "shf",
        [PTX_OP_BFE] = "bfe", [PTX_OP_BFI] = "bfi", [PTX_OP_BMSK] = "bmsk",
        [PTX_OP_PRMT] = "prmt", [PTX_OP_POPC] = "popc", [PTX_OP_CLZ] = "clz",
        [PTX_OP_BREV] = "brev", [PTX_OP_FNS] = "fns", [PTX_OP_DP4A] = "dp4a",
        [PTX_OP_DP2A] = "dp2a", [PTX_OP_LOP3] = "lop3", [PTX_OP_SETP] = "setp",
        [PTX_OP_SET] = "set", [PTX_OP_SELP] = "selp", [PTX_OP_SLCT] = "slct",
        [PTX_OP_MOV] = "mov", [PTX_OP_CVT] = "cvt",
    };
    if ((unsigned)op < PTX_OP_COUNT && names[op])
        return names[op];
    return "?";
}

static const char *alu_type_str(enum ptx_type t)
{
    static const char *const names[PTX_T_COUNT] = {
        [PTX_T_B8] = "b8", [PTX_T_B16] = "b16", [PTX_T_B32] = "b32", [PTX_T_B64] = "b64",
        [PTX_T_B128] = "b128", [PTX_T_U8] = "u8", [PTX_T_U16] = "u16", [PTX_T_U32] = "u32",
        [PTX_T_U64] = "u64", [PTX_T_S8] = "s8", [PTX_T_S16] = "s16", [PTX_T_S32] = "s32",
        [PTX_T_S64] = "s64", [PTX_T_F16] = "f16", [PTX_T_F16X2] = "f16x2",
        [PTX_T_BF16] = "bf16", [PTX_T_BF16X2] = "bf16x2", [PTX_T_F32] = "f32",
        [PTX_T_F64] = "f64", [PTX_T_PRED] = "pred",
    };
    if ((unsigned)t < PTX_T_COUNT && names[t])
        return names[t];
    return NULL;
}

static const char *alu_sub_str(enum ptx_sub s)
{
    switch (s) {
    case PTX_SUB_LO: return "lo";
    case PTX_SUB_HI: return "hi";
    case PTX_SUB_WIDE: return "wide";
    case PTX_SUB_SHF_L: return "l";
    case PTX_SUB_SHF_R: return "r";
    case PTX_SUB_CLAMP: return "clamp";
    case PTX_SUB_WRAP: return "wrap";
    case PTX_SUB_PRMT_F4E: return "f4e";
    case PTX_SUB_PRMT_B4E: return "b4e";
    case PTX_SUB_PRMT_RC8: return "rc8";
    case PTX_SUB_PRMT_ECL: return "ecl";
    case PTX_SUB_PRMT_ECR: return "ecr";
    case PTX_SUB_PRMT_RC16: return "rc16";
    case PTX_SUB_TESTP_FINITE: return "finite";
    case PTX_SUB_TESTP_INFINITE: return "infinite";
    case PTX_SUB_TESTP_NUMBER: return "number";
    case PTX_SUB_TESTP_NOTANUMBER: return "notanumber";
    case PTX_SUB_TESTP_NORMAL: return "normal";
    case PTX_SUB_TESTP_SUBNORMAL: return "subnormal";
    default: return NULL;
    }
}

static const char *alu_cmp_str(enum ptx_cmp c)
{
    static const char *const names[] = {
        NULL, "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
        "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
    };
    if ((unsigned)c < sizeof names / sizeof names[0])
        return names[c];
    return NULL;
}

static const char *alu_rnd_str(enum ptx_rnd r)
{
    static const char *const names[] = {
        NULL, "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "rna",
    };
    if ((unsigned)r < sizeof names / sizeof names[0])
        return names[r];
    return NULL;
}

static size_t alu_append(char *buf, size_t len, size_t cap, const char *s)
{
    if (!s)
        return len;
    int n = snprintf(buf + len, cap - len, ".%s", s);
    if (n < 0)
        return len;
    len += (size_t)n;
    return len < cap ? len : cap - 1;
}

int alu_unsupported(const struct ptx_inst *in, struct err *e)
{
    static const char *const boolops[] = {NULL, "and", "or", "xor"};
    char name[128];
    size_t len = (size_t)snprintf(name, sizeof name, "%s", alu_op_str((enum ptx_op)in->op));
    len = alu_append(name, len, sizeof name, alu_sub_str((enum ptx_sub)in->sub));
    len = alu_append(name, len, sizeof name, alu_cmp_str((enum ptx_cmp)in->cmp));
    if (in->boolop < 4)
        len = alu_append(name, len, sizeof name, boolops[in->boolop]);
    len = alu_append(name, len, sizeof name, alu_rnd_str((enum ptx_rnd)in->rnd));
    if (in->flags & PTX_F_APPROX)
        len = alu_append(name, len, sizeof name, "approx");
    if (in->flags & PTX_F_FULL)
        len = alu_append(name, len, sizeof name, "full");
    if (in->flags & PTX_F_FTZ)
        len = alu_append(name, len, sizeof name, "ftz");
    if (in->flags & PTX_F_SAT)
        len = alu_append(name, len, sizeof name, "sat");
    if (in->flags & PTX_F_RELU)
        len = alu_append(name, len, sizeof name, "relu");
    if (in->flags & PTX_F_NAN)
        len = alu_append(name, len, sizeof name, "NaN");
    if (in->flags & PTX_F_CC)
        len = alu_append(name, len, sizeof name, "cc");
    len = alu_append(name, len, sizeof name, alu_type_str((enum ptx_type)in->type));
    if (in->type2 != in->type)
        len = alu_append(name, len, sizeof name, alu_type_str((enum ptx_type)in->type2));
    (void)len;
    return err_set(e, WS_ERR_UNSUPPORTED, "unsupported instruction '%s'", name);
}

int alu_handles(enum ptx_op op)
{
    switch (op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_ADDC: case PTX_OP_SUBC: case PTX_OP_MUL:
    case PTX_OP_MAD: case PTX_OP_MADC: case PTX_OP_MUL24: case PTX_OP_MAD24: case PTX_OP_SAD:
    case PTX_OP_FMA: case PTX_OP_DIV: case PTX_OP_REM: case PTX_OP_ABS: case PTX_OP_NEG:
    case PTX_OP_MIN: case PTX_OP_MAX: case PTX_OP_COPYSIGN: case PTX_OP_TESTP:
    case PTX_OP_RCP: case PTX_OP_SQRT: case PTX_OP_RSQRT: case PTX_OP_SIN: case PTX_OP_COS:
    case PTX_OP_LG2: case PTX_OP_EX2: case PTX_OP_TANH:
    case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR: case PTX_OP_NOT: case PTX_OP_CNOT:
    case PTX_OP_SHL: case PTX_OP_SHR: case PTX_OP_SHF: case PTX_OP_BFE: case PTX_OP_BFI:
    case PTX_OP_BMSK: case PTX_OP_PRMT: case PTX_OP_POPC: case PTX_OP_CLZ: case PTX_OP_BREV:
    case PTX_OP_BFIND: case PTX_OP_FNS: case PTX_OP_DP4A: case PTX_OP_DP2A: case PTX_OP_LOP3:
    case PTX_OP_SETP: case PTX_OP_SET: case PTX_OP_SELP: case PTX_OP_SLCT:
    case PTX_OP_MOV: case PTX_OP_CVT:
        return 1;
    default:
        return 0;
    }
}

static void alu_mov(const struct ptx_inst *in, uint32_t mask, const uint64_t src[][32],
                    uint64_t dst[][32])
{
    unsigned w = alu_type_bits((enum ptx_type)in->type);
    uint64_t m = (w == 0 || w >= 64) ? ~0ull : (1ull << w) - 1;
    for (unsigned l = 0; l < 32; l++)
        if (mask >> l & 1)
            dst[0][l] = src[0][l] & m;
}

int alu_exec(const struct ptx_inst *in, uint32_t mask, const uint64_t src[][32],
             uint64_t dst[][32], uint32_t *carry, struct err *e)
{
    enum ptx_op op = (enum ptx_op)in->op;
    enum ptx_type t = (enum ptx_type)in->type;
    switch (op) {
    case PTX_OP_MOV:
        if (t == PTX_T_B128)
            return alu_unsupported(in, e);
        alu_mov(in, mask, src, dst);
        return WS_OK;
    case PTX_OP_CVT:
        return alu_exec_cvt(in, mask, src, dst, e);
    case PTX_OP_SETP: case PTX_OP_SET: case PTX_OP_SELP: case PTX_OP_SLCT:
        return alu_exec_cmp(in, mask, src, dst, e);
    case PTX_OP_TESTP: case PTX_OP_RCP: case PTX_OP_SQRT: case PTX_OP_RSQRT: case PTX_OP_SIN:
    case PTX_OP_COS: case PTX_OP_LG2: case PTX_OP_FMA:
        break; /* float only: decided by type below */
    default:
        if (!alu_handles(op))
            return alu_unsupported(in, e);
        break;
    }
    if (op == PTX_OP_TESTP && (t == PTX_T_PRED || t == PTX_T_NONE)) {
        /* testp's tested type may be recorded only in type2 */
        struct ptx_inst tmp = *in;
        tmp.type = in->type2;
        return alu_exec_float(&tmp, mask, src, dst, e);
    }
    switch (t) {
    case PTX_T_F32: case PTX_T_F64:
        return alu_exec_float(in, mask, src, dst, e);
    case PTX_T_F16: case PTX_T_F16X2: case PTX_T_BF16: case PTX_T_BF16X2:
        return alu_exec_half(in, mask, src, dst, e);
    default:
        return alu_exec_int(in, mask, src, dst, carry, e);
    }
}
