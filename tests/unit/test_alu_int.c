/* test_alu_int.c: integer and bit-manipulation semantics of the ALU (func/alu.h) against
 * values computed by hand from the PTX ISA descriptions or by C on the host. */
#include "base/rng.h"
#include "unit/test_alu_util.h"

#define U32(x) ((uint64_t)(uint32_t)(x))
#define U16(x) ((uint64_t)(uint16_t)(x))

static void test_add_sub_mul(void **state)
{
    (void)state;
    const struct alu_case cases[] = {
        CASE(.op = PTX_OP_ADD, .type = PTX_T_U32, .a = 0xffffffff, .b = 1, .want = 0),
        CASE(.op = PTX_OP_ADD, .type = PTX_T_S32, .a = 0x7fffffff, .b = 1, .want = 0x80000000),
        CASE(.op = PTX_OP_ADD, .type = PTX_T_S32, .flags = PTX_F_SAT, .a = 0x7fffffff, .b = 1,
             .want = 0x7fffffff),
        CASE(.op = PTX_OP_ADD, .type = PTX_T_S32, .flags = PTX_F_SAT, .a = 0x80000000,
             .b = 0xffffffff, .want = 0x80000000),
        CASE(.op = PTX_OP_ADD, .type = PTX_T_U16, .a = 0xffff, .b = 2, .want = 1),
        CASE(.op = PTX_OP_ADD, .type = PTX_T_U64, .a = ~0ull, .b = 1, .want = 0),
        /* high garbage in a 16-bit operand register must not leak into the result */
        CASE(.op = PTX_OP_ADD, .type = PTX_T_S16, .a = 0xabcd0001, .b = 0xffff, .want = 0),
        CASE(.op = PTX_OP_SUB, .type = PTX_T_U32, .a = 0, .b = 1, .want = 0xffffffff),
        CASE(.op = PTX_OP_SUB, .type = PTX_T_S32, .flags = PTX_F_SAT, .a = 0x80000000, .b = 1,
             .want = 0x80000000),
        CASE(.op = PTX_OP_SUB, .type = PTX_T_S32, .flags = PTX_F_SAT, .a = 0x7fffffff,
             .b = 0xffffffff, .want = 0x7fffffff),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_S32, .sub = PTX_SUB_LO, .a = U32(-3), .b = 5,
             .want = U32(-15)),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_S32, .sub = PTX_SUB_HI, .a = U32(-1), .b = 1,
             .want = 0xffffffff),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_U32, .sub = PTX_SUB_HI, .a = 0xffffffff,
             .b = 0xffffffff, .want = 0xfffffffe),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_S32, .sub = PTX_SUB_HI, .a = 0x80000000,
             .b = 0x80000000, .want = 0x40000000),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_S32, .sub = PTX_SUB_HI, .a = U32(-7), .b = 3,
             .want = 0xffffffff),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_S64, .sub = PTX_SUB_HI, .a = ~0ull, .b = 1,
             .want = ~0ull),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_U64, .sub = PTX_SUB_HI, .a = ~0ull, .b = ~0ull,
             .want = 0xfffffffffffffffeull),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_S64, .sub = PTX_SUB_HI, .a = 1ull << 63, .b = 2,
             .want = ~0ull),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_S64, .sub = PTX_SUB_LO, .a = 1ull << 63, .b = 2,
             .want = 0),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_S32, .sub = PTX_SUB_WIDE, .a = U32(-2), .b = 3,
             .want = (uint64_t)-6),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_S64, .type2 = PTX_T_S32, .sub = PTX_SUB_WIDE,
             .a = U32(-2), .b = 3, .want = (uint64_t)-6),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_U32, .sub = PTX_SUB_WIDE, .a = 0xffffffff,
             .b = 0xffffffff, .want = 0xfffffffe00000001ull),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_S16, .sub = PTX_SUB_WIDE, .a = 0xffff,
             .b = 0x8000, .want = 0x8000),
        CASE(.op = PTX_OP_MUL, .type = PTX_T_U16, .sub = PTX_SUB_WIDE, .a = 0xffff,
             .b = 0xffff, .want = 0xfffe0001),
        CASE(.op = PTX_OP_MAD, .type = PTX_T_S32, .sub = PTX_SUB_LO, .a = 2, .b = 3, .c = 4,
             .want = 10),
        CASE(.op = PTX_OP_MAD, .type = PTX_T_U32, .sub = PTX_SUB_HI, .a = 0xffffffff,
             .b = 0xffffffff, .c = 1, .want = 0xffffffff),
        CASE(.op = PTX_OP_MAD, .type = PTX_T_S32, .sub = PTX_SUB_WIDE, .a = U32(-2), .b = 3,
             .c = 10, .want = 4),
        CASE(.op = PTX_OP_MAD, .type = PTX_T_S32, .sub = PTX_SUB_HI, .flags = PTX_F_SAT,
             .a = 0x7fffffff, .b = 0x7fffffff, .c = 0x7fffffff, .want = 0x7fffffff),
        CASE(.op = PTX_OP_MUL24, .type = PTX_T_U32, .sub = PTX_SUB_LO, .a = 0xffffff,
             .b = 0xffffff, .want = 0xfe000001),
        CASE(.op = PTX_OP_MUL24, .type = PTX_T_U32, .sub = PTX_SUB_HI, .a = 0xffffff,
             .b = 0xffffff, .want = 0xfffffe00),
        CASE(.op = PTX_OP_MUL24, .type = PTX_T_S32, .sub = PTX_SUB_LO, .a = 0xffffff, .b = 2,
             .want = 0xfffffffe),
        CASE(.op = PTX_OP_MUL24, .type = PTX_T_U32, .sub = PTX_SUB_LO, .a = 0xff000002, .b = 3,
             .want = 6),
        CASE(.op = PTX_OP_MAD24, .type = PTX_T_U32, .sub = PTX_SUB_LO, .a = 2, .b = 3, .c = 1,
             .want = 7),
        CASE(.op = PTX_OP_SAD, .type = PTX_T_U32, .a = 3, .b = 10, .c = 5, .want = 12),
        CASE(.op = PTX_OP_SAD, .type = PTX_T_S32, .a = U32(-3), .b = 4, .c = 1, .want = 8),
        CASE(.op = PTX_OP_SAD, .type = PTX_T_U32, .a = 0xffffffff, .b = 0, .c = 1, .want = 0),
    };
    RUN_CASES(cases);
}

static void test_div_rem(void **state)
{
    (void)state;
    const struct alu_case cases[] = {
        CASE(.op = PTX_OP_DIV, .type = PTX_T_S32, .a = 7, .b = U32(-2), .want = U32(-3)),
        CASE(.op = PTX_OP_REM, .type = PTX_T_S32, .a = 7, .b = U32(-2), .want = 1),
        CASE(.op = PTX_OP_REM, .type = PTX_T_S32, .a = U32(-7), .b = 2, .want = U32(-1)),
        CASE(.op = PTX_OP_DIV, .type = PTX_T_S32, .a = 0x80000000, .b = U32(-1),
             .want = 0x80000000),
        CASE(.op = PTX_OP_REM, .type = PTX_T_S32, .a = 0x80000000, .b = U32(-1), .want = 0),
        CASE(.op = PTX_OP_DIV, .type = PTX_T_S64, .a = 1ull << 63, .b = ~0ull,
             .want = 1ull << 63),
        CASE(.op = PTX_OP_REM, .type = PTX_T_S64, .a = 1ull << 63, .b = ~0ull, .want = 0),
        CASE(.op = PTX_OP_DIV, .type = PTX_T_S16, .a = 0x8000, .b = 0xffff, .want = 0x8000),
        CASE(.op = PTX_OP_DIV, .type = PTX_T_U32, .a = 5, .b = 0, .want = 0xffffffff),
        CASE(.op = PTX_OP_REM, .type = PTX_T_U32, .a = 5, .b = 0, .want = 5),
        CASE(.op = PTX_OP_DIV, .type = PTX_T_S32, .a = 5, .b = 0, .want = 0xffffffff),
        CASE(.op = PTX_OP_REM, .type = PTX_T_S32, .a = U32(-5), .b = 0, .want = U32(-5)),
        CASE(.op = PTX_OP_DIV, .type = PTX_T_U64, .a = 5, .b = 0, .want = ~0ull),
        CASE(.op = PTX_OP_DIV, .type = PTX_T_U16, .a = 0xffff, .b = 2, .want = 0x7fff),
        CASE(.op = PTX_OP_DIV, .type = PTX_T_U32, .a = 0xffffffff, .b = 0x10, .want = 0x0fffffff),
        CASE(.op = PTX_OP_REM, .type = PTX_T_U64, .a = 1000000000007ull, .b = 1000,
             .want = 7),
    };
    RUN_CASES(cases);
}

static void test_abs_neg_minmax(void **state)
{
    (void)state;
    const struct alu_case cases[] = {
        CASE(.op = PTX_OP_ABS, .type = PTX_T_S32, .a = 0x80000000, .want = 0x80000000),
        CASE(.op = PTX_OP_ABS, .type = PTX_T_S32, .a = U32(-5), .want = 5),
        CASE(.op = PTX_OP_ABS, .type = PTX_T_S16, .a = 0xfffb, .want = 5),
        CASE(.op = PTX_OP_ABS, .type = PTX_T_S64, .a = (uint64_t)-9, .want = 9),
        CASE(.op = PTX_OP_NEG, .type = PTX_T_S32, .a = 5, .want = U32(-5)),
        CASE(.op = PTX_OP_NEG, .type = PTX_T_S64, .a = 1ull << 63, .want = 1ull << 63),
        CASE(.op = PTX_OP_MIN, .type = PTX_T_S32, .a = U32(-1), .b = 1, .want = 0xffffffff),
        CASE(.op = PTX_OP_MIN, .type = PTX_T_U32, .a = 0xffffffff, .b = 1, .want = 1),
        CASE(.op = PTX_OP_MAX, .type = PTX_T_S16, .a = 0x8000, .b = 0x7fff, .want = 0x7fff),
        CASE(.op = PTX_OP_MAX, .type = PTX_T_U64, .a = ~0ull, .b = 1, .want = ~0ull),
        CASE(.op = PTX_OP_MAX, .type = PTX_T_S64, .a = ~0ull, .b = 1, .want = 1),
        CASE(.op = PTX_OP_MIN, .type = PTX_T_S32, .flags = PTX_F_RELU, .a = U32(-5), .b = 3,
             .want = 0),
        CASE(.op = PTX_OP_MAX, .type = PTX_T_S32, .flags = PTX_F_RELU, .a = U32(-5),
             .b = U32(-3), .want = 0),
        CASE(.op = PTX_OP_MAX, .type = PTX_T_S32, .flags = PTX_F_RELU, .a = 7, .b = U32(-3),
             .want = 7),
    };
    RUN_CASES(cases);
}

static void test_bits(void **state)
{
    (void)state;
    const uint64_t la = 0xff00ff00, lb = 0xf0f0f0f0, lc = 0xcccccccc;
    const struct alu_case cases[] = {
        CASE(.op = PTX_OP_POPC, .type = PTX_T_B32, .a = 0xf0f0, .want = 8),
        CASE(.op = PTX_OP_POPC, .type = PTX_T_B64, .a = ~0ull, .want = 64),
        CASE(.op = PTX_OP_POPC, .type = PTX_T_B32, .a = 0xffffffff00000001ull, .want = 1),
        CASE(.op = PTX_OP_CLZ, .type = PTX_T_B32, .a = 0, .want = 32),
        CASE(.op = PTX_OP_CLZ, .type = PTX_T_B32, .a = 1, .want = 31),
        CASE(.op = PTX_OP_CLZ, .type = PTX_T_B32, .a = 0x80000000, .want = 0),
        CASE(.op = PTX_OP_CLZ, .type = PTX_T_B64, .a = 1, .want = 63),
        CASE(.op = PTX_OP_CLZ, .type = PTX_T_B64, .a = 0, .want = 64),
        /* bfind: position of the most significant non-sign bit, ~0 if none */
        CASE(.op = PTX_OP_BFIND, .type = PTX_T_U32, .a = 0, .want = 0xffffffff),
        CASE(.op = PTX_OP_BFIND, .type = PTX_T_U32, .a = 8, .want = 3),
        CASE(.op = PTX_OP_BFIND, .type = PTX_T_U32, .a = 8, .flags = PTX_F_SHIFTAMT, .want = 28),
        CASE(.op = PTX_OP_BFIND, .type = PTX_T_U32, .a = 0, .flags = PTX_F_SHIFTAMT,
             .want = 0xffffffff),
        CASE(.op = PTX_OP_BFIND, .type = PTX_T_S32, .a = 0xffffffff, .want = 0xffffffff),
        CASE(.op = PTX_OP_BFIND, .type = PTX_T_S32, .a = 0xfffffff0, .want = 3),
        CASE(.op = PTX_OP_BFIND, .type = PTX_T_S64, .a = 0x4000000000000000ull, .want = 62),
        CASE(.op = PTX_OP_BFIND, .type = PTX_T_U64, .a = 0x8000000000000000ull, .want = 63),
        CASE(.op = PTX_OP_BREV, .type = PTX_T_B32, .a = 1, .want = 0x80000000),
        CASE(.op = PTX_OP_BREV, .type = PTX_T_B32, .a = 0x12345678, .want = 0x1e6a2c48),
        CASE(.op = PTX_OP_BREV, .type = PTX_T_B64, .a = 1, .want = 1ull << 63),
        CASE(.op = PTX_OP_AND, .type = PTX_T_B32, .a = la, .b = lb, .want = la & lb),
        CASE(.op = PTX_OP_OR, .type = PTX_T_B32, .a = la, .b = lb, .want = la | lb),
        CASE(.op = PTX_OP_XOR, .type = PTX_T_B32, .a = la, .b = lb, .want = la ^ lb),
        CASE(.op = PTX_OP_NOT, .type = PTX_T_B32, .a = la, .want = ~la & 0xffffffff),
        CASE(.op = PTX_OP_NOT, .type = PTX_T_B16, .a = 0x00ff, .want = 0xff00),
        CASE(.op = PTX_OP_NOT, .type = PTX_T_PRED, .a = 1, .want = 0),
        CASE(.op = PTX_OP_NOT, .type = PTX_T_PRED, .a = 0, .want = 1),
        CASE(.op = PTX_OP_NEG, .type = PTX_T_PRED, .a = 0, .want = 1),
        CASE(.op = PTX_OP_AND, .type = PTX_T_PRED, .a = 1, .b = 1, .want = 1),
        CASE(.op = PTX_OP_XOR, .type = PTX_T_PRED, .a = 1, .b = 1, .want = 0),
        CASE(.op = PTX_OP_OR, .type = PTX_T_PRED, .a = 0, .b = 1, .want = 1),
        CASE(.op = PTX_OP_CNOT, .type = PTX_T_B32, .a = 0, .want = 1),
        CASE(.op = PTX_OP_CNOT, .type = PTX_T_B32, .a = 5, .want = 0),
        CASE(.op = PTX_OP_CNOT, .type = PTX_T_B16, .a = 0x10000, .want = 1),
        /* shifts by 0, 31, 32, 40 and beyond the width */
        CASE(.op = PTX_OP_SHL, .type = PTX_T_B32, .a = 1, .b = 0, .want = 1),
        CASE(.op = PTX_OP_SHL, .type = PTX_T_B32, .a = 1, .b = 31, .want = 0x80000000),
        CASE(.op = PTX_OP_SHL, .type = PTX_T_B32, .a = 1, .b = 32, .want = 0),
        CASE(.op = PTX_OP_SHL, .type = PTX_T_B32, .a = 1, .b = 40, .want = 0),
        CASE(.op = PTX_OP_SHL, .type = PTX_T_B16, .a = 0x8001, .b = 1, .want = 2),
        CASE(.op = PTX_OP_SHL, .type = PTX_T_B64, .a = 1, .b = 63, .want = 1ull << 63),
        CASE(.op = PTX_OP_SHL, .type = PTX_T_B64, .a = 1, .b = 64, .want = 0),
        CASE(.op = PTX_OP_SHR, .type = PTX_T_U32, .a = 0x80000000, .b = 0, .want = 0x80000000),
        CASE(.op = PTX_OP_SHR, .type = PTX_T_U32, .a = 0x80000000, .b = 31, .want = 1),
        CASE(.op = PTX_OP_SHR, .type = PTX_T_U32, .a = 0x80000000, .b = 32, .want = 0),
        CASE(.op = PTX_OP_SHR, .type = PTX_T_U32, .a = 0x80000000, .b = 40, .want = 0),
        CASE(.op = PTX_OP_SHR, .type = PTX_T_B32, .a = 0x80000000, .b = 4, .want = 0x08000000),
        CASE(.op = PTX_OP_SHR, .type = PTX_T_S32, .a = 0x80000000, .b = 31, .want = 0xffffffff),
        CASE(.op = PTX_OP_SHR, .type = PTX_T_S32, .a = 0x80000000, .b = 32, .want = 0xffffffff),
        CASE(.op = PTX_OP_SHR, .type = PTX_T_S32, .a = 0x80000000, .b = 40, .want = 0xffffffff),
        CASE(.op = PTX_OP_SHR, .type = PTX_T_S32, .a = 0x40000000, .b = 40, .want = 0),
        CASE(.op = PTX_OP_SHR, .type = PTX_T_S32, .a = 0x80000000, .b = 0xffffffffull,
             .want = 0xffffffff),
        CASE(.op = PTX_OP_SHR, .type = PTX_T_S16, .a = 0x8000, .b = 15, .want = 0xffff),
        CASE(.op = PTX_OP_SHR, .type = PTX_T_S64, .a = 1ull << 63, .b = 70, .want = ~0ull),
        /* bfe (PTX ISA pseudo code) */
        CASE(.op = PTX_OP_BFE, .type = PTX_T_U32, .a = 0x12345678, .b = 8, .c = 8, .want = 0x56),
        CASE(.op = PTX_OP_BFE, .type = PTX_T_S32, .a = 0xff00, .b = 8, .c = 8, .want = 0xffffffff),
        CASE(.op = PTX_OP_BFE, .type = PTX_T_S32, .a = 0x7f00, .b = 8, .c = 8, .want = 0x7f),
        CASE(.op = PTX_OP_BFE, .type = PTX_T_U32, .a = 0xffffffff, .b = 4, .c = 0, .want = 0),
        CASE(.op = PTX_OP_BFE, .type = PTX_T_S32, .a = 0xffffffff, .b = 4, .c = 0, .want = 0),
        CASE(.op = PTX_OP_BFE, .type = PTX_T_S32, .a = 0x80000000, .b = 40, .c = 5,
             .want = 0xffffffff),
        CASE(.op = PTX_OP_BFE, .type = PTX_T_U32, .a = 0xffffffff, .b = 40, .c = 5, .want = 0),
        CASE(.op = PTX_OP_BFE, .type = PTX_T_U32, .a = 0xffffffff, .b = 28, .c = 8, .want = 0xf),
        CASE(.op = PTX_OP_BFE, .type = PTX_T_S32, .a = 0xf0000000, .b = 28, .c = 8,
             .want = 0xffffffff),
        CASE(.op = PTX_OP_BFE, .type = PTX_T_S32, .a = 0x70000000, .b = 28, .c = 8, .want = 7),
        CASE(.op = PTX_OP_BFE, .type = PTX_T_U32, .a = 0x12345678, .b = 0x108, .c = 0x204,
             .want = 0x6),
        CASE(.op = PTX_OP_BFE, .type = PTX_T_U64, .a = ~0ull, .b = 60, .c = 8, .want = 0xf),
        CASE(.op = PTX_OP_BFE, .type = PTX_T_S64, .a = 0x0000008000000000ull, .b = 36, .c = 4,
             .want = ~0ull << 3),
        /* bfi */
        CASE(.op = PTX_OP_BFI, .type = PTX_T_B32, .a = 0xff, .b = 0x12345678, .c = 8, .d = 8,
             .want = 0x1234ff78),
        CASE(.op = PTX_OP_BFI, .type = PTX_T_B32, .a = 0xff, .b = 0x12345678, .c = 28, .d = 8,
             .want = 0xf2345678),
        CASE(.op = PTX_OP_BFI, .type = PTX_T_B32, .a = 0xff, .b = 0x12345678, .c = 8, .d = 0,
             .want = 0x12345678),
        CASE(.op = PTX_OP_BFI, .type = PTX_T_B32, .a = 0xff, .b = 0x12345678, .c = 32, .d = 8,
             .want = 0x12345678),
        CASE(.op = PTX_OP_BFI, .type = PTX_T_B64, .a = 0x5, .b = 0, .c = 62, .d = 3,
             .want = 1ull << 62),
        /* bmsk */
        CASE(.op = PTX_OP_BMSK, .type = PTX_T_B32, .sub = PTX_SUB_CLAMP, .a = 4, .b = 8,
             .want = 0xff0),
        CASE(.op = PTX_OP_BMSK, .type = PTX_T_B32, .sub = PTX_SUB_CLAMP, .a = 0, .b = 32,
             .want = 0xffffffff),
        CASE(.op = PTX_OP_BMSK, .type = PTX_T_B32, .sub = PTX_SUB_CLAMP, .a = 28, .b = 8,
             .want = 0xf0000000),
        CASE(.op = PTX_OP_BMSK, .type = PTX_T_B32, .sub = PTX_SUB_CLAMP, .a = 40, .b = 4,
             .want = 0),
        CASE(.op = PTX_OP_BMSK, .type = PTX_T_B32, .sub = PTX_SUB_WRAP, .a = 33, .b = 4,
             .want = 0x1e),
        /* lop3: LUT built from a=0xf0, b=0xcc, c=0xaa */
        CASE(.op = PTX_OP_LOP3, .type = PTX_T_B32, .a = la, .b = lb, .c = lc, .d = 0xf0,
             .want = la),
        CASE(.op = PTX_OP_LOP3, .type = PTX_T_B32, .a = la, .b = lb, .c = lc, .d = 0xcc,
             .want = lb),
        CASE(.op = PTX_OP_LOP3, .type = PTX_T_B32, .a = la, .b = lb, .c = lc, .d = 0xaa,
             .want = lc),
        CASE(.op = PTX_OP_LOP3, .type = PTX_T_B32, .a = la, .b = lb, .c = lc, .d = 0x96,
             .want = la ^ lb ^ lc),
        CASE(.op = PTX_OP_LOP3, .type = PTX_T_B32, .a = la, .b = lb, .c = lc, .d = 0xe8,
             .want = (la & lb) | (la & lc) | (lb & lc)),
        CASE(.op = PTX_OP_LOP3, .type = PTX_T_B32, .a = la, .b = lb, .c = lc,
             .d = 0xf0 & (0xcc | 0xaa), .want = la & (lb | lc)),
        CASE(.op = PTX_OP_LOP3, .type = PTX_T_B32, .a = la, .b = lb, .c = lc, .d = 0xff,
             .want = 0xffffffff),
        /* dp4a / dp2a */
        CASE(.op = PTX_OP_DP4A, .type = PTX_T_U32, .type2 = PTX_T_U32, .a = 0x01020304,
             .b = 0x01010101, .c = 10, .want = 20),
        CASE(.op = PTX_OP_DP4A, .type = PTX_T_S32, .type2 = PTX_T_S32, .a = 0xffffffff,
             .b = 0x02020202, .c = 0, .want = U32(-8)),
        CASE(.op = PTX_OP_DP4A, .type = PTX_T_S32, .type2 = PTX_T_U32, .a = 0xffffffff,
             .b = 0xffffffff, .c = 0, .want = U32(-1020)),
        CASE(.op = PTX_OP_DP2A, .type = PTX_T_U32, .type2 = PTX_T_U32, .sub = PTX_SUB_LO,
             .a = 0x00020003, .b = 0x0504, .c = 1, .want = 23),
        CASE(.op = PTX_OP_DP2A, .type = PTX_T_U32, .type2 = PTX_T_U32, .sub = PTX_SUB_HI,
             .a = 0x00020003, .b = 0x05040000, .c = 1, .want = 23),
        CASE(.op = PTX_OP_DP2A, .type = PTX_T_S32, .type2 = PTX_T_S32, .sub = PTX_SUB_LO,
             .a = 0xffff0002, .b = 0x00000303, .c = 0, .want = U32(6 - 3)),
        /* fns */
        CASE(.op = PTX_OP_FNS, .type = PTX_T_B32, .a = 0xb, .b = 0, .c = 1, .want = 0),
        CASE(.op = PTX_OP_FNS, .type = PTX_T_B32, .a = 0xb, .b = 0, .c = 2, .want = 1),
        CASE(.op = PTX_OP_FNS, .type = PTX_T_B32, .a = 0xb, .b = 0, .c = 3, .want = 3),
        CASE(.op = PTX_OP_FNS, .type = PTX_T_B32, .a = 0xb, .b = 0, .c = 4, .want = 0xffffffff),
        CASE(.op = PTX_OP_FNS, .type = PTX_T_B32, .a = 0xb, .b = 3, .c = U32(-1), .want = 3),
        CASE(.op = PTX_OP_FNS, .type = PTX_T_B32, .a = 0xb, .b = 3, .c = U32(-2), .want = 1),
        CASE(.op = PTX_OP_FNS, .type = PTX_T_B32, .a = 0xb, .b = 2, .c = 0, .want = 0xffffffff),
        CASE(.op = PTX_OP_FNS, .type = PTX_T_B32, .a = 0xb, .b = 1, .c = 0, .want = 1),
        /* mov copies the low bits of the type */
        CASE(.op = PTX_OP_MOV, .type = PTX_T_B32, .a = 0x1ffffffffull, .want = 0xffffffff),
        CASE(.op = PTX_OP_MOV, .type = PTX_T_U64, .a = (uint64_t)-2, .want = (uint64_t)-2),
        CASE(.op = PTX_OP_MOV, .type = PTX_T_PRED, .a = 1, .want = 1),
    };
    RUN_CASES(cases);
}

static void test_prmt_shf(void **state)
{
    (void)state;
    const uint64_t a = 0x03020100, b = 0x07060504; /* byte i holds i */
    const struct alu_case cases[] = {
        CASE(.op = PTX_OP_PRMT, .type = PTX_T_B32, .a = a, .b = b, .c = 0x3210, .want = a),
        CASE(.op = PTX_OP_PRMT, .type = PTX_T_B32, .a = a, .b = b, .c = 0x7654, .want = b),
        CASE(.op = PTX_OP_PRMT, .type = PTX_T_B32, .a = a, .b = b, .c = 0x0123,
             .want = 0x00010203),
        CASE(.op = PTX_OP_PRMT, .type = PTX_T_B32, .a = a, .b = b, .c = 0x4567,
             .want = 0x04050607),
        CASE(.op = PTX_OP_PRMT, .type = PTX_T_B32, .a = 0x80, .b = 0, .c = 0x8888,
             .want = 0xffffffff),
        CASE(.op = PTX_OP_PRMT, .type = PTX_T_B32, .a = 0x80, .b = 0, .c = 0x0008,
             .want = 0x808080ff),
        CASE(.op = PTX_OP_PRMT, .type = PTX_T_B32, .a = 0x7f, .b = 0, .c = 0x0008,
             .want = 0x7f7f7f00),
        CASE(.op = PTX_OP_PRMT, .type = PTX_T_B32, .sub = PTX_SUB_PRMT_F4E, .a = a, .b = b,
             .c = 1, .want = 0x04030201),
        CASE(.op = PTX_OP_PRMT, .type = PTX_T_B32, .sub = PTX_SUB_PRMT_F4E, .a = a, .b = b,
             .c = 3, .want = 0x06050403),
        CASE(.op = PTX_OP_PRMT, .type = PTX_T_B32, .sub = PTX_SUB_PRMT_B4E, .a = a, .b = b,
             .c = 0, .want = 0x05060700),
        CASE(.op = PTX_OP_PRMT, .type = PTX_T_B32, .sub = PTX_SUB_PRMT_B4E, .a = a, .b = b,
             .c = 3, .want = 0x00010203),
        CASE(.op = PTX_OP_PRMT, .type = PTX_T_B32, .sub = PTX_SUB_PRMT_RC8, .a = a, .b = b,
             .c = 2, .want = 0x02020202),
        CASE(.op = PTX_OP_PRMT, .type = PTX_T_B32, .sub = PTX_SUB_PRMT_ECL, .a = a, .b = b,
             .c = 2, .want = 0x03020202),
        CASE(.op = PTX_OP_PRMT, .type = PTX_T_B32, .sub = PTX_SUB_PRMT_ECR, .a = a, .b = b,
             .c = 1, .want = 0x01010100),
        CASE(.op = PTX_OP_PRMT, .type = PTX_T_B32, .sub = PTX_SUB_PRMT_RC16, .a = a, .b = b,
             .c = 1, .want = 0x03020302),
        CASE(.op = PTX_OP_PRMT, .type = PTX_T_B32, .sub = PTX_SUB_PRMT_RC16, .a = a, .b = b,
             .c = 0, .want = 0x01000100),
        /* shf: {b:a} funnel, b is the high word */
        CASE(.op = PTX_OP_SHF, .type = PTX_T_B32, .sub = PTX_SUB_SHF_L, .a = 0x89abcdef,
             .b = 0x01234567, .c = 8, .want = 0x23456789),
        CASE(.op = PTX_OP_SHF, .type = PTX_T_B32, .sub = PTX_SUB_SHF_R, .a = 0x89abcdef,
             .b = 0x01234567, .c = 8, .want = 0x6789abcd),
        CASE(.op = PTX_OP_SHF, .type = PTX_T_B32, .sub = PTX_SUB_SHF_L, .a = 0x89abcdef,
             .b = 0x01234567, .c = 40, .want = 0x89abcdef),
        CASE(.op = PTX_OP_SHF, .type = PTX_T_B32, .sub = PTX_SUB_SHF_L, .flags = PTX_F_WRAP,
             .a = 0x89abcdef, .b = 0x01234567, .c = 40, .want = 0x23456789),
        CASE(.op = PTX_OP_SHF, .type = PTX_T_B32, .sub = PTX_SUB_SHF_R, .a = 0x89abcdef,
             .b = 0x01234567, .c = 32, .want = 0x01234567),
        CASE(.op = PTX_OP_SHF, .type = PTX_T_B32, .sub = PTX_SUB_SHF_R, .flags = PTX_F_WRAP,
             .a = 0x89abcdef, .b = 0x01234567, .c = 32, .want = 0x89abcdef),
        CASE(.op = PTX_OP_SHF, .type = PTX_T_B32, .sub = PTX_SUB_SHF_L, .a = 0x89abcdef,
             .b = 0x01234567, .c = 0, .want = 0x01234567),
    };
    RUN_CASES(cases);
}

/* Run one instruction on all 32 lanes with per-lane sources. */
static void exec_lanes(enum ptx_op op, enum ptx_type t, enum ptx_sub sub, uint32_t flags,
                       uint32_t mask, const uint64_t *a, const uint64_t *b, const uint64_t *c,
                       uint64_t *d, uint32_t *carry)
{
    struct ptx_inst in;
    memset(&in, 0, sizeof in);
    in.op = (uint16_t)op;
    in.type = (uint8_t)t;
    in.sub = (uint8_t)sub;
    in.flags = flags;
    in.ndst = 1;
    uint64_t src[ALU_MAX_SRC][32] = {{0}}, dst[ALU_MAX_DST][32];
    for (unsigned l = 0; l < 32; l++) {
        src[0][l] = a[l];
        src[1][l] = b[l];
        src[2][l] = c ? c[l] : 0;
        dst[0][l] = d[l];
    }
    struct err e;
    err_clear(&e);
    assert_int_equal(alu_exec(&in, mask, (const uint64_t(*)[32])src, dst, carry, &e), WS_OK);
    for (unsigned l = 0; l < 32; l++)
        d[l] = dst[0][l];
}

static void test_carry_chains(void **state)
{
    (void)state;
    struct rng seed;
    rng_init(&seed, 1);
    uint64_t a[4][32], b[4][32], r[4][32], hi[2][32], lo[2][32];
    for (unsigned l = 0; l < 32; l++) {
        for (unsigned k = 0; k < 4; k++) {
            a[k][l] = rng_next(&seed);
            b[k][l] = rng_next(&seed);
        }
        if (l < 4) { /* force carries and borrows across the word boundary */
            a[0][l] = ~0ull;
            b[0][l] = l + 1;
        }
    }
    uint32_t carry = 0;

    /* 64-bit add from two 32-bit halves: add.cc.u32 / addc.u32 */
    for (unsigned l = 0; l < 32; l++) {
        lo[0][l] = a[0][l] & 0xffffffff;
        lo[1][l] = b[0][l] & 0xffffffff;
        hi[0][l] = a[0][l] >> 32;
        hi[1][l] = b[0][l] >> 32;
    }
    exec_lanes(PTX_OP_ADD, PTX_T_U32, PTX_SUB_NONE, PTX_F_CC, ~0u, lo[0], lo[1], NULL, r[0],
               &carry);
    exec_lanes(PTX_OP_ADDC, PTX_T_U32, PTX_SUB_NONE, 0, ~0u, hi[0], hi[1], NULL, r[1], &carry);
    for (unsigned l = 0; l < 32; l++)
        assert_true((r[1][l] << 32 | r[0][l]) == a[0][l] + b[0][l]);

    /* 64-bit subtract: sub.cc.u32 / subc.u32 */
    exec_lanes(PTX_OP_SUB, PTX_T_U32, PTX_SUB_NONE, PTX_F_CC, ~0u, lo[0], lo[1], NULL, r[0],
               &carry);
    exec_lanes(PTX_OP_SUBC, PTX_T_U32, PTX_SUB_NONE, 0, ~0u, hi[0], hi[1], NULL, r[1], &carry);
    for (unsigned l = 0; l < 32; l++)
        assert_true((r[1][l] << 32 | r[0][l]) == a[0][l] - b[0][l]);

    /* 192-bit add: add.cc.u64, addc.cc.u64, addc.u64 (carry out of 128 bits in word 2) */
    uint64_t zero[32] = {0};
    exec_lanes(PTX_OP_ADD, PTX_T_U64, PTX_SUB_NONE, PTX_F_CC, ~0u, a[0], b[0], NULL, r[0],
               &carry);
    exec_lanes(PTX_OP_ADDC, PTX_T_U64, PTX_SUB_NONE, PTX_F_CC, ~0u, a[1], b[1], NULL, r[1],
               &carry);
    exec_lanes(PTX_OP_ADDC, PTX_T_U64, PTX_SUB_NONE, 0, ~0u, zero, zero, NULL, r[2], &carry);
    for (unsigned l = 0; l < 32; l++) {
        unsigned __int128 x = (unsigned __int128)a[1][l] << 64 | a[0][l];
        unsigned __int128 y = (unsigned __int128)b[1][l] << 64 | b[0][l];
        unsigned __int128 s = x + y;
        assert_true(r[0][l] == (uint64_t)s);
        assert_true(r[1][l] == (uint64_t)(s >> 64));
        assert_true(r[2][l] == (uint64_t)(s < x)); /* carry out of bit 127 */
    }

    /* 32x32->64 multiply-add via mad.lo.cc.u32 / madc.hi.u32 equals (u64)a*b + c */
    exec_lanes(PTX_OP_MAD, PTX_T_U32, PTX_SUB_LO, PTX_F_CC, ~0u, lo[0], lo[1], hi[0], r[0],
               &carry);
    exec_lanes(PTX_OP_MADC, PTX_T_U32, PTX_SUB_HI, 0, ~0u, lo[0], lo[1], hi[1], r[1], &carry);
    for (unsigned l = 0; l < 32; l++) {
        uint64_t want = lo[0][l] * lo[1][l] + (hi[1][l] << 32 | hi[0][l]);
        assert_true((r[1][l] << 32 | r[0][l]) == want);
    }

    /* carry bits of inactive lanes are preserved; .cc writes only active lanes */
    uint64_t ones[32], one[32];
    for (unsigned l = 0; l < 32; l++) {
        ones[l] = 0xffffffff;
        one[l] = 1;
        r[0][l] = 77;
    }
    carry = 0x0000ffffu;
    exec_lanes(PTX_OP_ADD, PTX_T_U32, PTX_SUB_NONE, PTX_F_CC, 0x00ff00ffu, one, one, NULL, r[0],
               &carry);
    assert_int_equal(carry, 0x0000ff00u); /* active lanes: no carry out of 1 + 1 */
    exec_lanes(PTX_OP_ADD, PTX_T_U32, PTX_SUB_NONE, PTX_F_CC, 0xff000000u, ones, one, NULL,
               r[0], &carry);
    assert_int_equal(carry, 0xff00ff00u);
    for (unsigned l = 0; l < 32; l++)
        assert_true(r[0][l] == ((0x00ff00ffu | 0xff000000u) >> l & 1 ? (l >= 24 ? 0 : 2) : 77));
    /* addc without .cc reads but does not write the carry */
    exec_lanes(PTX_OP_ADDC, PTX_T_U32, PTX_SUB_NONE, 0, ~0u, one, one, NULL, r[0], &carry);
    assert_int_equal(carry, 0xff00ff00u);
    for (unsigned l = 0; l < 32; l++)
        assert_true(r[0][l] == 2 + (0xff00ff00u >> l & 1));
}

static void test_unsupported(void **state)
{
    (void)state;
    struct ptx_inst in;
    memset(&in, 0, sizeof in);
    in.op = PTX_OP_DIV;
    in.type = PTX_T_F16X2;
    in.rnd = PTX_RND_RP;
    in.ndst = 1;
    uint64_t src[ALU_MAX_SRC][32] = {{0}}, dst[ALU_MAX_DST][32] = {{0}};
    uint32_t carry = 0;
    struct err e;
    err_clear(&e);
    assert_int_equal(alu_exec(&in, ~0u, (const uint64_t(*)[32])src, dst, &carry, &e),
                     WS_ERR_UNSUPPORTED);
    assert_non_null(strstr(e.msg, "div.rp.f16x2"));

    in.op = PTX_OP_ADD;
    in.type = PTX_T_U32;
    in.rnd = PTX_RND_NONE;
    in.flags = PTX_F_SAT; /* add.sat is s32 only */
    err_clear(&e);
    assert_int_equal(alu_exec(&in, ~0u, (const uint64_t(*)[32])src, dst, &carry, &e),
                     WS_ERR_UNSUPPORTED);
    assert_non_null(strstr(e.msg, "add.sat.u32"));

    in.op = PTX_OP_LD;
    err_clear(&e);
    assert_int_equal(alu_exec(&in, ~0u, (const uint64_t(*)[32])src, dst, &carry, &e),
                     WS_ERR_UNSUPPORTED);
    assert_false(alu_handles(PTX_OP_LD));
    assert_false(alu_handles(PTX_OP_BRA));
    assert_true(alu_handles(PTX_OP_LOP3));
    assert_true(alu_handles(PTX_OP_CVT));
    assert_true(alu_handles(PTX_OP_SETP));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_sub_mul),
        cmocka_unit_test(test_div_rem),
        cmocka_unit_test(test_abs_neg_minmax),
        cmocka_unit_test(test_bits),
        cmocka_unit_test(test_prmt_shf),
        cmocka_unit_test(test_carry_chains),
        cmocka_unit_test(test_unsupported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
