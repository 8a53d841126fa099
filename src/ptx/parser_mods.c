/* parser_mods.c: instruction modifiers (".rn", ".eq", ".global", ".v4", ...)
 * and the instruction types they imply. */
#include "ptx/parser_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *n;
    enum ptx_cmp c;
} cmp_table[] = {
    {".eq", PTX_CMP_EQ},   {".ne", PTX_CMP_NE},   {".lt", PTX_CMP_LT},   {".le", PTX_CMP_LE},
    {".gt", PTX_CMP_GT},   {".ge", PTX_CMP_GE},   {".lo", PTX_CMP_LO},   {".ls", PTX_CMP_LS},
    {".hi", PTX_CMP_HI},   {".hs", PTX_CMP_HS},   {".equ", PTX_CMP_EQU}, {".neu", PTX_CMP_NEU},
    {".ltu", PTX_CMP_LTU}, {".leu", PTX_CMP_LEU}, {".gtu", PTX_CMP_GTU}, {".geu", PTX_CMP_GEU},
    {".num", PTX_CMP_NUM}, {".nan", PTX_CMP_NAN},
};

static const struct {
    const char *n;
    enum ptx_sub s;
} atom_table[] = {
    {".add", PTX_SUB_ATOM_ADD}, {".min", PTX_SUB_ATOM_MIN},   {".max", PTX_SUB_ATOM_MAX},
    {".inc", PTX_SUB_ATOM_INC}, {".dec", PTX_SUB_ATOM_DEC},   {".cas", PTX_SUB_ATOM_CAS},
    {".exch", PTX_SUB_ATOM_EXCH}, {".and", PTX_SUB_ATOM_AND}, {".or", PTX_SUB_ATOM_OR},
    {".xor", PTX_SUB_ATOM_XOR},
};

static int mod_in(const struct ptx_tok *t, const char *const *list)
{
    for (size_t i = 0; list[i]; i++)
        if (tok_is(t, list[i]))
            return 1;
    return 0;
}

static void set_sub(struct parser *p, struct inst_ctx *c, const struct ptx_tok *t, int sub)
{
    if (c->in.sub != PTX_SUB_NONE)
        p_fail(p, t, "conflicting modifier");
    c->in.sub = (uint8_t)sub;
}

void parser_apply_mod(struct parser *p, struct inst_ctx *c, const struct ptx_tok *t)
{
    struct ptx_inst *in = &c->in;
    enum ptx_op op = in->op;
    static const char *const rnd_names[] = {".rn", ".rz", ".rm", ".rp", ".rni",
                                            ".rzi", ".rmi", ".rpi", ".rna", NULL};
    static const char *const cache_names[] = {".ca", ".cg", ".cs", ".lu", ".cv", ".wb",
                                              ".wt", ".L1", ".L2", NULL};
    static const char *const order_names[] = {".relaxed", ".acquire", ".release",
                                              ".acq_rel", ".sc", ".mmio", NULL};
    static const char *const scope_names[] = {".cta", ".gpu", ".sys", ".cluster", NULL};

    enum ptx_type ty = parser_type_from_dir(t);
    if (ty != PTX_T_NONE) {
        if (c->ntypes >= 3)
            p_fail(p, t, "too many types");
        c->types[c->ntypes++] = (uint8_t)ty;
        return;
    }
    /* family-specific modifiers first: they reuse generic names (.lo, .and) */
    if (parser_is_tex_op(op) && parser_tex_mod(p, c, t))
        return;
    switch (op) {
    case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_MUL24: case PTX_OP_MAD24:
    case PTX_OP_DP2A: case PTX_OP_MADC:
        if (tok_is(t, ".lo")) return set_sub(p, c, t, PTX_SUB_LO);
        if (tok_is(t, ".hi")) return set_sub(p, c, t, PTX_SUB_HI);
        if (tok_is(t, ".wide")) return set_sub(p, c, t, PTX_SUB_WIDE);
        break;
    case PTX_OP_SETP: case PTX_OP_SET: case PTX_OP_SLCT:
        for (size_t i = 0; i < sizeof cmp_table / sizeof cmp_table[0]; i++) {
            if (tok_is(t, cmp_table[i].n)) {
                if (in->cmp)
                    p_fail(p, t, "second comparison operator");
                in->cmp = (uint8_t)cmp_table[i].c;
                return;
            }
        }
        if (op != PTX_OP_SLCT) {
            if (tok_is(t, ".and")) { in->boolop = PTX_BOOL_AND; return; }
            if (tok_is(t, ".or")) { in->boolop = PTX_BOOL_OR; return; }
            if (tok_is(t, ".xor")) { in->boolop = PTX_BOOL_XOR; return; }
        }
        break;
    case PTX_OP_ATOM: case PTX_OP_RED: case PTX_OP_REDUX:
        for (size_t i = 0; i < sizeof atom_table / sizeof atom_table[0]; i++)
            if (tok_is(t, atom_table[i].n))
                return set_sub(p, c, t, atom_table[i].s);
        if (tok_is(t, ".noftz"))
            return;
        break;
    case PTX_OP_SHFL:
        if (tok_is(t, ".up")) return set_sub(p, c, t, PTX_SUB_SHFL_UP);
        if (tok_is(t, ".down")) return set_sub(p, c, t, PTX_SUB_SHFL_DOWN);
        if (tok_is(t, ".bfly")) return set_sub(p, c, t, PTX_SUB_SHFL_BFLY);
        if (tok_is(t, ".idx")) return set_sub(p, c, t, PTX_SUB_SHFL_IDX);
        break;
    case PTX_OP_VOTE:
        if (tok_is(t, ".all")) return set_sub(p, c, t, PTX_SUB_VOTE_ALL);
        if (tok_is(t, ".any")) return set_sub(p, c, t, PTX_SUB_VOTE_ANY);
        if (tok_is(t, ".uni")) return set_sub(p, c, t, PTX_SUB_VOTE_UNI);
        if (tok_is(t, ".ballot")) return set_sub(p, c, t, PTX_SUB_VOTE_BALLOT);
        break;
    case PTX_OP_MATCH:
        if (tok_is(t, ".any")) return set_sub(p, c, t, PTX_SUB_MATCH_ANY);
        if (tok_is(t, ".all")) return set_sub(p, c, t, PTX_SUB_MATCH_ALL);
        break;
    case PTX_OP_BAR:
        if (tok_is(t, ".sync")) {
            in->flags |= PTX_F_SYNC;
            if (!c->is_barrier_kw)
                in->flags |= PTX_F_ALIGNED; /* bar.sync == barrier.sync.aligned */
            if (in->sub == PTX_SUB_BAR_WARP_SYNC)
                return;
            return set_sub(p, c, t, PTX_SUB_BAR_SYNC);
        }
        if (tok_is(t, ".warp") && !c->is_barrier_kw)
            return set_sub(p, c, t, PTX_SUB_BAR_WARP_SYNC);
        if (tok_is(t, ".arrive")) {
            if (!c->is_barrier_kw)
                in->flags |= PTX_F_ALIGNED;
            return set_sub(p, c, t, PTX_SUB_BAR_ARRIVE);
        }
        if (tok_is(t, ".red")) {
            if (!c->is_barrier_kw)
                in->flags |= PTX_F_ALIGNED;
            return set_sub(p, c, t, PTX_SUB_BAR_RED_POPC); /* refined below */
        }
        if (in->sub == PTX_SUB_BAR_RED_POPC || in->sub == PTX_SUB_BAR_RED_AND ||
            in->sub == PTX_SUB_BAR_RED_OR) {
            if (tok_is(t, ".popc")) { in->sub = PTX_SUB_BAR_RED_POPC; return; }
            if (tok_is(t, ".and")) { in->sub = PTX_SUB_BAR_RED_AND; return; }
            if (tok_is(t, ".or")) { in->sub = PTX_SUB_BAR_RED_OR; return; }
        }
        if (tok_is(t, ".aligned")) { in->flags |= PTX_F_ALIGNED; return; }
        if (tok_is(t, ".cta")) return;
        break;
    case PTX_OP_SHF:
        if (tok_is(t, ".l")) return set_sub(p, c, t, PTX_SUB_SHF_L);
        if (tok_is(t, ".r")) return set_sub(p, c, t, PTX_SUB_SHF_R);
        if (tok_is(t, ".clamp")) { in->flags &= ~(uint32_t)PTX_F_WRAP; return; }
        if (tok_is(t, ".wrap")) { in->flags |= PTX_F_WRAP; return; }
        break;
    case PTX_OP_BMSK:
        if (tok_is(t, ".clamp")) return set_sub(p, c, t, PTX_SUB_CLAMP);
        if (tok_is(t, ".wrap")) {
            in->flags |= PTX_F_WRAP;
            return set_sub(p, c, t, PTX_SUB_WRAP);
        }
        break;
    case PTX_OP_MIN: case PTX_OP_MAX:
        if (tok_is(t, ".relu")) { in->flags |= PTX_F_RELU; return; }
        if (tok_is(t, ".NaN")) { in->flags |= PTX_F_NAN; return; }
        break;
    case PTX_OP_TESTP:
        if (tok_is(t, ".finite")) return set_sub(p, c, t, PTX_SUB_TESTP_FINITE);
        if (tok_is(t, ".infinite")) return set_sub(p, c, t, PTX_SUB_TESTP_INFINITE);
        if (tok_is(t, ".number")) return set_sub(p, c, t, PTX_SUB_TESTP_NUMBER);
        if (tok_is(t, ".notanumber")) return set_sub(p, c, t, PTX_SUB_TESTP_NOTANUMBER);
        if (tok_is(t, ".normal")) return set_sub(p, c, t, PTX_SUB_TESTP_NORMAL);
        if (tok_is(t, ".subnormal")) return set_sub(p, c, t, PTX_SUB_TESTP_SUBNORMAL);
        break;
    case PTX_OP_CVTA:
        if (tok_is(t, ".to")) return set_sub(p, c, t, PTX_SUB_CVTA_TO);
        break;
    case PTX_OP_PRMT:
        if (tok_is(t, ".f4e")) return set_sub(p, c, t, PTX_SUB_PRMT_F4E);
        if (tok_is(t, ".b4e")) return set_sub(p, c, t, PTX_SUB_PRMT_B4E);
        if (tok_is(t, ".rc8")) return set_sub(p, c, t, PTX_SUB_PRMT_RC8);
        if (tok_is(t, ".ecl")) return set_sub(p, c, t, PTX_SUB_PRMT_ECL);
        if (tok_is(t, ".ecr")) return set_sub(p, c, t, PTX_SUB_PRMT_ECR);
        if (tok_is(t, ".rc16")) return set_sub(p, c, t, PTX_SUB_PRMT_RC16);
        break;
    case PTX_OP_MEMBAR:
        if (tok_is(t, ".gl") || tok_is(t, ".cta") || tok_is(t, ".sys") || tok_is(t, ".proxy"))
            return;
        break;
    case PTX_OP_FENCE:
        if (mod_in(t, order_names) || mod_in(t, scope_names) || tok_is(t, ".proxy") ||
            tok_is(t, ".alias") || tok_is(t, ".async") || tok_is(t, ".acquire"))
            return;
        break;
    default:
        break;
    }
    /* generic modifiers */
    if (mod_in(t, rnd_names)) {
        if (in->rnd)
            p_fail(p, t, "second rounding modifier");
        for (int i = 0; rnd_names[i]; i++)
            if (tok_is(t, rnd_names[i]))
                in->rnd = (uint8_t)(PTX_RND_RN + i);
        return;
    }
    if (tok_is(t, ".v2") || tok_is(t, ".v4")) {
        in->vec = (uint8_t)(t->s[2] - '0');
        return;
    }
    if (tok_is(t, ".v8"))
        p_unsup(p, t, "vector width");
    if (op == PTX_OP_LD || op == PTX_OP_LDU || op == PTX_OP_ST || op == PTX_OP_ATOM ||
        op == PTX_OP_RED || op == PTX_OP_CVTA || op == PTX_OP_PREFETCH) {
        uint8_t sp = PTX_SPACE_NONE;
        if (tok_is(t, ".global")) sp = PTX_SPACE_GLOBAL;
        else if (tok_is(t, ".shared") || tok_is(t, ".shared::cta")) sp = PTX_SPACE_SHARED;
        else if (tok_is(t, ".local")) sp = PTX_SPACE_LOCAL;
        else if (tok_is(t, ".const")) sp = PTX_SPACE_CONST;
        else if (tok_is(t, ".param") || tok_is(t, ".param::func") || tok_is(t, ".param::entry"))
            sp = PTX_SPACE_PARAM;
        else if (tok_is(t, ".shared::cluster"))
            p_unsup(p, t, "state space");
        /* the constant bank is read-only to kernels (PTX ISA: st, atom and red
         * take .global, .shared, .local or .param, never .const) */
        if (sp == PTX_SPACE_CONST &&
            (op == PTX_OP_ST || op == PTX_OP_ATOM || op == PTX_OP_RED))
            p_fail(p, t, "read-only state space for a store or atomic:");
        if (sp != PTX_SPACE_NONE) {
            if (in->space != PTX_SPACE_NONE)
                p_fail(p, t, "second state space");
            in->space = sp;
            return;
        }
        if (mod_in(t, cache_names) ||
            (t->len > 5 && (memcmp(t->s, ".L1::", 5) == 0 || memcmp(t->s, ".L2::", 5) == 0))) {
            in->flags |= PTX_F_CACHE_HINT;
            return;
        }
        if (tok_is(t, ".nc")) { in->flags |= PTX_F_NC; return; }
        if (tok_is(t, ".volatile")) { in->flags |= PTX_F_VOLATILE; return; }
        if (mod_in(t, order_names)) { in->flags |= PTX_F_RELAXED_SCOPE; return; }
        if (mod_in(t, scope_names) || tok_is(t, ".weak"))
            return;
    }
    if (tok_is(t, ".ftz")) { in->flags |= PTX_F_FTZ; return; }
    if (tok_is(t, ".sat")) { in->flags |= PTX_F_SAT; return; }
    if (tok_is(t, ".approx")) { in->flags |= PTX_F_APPROX; return; }
    if (tok_is(t, ".full")) { in->flags |= PTX_F_FULL; return; }
    if (tok_is(t, ".cc")) { in->flags |= PTX_F_CC; return; }
    if (tok_is(t, ".sync")) { in->flags |= PTX_F_SYNC; return; }
    if (tok_is(t, ".aligned")) { in->flags |= PTX_F_ALIGNED; return; }
    if (tok_is(t, ".uni") && (op == PTX_OP_BRA || op == PTX_OP_CALL || op == PTX_OP_RET)) {
        in->flags |= PTX_F_UNI;
        return;
    }
    if (tok_is(t, ".shiftamt")) { in->flags |= PTX_F_SHIFTAMT; return; }
    /* valid PTX that warpsim does not model vs. plain garbage */
    static const char *const known_unsupported[] = {
        ".satfinite", ".xorsign", ".abs", ".relu", ".oob", ".unified", ".tf32", ".e4m3x2",
        ".e5m2x2", ".e2m1x2", ".e2m3x2", ".e3m2x2", ".ue8m0x2", ".s2f6x2", ".async", ".bulk",
        ".mmio", ".b128", ".v8", ".noftz", ".NaN", ".sync", ".clamp", ".wrap", ".lo", ".hi",
        ".wide", ".and", ".or", ".xor", ".min", ".max", ".add", ".inc", ".dec", ".cas",
        ".exch", ".global", ".shared", ".local", ".const", ".param", ".cta", ".gpu", ".sys",
        ".cluster", ".uni", ".to", ".acquire", ".release", ".relaxed", ".acq_rel", ".sc",
        ".weak", ".volatile", ".nc", ".ca", ".cg", ".cs", ".lu", ".cv", ".wb", ".wt", ".L1",
        ".L2", ".all", ".any", ".ballot", ".up", ".down", ".bfly", ".idx", ".red", ".popc",
        ".arrive", ".aligned", ".l", ".r", NULL};
    if (mod_in(t, known_unsupported) || memchr(t->s, ':', t->len))
        p_unsup(p, t, "unsupported modifier");
    p_fail(p, t, "unknown modifier");
}

static enum ptx_type widen(enum ptx_type t)
{
    switch (t) {
    case PTX_T_U16: return PTX_T_U32;
    case PTX_T_S16: return PTX_T_S32;
    case PTX_T_U32: return PTX_T_U64;
    case PTX_T_S32: return PTX_T_S64;
    case PTX_T_B16: return PTX_T_B32;
    case PTX_T_B32: return PTX_T_B64;
    default: return t;
    }
}

/* Sets inst type/type2 from the type modifiers (see ir.h for the meaning).
 * Choices where ir.h leaves room:
 *   setp:        type = PRED, type2 = compared type
 *   set/slct/cvt: type = first (destination) type, type2 = second
 *   mul/mad(24).wide: type = widened destination, type2 = source type
 *   dp4a/dp2a:   type = a's type, type2 = b's type
 *   testp, cvta: type = type2 = the given type
 *   bfind:       type = the source type (the result is always u32)
 *   vote.ballot: b32; vote.all/any/uni: pred; bar.red: u32 or pred
 * Integer literals are never converted: "add.f32 %f1, %f2, 1" keeps the
 * integer 1 (nvcc always writes float operands as 0f/0d literals). */
void parser_finish_types(struct parser *p, struct inst_ctx *c)
{
    struct ptx_inst *in = &c->in;
    unsigned want = 1;
    switch (in->op) {
    case PTX_OP_CVT: case PTX_OP_SET: case PTX_OP_SLCT: case PTX_OP_DP4A: case PTX_OP_DP2A:
    case PTX_OP_TEX: case PTX_OP_TLD4:
        want = 2;
        break;
    case PTX_OP_BRA: case PTX_OP_CALL: case PTX_OP_RET: case PTX_OP_EXIT: case PTX_OP_TRAP:
    case PTX_OP_MEMBAR: case PTX_OP_FENCE: case PTX_OP_PREFETCH: case PTX_OP_PMEVENT:
        want = 0;
        break;
    case PTX_OP_BAR:
        want = (in->sub == PTX_SUB_BAR_RED_POPC || in->sub == PTX_SUB_BAR_RED_AND ||
                in->sub == PTX_SUB_BAR_RED_OR) ? 1 : 0;
        break;
    case PTX_OP_MOV: case PTX_OP_CVTA:
        want = 1;
        break;
    default:
        break;
    }
    if (c->ntypes != want) {
        if (c->ntypes < want)
            p_fail(p, c->optok, "missing type for instruction");
        p_fail(p, c->optok, "too many types for instruction");
    }
    if (want == 0)
        return;
    in->type = c->types[0];
    if (want == 2)
        in->type2 = c->types[1];
    switch (in->op) {
    case PTX_OP_SETP:
        in->type = PTX_T_PRED;
        in->type2 = c->types[0];
        break;
    case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_MUL24: case PTX_OP_MAD24:
        if (in->sub == PTX_SUB_WIDE) {
            in->type2 = c->types[0];
            in->type = (uint8_t)widen((enum ptx_type)c->types[0]);
        }
        break;
    case PTX_OP_CVTA: case PTX_OP_TESTP:
        in->type2 = c->types[0];
        break;
    default:
        break;
    }
}

/* The type a floating-point literal in source operand `si` is converted to. */
enum ptx_type parser_literal_type(const struct ptx_inst *in, unsigned si)
{
    switch (in->op) {
    case PTX_OP_CVT: case PTX_OP_SETP: case PTX_OP_SET:
        return (enum ptx_type)in->type2;
    case PTX_OP_SLCT:
        return si == 2 ? (enum ptx_type)in->type2 : (enum ptx_type)in->type;
    default:
        return (enum ptx_type)in->type;
    }
}

