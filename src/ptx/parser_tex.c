/* parser_tex.c: the texture and surface instructions of PTX's unified
 * texture mode (the object is a 64-bit register, as nvcc emits for texture
 * and surface objects): tex, tld4, txq, suld.b and sust.b.  Their modifiers
 * (geometry, gather component, query, out-of-range mode) and operands
 * ("[%rd1, {%f1, %f2}]") have their own grammar; ir.h gives the operand
 * order.  What PTX allows and warpsim does not model (mipmaps, cube maps,
 * multisample, sparse results, depth compare, formatted surface access,
 * legacy texture references) is refused with a message naming it. */
#include "ptx/parser_internal.h"

#include <string.h>

int parser_is_tex_op(enum ptx_op op)
{
    return op == PTX_OP_TEX || op == PTX_OP_TLD4 || op == PTX_OP_TXQ || op == PTX_OP_SULD ||
           op == PTX_OP_SUST;
}

static int set_geom(struct parser *p, struct inst_ctx *c, const struct ptx_tok *t, int g)
{
    if (c->in.sub != PTX_SUB_NONE)
        p_fail(p, t, "second geometry");
    c->in.sub = (uint8_t)g;
    return 1;
}

int parser_tex_mod(struct parser *p, struct inst_ctx *c, const struct ptx_tok *t)
{
    struct ptx_inst *in = &c->in;
    enum ptx_op op = (enum ptx_op)in->op;
    if (op != PTX_OP_TXQ) {
        if (tok_is(t, ".1d")) return set_geom(p, c, t, PTX_SUB_GEOM_1D);
        if (tok_is(t, ".2d")) return set_geom(p, c, t, PTX_SUB_GEOM_2D);
        if (tok_is(t, ".3d")) return set_geom(p, c, t, PTX_SUB_GEOM_3D);
        if (tok_is(t, ".a1d")) return set_geom(p, c, t, PTX_SUB_GEOM_A1D);
        if (tok_is(t, ".a2d")) return set_geom(p, c, t, PTX_SUB_GEOM_A2D);
        if (tok_is(t, ".cube") || tok_is(t, ".acube") || tok_is(t, ".2dms") ||
            tok_is(t, ".a2dms"))
            p_unsup(p, t, "texture geometry");
    }
    switch (op) {
    case PTX_OP_TEX:
        if (tok_is(t, ".base"))
            return 1; /* mip level 0: the only level warpsim has */
        if (tok_is(t, ".level") || tok_is(t, ".grad"))
            p_unsup(p, t, "mipmapped texture fetch");
        break;
    case PTX_OP_TLD4: {
        static const char *const comps[] = {".r", ".g", ".b", ".a"};
        for (unsigned i = 0; i < 4; i++)
            if (tok_is(t, comps[i])) {
                in->aux = (uint8_t)i;
                return 1;
            }
        break;
    }
    case PTX_OP_TXQ: {
        static const struct {
            const char *n;
            enum ptx_txq q;
        } qs[] = {{".width", PTX_TXQ_WIDTH}, {".height", PTX_TXQ_HEIGHT},
                  {".depth", PTX_TXQ_DEPTH}, {".array_size", PTX_TXQ_ARRAY_SIZE},
                  {".normalized_coords", PTX_TXQ_NORMALIZED_COORDS},
                  {".filter_mode", PTX_TXQ_FILTER_MODE}};
        for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++)
            if (tok_is(t, qs[i].n)) {
                in->aux = (uint8_t)qs[i].q;
                in->sub = PTX_SUB_GEOM_1D; /* marks "a query was given" */
                return 1;
            }
        if (tok_is(t, ".level") || tok_is(t, ".channel_data_type") ||
            tok_is(t, ".channel_order") || tok_is(t, ".num_mipmap_levels") ||
            tok_is(t, ".num_samples") || tok_is(t, ".force_unnormalized_coords") ||
            (t->len > 10 && memcmp(t->s, ".addr_mode", 10) == 0))
            p_unsup(p, t, "texture query");
        break;
    }
    case PTX_OP_SULD: case PTX_OP_SUST:
        if (tok_is(t, ".b"))
            return 1;
        if (tok_is(t, ".p"))
            p_unsup(p, t, "formatted surface access");
        if (tok_is(t, ".trap")) { in->aux = PTX_SURF_TRAP; return 1; }
        if (tok_is(t, ".clamp")) { in->aux = PTX_SURF_CLAMP; return 1; }
        if (tok_is(t, ".zero")) { in->aux = PTX_SURF_ZERO; return 1; }
        if (tok_is(t, ".ca") || tok_is(t, ".cg") || tok_is(t, ".cs") || tok_is(t, ".cv") ||
            tok_is(t, ".wb") || tok_is(t, ".wt"))
            return 1;
        break;
    default:
        break;
    }
    return 0;
}

/* Number of coordinate elements PTX requires for a geometry. */
static unsigned coord_count(uint8_t geom)
{
    switch (geom) {
    case PTX_SUB_GEOM_1D: return 1;
    case PTX_SUB_GEOM_2D: case PTX_SUB_GEOM_A1D: return 2;
    default: return 4; /* 3d, a2d: padded to four */
    }
}

/* The object operand: a register (unified mode).  A name is a legacy
 * texture reference or a parameter used directly: refused. */
static void parse_handle(struct parser *p, struct inst_ctx *c)
{
    const struct ptx_tok *t = p_cur(p);
    if (t->kind != PTX_TOK_IDENT)
        p_fail(p, t, "expected a texture or surface object register, found");
    const struct sym_ent *s = parser_sym_lookup(&p->syms, t->s, t->len);
    if (s && s->kind == SYM_VAR)
        p_unsup(p, t, "texture or surface reference by name (legacy texture references and "
                      "independent mode are not supported; the object must be a register):");
    uint32_t r = parser_lookup_reg(p, t);
    uint8_t ty = p->m->funcs[c->in.func].regs[r].type;
    if (ptx_type_size((enum ptx_type)ty) != 8)
        p_fail(p, t, "texture or surface object must be a 64-bit register:");
    struct ptx_operand o;
    memset(&o, 0, sizeof o);
    o.kind = PTX_OPND_REG;
    o.reg = r;
    o.sym = PTX_NO_INDEX;
    parser_push_opnd(p, &o);
    p_next(p);
}

/* "{...}" (or one register, taken as a vector of one) with `want` elements. */
static void parse_vec(struct parser *p, unsigned want, const char *what)
{
    struct ptx_operand o;
    memset(&o, 0, sizeof o);
    const struct ptx_tok *at = p_cur(p);
    if (tok_punct(at, '{')) {
        parser_vector(p, &o, 1);
    } else {
        o.kind = PTX_OPND_VEC;
        o.vec_n = 1;
        o.vec[0] = parser_lookup_reg(p, at);
        p_next(p);
    }
    o.reg = PTX_NO_INDEX;
    o.sym = PTX_NO_INDEX;
    if (o.vec_n != want)
        p_fail(p, at, "wrong number of %s elements at", what);
    parser_push_opnd(p, &o);
}

/* "[object, {coordinates}]" or "[object]" (txq). */
static void parse_access(struct parser *p, struct inst_ctx *c, int coords)
{
    parser_expect(p, '[');
    parse_handle(p, c);
    if (coords) {
        parser_expect(p, ',');
        if (!tok_punct(p_cur(p), '{'))
            p_unsup(p, p_cur(p), "separate sampler operand (independent texture mode) at");
        parse_vec(p, coord_count(c->in.sub), "coordinate");
    }
    parser_expect(p, ']');
}

void parser_tex_operands(struct parser *p, struct inst_ctx *c)
{
    struct ptx_inst *in = &c->in;
    enum ptx_op op = (enum ptx_op)in->op;
    const struct ptx_tok *ot = c->optok;
    in->opnd = p->m->nopnds;
    if (in->sub == PTX_SUB_NONE)
        p_fail(p, ot, op == PTX_OP_TXQ ? "missing query for" : "missing geometry for");
    if (op == PTX_OP_TLD4 && in->sub != PTX_SUB_GEOM_2D && in->sub != PTX_SUB_GEOM_A2D)
        p_unsup(p, ot, "tld4 geometry other than 2d/a2d in");
    if (op == PTX_OP_TEX || op == PTX_OP_TLD4) {
        if (in->vec != 4)
            p_unsup(p, ot, "texture fetch without .v4 in");
        if (in->type != PTX_T_F32 && in->type != PTX_T_S32 && in->type != PTX_T_U32)
            p_unsup(p, ot, "texture result type (f32, s32, u32 are supported) in");
        if (in->type2 != PTX_T_F32 && (in->type2 != PTX_T_S32 || op == PTX_OP_TLD4))
            p_unsup(p, ot, "texture coordinate type in");
        parse_vec(p, 4, "result");
        if (tok_punct(p_cur(p), '|'))
            p_unsup(p, p_cur(p), "sparse texture fetch (predicate result) at");
        parser_expect(p, ',');
        parse_access(p, c, 1);
        if (tok_punct(p_cur(p), ','))
            p_unsup(p, p_cur(p), "texture fetch with an offset or depth compare at");
        in->ndst = 1;
        in->nsrc = 2;
    } else if (op == PTX_OP_TXQ) {
        if (in->type != PTX_T_B32)
            p_fail(p, ot, "txq needs type .b32 in");
        const struct ptx_tok *at = p_cur(p);
        struct ptx_operand o;
        memset(&o, 0, sizeof o);
        o.kind = PTX_OPND_REG;
        o.reg = parser_lookup_reg(p, at);
        o.sym = PTX_NO_INDEX;
        parser_push_opnd(p, &o);
        p_next(p);
        parser_expect(p, ',');
        parse_access(p, c, 0);
        in->ndst = 1;
        in->nsrc = 1;
    } else {
        if (in->type != PTX_T_B8 && in->type != PTX_T_B16 && in->type != PTX_T_B32 &&
            in->type != PTX_T_B64)
            p_fail(p, ot, "surface access needs a .b8/.b16/.b32/.b64 type in");
        if (op == PTX_OP_SULD) {
            parse_vec(p, in->vec, "result");
            parser_expect(p, ',');
            parse_access(p, c, 1);
            in->ndst = 1;
            in->nsrc = 2;
        } else {
            parse_access(p, c, 1);
            parser_expect(p, ',');
            parse_vec(p, in->vec, "value");
            in->ndst = 0;
            in->nsrc = 3;
        }
        in->space = PTX_SPACE_GLOBAL;
    }
    if (op == PTX_OP_TEX || op == PTX_OP_TLD4)
        in->space = PTX_SPACE_TEX;
    parser_expect(p, ';');
}
