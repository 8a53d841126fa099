/* alu_cvt.c: conversions (cvt between all integer and float types with rounding,
 * saturation and .ftz) and comparison/selection (setp, set, selp, slct) of the ALU. */
#include "func/alu.h"

#include <fenv.h>
#include <math.h>
#include <string.h>

#define LANES for (unsigned l = 0; l < 32; l++) if (mask >> l & 1)
#define A(l) src[0][l]
#define B(l) src[1][l]
#define C(l) src[2][l]

typedef __int128 alu_s128;

static inline uint64_t width_mask(unsigned w)
{
    return w >= 64 ? ~0ull : (1ull << w) - 1;
}

static inline int64_t sext(uint64_t v, unsigned w)
{
    unsigned s = 64 - w;
    return (int64_t)(v << s) >> s;
}

/* Kind of a cvt/setp operand type. */
enum num_kind { NK_INT, NK_HALF, NK_F32, NK_F64, NK_BAD };

static enum num_kind num_kind(enum ptx_type t)
{
    switch (t) {
    case PTX_T_B8: case PTX_T_B16: case PTX_T_B32: case PTX_T_B64:
    case PTX_T_U8: case PTX_T_U16: case PTX_T_U32: case PTX_T_U64:
    case PTX_T_S8: case PTX_T_S16: case PTX_T_S32: case PTX_T_S64:
        return NK_INT;
    case PTX_T_F16: case PTX_T_BF16: return NK_HALF;
    case PTX_T_F32: return NK_F32;
    case PTX_T_F64: return NK_F64;
    default: return NK_BAD;
    }
}

static enum alu_half_fmt half_fmt(enum ptx_type t)
{
    return (t == PTX_T_BF16 || t == PTX_T_BF16X2) ? ALU_HALF_BF16 : ALU_HALF_F16;
}

/* Exact value of a float-typed register as a double (f32 subnormals flushed with ftz). */
static inline double float_value(uint64_t v, enum ptx_type t, int ftz)
{
    double x;
    if (t == PTX_T_F64) {
        x = f64_from(v);
    } else if (t == PTX_T_F32) {
        float f = f32_from(v);
        x = f;
    } else {
        uint16_t h = (uint16_t)v;
        x = alu_half_to_double(h, half_fmt(t));
    }
    /* subnormal in its own format: below 2^-126 for f32/bf16, 2^-14 for f16 */
    if (ftz && t != PTX_T_F64 && x != 0.0 && isfinite(x)) {
        double min_normal = t == PTX_T_F16 ? 0x1p-14 : 0x1p-126;
        if (fabs(x) < min_normal)
            x = copysign(0.0, x);
    }
    return x;
}

/* Round x to an integral value with a .rni/.rzi/.rmi/.rpi modifier. */
static inline double round_integral(double x, int rnd)
{
    switch (rnd) {
    case PTX_RND_RNI: return nearbyint(x); /* host mode is round-to-nearest-even */
    case PTX_RND_RMI: return floor(x);
    case PTX_RND_RPI: return ceil(x);
    default: return trunc(x);
    }
}

/* Double holding the integer v rounded to odd at 53 bits, so that one more rounding to a
 * narrower format is correct. */
static double int_to_double_odd(alu_s128 v)
{
    int neg = v < 0;
    unsigned __int128 m = neg ? (unsigned __int128)(-v) : (unsigned __int128)v;
    int k = 0;
    while ((m >> k) >= ((unsigned __int128)1 << 53))
        k++;
    unsigned __int128 kept = m >> k;
    if (k && (m & (((unsigned __int128)1 << k) - 1)))
        kept |= 1;
    double d = ldexp((double)(uint64_t)kept, k);
    return neg ? -d : d;
}

static int cvt_round_mode(int rnd)
{
    switch (rnd) {
    case PTX_RND_RZ: return FE_TOWARDZERO;
    case PTX_RND_RM: return FE_DOWNWARD;
    case PTX_RND_RP: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

/* Final float result in format dt: .ftz (f32, halves), .sat, canonical NaN. */
static inline uint64_t float_store_f32(float r, int ftz, int sat, int relu)
{
    if (ftz && fpclassify(r) == FP_SUBNORMAL)
        r = copysignf(0.0f, r);
    if (sat) {
        if (isnan(r) || r <= 0.0f)
            r = 0.0f;
        else if (r > 1.0f)
            r = 1.0f;
    }
    if (isnan(r))
        return 0x7fffffffu;
    if (relu && signbit(r))
        r = 0.0f;
    return f32_bits(r);
}

static inline uint64_t float_store_f64(double r, int sat, int relu)
{
    if (sat) {
        if (isnan(r) || r <= 0.0)
            r = 0.0;
        else if (r > 1.0)
            r = 1.0;
    }
    if (isnan(r))
        return 0x7fffffffffffffffull;
    if (relu && signbit(r))
        r = 0.0;
    return f64_bits(r);
}

static inline uint64_t float_store_half(double x, enum alu_half_fmt fmt, int rnd, int ftz,
                                        int sat, int relu)
{
    if (sat) {
        if (isnan(x) || x <= 0.0)
            x = 0.0;
        else if (x > 1.0)
            x = 1.0;
    }
    if (relu && !isnan(x) && signbit(x))
        x = 0.0;
    uint16_t h = alu_half_from_double(x, fmt, rnd);
    if (ftz && (h & 0x7fffu) != 0) {
        unsigned mant = fmt == ALU_HALF_F16 ? 10 : 7;
        if (((h & 0x7fffu) >> mant) == 0)
            h &= 0x8000u;
    }
    return h;
}

int alu_exec_cvt(const struct ptx_inst *in, uint32_t mask, const uint64_t src[][32],
                 uint64_t dst[][32], struct err *e)
{
    enum ptx_type dt = (enum ptx_type)in->type;
    enum ptx_type st = in->type2 != PTX_T_NONE ? (enum ptx_type)in->type2 : dt;
    enum num_kind dk = num_kind(dt), sk = num_kind(st);
    unsigned dw = alu_type_bits(dt), sw = alu_type_bits(st);
    int ds = alu_type_signed(dt), ss = alu_type_signed(st);
    int ftz = (in->flags & PTX_F_FTZ) != 0, sat = (in->flags & PTX_F_SAT) != 0;
    int relu = (in->flags & PTX_F_RELU) != 0;
    int rnd = in->rnd;
    int int_rnd = rnd >= PTX_RND_RNI && rnd <= PTX_RND_RPI;
    uint64_t *R = dst[0];

    if ((dt == PTX_T_F16X2 || dt == PTX_T_BF16X2) && sk == NK_F32 && !int_rnd) {
        /* cvt.rn.f16x2.f32 d, a, b: a goes to the upper half, b to the lower half */
        enum alu_half_fmt fmt = half_fmt(dt);
        LANES R[l] = float_store_half(float_value(A(l), st, ftz), fmt, rnd, ftz, sat, relu) << 16 |
                     float_store_half(float_value(B(l), st, ftz), fmt, rnd, ftz, sat, relu);
        return WS_OK;
    }
    if (dk == NK_BAD || sk == NK_BAD || rnd == PTX_RND_RNA)
        return alu_unsupported(in, e);

    if (dk == NK_INT && sk == NK_INT) {
        if (rnd != PTX_RND_NONE)
            return alu_unsupported(in, e);
        uint64_t dm = width_mask(dw);
        if (!sat) {
            if (ss) {
                LANES R[l] = (uint64_t)sext(A(l), sw) & dm;
            } else {
                LANES R[l] = A(l) & width_mask(sw) & dm;
            }
            return WS_OK;
        }
        alu_s128 hi = ds ? ((alu_s128)1 << (dw - 1)) - 1 : ((alu_s128)1 << dw) - 1;
        alu_s128 lo = ds ? -((alu_s128)1 << (dw - 1)) : 0;
        LANES {
            alu_s128 v = ss ? (alu_s128)sext(A(l), sw) : (alu_s128)(A(l) & width_mask(sw));
            v = v > hi ? hi : v < lo ? lo : v;
            R[l] = (uint64_t)v & dm;
        }
        return WS_OK;
    }

    if (dk == NK_INT) { /* float -> integer: round to integral, saturate, NaN -> 0 */
        if (rnd != PTX_RND_NONE && !int_rnd)
            return alu_unsupported(in, e);
        uint64_t dm = width_mask(dw);
        double hi = ldexp(1.0, ds ? (int)dw - 1 : (int)dw); /* first value out of range */
        double lo = ds ? -hi : 0.0;
        LANES {
            double x = float_value(A(l), st, ftz);
            uint64_t r;
            if (isnan(x)) {
                r = 0;
            } else {
                x = round_integral(x, rnd);
                if (x >= hi)
                    r = ds ? (uint64_t)(((alu_s128)1 << (dw - 1)) - 1) : dm;
                else if (x <= lo)
                    r = ds ? (uint64_t)-((alu_s128)1 << (dw - 1)) : 0;
                else
                    r = ds ? (uint64_t)(int64_t)x : (uint64_t)x;
            }
            R[l] = r & dm;
        }
        return WS_OK;
    }

    if (sk == NK_INT) { /* integer -> float */
        if (int_rnd)
            return alu_unsupported(in, e);
        if (dk == NK_HALF) {
            enum alu_half_fmt fmt = half_fmt(dt);
            LANES {
                alu_s128 v = ss ? (alu_s128)sext(A(l), sw) : (alu_s128)(A(l) & width_mask(sw));
                R[l] = float_store_half(int_to_double_odd(v), fmt, rnd, ftz, sat, relu);
            }
            return WS_OK;
        }
        int old = -1, mode = cvt_round_mode(rnd);
        if (mode != FE_TONEAREST) {
            old = fegetround();
            fesetround(mode);
        }
        if (dk == NK_F32) {
            if (ss) {
                LANES R[l] = float_store_f32((float)sext(A(l), sw), ftz, sat, 0);
            } else {
                LANES R[l] = float_store_f32((float)(A(l) & width_mask(sw)), ftz, sat, 0);
            }
        } else {
            if (ss) {
                LANES R[l] = float_store_f64((double)sext(A(l), sw), sat, 0);
            } else {
                LANES R[l] = float_store_f64((double)(A(l) & width_mask(sw)), sat, 0);
            }
        }
        if (old >= 0)
            fesetround(old);
        return WS_OK;
    }

    /* float -> float */
    if (int_rnd) {
        LANES {
            double x = round_integral(float_value(A(l), st, ftz), rnd);
            if (dk == NK_F64)
                R[l] = float_store_f64(x, sat, relu);
            else if (dk == NK_F32)
                R[l] = float_store_f32((float)x, ftz, sat, relu);
            else
                R[l] = float_store_half(x, half_fmt(dt), PTX_RND_RN, ftz, sat, relu);
        }
        return WS_OK;
    }
    if (dk == NK_HALF) {
        enum alu_half_fmt fmt = half_fmt(dt);
        LANES R[l] = float_store_half(float_value(A(l), st, ftz), fmt, rnd, ftz, sat, relu);
        return WS_OK;
    }
    if (dk == NK_F64) {
        LANES R[l] = float_store_f64(float_value(A(l), st, ftz), sat, relu);
        return WS_OK;
    }
    /* dk == NK_F32: only a f64 source needs rounding */
    int old = -1, mode = cvt_round_mode(rnd);
    if (sk == NK_F64 && mode != FE_TONEAREST) {
        old = fegetround();
        fesetround(mode);
    }
    LANES R[l] = float_store_f32((float)float_value(A(l), st, ftz), ftz, sat, relu);
    if (old >= 0)
        fesetround(old);
    return WS_OK;
}

/* ---- setp / set / selp / slct ----------------------------------------------------- */

/* Each comparison is a 4-bit truth table over the relation of a and b:
 * bit 0 less, bit 1 equal, bit 2 greater, bit 3 unordered (a NaN operand). */
static unsigned cmp_table(enum ptx_cmp c)
{
    switch (c) {
    case PTX_CMP_EQ: return 2;
    case PTX_CMP_NE: return 5;
    case PTX_CMP_LT: case PTX_CMP_LO: return 1;
    case PTX_CMP_LE: case PTX_CMP_LS: return 3;
    case PTX_CMP_GT: case PTX_CMP_HI: return 4;
    case PTX_CMP_GE: case PTX_CMP_HS: return 6;
    case PTX_CMP_EQU: return 10;
    case PTX_CMP_NEU: return 13;
    case PTX_CMP_LTU: return 9;
    case PTX_CMP_LEU: return 11;
    case PTX_CMP_GTU: return 12;
    case PTX_CMP_GEU: return 14;
    case PTX_CMP_NUM: return 7;
    case PTX_CMP_NAN: return 8;
    default: return 0;
    }
}

static inline unsigned rel_float(double a, double b)
{
    if (isnan(a) || isnan(b))
        return 3;
    return a < b ? 0 : a == b ? 1 : 2;
}

static inline uint64_t combine(uint64_t r, uint64_t c, enum ptx_boolop op)
{
    switch (op) {
    case PTX_BOOL_AND: return r & c;
    case PTX_BOOL_OR: return r | c;
    case PTX_BOOL_XOR: return r ^ c;
    default: return r;
    }
}

/* Comparison results (0/1) of every active lane into res[] (res[l + 32] for the upper
 * half of a x2 type). */
static int compare_lanes(const struct ptx_inst *in, enum ptx_type ct, uint32_t mask,
                         const uint64_t src[][32], uint8_t res[64], unsigned *nres)
{
    unsigned tbl = cmp_table((enum ptx_cmp)in->cmp);
    int ftz = (in->flags & PTX_F_FTZ) != 0;
    unsigned w = alu_type_bits(ct);
    if (tbl == 0)
        return -1;
    *nres = 1;
    switch (ct) {
    case PTX_T_F32: case PTX_T_F64: case PTX_T_F16: case PTX_T_BF16:
        LANES res[l] = tbl >> rel_float(float_value(A(l), ct, ftz),
                                        float_value(B(l), ct, ftz)) & 1;
        return 0;
    case PTX_T_F16X2: case PTX_T_BF16X2: {
        enum ptx_type ht = ct == PTX_T_F16X2 ? PTX_T_F16 : PTX_T_BF16;
        *nres = 2;
        LANES {
            for (unsigned h = 0; h < 2; h++)
                res[l + 32 * h] = tbl >> rel_float(float_value(A(l) >> (16 * h), ht, ftz),
                                                   float_value(B(l) >> (16 * h), ht, ftz)) & 1;
        }
        return 0;
    }
    default:
        break;
    }
    if (w == 0 || w > 64 || ct == PTX_T_PRED) {
        if (ct != PTX_T_PRED)
            return -1;
    }
    enum ptx_cmp c = (enum ptx_cmp)in->cmp;
    if (c >= PTX_CMP_EQU)
        return -1;
    int sgn = alu_type_signed(ct) && !(c >= PTX_CMP_LO && c <= PTX_CMP_HS);
    if (sgn) {
        LANES {
            int64_t a = sext(A(l), w), b = sext(B(l), w);
            res[l] = tbl >> (a < b ? 0 : a == b ? 1 : 2) & 1;
        }
    } else {
        uint64_t m = width_mask(w);
        LANES {
            uint64_t a = A(l) & m, b = B(l) & m;
            res[l] = tbl >> (a < b ? 0 : a == b ? 1 : 2) & 1;
        }
    }
    return 0;
}

int alu_exec_cmp(const struct ptx_inst *in, uint32_t mask, const uint64_t src[][32],
                 uint64_t dst[][32], struct err *e)
{
    enum ptx_op op = (enum ptx_op)in->op;
    enum ptx_type t = (enum ptx_type)in->type;
    uint64_t *R = dst[0];

    if (op == PTX_OP_SELP) {
        uint64_t m = width_mask(alu_type_bits(t));
        if (alu_type_bits(t) == 0 || alu_type_bits(t) > 64)
            return alu_unsupported(in, e);
        LANES R[l] = ((C(l) & 1) ? A(l) : B(l)) & m;
        return WS_OK;
    }
    if (op == PTX_OP_SLCT) {
        enum ptx_type ct = (enum ptx_type)in->type2;
        unsigned w = alu_type_bits(t);
        uint64_t m = width_mask(w);
        int ftz = (in->flags & PTX_F_FTZ) != 0;
        if (w == 0 || w > 64)
            return alu_unsupported(in, e);
        if (ct == PTX_T_F32) {
            LANES R[l] = (float_value(C(l), PTX_T_F32, ftz) >= 0.0 ? A(l) : B(l)) & m;
        } else if (ct == PTX_T_S32) {
            LANES R[l] = (sext(C(l), 32) >= 0 ? A(l) : B(l)) & m;
        } else {
            return alu_unsupported(in, e);
        }
        return WS_OK;
    }

    /* setp / set */
    enum ptx_type ct = in->type2 != PTX_T_NONE ? (enum ptx_type)in->type2 : t;
    enum ptx_boolop bop = (enum ptx_boolop)in->boolop;
    uint8_t res[64];
    unsigned nres = 1;
    if (compare_lanes(in, ct, mask, src, res, &nres) < 0)
        return alu_unsupported(in, e);
    if (op == PTX_OP_SETP) {
        if (nres == 2) {
            if (bop != PTX_BOOL_NONE) {
                LANES {
                    R[l] = combine(res[l], C(l) & 1, bop);
                    dst[1][l] = combine(res[l + 32], C(l) & 1, bop);
                }
            } else {
                LANES {
                    R[l] = res[l];
                    dst[1][l] = res[l + 32];
                }
            }
            return WS_OK;
        }
        int has_c = bop != PTX_BOOL_NONE;
        LANES {
            uint64_t c = has_c ? (C(l) & 1) : 0;
            R[l] = combine(res[l], c, bop);
        }
        if (in->ndst >= 2)
            LANES dst[1][l] = combine(res[l] ^ 1u, has_c ? (C(l) & 1) : 0, bop);
        return WS_OK;
    }
    /* set: dst u32/s32 -> all ones / 0, f32 -> 1.0 / 0.0 */
    uint64_t one;
    if (t == PTX_T_U32 || t == PTX_T_S32 || t == PTX_T_B32)
        one = 0xffffffffu;
    else if (t == PTX_T_F32)
        one = 0x3f800000u;
    else
        return alu_unsupported(in, e);
    if (nres != 1)
        return alu_unsupported(in, e);
    int has_c = bop != PTX_BOOL_NONE;
    LANES R[l] = combine(res[l], has_c ? (C(l) & 1) : 0, bop) ? one : 0;
    return WS_OK;
}
