/* test_float_math.c: golden test of floating-point PTX produced by nvcc
 * (tests/ptx/float_math.cu).  Correctly rounded operations (add/sub/mul/fma/
 * div/sqrt/rcp in every rounding mode, conversions, min/max, copysign, testp,
 * f16 conversions) must match the host bit for bit; a NaN result only has to
 * be some NaN (PTX produces the canonical NaN, the host may keep a payload).
 * Half-precision add/sub/mul/min/max/compares and f16x2 arithmetic are
 * checked bit for bit (the host computes in float and rounds once, which is
 * exact for these operations).
 * Approximate and transcendental operations are compared with libm within the
 * tolerances documented in test_approx. */
#include "golden.h"

#include <fenv.h>
#include <float.h>

#define F32_OPS 32
#define F64_OPS 20
#define APPROX_OPS 10
#define F16_OPS 12

static const char *const f32_names[F32_OPS] = {
    "add.rn", "sub.rn", "mul.rn", "fma.rn", "div.rn", "sqrt.rn", "add.rz", "mul.rp",
    "mul.rm", "div.rn (__fdiv_rn)", "div.rz", "fma.rm", "sqrt.rp", "rcp.rn",
    "cvt.rni.s32.f32", "cvt.rzi.s32.f32", "cvt.rmi.s32.f32", "cvt.rpi.s32.f32",
    "cvt.rzi.u32.f32", "cvt.rn.f32.s32", "cvt.rz.f32.u32", "min.f32", "max.f32",
    "copysign.f32", "isnan/isinf/isfinite/signbit", "cvt.rn.f16.f32",
    "cvt.rz.f16.f32 + cvt.f32.f16", "floor+ceil", "trunc-rint", "compares",
    "cvt.rmi.s64.f32", "cvt.sat.f32.f32"};

static const char *const f64_names[F64_OPS] = {
    "add.rn.f64", "mul.rn.f64", "fma.rn.f64", "div.rn.f64", "sqrt.rn.f64", "add.rz.f64",
    "mul.rp.f64", "div.rm.f64", "sqrt.rp.f64", "cvt.rmi.s32.f64", "cvt.rzi.s64.f64",
    "cvt.rpi.u64.f64", "cvt.rn.f64.s64", "cvt.rn.f32.f64", "cvt.rz.f32.f64",
    "cvt.f64.f32", "min.f64", "max.f64", "isnan/isinf/lt", "copysign-floor"};

static int setup(void **state)
{
    return golden_open(state, "tests/ptx/float_math.ptx");
}

/* ---- host arithmetic in a given rounding mode ---- */

enum fop { FADD, FSUB, FMUL, FDIV, FSQRT, FFMA };

static float f32_round(enum fop op, float a, float b, float c, int mode)
{
    fesetround(mode);
    volatile float va = a, vb = b, vc = c, r;
    switch (op) {
    case FADD: r = va + vb; break;
    case FSUB: r = va - vb; break;
    case FMUL: r = va * vb; break;
    case FDIV: r = va / vb; break;
    case FSQRT: r = sqrtf(va); break;
    default: r = fmaf(va, vb, vc); break;
    }
    fesetround(FE_TONEAREST);
    return r;
}

static double f64_round(enum fop op, double a, double b, double c, int mode)
{
    fesetround(mode);
    volatile double va = a, vb = b, vc = c, r;
    switch (op) {
    case FADD: r = va + vb; break;
    case FSUB: r = va - vb; break;
    case FMUL: r = va * vb; break;
    case FDIV: r = va / vb; break;
    case FSQRT: r = sqrt(va); break;
    default: r = fma(va, vb, vc); break;
    }
    fesetround(FE_TONEAREST);
    return r;
}

/* cvt from float to a saturated integer (PTX: NaN -> 0, clamp to range). */
static int64_t f2int(double v, double lo, double hi, int64_t ilo, int64_t ihi)
{
    if (isnan(v))
        return 0;
    if (v <= lo)
        return ilo;
    if (v >= hi)
        return ihi;
    return (int64_t)v;
}

static uint64_t f2u64(double v)
{
    if (isnan(v) || v <= 0)
        return 0;
    if (v >= 18446744073709551616.0)
        return UINT64_MAX;
    return (uint64_t)v;
}

static uint32_t f2u32(double v)
{
    if (isnan(v) || v <= 0)
        return 0;
    if (v >= 4294967295.0)
        return UINT32_MAX;
    return (uint32_t)v;
}

static uint16_t f2h(float f, int mode)
{
    fesetround(mode);
    volatile float vf = f;
    volatile _Float16 h = (_Float16)vf;
    fesetround(FE_TONEAREST);
    _Float16 hh = h;
    uint16_t u;
    memcpy(&u, &hh, 2);
    return u;
}

static float f_cvt_int(int64_t v, int is_unsigned, int mode)
{
    fesetround(mode);
    volatile int64_t vv = v;
    volatile float r = is_unsigned ? (float)(uint32_t)vv : (float)(int32_t)vv;
    fesetround(FE_TONEAREST);
    return r;
}

static float f_of_d(double d, int mode)
{
    fesetround(mode);
    volatile double vd = d;
    volatile float r = (float)vd;
    fesetround(FE_TONEAREST);
    return r;
}

static uint32_t fb(float f)
{
    return golden_f2u(f);
}

static void ref_f32(float x, float y, float z, uint32_t *o)
{
    o[0] = fb(f32_round(FADD, x, y, 0, FE_TONEAREST));
    o[1] = fb(f32_round(FSUB, x, y, 0, FE_TONEAREST));
    o[2] = fb(f32_round(FMUL, x, y, 0, FE_TONEAREST));
    o[3] = fb(f32_round(FFMA, x, y, z, FE_TONEAREST));
    o[4] = fb(f32_round(FDIV, x, y, 0, FE_TONEAREST));
    o[5] = fb(f32_round(FSQRT, fabsf(x), 0, 0, FE_TONEAREST));
    o[6] = fb(f32_round(FADD, x, y, 0, FE_TOWARDZERO));
    o[7] = fb(f32_round(FMUL, x, y, 0, FE_UPWARD));
    o[8] = fb(f32_round(FMUL, x, y, 0, FE_DOWNWARD));
    o[9] = o[4];
    o[10] = fb(f32_round(FDIV, x, y, 0, FE_TOWARDZERO));
    o[11] = fb(f32_round(FFMA, x, y, z, FE_DOWNWARD));
    o[12] = fb(f32_round(FSQRT, fabsf(y), 0, 0, FE_UPWARD));
    o[13] = fb(f32_round(FDIV, 1.0f, x, 0, FE_TONEAREST));
    o[14] = (uint32_t)f2int(rint(x), INT32_MIN, INT32_MAX, INT32_MIN, INT32_MAX);
    o[15] = (uint32_t)f2int(trunc(x), INT32_MIN, INT32_MAX, INT32_MIN, INT32_MAX);
    o[16] = (uint32_t)f2int(floor(x), INT32_MIN, INT32_MAX, INT32_MIN, INT32_MAX);
    o[17] = (uint32_t)f2int(ceil(x), INT32_MIN, INT32_MAX, INT32_MIN, INT32_MAX);
    o[18] = f2u32(trunc(x));
    o[19] = fb(f_cvt_int((int32_t)fb(y), 0, FE_TONEAREST));
    o[20] = fb(f_cvt_int(fb(y), 1, FE_TOWARDZERO));
    o[21] = fb(fminf(x, y));
    o[22] = fb(fmaxf(x, y));
    o[23] = fb(copysignf(x, y));
    o[24] = (isnan(x) ? 1u : 0u) | (isinf(x) ? 2u : 0u) | (isfinite(x) ? 4u : 0u) |
            (signbit(x) ? 8u : 0u);
    o[25] = f2h(x, FE_TONEAREST);
    uint16_t hz = f2h(y, FE_TOWARDZERO);
    _Float16 h;
    memcpy(&h, &hz, 2);
    o[26] = fb((float)h);
    o[27] = fb(floorf(x) + ceilf(y));
    o[28] = fb(truncf(x) - rintf(y));
    o[29] = (uint32_t)(x < y) | ((uint32_t)(x <= y) << 1) | ((uint32_t)(x == y) << 2) |
            ((uint32_t)(x != y) << 3) | ((uint32_t) !(x >= y) << 4);
    o[30] = (uint32_t)f2int(floor(x), -9223372036854775808.0, 9223372036854775807.0,
                            INT64_MIN, INT64_MAX);
    o[31] = isnan(x) ? 0 : fb(x < 0 ? 0.0f : x > 1 ? 1.0f : x);
}

static int f32_is_nan_bits(uint32_t u)
{
    return (u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu);
}

static int is_float_op(unsigned k)
{
    return k <= 13 || (k >= 19 && k <= 23) || k == 26 || k == 27 || k == 28 || k == 31;
}

static void test_f32(void **state)
{
    struct golden *g = *state;
    static const float edge[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1.5f, 2.5f, -2.5f, 3.0f,
                                 1e-45f, -1e-45f, FLT_MIN, FLT_MAX, -FLT_MAX, INFINITY,
                                 -INFINITY, NAN, 1e10f, -1e10f, 3e9f, 5e9f, -3e9f, 0.1f,
                                 1.0f / 3.0f, 65504.0f, 65520.0f, 6e-8f, 2.98e-8f,
                                 16777216.0f, -7.75f};
    enum { NE = sizeof(edge) / sizeof(edge[0]), NR = 124, N = NE * NE + NR };
    static float a[N], b[N], c[N];
    struct rng rs;
    rng_init(&rs, 3);
    for (int i = 0; i < N; i++) {
        if (i < NE * NE) {
            a[i] = edge[i / NE];
            b[i] = edge[i % NE];
            c[i] = edge[(i * 7) % NE];
        } else {
            a[i] = (float)((double)(int64_t)rng_next(&rs) / 9.2e18 * 1000.0);
            b[i] = (float)((double)(int64_t)rng_next(&rs) / 9.2e18 * 3.0);
            c[i] = golden_u2f((uint32_t)rng_next(&rs) & 0xbf7fffffu); /* finite */
        }
    }
    ws_devptr da = golden_upload(g, a, sizeof a), db = golden_upload(g, b, sizeof b);
    ws_devptr dc = golden_upload(g, c, sizeof c);
    ws_devptr dout = golden_upload(g, NULL, sizeof(uint32_t) * N * F32_OPS);
    int n = N;
    void *args[] = {&da, &db, &dc, &dout, &n};
    golden_launch(g, "f32_ops", (N + 127) / 128, 128, 0, args);
    static uint32_t got[N * F32_OPS];
    golden_download(g, got, dout, sizeof got);
    for (int i = 0; i < N; i++) {
        uint32_t want[F32_OPS];
        ref_f32(a[i], b[i], c[i], want);
        for (unsigned k = 0; k < F32_OPS; k++) {
            uint32_t w = want[k], r = got[i * F32_OPS + k];
            if (is_float_op(k) && f32_is_nan_bits(w) && f32_is_nan_bits(r))
                continue;
            if (k == 25 && (w & 0x7c00) == 0x7c00 && (w & 0x3ff) && (r & 0x7c00) == 0x7c00 &&
                (r & 0x3ff) && r <= 0xffff)
                continue; /* f16 NaN: any NaN */
            if ((k == 21 || k == 22 || k == 31) && !(w & 0x7fffffffu) && !(r & 0x7fffffffu))
                continue; /* min/max of +0 and -0, saturate(-0): either zero */
            if (w != r)
                fail_msg("f32_ops: element %d (x=%a y=%a z=%a) op %u (%s): expected 0x%08x "
                         "(%a / %d), got 0x%08x (%a / %d)",
                         i, (double)a[i], (double)b[i], (double)c[i], k, f32_names[k], w,
                         (double)golden_u2f(w), (int32_t)w, r, (double)golden_u2f(r),
                         (int32_t)r);
        }
    }
}

static uint64_t db_(double d)
{
    return golden_d2u(d);
}

static void ref_f64(double x, double y, double z, uint64_t *o)
{
    o[0] = db_(f64_round(FADD, x, y, 0, FE_TONEAREST));
    o[1] = db_(f64_round(FMUL, x, y, 0, FE_TONEAREST));
    o[2] = db_(f64_round(FFMA, x, y, z, FE_TONEAREST));
    o[3] = db_(f64_round(FDIV, x, y, 0, FE_TONEAREST));
    o[4] = db_(f64_round(FSQRT, fabs(x), 0, 0, FE_TONEAREST));
    o[5] = db_(f64_round(FADD, x, y, 0, FE_TOWARDZERO));
    o[6] = db_(f64_round(FMUL, x, y, 0, FE_UPWARD));
    o[7] = db_(f64_round(FDIV, x, y, 0, FE_DOWNWARD));
    o[8] = db_(f64_round(FSQRT, fabs(y), 0, 0, FE_UPWARD));
    o[9] = (uint64_t)f2int(floor(x), INT32_MIN, INT32_MAX, INT32_MIN, INT32_MAX);
    o[10] = (uint64_t)f2int(trunc(x), -9223372036854775808.0, 9223372036854775807.0,
                            INT64_MIN, INT64_MAX);
    o[11] = f2u64(ceil(x));
    fesetround(FE_TONEAREST);
    o[12] = db_((double)(int64_t)db_(y));
    o[13] = golden_f2u(f_of_d(x, FE_TONEAREST));
    o[14] = golden_f2u(f_of_d(y, FE_TOWARDZERO));
    o[15] = db_((double)f_of_d(z, FE_TONEAREST));
    o[16] = db_(fmin(x, y));
    o[17] = db_(fmax(x, y));
    o[18] = (uint64_t)((isnan(x) ? 1 : 0) | (isinf(x) ? 2 : 0) | (x < y ? 4 : 0));
    o[19] = db_(copysign(x, y) - floor(z));
}

static int f64_is_nan_bits(uint64_t u)
{
    return (u & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (u & 0xfffffffffffffull);
}

static void test_f64(void **state)
{
    struct golden *g = *state;
    static const double edge[] = {0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -2.5, 1.0 / 3.0, 0.1,
                                  4.9e-324, DBL_MIN, DBL_MAX, -DBL_MAX, INFINITY, -INFINITY,
                                  NAN, 3e9, -3e9, 1e19, 2e19, -1e19, 1e40, 3.4028235677973366e38,
                                  1.0000000000000002, 9007199254740993.0, -0.75};
    enum { NE = sizeof(edge) / sizeof(edge[0]), NR = 60, N = NE * NE + NR };
    static double a[N], b[N], c[N];
    struct rng rs;
    rng_init(&rs, 17);
    for (int i = 0; i < N; i++) {
        if (i < NE * NE) {
            a[i] = edge[i / NE];
            b[i] = edge[i % NE];
            c[i] = edge[(i * 5) % NE];
        } else {
            a[i] = (double)(int64_t)rng_next(&rs) / 9.2e18 * 1e6;
            b[i] = (double)(int64_t)rng_next(&rs) / 9.2e18 * 7.0;
            c[i] = (double)(int64_t)rng_next(&rs) / 9.2e18 * 1e-3;
        }
    }
    ws_devptr da = golden_upload(g, a, sizeof a), dbp = golden_upload(g, b, sizeof b);
    ws_devptr dc = golden_upload(g, c, sizeof c);
    ws_devptr dout = golden_upload(g, NULL, sizeof(uint64_t) * N * F64_OPS);
    int n = N;
    void *args[] = {&da, &dbp, &dc, &dout, &n};
    golden_launch(g, "f64_ops", (N + 127) / 128, 128, 0, args);
    static uint64_t got[N * F64_OPS];
    golden_download(g, got, dout, sizeof got);
    for (int i = 0; i < N; i++) {
        uint64_t want[F64_OPS];
        ref_f64(a[i], b[i], c[i], want);
        for (unsigned k = 0; k < F64_OPS; k++) {
            uint64_t w = want[k], r = got[i * F64_OPS + k];
            int is_f64 = k <= 8 || k == 12 || (k >= 15 && k <= 17) || k == 19;
            if (is_f64 && f64_is_nan_bits(w) && f64_is_nan_bits(r))
                continue;
            if ((k == 13 || k == 14) && f32_is_nan_bits((uint32_t)w) &&
                f32_is_nan_bits((uint32_t)r) && r >> 32 == 0)
                continue;
            if ((k == 16 || k == 17) && !(w << 1) && !(r << 1))
                continue; /* min/max of +0 and -0: either zero */
            if (w != r)
                fail_msg("f64_ops: element %d (x=%a y=%a z=%a) op %u (%s): expected "
                         "0x%016llx, got 0x%016llx",
                         i, a[i], b[i], c[i], k, f64_names[k], (unsigned long long)w,
                         (unsigned long long)r);
        }
    }
}

static uint16_t h_of_f(float f)
{
    _Float16 h = (_Float16)f;
    uint16_t u;
    memcpy(&u, &h, 2);
    return u;
}

static float f_of_h(uint16_t u)
{
    _Float16 h;
    memcpy(&h, &u, 2);
    return (float)h;
}

static int h_is_nan(uint32_t u)
{
    return (u & 0x7c00) == 0x7c00 && (u & 0x3ff);
}

static void ref_f16(uint16_t a, uint16_t b, uint16_t *o)
{
    float x = f_of_h(a), y = f_of_h(b);
    o[0] = h_of_f(x + y);
    o[1] = h_of_f(x - y);
    o[2] = h_of_f(x * y);
    o[3] = a ^ 0x8000;
    o[4] = b & 0x7fff;
    o[5] = (uint16_t)((x < y) | ((x == y) << 1) | ((isnan(x) || isnan(y) || x > y) << 2));
    o[6] = h_of_f(fmaxf(x, y));
    o[7] = h_of_f(fminf(x, y));
    o[8] = h_of_f(x + y);
    o[9] = h_of_f(y * x);
    int64_t t = isnan(x) ? 0 : x >= 2147483647.0f ? INT32_MAX : x <= -2147483648.0f ? INT32_MIN
                                                                                   : (int64_t)x;
    o[10] = (uint16_t)t;
    o[11] = h_of_f((float)((int)a - 40000));
}

static void test_f16(void **state)
{
    struct golden *g = *state;
    static const uint16_t edge[] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x3800, 0x7bff, 0xfbff,
                                    0x7c00, 0xfc00, 0x7e00, 0x0001, 0x03ff, 0x0400, 0x3555,
                                    0x6801, 0x3c01, 0x3e00, 0x5640, 0xc500, 0x1234};
    enum { NE = sizeof(edge) / sizeof(edge[0]), NR = 100, N = NE * NE + NR };
    static uint16_t a[N], b[N], got[N * F16_OPS];
    struct rng rs;
    rng_init(&rs, 31);
    for (int i = 0; i < N; i++) {
        if (i < NE * NE) {
            a[i] = edge[i / NE];
            b[i] = edge[i % NE];
        } else {
            a[i] = (uint16_t)rng_next(&rs);
            b[i] = (uint16_t)rng_next(&rs);
        }
    }
    ws_devptr da = golden_upload(g, a, sizeof a), dbp = golden_upload(g, b, sizeof b);
    ws_devptr dout = golden_upload(g, NULL, sizeof got);
    int n = N;
    void *args[] = {&da, &dbp, &dout, &n};
    golden_launch(g, "f16_ops", (N + 127) / 128, 128, 0, args);
    golden_download(g, got, dout, sizeof got);
    static const char *const names[F16_OPS] = {
        "add.f16", "sub.f16", "mul.f16", "neg.f16", "abs.f16", "setp lt/eq/gtu .f16",
        "max (via f32)", "min (via f32)", "add.f16x2 low", "mul.f16x2 high",
        "cvt.rzi.s32.f16", "cvt.rn.f16.s32"};
    for (int i = 0; i < N; i++) {
        uint16_t want[F16_OPS];
        ref_f16(a[i], b[i], want);
        for (unsigned k = 0; k < F16_OPS; k++) {
            uint16_t w = want[k], r = got[i * F16_OPS + k];
            int is_h = k != 5 && k != 10;
            if (is_h && h_is_nan(w) && h_is_nan(r))
                continue;
            if ((k == 6 || k == 7) && !(w & 0x7fff) && !(r & 0x7fff))
                continue;
            if (w != r)
                fail_msg("f16_ops: element %d (x=0x%04x y=0x%04x) op %u (%s): expected 0x%04x "
                         "(%g), got 0x%04x (%g)",
                         i, a[i], b[i], k, names[k], w, (double)f_of_h(w), r,
                         (double)f_of_h(r));
        }
    }
}

/* Tolerances (warpsim evaluates the .approx instructions with libm, so the
 * only differences left are the ones of the surrounding nvcc sequences):
 *   __sinf, __cosf        |err| <= 2e-6 absolute
 *   __expf                |err| <= 4e-6 relative (the y*log2(e) product is rounded)
 *   __logf                |err| <= 2e-6 absolute + 2e-6 relative
 *   rsqrtf, __fdividef    |err| <= 2e-6 relative
 *   sinf, expf, log2f, tanhf (full-precision software sequences): 4 ulps
 * The host reference is libm in double precision. */
static void test_approx(void **state)
{
    struct golden *g = *state;
    enum { N = 300 };
    static float a[N], b[N], got[N * APPROX_OPS];
    struct rng rs;
    rng_init(&rs, 23);
    for (int i = 0; i < N; i++) {
        a[i] = (float)((double)(int64_t)rng_next(&rs) / 9.2e18 * (i < 200 ? 4.0 : 300.0));
        b[i] = (float)((double)(int64_t)rng_next(&rs) / 9.2e18 * 20.0);
    }
    a[0] = 0.0f;
    b[0] = 0.0f;
    a[1] = -0.0f;
    b[1] = 1.0f;
    a[2] = 3.14159265f;
    b[2] = -1.0f;
    ws_devptr da = golden_upload(g, a, sizeof a), dbp = golden_upload(g, b, sizeof b);
    ws_devptr dout = golden_upload(g, NULL, sizeof got);
    int n = N;
    void *args[] = {&da, &dbp, &dout, &n};
    golden_launch(g, "approx_ops", (N + 63) / 64, 64, 0, args);
    golden_download(g, got, dout, sizeof got);
    static const char *const names[APPROX_OPS] = {"__sinf", "__cosf", "__expf", "__logf",
                                                  "rsqrtf", "__fdividef", "sinf", "expf",
                                                  "log2f", "tanhf"};
    for (int i = 0; i < N; i++) {
        double x = a[i], y = b[i];
        float ax = fabsf(a[i]);
        double want[APPROX_OPS] = {sin(x),
                                   cos(x),
                                   exp(y),
                                   log((double)(ax + 0.5f)),
                                   1.0 / sqrt((double)(ax + 0.25f)),
                                   x / (double)(b[i] + 9.0f),
                                   sin(x),
                                   exp(y),
                                   log2((double)(ax + 0.5f)),
                                   tanh(y)};
        for (int k = 0; k < APPROX_OPS; k++) {
            double r = got[i * APPROX_OPS + k], w = want[k], err = fabs(r - w);
            int ok;
            switch (k) {
            case 0: case 1: ok = err <= 2e-6; break;
            case 2: ok = err <= 4e-6 * fabs(w); break;
            case 3: ok = err <= 2e-6 + 2e-6 * fabs(w); break;
            case 4: case 5: ok = err <= 2e-6 * fabs(w); break;
            default: ok = golden_ulp_dist_f32((float)w, (float)r) <= 4; break;
            }
            if (!ok)
                fail_msg("approx_ops: element %d (x=%a y=%a) op %s: expected %.9g, got %.9g",
                         i, (double)a[i], (double)b[i], names[k], w, r);
        }
    }
}

static void test_testp(void **state)
{
    struct golden *g = *state;
    static const float fe[] = {0.0f, -0.0f, 1.0f, -1.0f, 1e-45f, -1e-40f, FLT_MIN, FLT_MAX,
                               INFINITY, -INFINITY, NAN, -NAN, 1.17549421e-38f};
    static const double de[] = {0.0, -0.0, 1.0, 4.9e-324, -2.2250738585072009e-308, DBL_MIN,
                                DBL_MAX, INFINITY, -INFINITY, NAN, -3.5, 1e-310, 7.0};
    enum { N = sizeof(fe) / sizeof(fe[0]) };
    _Static_assert(sizeof(de) / sizeof(de[0]) == N, "same count");
    uint32_t got[N];
    ws_devptr da = golden_upload(g, fe, sizeof fe), dbp = golden_upload(g, de, sizeof de);
    ws_devptr dout = golden_upload(g, NULL, sizeof got);
    int n = N;
    void *args[] = {&da, &dbp, &dout, &n};
    golden_launch(g, "testp_ops", 1, 32, 0, args);
    golden_download(g, got, dout, sizeof got);
    for (int i = 0; i < N; i++) {
        float x = fe[i];
        double y = de[i];
        uint32_t want = (uint32_t)(isfinite(x) != 0) | (uint32_t)(isinf(x) != 0) << 1 |
                        (uint32_t)(!isnan(x)) << 2 | (uint32_t)(isnan(x) != 0) << 3 |
                        (uint32_t)(fpclassify(x) == FP_NORMAL) << 4 |
                        (uint32_t)(fpclassify(x) == FP_SUBNORMAL) << 5 |
                        (uint32_t)(fpclassify(y) == FP_NORMAL) << 6 |
                        (uint32_t)(fpclassify(y) == FP_SUBNORMAL) << 7 |
                        (uint32_t)(isnan(y) != 0) << 8 | (uint32_t)(isinf(y) != 0) << 9;
        if (got[i] != want)
            fail_msg("testp_ops[%d] (x=%a y=%a): expected class bits 0x%03x, got 0x%03x", i,
                     (double)x, y, want, got[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f32),
        cmocka_unit_test(test_f64),
        cmocka_unit_test(test_f16),
        cmocka_unit_test(test_testp),
        cmocka_unit_test(test_approx),
    };
    return cmocka_run_group_tests(tests, setup, golden_close);
}
