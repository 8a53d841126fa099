/* ir.c: helpers over the PTX IR (names, sizes, look-ups, freeing). */
#include "ptx/ir.h"

#include <stdlib.h>
#include <string.h>

static const char *const ptx_type_names[PTX_T_COUNT] = {
    [PTX_T_NONE] = "none", [PTX_T_B8] = "b8",       [PTX_T_B16] = "b16",
    [PTX_T_B32] = "b32",   [PTX_T_B64] = "b64",     [PTX_T_B128] = "b128",
    [PTX_T_U8] = "u8",     [PTX_T_U16] = "u16",     [PTX_T_U32] = "u32",
    [PTX_T_U64] = "u64",   [PTX_T_S8] = "s8",       [PTX_T_S16] = "s16",
    [PTX_T_S32] = "s32",   [PTX_T_S64] = "s64",     [PTX_T_F16] = "f16",
    [PTX_T_F16X2] = "f16x2", [PTX_T_BF16] = "bf16", [PTX_T_BF16X2] = "bf16x2",
    [PTX_T_F32] = "f32",   [PTX_T_F64] = "f64",     [PTX_T_PRED] = "pred",
};

unsigned ptx_type_size(enum ptx_type t)
{
    switch (t) {
    case PTX_T_B8: case PTX_T_U8: case PTX_T_S8: case PTX_T_PRED:
        return 1;
    case PTX_T_B16: case PTX_T_U16: case PTX_T_S16: case PTX_T_F16: case PTX_T_BF16:
        return 2;
    case PTX_T_B32: case PTX_T_U32: case PTX_T_S32: case PTX_T_F32: case PTX_T_F16X2:
    case PTX_T_BF16X2:
        return 4;
    case PTX_T_B64: case PTX_T_U64: case PTX_T_S64: case PTX_T_F64:
        return 8;
    case PTX_T_B128:
        return 16;
    default:
        return 0;
    }
}

int ptx_type_is_float(enum ptx_type t)
{
    return t == PTX_T_F16 || t == PTX_T_F16X2 || t == PTX_T_BF16 || t == PTX_T_BF16X2 ||
           t == PTX_T_F32 || t == PTX_T_F64;
}

int ptx_type_is_signed(enum ptx_type t)
{
    return t == PTX_T_S8 || t == PTX_T_S16 || t == PTX_T_S32 || t == PTX_T_S64;
}

const char *ptx_type_name(enum ptx_type t)
{
    if ((unsigned)t >= PTX_T_COUNT)
        return "?";
    return ptx_type_names[t];
}

const char *ptx_space_name(enum ptx_space s)
{
    static const char *const names[PTX_SPACE_COUNT] = {
        [PTX_SPACE_NONE] = "generic", [PTX_SPACE_REG] = "reg",     [PTX_SPACE_GLOBAL] = "global",
        [PTX_SPACE_CONST] = "const",  [PTX_SPACE_SHARED] = "shared", [PTX_SPACE_LOCAL] = "local",
        [PTX_SPACE_PARAM] = "param",  [PTX_SPACE_TEX] = "tex",
    };
    if ((unsigned)s >= PTX_SPACE_COUNT)
        return "?";
    return names[s];
}

const char *ptx_op_name(enum ptx_op op)
{
    static const char *const names[PTX_OP_COUNT] = {
        [PTX_OP_INVALID] = "invalid", [PTX_OP_ADD] = "add", [PTX_OP_SUB] = "sub",
        [PTX_OP_ADDC] = "addc", [PTX_OP_SUBC] = "subc", [PTX_OP_MUL] = "mul",
        [PTX_OP_MAD] = "mad", [PTX_OP_MADC] = "madc", [PTX_OP_MUL24] = "mul24",
        [PTX_OP_MAD24] = "mad24", [PTX_OP_SAD] = "sad", [PTX_OP_FMA] = "fma",
        [PTX_OP_DIV] = "div", [PTX_OP_REM] = "rem", [PTX_OP_ABS] = "abs", [PTX_OP_NEG] = "neg",
        [PTX_OP_MIN] = "min", [PTX_OP_MAX] = "max", [PTX_OP_COPYSIGN] = "copysign",
        [PTX_OP_TESTP] = "testp", [PTX_OP_RCP] = "rcp", [PTX_OP_SQRT] = "sqrt",
        [PTX_OP_RSQRT] = "rsqrt", [PTX_OP_SIN] = "sin", [PTX_OP_COS] = "cos",
        [PTX_OP_LG2] = "lg2", [PTX_OP_EX2] = "ex2", [PTX_OP_TANH] = "tanh",
        [PTX_OP_AND] = "and", [PTX_OP_OR] = "or", [PTX_OP_XOR] = "xor", [PTX_OP_NOT] = "not",
        [PTX_OP_CNOT] = "cnot", [PTX_OP_SHL] = "shl", [PTX_OP_SHR] = "shr",
        [PTX_OP_SHF] = "shf", [PTX_OP_BFE] = "bfe", [PTX_OP_BFI] = "bfi",
        [PTX_OP_BMSK] = "bmsk", [PTX_OP_PRMT] = "prmt", [PTX_OP_POPC] = "popc",
        [PTX_OP_CLZ] = "clz", [PTX_OP_BREV] = "brev", [PTX_OP_FNS] = "fns",
        [PTX_OP_DP4A] = "dp4a", [PTX_OP_DP2A] = "dp2a", [PTX_OP_LOP3] = "lop3",
        [PTX_OP_SETP] = "setp", [PTX_OP_SET] = "set", [PTX_OP_SELP] = "selp",
        [PTX_OP_SLCT] = "slct", [PTX_OP_MOV] = "mov", [PTX_OP_CVT] = "cvt",
        [PTX_OP_CVTA] = "cvta", [PTX_OP_LD] = "ld", [PTX_OP_LDU] = "ldu", [PTX_OP_ST] = "st",
        [PTX_OP_PREFETCH] = "prefetch", [PTX_OP_ATOM] = "atom", [PTX_OP_RED] = "red",
        [PTX_OP_BRA] = "bra", [PTX_OP_CALL] = "call", [PTX_OP_RET] = "ret",
        [PTX_OP_EXIT] = "exit", [PTX_OP_TRAP] = "trap", [PTX_OP_BAR] = "bar",
        [PTX_OP_MEMBAR] = "membar", [PTX_OP_FENCE] = "fence", [PTX_OP_SHFL] = "shfl",
        [PTX_OP_VOTE] = "vote", [PTX_OP_ACTIVEMASK] = "activemask", [PTX_OP_MATCH] = "match",
        [PTX_OP_REDUX] = "redux", [PTX_OP_NANOSLEEP] = "nanosleep",
        [PTX_OP_PMEVENT] = "pmevent", [PTX_OP_BFIND] = "bfind",
        [PTX_OP_TEX] = "tex", [PTX_OP_TLD4] = "tld4", [PTX_OP_TXQ] = "txq",
        [PTX_OP_SULD] = "suld", [PTX_OP_SUST] = "sust",
    };
    if ((unsigned)op >= PTX_OP_COUNT || !names[op])
        return "?";
    return names[op];
}

const char *ptx_sreg_name(enum ptx_sreg s)
{
    static const char *const names[PTX_SREG_COUNT] = {
        [PTX_SREG_TID] = "%tid", [PTX_SREG_NTID] = "%ntid", [PTX_SREG_CTAID] = "%ctaid",
        [PTX_SREG_NCTAID] = "%nctaid", [PTX_SREG_LANEID] = "%laneid",
        [PTX_SREG_WARPID] = "%warpid", [PTX_SREG_NWARPID] = "%nwarpid",
        [PTX_SREG_SMID] = "%smid", [PTX_SREG_NSMID] = "%nsmid", [PTX_SREG_GRIDID] = "%gridid",
        [PTX_SREG_CLOCK] = "%clock", [PTX_SREG_CLOCK64] = "%clock64",
        [PTX_SREG_GLOBALTIMER] = "%globaltimer", [PTX_SREG_LANEMASK_EQ] = "%lanemask_eq",
        [PTX_SREG_LANEMASK_LE] = "%lanemask_le", [PTX_SREG_LANEMASK_LT] = "%lanemask_lt",
        [PTX_SREG_LANEMASK_GE] = "%lanemask_ge", [PTX_SREG_LANEMASK_GT] = "%lanemask_gt",
        [PTX_SREG_DYNAMIC_SMEM_SIZE] = "%dynamic_smem_size",
        [PTX_SREG_TOTAL_SMEM_SIZE] = "%total_smem_size",
    };
    if ((unsigned)s >= PTX_SREG_COUNT)
        return "?";
    return names[s];
}

uint32_t ptx_find_func(const struct ptx_module *m, const char *name)
{
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (strcmp(m->funcs[i].name, name) == 0)
            return i;
    return PTX_NO_INDEX;
}

const char *ptx_inst_src_file(const struct ptx_module *m, const struct ptx_inst *in)
{
    if (in->src_line == 0)
        return NULL;
    for (uint32_t i = 0; i < m->nfiles; i++)
        if (m->files[i].id == in->src_file)
            return m->files[i].path;
    return NULL;
}

uint32_t ptx_find_var(const struct ptx_module *m, const char *name)
{
    /* module-scope variables first, then the first function-scope match */
    uint32_t found = PTX_NO_INDEX;
    for (uint32_t i = 0; i < m->nvars; i++) {
        if (strcmp(m->vars[i].name, name) == 0) {
            if (m->vars[i].func == PTX_NO_INDEX)
                return i;
            if (found == PTX_NO_INDEX)
                found = i;
        }
    }
    return found;
}

void ptx_module_free(struct ptx_module *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        struct ptx_func *f = &m->funcs[i];
        free(f->name);
        for (uint32_t r = 0; r < f->nregs; r++)
            free(f->regs[r].name);
        free(f->regs);
        free(f->params);
        free(f->rets);
    }
    for (uint32_t i = 0; i < m->nvars; i++) {
        free(m->vars[i].name);
        free(m->vars[i].init);
    }
    for (uint32_t i = 0; i < m->nfiles; i++)
        free(m->files[i].path);
    free(m->files);
    free(m->funcs);
    free(m->vars);
    free(m->insts);
    free(m->opnds);
    free(m->name);
    free(m);
}
