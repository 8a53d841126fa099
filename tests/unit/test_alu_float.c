/* test_alu_float.c: floating-point semantics of the ALU — f32/f64 rounding modifiers,
 * .ftz, .sat, NaN handling, approximate ops, half precision arithmetic, and the
 * comparison/selection instructions (setp, set, selp, slct). */
#include <math.h>

#include "unit/test_alu_util.h"

#define F(x) tf_bits(x)
#define D(x) td_bits(x)
#define QNAN32 0x7fffffffull
#define QNAN64 0x7fffffffffffffffull

static void test_f32_rounding(void **state)
{
    (void)state;
    const uint64_t one = F(1.0f), small = F(0x1.8p-24f); /* 0.75 ulp of 1.0 */
    const uint64_t nom = F(-1.0f), nsmall = F(-0x1.8p-24f);
    const uint64_t onep = 0x3f800001; /* 1 + 2^-23 */
    const struct alu_case cases[] = {
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F32, .a = one, .b = small, .want = 0x3f800001),
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F32, .rnd = PTX_RND_RN, .a = one, .b = small,
             .want = 0x3f800001),
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F32, .rnd = PTX_RND_RZ, .a = one, .b = small,
             .want = 0x3f800000),
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F32, .rnd = PTX_RND_RM, .a = one, .b = small,
             .want = 0x3f800000),
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F32, .rnd = PTX_RND_RP, .a = one, .b = small,
             .want = 0x3f800001),
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F32, .rnd = PTX_RND_RN, .a = nom, .b = nsmall,
             .want = 0xbf800001),
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F32, .rnd = PTX_RND_RZ, .a = nom, .b = nsmall,
             .want = 0xbf800000),
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F32, .rnd = PTX_RND_RM, .a = nom, .b = nsmall,
             .want = 0xbf800001),
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F32, .rnd = PTX_RND_RP, .a = nom, .b = nsmall,
             .want = 0xbf800000),
        CASE(.op = PTX_OP_SUB, .type = PTX_T_F32, .rnd = PTX_RND_RM, .a = one, .b = F(1.0f),
             .want = 0x80000000), /* x - x = -0 when rounding down */
        CASE(.op = PTX_OP_SUB, .type = PTX_T_F32, .a = one, .b = F(1.0f), .want = 0),
        CASE(.op = PTX_OP_DIV, .type = PTX_T_F32, .rnd = PTX_RND_RN, .a = one, .b = F(3.0f),
             .want = 0x3eaaaaab),
        CASE(.op = PTX_OP_DIV, .type = PTX_T_F32, .rnd = PTX_RND_RZ, .a = one, .b = F(3.0f),
             .want = 0x3eaaaaaa),
        CASE(.op = PTX_OP_DIV, .type = PTX_T_F32, .rnd = PTX_RND_RM, .a = one, .b = F(3.0f),
             .want = 0x3eaaaaaa),
        CASE(.op = PTX_OP_DIV, .type = PTX_T_F32, .rnd = PTX_RND_RP, .a = one, .b = F(3.0f),
             .want = 0x3eaaaaab),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_F32, .rnd = PTX_RND_RN, .a = onep, .b = onep,
             .want = 0x3f800002),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_F32, .rnd = PTX_RND_RP, .a = onep, .b = onep,
             .want = 0x3f800003),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_F32, .rnd = PTX_RND_RZ, .a = onep, .b = onep,
             .want = 0x3f800002),
        /* fma rounds once: (1+2^-23)^2 - (1+2^-22) = 2^-46 exactly */
        CASE(.op = PTX_OP_FMA, .type = PTX_T_F32, .rnd = PTX_RND_RN, .a = onep, .b = onep,
             .c = 0xbf800002, .want = F(0x1p-46f)),
        CASE(.op = PTX_OP_MAD, .type = PTX_T_F32, .rnd = PTX_RND_RN, .a = onep, .b = onep,
             .c = 0xbf800002, .want = F(0x1p-46f)),
        CASE(.op = PTX_OP_SQRT, .type = PTX_T_F32, .rnd = PTX_RND_RN, .a = F(2.0f),
             .want = 0x3fb504f3),
        CASE(.op = PTX_OP_SQRT, .type = PTX_T_F32, .rnd = PTX_RND_RP, .a = F(2.0f),
             .want = 0x3fb504f4),
        CASE(.op = PTX_OP_RCP, .type = PTX_T_F32, .rnd = PTX_RND_RN, .a = F(3.0f),
             .want = 0x3eaaaaab),
        CASE(.op = PTX_OP_RCP, .type = PTX_T_F32, .rnd = PTX_RND_RZ, .a = F(3.0f),
             .want = 0x3eaaaaaa),
        /* f64 */
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F64, .rnd = PTX_RND_RN, .a = D(1.0),
             .b = D(0x1.8p-53), .want = 0x3ff0000000000001ull),
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F64, .rnd = PTX_RND_RZ, .a = D(1.0),
             .b = D(0x1.8p-53), .want = 0x3ff0000000000000ull),
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F64, .rnd = PTX_RND_RM, .a = D(-1.0),
             .b = D(-0x1.8p-53), .want = 0xbff0000000000001ull),
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F64, .rnd = PTX_RND_RP, .a = D(-1.0),
             .b = D(-0x1.8p-53), .want = 0xbff0000000000000ull),
        CASE(.op = PTX_OP_DIV, .type = PTX_T_F64, .rnd = PTX_RND_RN, .a = D(1.0), .b = D(3.0),
             .want = 0x3fd5555555555555ull),
        CASE(.op = PTX_OP_DIV, .type = PTX_T_F64, .rnd = PTX_RND_RP, .a = D(1.0), .b = D(3.0),
             .want = 0x3fd5555555555556ull),
        CASE(.op = PTX_OP_FMA, .type = PTX_T_F64, .rnd = PTX_RND_RN, .a = 0x3ff0000000000001ull,
             .b = 0x3ff0000000000001ull, .c = 0xbff0000000000002ull, .want = D(0x1p-104)),
        CASE(.op = PTX_OP_SQRT, .type = PTX_T_F64, .rnd = PTX_RND_RN, .a = D(2.0),
             .want = D(sqrt(2.0))),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_F64, .a = D(1e300), .b = D(1e300),
             .want = D(INFINITY)),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_F64, .rnd = PTX_RND_RZ, .a = D(1e300),
             .b = D(1e300), .want = 0x7fefffffffffffffull),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_F32, .rnd = PTX_RND_RZ, .a = F(1e30f),
             .b = F(1e30f), .want = 0x7f7fffff),
    };
    RUN_CASES(cases);
}

static void test_f32_special(void **state)
{
    (void)state;
    const uint64_t nan_in = 0x7fc00001, sub = 0x00000001, nsub = 0x80000001;
    const struct alu_case cases[] = {
        /* ftz: subnormal inputs and outputs flushed to sign-preserving zero */
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F32, .a = sub, .b = 0, .want = sub),
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F32, .flags = PTX_F_FTZ, .a = sub, .b = 0,
             .want = 0),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_F32, .a = F(0x1p-70f), .b = F(0x1p-70f),
             .want = 0x200),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_F32, .flags = PTX_F_FTZ, .a = F(0x1p-70f),
             .b = F(0x1p-70f), .want = 0),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_F32, .flags = PTX_F_FTZ, .a = F(-0x1p-70f),
             .b = F(0x1p-70f), .want = 0x80000000),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_F32, .flags = PTX_F_FTZ, .a = nsub, .b = F(2.0f),
             .want = 0x80000000),
        CASE(.op = PTX_OP_ABS, .type = PTX_T_F32, .flags = PTX_F_FTZ, .a = nsub, .want = 0),
        CASE(.op = PTX_OP_ABS, .type = PTX_T_F32, .a = nsub, .want = sub),
        CASE(.op = PTX_OP_NEG, .type = PTX_T_F32, .a = 0, .want = 0x80000000),
        CASE(.op = PTX_OP_ABS, .type = PTX_T_F64, .a = D(-2.5), .want = D(2.5)),
        /* sat */
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F32, .flags = PTX_F_SAT, .a = F(0.7f),
             .b = F(0.6f), .want = F(1.0f)),
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F32, .flags = PTX_F_SAT, .a = F(-0.5f), .b = 0,
             .want = 0),
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F32, .flags = PTX_F_SAT, .a = F(0.25f),
             .b = F(0.25f), .want = F(0.5f)),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_F32, .flags = PTX_F_SAT, .a = nan_in, .b = F(1.0f),
             .want = 0),
        CASE(.op = PTX_OP_FMA, .type = PTX_T_F32, .rnd = PTX_RND_RN, .flags = PTX_F_SAT,
             .a = F(2.0f), .b = F(2.0f), .c = F(-5.0f), .want = 0),
        /* NaN results are canonical */
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F32, .a = nan_in, .b = F(1.0f), .want = QNAN32),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_F32, .a = 0, .b = F(INFINITY), .want = QNAN32),
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F64, .a = D(INFINITY), .b = D(-INFINITY),
             .want = QNAN64),
        CASE(.op = PTX_OP_DIV, .type = PTX_T_F32, .flags = PTX_F_FULL, .a = F(1.0f), .b = 0,
             .want = F(INFINITY)),
        /* min/max ignore a single NaN; -0 < +0 */
        CASE(.op = PTX_OP_MIN, .type = PTX_T_F32, .a = nan_in, .b = F(2.0f), .want = F(2.0f)),
        CASE(.op = PTX_OP_MAX, .type = PTX_T_F32, .a = F(3.0f), .b = nan_in, .want = F(3.0f)),
        CASE(.op = PTX_OP_MIN, .type = PTX_T_F32, .a = nan_in, .b = nan_in, .want = QNAN32),
        CASE(.op = PTX_OP_MIN, .type = PTX_T_F32, .flags = PTX_F_NAN, .a = nan_in,
             .b = F(2.0f), .want = QNAN32),
        CASE(.op = PTX_OP_MIN, .type = PTX_T_F32, .a = F(1.0f), .b = F(2.0f), .want = F(1.0f)),
        CASE(.op = PTX_OP_MAX, .type = PTX_T_F32, .a = F(1.0f), .b = F(2.0f), .want = F(2.0f)),
        CASE(.op = PTX_OP_MIN, .type = PTX_T_F32, .a = 0, .b = 0x80000000, .want = 0x80000000),
        CASE(.op = PTX_OP_MAX, .type = PTX_T_F32, .a = 0x80000000, .b = 0, .want = 0),
        CASE(.op = PTX_OP_MIN, .type = PTX_T_F64, .a = D(NAN), .b = D(-7.0), .want = D(-7.0)),
        CASE(.op = PTX_OP_MAX, .type = PTX_T_F64, .a = D(-1.0), .b = D(-7.0), .want = D(-1.0)),
        CASE(.op = PTX_OP_MAX, .type = PTX_T_F32, .flags = PTX_F_RELU, .a = F(-1.0f),
             .b = F(-7.0f), .want = 0),
        /* approximate and special functions */
        CASE(.op = PTX_OP_RCP, .type = PTX_T_F32, .flags = PTX_F_APPROX, .a = F(4.0f),
             .want = F(0.25f)),
        CASE(.op = PTX_OP_RCP, .type = PTX_T_F64, .flags = PTX_F_APPROX | PTX_F_FTZ,
             .a = D(8.0), .want = D(0.125)),
        CASE(.op = PTX_OP_SQRT, .type = PTX_T_F32, .flags = PTX_F_APPROX, .a = F(16.0f),
             .want = F(4.0f)),
        CASE(.op = PTX_OP_RSQRT, .type = PTX_T_F32, .flags = PTX_F_APPROX, .a = F(4.0f),
             .want = F(0.5f)),
        CASE(.op = PTX_OP_LG2, .type = PTX_T_F32, .flags = PTX_F_APPROX, .a = F(8.0f),
             .want = F(3.0f)),
        CASE(.op = PTX_OP_LG2, .type = PTX_T_F32, .flags = PTX_F_APPROX, .a = 0,
             .want = F(-INFINITY)),
        CASE(.op = PTX_OP_LG2, .type = PTX_T_F32, .flags = PTX_F_APPROX, .a = F(-1.0f),
             .want = QNAN32),
        CASE(.op = PTX_OP_EX2, .type = PTX_T_F32, .flags = PTX_F_APPROX, .a = F(3.0f),
             .want = F(8.0f)),
        CASE(.op = PTX_OP_SIN, .type = PTX_T_F32, .flags = PTX_F_APPROX, .a = 0, .want = 0),
        CASE(.op = PTX_OP_COS, .type = PTX_T_F32, .flags = PTX_F_APPROX, .a = 0,
             .want = F(1.0f)),
        CASE(.op = PTX_OP_SIN, .type = PTX_T_F32, .flags = PTX_F_APPROX, .a = F(1.0f),
             .want = F(sinf(1.0f))),
        CASE(.op = PTX_OP_TANH, .type = PTX_T_F32, .flags = PTX_F_APPROX, .a = F(0.5f),
             .want = F(tanhf(0.5f))),
        CASE(.op = PTX_OP_DIV, .type = PTX_T_F32, .flags = PTX_F_APPROX, .a = F(1.0f),
             .b = F(4.0f), .want = F(0.25f)),
        CASE(.op = PTX_OP_COPYSIGN, .type = PTX_T_F32, .a = F(-1.0f), .b = F(2.0f),
             .want = F(-2.0f)),
        CASE(.op = PTX_OP_COPYSIGN, .type = PTX_T_F64, .a = D(1.0), .b = D(-2.0),
             .want = D(2.0)),
        /* testp */
        CASE(.op = PTX_OP_TESTP, .type = PTX_T_F32, .sub = PTX_SUB_TESTP_FINITE,
             .a = F(INFINITY), .want = 0),
        CASE(.op = PTX_OP_TESTP, .type = PTX_T_F32, .sub = PTX_SUB_TESTP_INFINITE,
             .a = F(-INFINITY), .want = 1),
        CASE(.op = PTX_OP_TESTP, .type = PTX_T_F32, .sub = PTX_SUB_TESTP_NOTANUMBER,
             .a = nan_in, .want = 1),
        CASE(.op = PTX_OP_TESTP, .type = PTX_T_F32, .sub = PTX_SUB_TESTP_NUMBER, .a = nan_in,
             .want = 0),
        CASE(.op = PTX_OP_TESTP, .type = PTX_T_F32, .sub = PTX_SUB_TESTP_SUBNORMAL, .a = sub,
             .want = 1),
        CASE(.op = PTX_OP_TESTP, .type = PTX_T_F32, .sub = PTX_SUB_TESTP_NORMAL, .a = F(1.0f),
             .want = 1),
        CASE(.op = PTX_OP_TESTP, .type = PTX_T_F32, .sub = PTX_SUB_TESTP_NORMAL, .a = 0,
             .want = 0),
        CASE(.op = PTX_OP_TESTP, .type = PTX_T_F64, .sub = PTX_SUB_TESTP_SUBNORMAL,
             .a = 1, .want = 1),
    };
    RUN_CASES(cases);
}

static void test_half(void **state)
{
    (void)state;
    const struct alu_case cases[] = {
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F16, .a = 0x3c00, .b = 0x1000, .want = 0x3c00),
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F16, .a = 0x3c00, .b = 0x1200, .want = 0x3c01),
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F16, .a = 0x3c01, .b = 0x1000, .want = 0x3c02),
        CASE(.op = PTX_OP_SUB, .type = PTX_T_F16, .a = 0x4200, .b = 0x3c00, .want = 0x4000),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_F16, .a = 0x7bff, .b = 0x4000, .want = 0x7c00),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_F16, .a = 0x0400, .b = 0x3800, .want = 0x0200),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_F16, .flags = PTX_F_FTZ, .a = 0x0400,
             .b = 0x3800, .want = 0),
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F16, .flags = PTX_F_SAT, .a = 0x3c00, .b = 0x3c00,
             .want = 0x3c00),
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F16, .a = 0x7e00, .b = 0x3c00, .want = 0x7fff),
        /* fma rounds once: (1+2^-10)(1-2^-11) + c around the tie 1 + 2^-11 */
        CASE(.op = PTX_OP_FMA, .type = PTX_T_F16, .rnd = PTX_RND_RN, .a = 0x3c01, .b = 0x3bff,
             .c = 0x0001, .want = 0x3c00),
        CASE(.op = PTX_OP_FMA, .type = PTX_T_F16, .rnd = PTX_RND_RN, .a = 0x3c01, .b = 0x3bff,
             .c = 0x0010, .want = 0x3c01),
        CASE(.op = PTX_OP_FMA, .type = PTX_T_F16, .rnd = PTX_RND_RN, .a = 0x3c01, .b = 0x3c01,
             .c = 0x1000, .want = 0x3c03),
        /* x2: low and high halves independently */
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F16X2, .a = 0x3c004000, .b = 0x3c003c00,
             .want = 0x40004200),
        CASE(.op = PTX_OP_NEG, .type = PTX_T_F16X2, .a = 0x3c00bc00, .want = 0xbc003c00),
        CASE(.op = PTX_OP_ABS, .type = PTX_T_F16, .a = 0xbc00, .want = 0x3c00),
        CASE(.op = PTX_OP_MIN, .type = PTX_T_F16, .a = 0x7e00, .b = 0x3c00, .want = 0x3c00),
        CASE(.op = PTX_OP_MAX, .type = PTX_T_F16X2, .a = 0x3c00c000, .b = 0x40007e00,
             .want = 0x4000c000),
        CASE(.op = PTX_OP_MAX, .type = PTX_T_F16, .flags = PTX_F_RELU, .a = 0xbc00,
             .b = 0xc000, .want = 0),
        /* bf16 */
        CASE(.op = PTX_OP_ADD, .type = PTX_T_BF16, .rnd = PTX_RND_RN, .a = 0x3f80, .b = 0x3b80,
             .want = 0x3f80),
        CASE(.op = PTX_OP_ADD, .type = PTX_T_BF16, .rnd = PTX_RND_RN, .a = 0x3f81, .b = 0x3b80,
             .want = 0x3f82),
        CASE(.op = PTX_OP_ADD, .type = PTX_T_BF16, .rnd = PTX_RND_RN, .a = 0x3f80, .b = 0x0d80,
             .want = 0x3f80),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_BF16, .rnd = PTX_RND_RN, .a = 0x3fc0, .b = 0x3fc0,
             .want = 0x4010),
        CASE(.op = PTX_OP_FMA, .type = PTX_T_BF16, .rnd = PTX_RND_RN, .a = 0x3b81, .b = 0x3f80,
             .c = 0x3f80, .want = 0x3f81),
        CASE(.op = PTX_OP_FMA, .type = PTX_T_BF16X2, .rnd = PTX_RND_RN, .a = 0x3f803b80,
             .b = 0x40003f80, .c = 0x3f803f81, .want = 0x40403f82),
    };
    RUN_CASES(cases);
}

static void test_compare_select(void **state)
{
    (void)state;
    const uint64_t nan = 0x7fc00000, one = F(1.0f), two = F(2.0f);
    const struct alu_case cases[] = {
        CASE(.op = PTX_OP_SETP, .type = PTX_T_S32, .cmp = PTX_CMP_LT, .a = 0xffffffff, .b = 1,
             .want = 1),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_PRED, .type2 = PTX_T_S32, .cmp = PTX_CMP_LT,
             .a = 0xffffffff, .b = 1, .want = 1),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_U32, .cmp = PTX_CMP_LT, .a = 0xffffffff, .b = 1,
             .want = 0),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_S32, .cmp = PTX_CMP_LO, .a = 0xffffffff, .b = 1,
             .want = 0),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_U32, .cmp = PTX_CMP_HS, .a = 0xffffffff, .b = 1,
             .want = 1),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_S16, .cmp = PTX_CMP_GE, .a = 0x8000, .b = 0,
             .want = 0),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_B32, .cmp = PTX_CMP_EQ, .a = 0x100000005ull,
             .b = 5, .want = 1),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_U64, .cmp = PTX_CMP_NE, .a = 1ull << 40, .b = 0,
             .want = 1),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_S64, .cmp = PTX_CMP_LE, .a = 1ull << 63,
             .b = 0, .want = 1),
        /* floats: ordered compares are false on NaN, unordered ones true */
        CASE(.op = PTX_OP_SETP, .type = PTX_T_F32, .cmp = PTX_CMP_LT, .a = nan, .b = one,
             .want = 0),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_F32, .cmp = PTX_CMP_LTU, .a = nan, .b = one,
             .want = 1),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_F32, .cmp = PTX_CMP_EQU, .a = nan, .b = nan,
             .want = 1),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_F32, .cmp = PTX_CMP_EQ, .a = nan, .b = nan,
             .want = 0),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_F32, .cmp = PTX_CMP_NEU, .a = one, .b = one,
             .want = 0),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_F32, .cmp = PTX_CMP_NE, .a = nan, .b = one,
             .want = 0),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_F32, .cmp = PTX_CMP_NEU, .a = nan, .b = one,
             .want = 1),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_F32, .cmp = PTX_CMP_NUM, .a = one, .b = nan,
             .want = 0),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_F32, .cmp = PTX_CMP_NUM, .a = one, .b = two,
             .want = 1),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_F32, .cmp = PTX_CMP_NAN, .a = one, .b = nan,
             .want = 1),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_F32, .cmp = PTX_CMP_GE, .a = one, .b = one,
             .want = 1),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_F32, .cmp = PTX_CMP_GTU, .a = two, .b = one,
             .want = 1),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_F32, .cmp = PTX_CMP_LEU, .a = two, .b = one,
             .want = 0),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_F32, .cmp = PTX_CMP_EQ, .a = 0x80000000, .b = 0,
             .want = 1),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_F64, .cmp = PTX_CMP_LT, .a = D(-1.0),
             .b = D(0.5), .want = 1),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_F64, .cmp = PTX_CMP_GEU, .a = D(NAN),
             .b = D(0.5), .want = 1),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_F32, .cmp = PTX_CMP_LT, .a = 0x80000001, .b = 0,
             .want = 1),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_F32, .cmp = PTX_CMP_LT, .flags = PTX_F_FTZ,
             .a = 0x80000001, .b = 0, .want = 0),
        /* p|q and boolean combination with c */
        CASE(.op = PTX_OP_SETP, .type = PTX_T_S32, .cmp = PTX_CMP_LT, .ndst = 2, .a = 1,
             .b = 2, .want = 1, .want2 = 0),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_S32, .cmp = PTX_CMP_LT, .boolop = PTX_BOOL_AND,
             .ndst = 2, .a = 1, .b = 2, .c = 0, .want = 0, .want2 = 0),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_S32, .cmp = PTX_CMP_LT, .boolop = PTX_BOOL_AND,
             .ndst = 2, .a = 3, .b = 2, .c = 1, .want = 0, .want2 = 1),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_S32, .cmp = PTX_CMP_LT, .boolop = PTX_BOOL_OR,
             .ndst = 2, .a = 1, .b = 2, .c = 1, .want = 1, .want2 = 1),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_S32, .cmp = PTX_CMP_LT, .boolop = PTX_BOOL_XOR,
             .ndst = 2, .a = 1, .b = 2, .c = 1, .want = 0, .want2 = 1),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_F16, .cmp = PTX_CMP_LT, .a = 0x3c00, .b = 0x4000,
             .want = 1),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_F16X2, .cmp = PTX_CMP_LT, .ndst = 2,
             .a = 0x40003c00, .b = 0x3c004000, .want = 1, .want2 = 0),
        CASE(.op = PTX_OP_SETP, .type = PTX_T_BF16, .cmp = PTX_CMP_GT, .a = 0x3f80, .b = 0xbf80,
             .want = 1),
        /* set */
        CASE(.op = PTX_OP_SET, .type = PTX_T_U32, .type2 = PTX_T_F32, .cmp = PTX_CMP_LT,
             .a = one, .b = two, .want = 0xffffffff),
        CASE(.op = PTX_OP_SET, .type = PTX_T_U32, .type2 = PTX_T_F32, .cmp = PTX_CMP_LT,
             .a = two, .b = one, .want = 0),
        CASE(.op = PTX_OP_SET, .type = PTX_T_F32, .type2 = PTX_T_S32, .cmp = PTX_CMP_GT,
             .a = 5, .b = 0xffffffff, .want = F(1.0f)),
        CASE(.op = PTX_OP_SET, .type = PTX_T_F32, .type2 = PTX_T_S32, .cmp = PTX_CMP_GT,
             .a = 0xffffffff, .b = 5, .want = 0),
        CASE(.op = PTX_OP_SET, .type = PTX_T_S32, .type2 = PTX_T_U32, .cmp = PTX_CMP_EQ,
             .boolop = PTX_BOOL_AND, .a = 7, .b = 7, .c = 0, .want = 0),
        CASE(.op = PTX_OP_SET, .type = PTX_T_S32, .type2 = PTX_T_U32, .cmp = PTX_CMP_EQ,
             .boolop = PTX_BOOL_OR, .a = 7, .b = 8, .c = 1, .want = 0xffffffff),
        /* selp / slct */
        CASE(.op = PTX_OP_SELP, .type = PTX_T_B32, .a = 11, .b = 22, .c = 1, .want = 11),
        CASE(.op = PTX_OP_SELP, .type = PTX_T_B32, .a = 11, .b = 22, .c = 0, .want = 22),
        CASE(.op = PTX_OP_SELP, .type = PTX_T_F64, .a = D(1.5), .b = D(2.5), .c = 0,
             .want = D(2.5)),
        CASE(.op = PTX_OP_SLCT, .type = PTX_T_B32, .type2 = PTX_T_S32, .a = 11, .b = 22,
             .c = 0xffffffff, .want = 22),
        CASE(.op = PTX_OP_SLCT, .type = PTX_T_B32, .type2 = PTX_T_S32, .a = 11, .b = 22,
             .c = 0, .want = 11),
        CASE(.op = PTX_OP_SLCT, .type = PTX_T_F32, .type2 = PTX_T_F32, .a = one, .b = two,
             .c = 0x80000000, .want = one),
        CASE(.op = PTX_OP_SLCT, .type = PTX_T_F32, .type2 = PTX_T_F32, .a = one, .b = two,
             .c = F(-1.0f), .want = two),
        CASE(.op = PTX_OP_SLCT, .type = PTX_T_F32, .type2 = PTX_T_F32, .a = one, .b = two,
             .c = 0x80000001, .want = two),
        CASE(.op = PTX_OP_SLCT, .type = PTX_T_F32, .type2 = PTX_T_F32, .flags = PTX_F_FTZ,
             .a = one, .b = two, .c = 0x80000001, .want = one),
    };
    RUN_CASES(cases);
}

/* Directed rounding must not leak: after a .rz op, a default op still rounds to nearest. */
static void test_rounding_restored(void **state)
{
    (void)state;
    const struct alu_case cases[] = {
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F32, .rnd = PTX_RND_RZ, .a = F(1.0f),
             .b = F(0x1.8p-24f), .want = 0x3f800000),
        CASE(.op = PTX_OP_ADD, .type = PTX_T_F32, .a = F(1.0f), .b = F(0x1.8p-24f),
             .want = 0x3f800001),
    };
    RUN_CASES(cases);
    volatile float x = 1.0f, y = 0x1.8p-24f;
    assert_true(tf_bits(x + y) == 0x3f800001);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f32_rounding),
        cmocka_unit_test(test_f32_special),
        cmocka_unit_test(test_half),
        cmocka_unit_test(test_compare_select),
        cmocka_unit_test(test_rounding_restored),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
