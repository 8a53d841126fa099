/* test_alu_cvt.c: cvt semantics of the ALU — integer widening/narrowing/saturation,
 * float->integer rounding and saturation, integer->float rounding modes, f32<->f64,
 * round-to-integral, and bit-exact f16/bf16 conversions. */
#include <float.h>
#include <math.h>

#include "unit/test_alu_util.h"

#define F(x) tf_bits(x)
#define D(x) td_bits(x)
#define U32(x) ((uint64_t)(uint32_t)(x))
#define CVT(dt, st, ...) CASE(.op = PTX_OP_CVT, .type = PTX_T_##dt, .type2 = PTX_T_##st, __VA_ARGS__)

static void test_cvt_float_to_int(void **state)
{
    (void)state;
    const struct alu_case cases[] = {
        CVT(S32, F32, .rnd = PTX_RND_RNI, .a = F(2.5f), .want = 2),
        CVT(S32, F32, .rnd = PTX_RND_RNI, .a = F(3.5f), .want = 4),
        CVT(S32, F32, .rnd = PTX_RND_RNI, .a = F(-2.5f), .want = U32(-2)),
        CVT(S32, F32, .rnd = PTX_RND_RZI, .a = F(-2.7f), .want = U32(-2)),
        CVT(S32, F32, .rnd = PTX_RND_RMI, .a = F(-2.7f), .want = U32(-3)),
        CVT(S32, F32, .rnd = PTX_RND_RPI, .a = F(2.1f), .want = 3),
        CVT(S32, F32, .rnd = PTX_RND_RZI, .a = F(3e10f), .want = 0x7fffffff),
        CVT(S32, F32, .rnd = PTX_RND_RZI, .a = F(-3e10f), .want = 0x80000000),
        CVT(S32, F32, .rnd = PTX_RND_RZI, .a = F(NAN), .want = 0),
        CVT(S32, F32, .rnd = PTX_RND_RZI, .a = F(INFINITY), .want = 0x7fffffff),
        CVT(U32, F32, .rnd = PTX_RND_RZI, .a = F(-5.0f), .want = 0),
        CVT(U32, F32, .rnd = PTX_RND_RZI, .a = F(5e9f), .want = 0xffffffff),
        CVT(U32, F32, .rnd = PTX_RND_RNI, .a = F(4294967040.0f), .want = 4294967040u),
        CVT(S64, F64, .rnd = PTX_RND_RZI, .a = D(1e30), .want = 0x7fffffffffffffffull),
        CVT(S64, F64, .rnd = PTX_RND_RZI, .a = D(-1e30), .want = 0x8000000000000000ull),
        CVT(S64, F64, .rnd = PTX_RND_RZI, .a = D(-0x1p63), .want = 0x8000000000000000ull),
        CVT(U64, F64, .rnd = PTX_RND_RZI, .a = D(1e20), .want = ~0ull),
        CVT(U64, F64, .rnd = PTX_RND_RZI, .a = D(0x1.fffffffffffffp63),
            .want = 0xfffffffffffff800ull),
        CVT(S16, F32, .rnd = PTX_RND_RNI, .a = F(40000.0f), .want = 0x7fff),
        CVT(S16, F32, .rnd = PTX_RND_RNI, .a = F(-40000.0f), .want = 0x8000),
        CVT(U8, F32, .rnd = PTX_RND_RZI, .a = F(300.0f), .want = 0xff),
        CVT(S32, F64, .rnd = PTX_RND_RZI, .a = D(-2147483648.9), .want = 0x80000000),
        CVT(S32, F64, .rnd = PTX_RND_RMI, .a = D(-2147483648.9), .want = 0x80000000),
        CVT(S32, F16, .rnd = PTX_RND_RNI, .a = 0x4100, .want = 2),
        CVT(S32, F16, .rnd = PTX_RND_RZI, .a = 0xfc00, .want = 0x80000000),
        CVT(U32, BF16, .rnd = PTX_RND_RZI, .a = 0x4348, .want = 200),
        CVT(S32, F32, .rnd = PTX_RND_RPI, .a = 1, .want = 1),
        CVT(S32, F32, .rnd = PTX_RND_RPI, .flags = PTX_F_FTZ, .a = 1, .want = 0),
    };
    RUN_CASES(cases);
}

static void test_cvt_int_to_int(void **state)
{
    (void)state;
    const struct alu_case cases[] = {
        CVT(S32, S16, .a = 0x8000, .want = 0xffff8000),
        CVT(U32, U16, .a = 0xdead8000, .want = 0x8000),
        CVT(U32, S16, .a = 0xdead8000, .want = 0xffff8000),
        CVT(U16, U32, .a = 0x12345678, .want = 0x5678),
        CVT(S64, S32, .a = 0xffffffff, .want = ~0ull),
        CVT(U64, S32, .a = 0xffffffff, .want = ~0ull),
        CVT(S64, U32, .a = 0xffffffff, .want = 0xffffffff),
        CVT(S8, S32, .a = 0x1ff, .want = 0xff),
        CVT(U8, U64, .a = 0x1234, .want = 0x34),
        CVT(S32, S8, .a = 0x80, .want = 0xffffff80),
        CVT(U8, S32, .flags = PTX_F_SAT, .a = U32(-5), .want = 0),
        CVT(U8, S32, .flags = PTX_F_SAT, .a = 300, .want = 255),
        CVT(S8, S32, .flags = PTX_F_SAT, .a = 200, .want = 0x7f),
        CVT(S8, S32, .flags = PTX_F_SAT, .a = U32(-200), .want = 0x80),
        CVT(S32, U32, .flags = PTX_F_SAT, .a = 0x80000000, .want = 0x7fffffff),
        CVT(U32, S64, .flags = PTX_F_SAT, .a = ~0ull, .want = 0),
        CVT(U16, U64, .flags = PTX_F_SAT, .a = 1ull << 40, .want = 0xffff),
        CVT(S16, S8, .flags = PTX_F_SAT, .a = 0x80, .want = 0xff80),
        CVT(U64, S64, .flags = PTX_F_SAT, .a = 1ull << 63, .want = 0),
        CVT(S64, U64, .flags = PTX_F_SAT, .a = ~0ull, .want = 0x7fffffffffffffffull),
    };
    RUN_CASES(cases);
}

static void test_cvt_int_to_float(void **state)
{
    (void)state;
    const struct alu_case cases[] = {
        CVT(F32, S32, .rnd = PTX_RND_RN, .a = 16777217, .want = 0x4b800000),
        CVT(F32, S32, .rnd = PTX_RND_RZ, .a = 16777217, .want = 0x4b800000),
        CVT(F32, S32, .rnd = PTX_RND_RP, .a = 16777217, .want = 0x4b800001),
        CVT(F32, S32, .rnd = PTX_RND_RM, .a = U32(-16777217), .want = 0xcb800001),
        CVT(F32, S32, .rnd = PTX_RND_RZ, .a = U32(-16777217), .want = 0xcb800000),
        CVT(F32, U64, .rnd = PTX_RND_RZ, .a = ~0ull, .want = 0x5f7fffff),
        CVT(F32, U64, .rnd = PTX_RND_RN, .a = ~0ull, .want = 0x5f800000),
        CVT(F64, S64, .rnd = PTX_RND_RN, .a = (1ull << 53) + 1, .want = 0x4340000000000000ull),
        CVT(F64, S64, .rnd = PTX_RND_RP, .a = (1ull << 53) + 1, .want = 0x4340000000000001ull),
        CVT(F32, U16, .rnd = PTX_RND_RN, .a = 0xffff, .want = F(65535.0f)),
        CVT(F32, S16, .rnd = PTX_RND_RN, .a = 0xffff, .want = F(-1.0f)),
        CVT(F64, U32, .rnd = PTX_RND_RN, .a = 0xffffffff, .want = D(4294967295.0)),
        CVT(F64, S32, .rnd = PTX_RND_RN, .a = 0x80000000, .want = D(-2147483648.0)),
        CVT(F16, S32, .rnd = PTX_RND_RN, .a = 65504, .want = 0x7bff),
        CVT(F16, S32, .rnd = PTX_RND_RN, .a = 70000, .want = 0x7c00),
        CVT(F16, U32, .rnd = PTX_RND_RZ, .a = 70000, .want = 0x7bff),
        CVT(F16, S32, .rnd = PTX_RND_RN, .a = U32(-3), .want = 0xc200),
        CVT(F16, U16, .rnd = PTX_RND_RN, .a = 2049, .want = 0x6800),
        CVT(F16, U16, .rnd = PTX_RND_RN, .a = 2051, .want = 0x6802),
        CVT(BF16, U64, .rnd = PTX_RND_RN, .a = (1ull << 62) + (1ull << 54) + 1,
            .want = 0x5e81), /* just above a tie: needs a sticky bit below 2^53 */
    };
    RUN_CASES(cases);
}

static void test_cvt_float_to_float(void **state)
{
    (void)state;
    const struct alu_case cases[] = {
        CVT(F32, F64, .rnd = PTX_RND_RN, .a = D(1.0 / 3.0), .want = 0x3eaaaaab),
        CVT(F32, F64, .rnd = PTX_RND_RZ, .a = D(1.0 / 3.0), .want = 0x3eaaaaaa),
        CVT(F32, F64, .rnd = PTX_RND_RN, .a = D(1e300), .want = 0x7f800000),
        CVT(F32, F64, .rnd = PTX_RND_RZ, .a = D(1e300), .want = 0x7f7fffff),
        CVT(F32, F64, .rnd = PTX_RND_RM, .a = D(-1e300), .want = 0xff800000),
        CVT(F32, F64, .rnd = PTX_RND_RP, .a = D(-1e300), .want = 0xff7fffff),
        CVT(F32, F64, .rnd = PTX_RND_RN, .flags = PTX_F_FTZ, .a = D(0x1p-140), .want = 0),
        CVT(F32, F64, .rnd = PTX_RND_RN, .a = D(0x1p-140), .want = 0x200),
        CVT(F32, F64, .rnd = PTX_RND_RN, .a = D(NAN), .want = 0x7fffffff),
        CVT(F64, F32, .a = F(0.1f), .want = D((double)0.1f)),
        CVT(F64, F32, .a = 1, .want = D(0x1p-149)),
        CVT(F64, F32, .flags = PTX_F_FTZ, .a = 0x80000001, .want = 0x8000000000000000ull),
        CVT(F64, F32, .a = 0x7fc00001, .want = 0x7fffffffffffffffull),
        CVT(F32, F32, .rnd = PTX_RND_RNI, .a = F(2.5f), .want = F(2.0f)),
        CVT(F32, F32, .rnd = PTX_RND_RZI, .a = F(-2.7f), .want = F(-2.0f)),
        CVT(F32, F32, .rnd = PTX_RND_RMI, .a = F(-2.5f), .want = F(-3.0f)),
        CVT(F32, F32, .rnd = PTX_RND_RPI, .a = F(2.1f), .want = F(3.0f)),
        CVT(F64, F64, .rnd = PTX_RND_RNI, .a = D(-0.5), .want = 0x8000000000000000ull),
        CVT(F32, F32, .flags = PTX_F_FTZ, .a = 1, .want = 0),
        CVT(F32, F32, .flags = PTX_F_SAT, .a = F(1.5f), .want = F(1.0f)),
        CVT(F32, F32, .flags = PTX_F_SAT, .a = F(NAN), .want = 0),
        /* f16 */
        CVT(F16, F32, .rnd = PTX_RND_RN, .a = F(65504.0f), .want = 0x7bff),
        CVT(F16, F32, .rnd = PTX_RND_RN, .a = F(65519.0f), .want = 0x7bff),
        CVT(F16, F32, .rnd = PTX_RND_RN, .a = F(65520.0f), .want = 0x7c00),
        CVT(F16, F32, .rnd = PTX_RND_RZ, .a = F(70000.0f), .want = 0x7bff),
        CVT(F16, F32, .rnd = PTX_RND_RZ, .a = F(INFINITY), .want = 0x7c00),
        CVT(F16, F32, .rnd = PTX_RND_RN, .a = F(1.0f), .want = 0x3c00),
        CVT(F16, F32, .rnd = PTX_RND_RN, .a = F(0x1p-24f), .want = 0x0001),
        CVT(F16, F32, .rnd = PTX_RND_RN, .a = F(0x1p-25f), .want = 0x0000),
        CVT(F16, F32, .rnd = PTX_RND_RN, .a = F(0x1.8p-25f), .want = 0x0001),
        CVT(F16, F32, .rnd = PTX_RND_RN, .a = F(0x1.8p-24f), .want = 0x0002),
        CVT(F16, F32, .rnd = PTX_RND_RN, .a = F(0x1p-14f - 0x1p-25f), .want = 0x0400),
        CVT(F16, F32, .rnd = PTX_RND_RN, .a = F(1.0f + 0x1p-11f), .want = 0x3c00),
        CVT(F16, F32, .rnd = PTX_RND_RN, .a = F(1.0f + 0x1.8p-10f), .want = 0x3c02),
        CVT(F16, F32, .rnd = PTX_RND_RN, .a = F(1.0f + 0x1.004p-11f), .want = 0x3c01),
        CVT(F16, F32, .rnd = PTX_RND_RN, .a = F(-INFINITY), .want = 0xfc00),
        CVT(F16, F32, .rnd = PTX_RND_RN, .a = F(NAN), .want = 0x7fff),
        CVT(F16, F32, .rnd = PTX_RND_RN, .a = 0x80000000, .want = 0x8000),
        CVT(F16, F32, .rnd = PTX_RND_RM, .a = F(-1e-10f), .want = 0x8001),
        CVT(F16, F32, .rnd = PTX_RND_RP, .a = F(1e-10f), .want = 0x0001),
        CVT(F16, F32, .rnd = PTX_RND_RZ, .a = F(1e-10f), .want = 0x0000),
        CVT(F16, F64, .rnd = PTX_RND_RN, .a = D(65519.99), .want = 0x7bff),
        CVT(F16, F32, .rnd = PTX_RND_RN, .flags = PTX_F_RELU, .a = F(-1.0f), .want = 0),
        CVT(F32, F16, .a = 0x0001, .want = F(0x1p-24f)),
        CVT(F32, F16, .a = 0x7bff, .want = F(65504.0f)),
        CVT(F32, F16, .a = 0xfc00, .want = 0xff800000),
        CVT(F32, F16, .a = 0x7e00, .want = 0x7fffffff),
        CVT(F32, F16, .a = 0x8000, .want = 0x80000000),
        CVT(F32, F16, .a = 0x3555, .want = F(0.333251953125f)),
        CVT(F32, F16, .a = 0xffff3c00, .want = F(1.0f)), /* reads the low 16 bits only */
        CVT(F64, F16, .a = 0x3c00, .want = D(1.0)),
        /* bf16 */
        CVT(BF16, F32, .rnd = PTX_RND_RN, .a = 0x3f808000, .want = 0x3f80),
        CVT(BF16, F32, .rnd = PTX_RND_RN, .a = 0x3f818000, .want = 0x3f82),
        CVT(BF16, F32, .rnd = PTX_RND_RN, .a = 0x3f808001, .want = 0x3f81),
        CVT(BF16, F32, .rnd = PTX_RND_RN, .a = 0x7f7fffff, .want = 0x7f80),
        CVT(BF16, F32, .rnd = PTX_RND_RZ, .a = 0x7f7fffff, .want = 0x7f7f),
        CVT(BF16, F32, .rnd = PTX_RND_RN, .a = 0x00010000, .want = 0x0001),
        CVT(F32, BF16, .a = 0x3f80, .want = 0x3f800000),
        CVT(F32, BF16, .a = 0x8001, .want = 0x80010000),
        CVT(F16, BF16, .rnd = PTX_RND_RN, .a = 0x3f80, .want = 0x3c00),
        /* packing two f32 into a x2 register: a -> upper half, b -> lower half */
        CVT(F16X2, F32, .rnd = PTX_RND_RN, .a = F(1.0f), .b = F(-2.0f), .want = 0x3c00c000),
        CVT(BF16X2, F32, .rnd = PTX_RND_RN, .a = 0x3f808001, .b = F(2.0f),
            .want = 0x3f814000),
    };
    RUN_CASES(cases);
}

/* Round-trip every f16 bit pattern through f32 and back: must be the identity (NaN aside). */
static void test_f16_roundtrip(void **state)
{
    (void)state;
    for (uint32_t h = 0; h < 0x10000; h++) {
        double d = alu_half_to_double((uint16_t)h, ALU_HALF_F16);
        uint16_t back = alu_half_from_double(d, ALU_HALF_F16, PTX_RND_RN);
        if (isnan(d))
            assert_int_equal(back, 0x7fff);
        else
            assert_int_equal(back, h);
        double b = alu_half_to_double((uint16_t)h, ALU_HALF_BF16);
        if (!isnan(b)) {
            assert_int_equal(alu_half_from_double(b, ALU_HALF_BF16, PTX_RND_RN), h);
            float f = tf_from((uint64_t)h << 16);
            assert_true((double)f == b);
        }
    }
}

/* Compare f32 -> f16 (RN) with an independent host reference: the nearest of the two
 * neighbouring f16 values, ties to even, over a sweep of f32 inputs. */
static void test_f16_from_f32_sweep(void **state)
{
    (void)state;
    for (uint32_t u = 0x33000000u; u < 0x47800000u; u += 0x1357) {
        float f = tf_from(u);
        uint16_t h = alu_half_from_double(f, ALU_HALF_F16, PTX_RND_RN);
        double v = alu_half_to_double(h, ALU_HALF_F16);
        double up = alu_half_to_double((uint16_t)(h + 1), ALU_HALF_F16);
        double dn = h ? alu_half_to_double((uint16_t)(h - 1), ALU_HALF_F16) : 0.0;
        double err = fabs(v - (double)f);
        if (h < 0x7c00) {
            assert_true(err <= fabs(up - (double)f));
            assert_true(err <= fabs((double)f - dn));
            if ((err == fabs(up - (double)f) && up != v) ||
                (err == fabs((double)f - dn) && dn != v && h != 0))
                assert_true((h & 1) == 0);
        } else {
            assert_true((double)f >= 65520.0);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cvt_float_to_int),
        cmocka_unit_test(test_cvt_int_to_int),
        cmocka_unit_test(test_cvt_int_to_float),
        cmocka_unit_test(test_cvt_float_to_float),
        cmocka_unit_test(test_f16_roundtrip),
        cmocka_unit_test(test_f16_from_f32_sweep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
