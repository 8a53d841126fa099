/* alu_float.c: floating-point instructions of the ALU — f32/f64 arithmetic with PTX
 * rounding modifiers, .ftz and .sat, the approximate/transcendental ops, min/max, testp,
 * copysign — and f16/f16x2/bf16/bf16x2 arithmetic with bit-exact software rounding. */
#include "func/alu.h"

#include <fenv.h>
#include <math.h>
#include <string.h>

#define LANES for (unsigned l = 0; l < 32; l++) if (mask >> l & 1)
#define A(l) src[0][l]
#define B(l) src[1][l]
#define C(l) src[2][l]

#define F32_QNAN 0x7fffffffu
#define F64_QNAN 0x7fffffffffffffffull
#define HALF_QNAN 0x7fffu

/* ---- rounding-mode scope -------------------------------------------------------- */

/* Host rounding mode for a PTX float rounding modifier (NONE and RN: nearest). */
static int host_round(int rnd)
{
    switch (rnd) {
    case PTX_RND_RZ: return FE_TOWARDZERO;
    case PTX_RND_RM: return FE_DOWNWARD;
    case PTX_RND_RP: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

/* Switch the host to the mode of rnd; returns what round_end needs.  Operands are
 * loaded from and results stored to memory inside the scope, so the compiler cannot move
 * the arithmetic across the fesetround calls. */
static int round_begin(int rnd)
{
    int mode = host_round(rnd);
    if (mode == FE_TONEAREST)
        return -1;
    int old = fegetround();
    fesetround(mode);
    return old;
}

static void round_end(int old)
{
    if (old >= 0)
        fesetround(old);
}

/* ---- f32 / f64 bit helpers --------------------------------------------------------- */

static inline float f32_in(uint64_t v, int ftz)
{
    float f = f32_from(v);
    if (ftz && fpclassify(f) == FP_SUBNORMAL)
        f = copysignf(0.0f, f);
    return f;
}

static inline double f64_in(uint64_t v, int ftz)
{
    double d = f64_from(v);
    if (ftz && fpclassify(d) == FP_SUBNORMAL)
        d = copysign(0.0, d);
    return d;
}

static inline uint64_t f32_out(float r, int ftz, int sat)
{
    if (ftz && fpclassify(r) == FP_SUBNORMAL)
        r = copysignf(0.0f, r);
    if (sat) {
        if (isnan(r) || r <= 0.0f)
            r = 0.0f; /* also turns -0.0 into +0.0 */
        else if (r > 1.0f)
            r = 1.0f;
    }
    if (isnan(r))
        return F32_QNAN;
    return f32_bits(r);
}

static inline uint64_t f64_out(double r, int ftz, int sat)
{
    if (ftz && fpclassify(r) == FP_SUBNORMAL)
        r = copysign(0.0, r);
    if (sat) {
        if (isnan(r) || r <= 0.0)
            r = 0.0;
        else if (r > 1.0)
            r = 1.0;
    }
    if (isnan(r))
        return F64_QNAN;
    return f64_bits(r);
}

/* min/max choice: 0 -> a, 1 -> b, 2 -> NaN.  NaN operands are ignored unless both are
 * NaN (or nan_prop); -0.0 counts as smaller than +0.0. */
static inline int minmax_pick(double a, double b, int is_min, int nan_prop)
{
    int na = isnan(a), nb = isnan(b);
    if (na || nb) {
        if (nan_prop || (na && nb))
            return 2;
        return na ? 1 : 0;
    }
    if (a == b) {
        int sa = signbit(a) != 0, sb = signbit(b) != 0;
        if (sa == sb)
            return 0;
        return is_min ? (sa ? 0 : 1) : (sa ? 1 : 0);
    }
    return is_min ? (a < b ? 0 : 1) : (a > b ? 0 : 1);
}

/* testp on a value of floating-point class cls (fpclassify of the value in its own
 * format); -1 for an unknown test. */
static int testp_eval(int cls, enum ptx_sub sub)
{
    switch (sub) {
    case PTX_SUB_TESTP_FINITE: return cls != FP_INFINITE && cls != FP_NAN;
    case PTX_SUB_TESTP_INFINITE: return cls == FP_INFINITE;
    case PTX_SUB_TESTP_NUMBER: return cls != FP_NAN;
    case PTX_SUB_TESTP_NOTANUMBER: return cls == FP_NAN;
    case PTX_SUB_TESTP_NORMAL: return cls == FP_NORMAL;
    case PTX_SUB_TESTP_SUBNORMAL: return cls == FP_SUBNORMAL;
    default: return -1;
    }
}

/* A rounding modifier (.rn/.rz/.rm/.rp) is allowed on the operations that
 * round (f32 and f64 alike); on any other it is unsupported. */
static int rounding_ok(const struct ptx_inst *in)
{
    switch ((enum ptx_op)in->op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_FMA: case PTX_OP_MAD:
    case PTX_OP_DIV: case PTX_OP_RCP: case PTX_OP_SQRT:
        return in->rnd <= PTX_RND_RP;
    default:
        return in->rnd == PTX_RND_NONE;
    }
}

/* ---- f32 ------------------------------------------------------------------------ */

#define F32_UN(expr)                                                                     \
    LANES {                                                                              \
        float a = f32_in(A(l), ftz);                                                     \
        R[l] = f32_out((expr), ftz, sat);                                                \
    }
#define F32_BIN(expr)                                                                    \
    LANES {                                                                              \
        float a = f32_in(A(l), ftz), b = f32_in(B(l), ftz);                              \
        R[l] = f32_out((expr), ftz, sat);                                                \
    }
#define F32_TERN(expr)                                                                   \
    LANES {                                                                              \
        float a = f32_in(A(l), ftz), b = f32_in(B(l), ftz), c = f32_in(C(l), ftz);       \
        R[l] = f32_out((expr), ftz, sat);                                                \
    }

static int exec_f32(const struct ptx_inst *in, uint32_t mask, const uint64_t src[][32],
                    uint64_t dst[][32], struct err *e)
{
    enum ptx_op op = (enum ptx_op)in->op;
    int ftz = (in->flags & PTX_F_FTZ) != 0, sat = (in->flags & PTX_F_SAT) != 0;
    uint64_t *R = dst[0];
    int rs;

    if (!rounding_ok(in))
        return alu_unsupported(in, e);
    rs = round_begin(in->rnd);
    switch (op) {
    case PTX_OP_ADD: F32_BIN(a + b); break;
    case PTX_OP_SUB: F32_BIN(a - b); break;
    case PTX_OP_MUL: F32_BIN(a * b); break;
    case PTX_OP_FMA: case PTX_OP_MAD: F32_TERN(fmaf(a, b, c)); break;
    case PTX_OP_DIV: F32_BIN(a / b); break;
    case PTX_OP_RCP: F32_UN(1.0f / a); break;
    case PTX_OP_SQRT: F32_UN(sqrtf(a)); break;
    case PTX_OP_RSQRT: F32_UN((float)(1.0 / sqrt((double)a))); break;
    case PTX_OP_SIN: F32_UN(sinf(a)); break;
    case PTX_OP_COS: F32_UN(cosf(a)); break;
    case PTX_OP_LG2: F32_UN(log2f(a)); break;
    case PTX_OP_EX2: F32_UN(exp2f(a)); break;
    case PTX_OP_TANH: F32_UN(tanhf(a)); break;
    case PTX_OP_ABS:
        LANES R[l] = f32_bits(f32_in(A(l), ftz)) & 0x7fffffffu;
        break;
    case PTX_OP_NEG:
        LANES R[l] = f32_bits(f32_in(A(l), ftz)) ^ 0x80000000u;
        break;
    case PTX_OP_COPYSIGN:
        LANES R[l] = (A(l) & 0x80000000u) | (B(l) & 0x7fffffffu);
        break;
    case PTX_OP_MIN: case PTX_OP_MAX: {
        int is_min = op == PTX_OP_MIN, np = (in->flags & PTX_F_NAN) != 0;
        int relu = (in->flags & PTX_F_RELU) != 0;
        LANES {
            float a = f32_in(A(l), ftz), b = f32_in(B(l), ftz);
            int p = minmax_pick(a, b, is_min, np);
            uint64_t r = p == 2 ? F32_QNAN : f32_bits(p ? b : a);
            if (relu && p != 2 && (r & 0x80000000u))
                r = 0;
            R[l] = r;
        }
        break;
    }
    case PTX_OP_TESTP: {
        enum ptx_sub sub = (enum ptx_sub)in->sub;
        if (testp_eval(FP_ZERO, sub) < 0) {
            round_end(rs);
            return alu_unsupported(in, e);
        }
        LANES R[l] = (uint64_t)testp_eval(fpclassify(f32_from(A(l))), sub);
        break;
    }
    default:
        round_end(rs);
        return alu_unsupported(in, e);
    }
    round_end(rs);
    return WS_OK;
}

/* ---- f64 ------------------------------------------------------------------------ */

#define F64_UN(expr)                                                                     \
    LANES {                                                                              \
        double a = f64_in(A(l), ftz);                                                    \
        R[l] = f64_out((expr), ftz, sat);                                                \
    }
#define F64_BIN(expr)                                                                    \
    LANES {                                                                              \
        double a = f64_in(A(l), ftz), b = f64_in(B(l), ftz);                             \
        R[l] = f64_out((expr), ftz, sat);                                                \
    }
#define F64_TERN(expr)                                                                   \
    LANES {                                                                              \
        double a = f64_in(A(l), ftz), b = f64_in(B(l), ftz), c = f64_in(C(l), ftz);      \
        R[l] = f64_out((expr), ftz, sat);                                                \
    }

static int exec_f64(const struct ptx_inst *in, uint32_t mask, const uint64_t src[][32],
                    uint64_t dst[][32], struct err *e)
{
    enum ptx_op op = (enum ptx_op)in->op;
    int ftz = (in->flags & PTX_F_FTZ) != 0, sat = (in->flags & PTX_F_SAT) != 0;
    uint64_t *R = dst[0];
    int rs;

    if (!rounding_ok(in))
        return alu_unsupported(in, e);
    rs = round_begin(in->rnd);
    switch (op) {
    case PTX_OP_ADD: F64_BIN(a + b); break;
    case PTX_OP_SUB: F64_BIN(a - b); break;
    case PTX_OP_MUL: F64_BIN(a * b); break;
    case PTX_OP_FMA: case PTX_OP_MAD: F64_TERN(fma(a, b, c)); break;
    case PTX_OP_DIV: F64_BIN(a / b); break;
    case PTX_OP_RCP: F64_UN(1.0 / a); break;
    case PTX_OP_SQRT: F64_UN(sqrt(a)); break;
    case PTX_OP_RSQRT: F64_UN(1.0 / sqrt(a)); break;
    case PTX_OP_SIN: F64_UN(sin(a)); break;
    case PTX_OP_COS: F64_UN(cos(a)); break;
    case PTX_OP_LG2: F64_UN(log2(a)); break;
    case PTX_OP_EX2: F64_UN(exp2(a)); break;
    case PTX_OP_TANH: F64_UN(tanh(a)); break;
    case PTX_OP_ABS:
        LANES R[l] = f64_bits(f64_in(A(l), ftz)) & 0x7fffffffffffffffull;
        break;
    case PTX_OP_NEG:
        LANES R[l] = f64_bits(f64_in(A(l), ftz)) ^ 0x8000000000000000ull;
        break;
    case PTX_OP_COPYSIGN:
        LANES R[l] = (A(l) & 0x8000000000000000ull) | (B(l) & 0x7fffffffffffffffull);
        break;
    case PTX_OP_MIN: case PTX_OP_MAX: {
        int is_min = op == PTX_OP_MIN, np = (in->flags & PTX_F_NAN) != 0;
        int relu = (in->flags & PTX_F_RELU) != 0;
        LANES {
            double a = f64_in(A(l), ftz), b = f64_in(B(l), ftz);
            int p = minmax_pick(a, b, is_min, np);
            uint64_t r = p == 2 ? F64_QNAN : f64_bits(p ? b : a);
            if (relu && p != 2 && (r >> 63))
                r = 0;
            R[l] = r;
        }
        break;
    }
    case PTX_OP_TESTP: {
        enum ptx_sub sub = (enum ptx_sub)in->sub;
        if (testp_eval(FP_ZERO, sub) < 0) {
            round_end(rs);
            return alu_unsupported(in, e);
        }
        LANES R[l] = (uint64_t)testp_eval(fpclassify(f64_from(A(l))), sub);
        break;
    }
    default:
        round_end(rs);
        return alu_unsupported(in, e);
    }
    round_end(rs);
    return WS_OK;
}

int alu_exec_float(const struct ptx_inst *in, uint32_t mask, const uint64_t src[][32],
                   uint64_t dst[][32], struct err *e)
{
    if (in->type == PTX_T_F32)
        return exec_f32(in, mask, src, dst, e);
    if (in->type == PTX_T_F64)
        return exec_f64(in, mask, src, dst, e);
    return alu_unsupported(in, e);
}

/* ---- f16 / bf16 ------------------------------------------------------------------ */

struct half_layout {
    unsigned mant;   /* stored mantissa bits */
    int bias;
    unsigned expall; /* all-ones exponent field */
};

static const struct half_layout half_layouts[2] = {
    [ALU_HALF_F16] = {10, 15, 31},
    [ALU_HALF_BF16] = {7, 127, 255},
};

/* 2^e as a double, for e in the normal range. */
static inline double pow2(int e)
{
    return f64_from((uint64_t)(e + 1023) << 52);
}

double alu_half_to_double(uint16_t h, enum alu_half_fmt fmt)
{
    const struct half_layout *L = &half_layouts[fmt];
    unsigned ex = (h & 0x7fffu) >> L->mant;
    uint32_t man = h & ((1u << L->mant) - 1);
    double v;
    if (ex == L->expall)
        v = man ? NAN : INFINITY;
    else if (ex == 0)
        v = (double)man * pow2(1 - L->bias - (int)L->mant);
    else
        v = (double)(man | 1u << L->mant) * pow2((int)ex - L->bias - (int)L->mant);
    return (h & 0x8000u) ? -v : v;
}

uint16_t alu_half_from_double(double x, enum alu_half_fmt fmt, int rnd)
{
    const struct half_layout *L = &half_layouts[fmt];
    uint64_t b = f64_bits(x);
    uint16_t sign = (b >> 63) ? 0x8000u : 0;
    uint16_t inf = (uint16_t)(L->expall << L->mant);
    int dex = (int)(b >> 52 & 0x7ff);
    uint64_t sig = b & ((1ull << 52) - 1);
    if (dex == 0x7ff)
        return sig ? HALF_QNAN : (uint16_t)(sign | inf);
    if (dex == 0 && sig == 0)
        return sign;
    /* |x| = sig * 2^e exactly */
    int e = (dex ? dex : 1) - 1075;
    if (dex)
        sig |= 1ull << 52;
    /* Rounding of the magnitude: 0 nearest-even, 1 toward zero, 2 away from zero. */
    int dir;
    switch (rnd) {
    case PTX_RND_RZ: dir = 1; break;
    case PTX_RND_RM: dir = sign ? 2 : 1; break;
    case PTX_RND_RP: dir = sign ? 1 : 2; break;
    default: dir = 0; break;
    }
    int top = e + 63 - __builtin_clzll(sig); /* exponent of the leading bit */
    int emin = 1 - L->bias;
    int ex = top < emin ? emin : top;
    int shift = ex - (int)L->mant - e; /* low bits of sig below the target quantum */
    uint64_t r;
    if (shift <= 0) {
        r = sig << -shift; /* exact: fewer than mant+1 significant bits */
    } else if (shift > 63) {
        r = dir == 2 ? 1 : 0; /* far below half a quantum, but not zero */
    } else {
        uint64_t rem = sig & ((1ull << shift) - 1), half = 1ull << (shift - 1);
        r = sig >> shift;
        if (rem && (dir == 2 || (dir == 0 && (rem > half || (rem == half && (r & 1))))))
            r++;
    }
    int64_t bits = ((int64_t)(ex + L->bias - 1) << L->mant) + (int64_t)r;
    if (bits >= inf)
        return dir == 1 ? (uint16_t)(sign | (inf - 1)) : (uint16_t)(sign | inf);
    return (uint16_t)(sign | bits);
}

/* x + y rounded to odd in double: exact enough that a second rounding to a format with at
 * most 51 significant bits is correctly rounded. */
static double sum_round_odd(double x, double y)
{
    double s = x + y;
    if (!isfinite(s))
        return s;
    double bv = s - x;
    double err = (x - (s - bv)) + (y - bv);
    uint64_t sb = f64_bits(s);
    if (err != 0.0 && (sb & 1) == 0) /* s != 0 here: an exact zero sum has no error */
        s = f64_from((err > 0.0) == (s > 0.0) ? sb + 1 : sb - 1);
    return s;
}

static inline int half_is_sub(uint16_t h, const struct half_layout *L)
{
    return (h & 0x7fffu) >> L->mant == 0 && (h & ((1u << L->mant) - 1)) != 0;
}

struct half_ctx {
    enum ptx_op op;
    enum alu_half_fmt fmt;
    int rnd, ftz, sat, relu, nan_prop;
};

static uint16_t half_op(const struct half_ctx *k, uint16_t ha, uint16_t hb, uint16_t hc)
{
    const struct half_layout *L = &half_layouts[k->fmt];
    if (k->ftz) {
        if (half_is_sub(ha, L)) ha &= 0x8000u;
        if (half_is_sub(hb, L)) hb &= 0x8000u;
        if (half_is_sub(hc, L)) hc &= 0x8000u;
    }
    double a = alu_half_to_double(ha, k->fmt);
    double r;
    switch (k->op) {
    case PTX_OP_ABS: return ha & 0x7fffu;
    case PTX_OP_NEG: return ha ^ 0x8000u;
    case PTX_OP_MIN: case PTX_OP_MAX: {
        int p = minmax_pick(a, alu_half_to_double(hb, k->fmt), k->op == PTX_OP_MIN,
                            k->nan_prop);
        uint16_t v = p == 2 ? HALF_QNAN : p ? hb : ha;
        if (k->relu && p != 2 && (v & 0x8000u))
            v = 0;
        return v;
    }
    case PTX_OP_ADD: r = sum_round_odd(a, alu_half_to_double(hb, k->fmt)); break;
    case PTX_OP_SUB: r = sum_round_odd(a, -alu_half_to_double(hb, k->fmt)); break;
    case PTX_OP_MUL: r = a * alu_half_to_double(hb, k->fmt); break; /* exact */
    case PTX_OP_FMA: case PTX_OP_MAD:
        r = sum_round_odd(a * alu_half_to_double(hb, k->fmt), alu_half_to_double(hc, k->fmt));
        break;
    case PTX_OP_EX2: r = exp2(a); break;
    case PTX_OP_TANH: r = tanh(a); break;
    default: return HALF_QNAN; /* rejected by alu_exec_half */
    }
    if (k->sat) {
        if (isnan(r) || r <= 0.0)
            r = 0.0;
        else if (r > 1.0)
            r = 1.0;
    }
    uint16_t h = alu_half_from_double(r, k->fmt, k->rnd);
    if (k->ftz && half_is_sub(h, L))
        h &= 0x8000u;
    if (k->relu && !isnan(r) && (h & 0x8000u))
        h = 0;
    return h;
}

int alu_exec_half(const struct ptx_inst *in, uint32_t mask, const uint64_t src[][32],
                  uint64_t dst[][32], struct err *e)
{
    enum ptx_op op = (enum ptx_op)in->op;
    enum ptx_type t = (enum ptx_type)in->type;
    struct half_ctx k = {
        .op = op,
        .fmt = (t == PTX_T_BF16 || t == PTX_T_BF16X2) ? ALU_HALF_BF16 : ALU_HALF_F16,
        .rnd = in->rnd,
        .ftz = (in->flags & PTX_F_FTZ) != 0,
        .sat = (in->flags & PTX_F_SAT) != 0,
        .relu = (in->flags & PTX_F_RELU) != 0,
        .nan_prop = (in->flags & PTX_F_NAN) != 0,
    };
    unsigned nh = (t == PTX_T_F16X2 || t == PTX_T_BF16X2) ? 2 : 1;
    unsigned nsrc;
    uint64_t *R = dst[0];

    if (in->rnd > PTX_RND_RP)
        return alu_unsupported(in, e);
    switch (op) {
    case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_EX2: case PTX_OP_TANH: nsrc = 1; break;
    case PTX_OP_MIN: case PTX_OP_MAX: case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL:
        nsrc = 2;
        break;
    case PTX_OP_FMA: case PTX_OP_MAD: nsrc = 3; break;
    default:
        return alu_unsupported(in, e);
    }
    if (in->rnd != PTX_RND_NONE && nsrc == 1)
        return alu_unsupported(in, e);
    LANES {
        uint64_t r = 0;
        for (unsigned h = 0; h < nh; h++) {
            unsigned sh = 16 * h;
            uint16_t a = (uint16_t)(A(l) >> sh);
            uint16_t b = nsrc > 1 ? (uint16_t)(B(l) >> sh) : 0;
            uint16_t c = nsrc > 2 ? (uint16_t)(C(l) >> sh) : 0;
            r |= (uint64_t)half_op(&k, a, b, c) << sh;
        }
        R[l] = r;
    }
    return WS_OK;
}
