/* test_int_arith.c: golden test of integer arithmetic PTX produced by nvcc
 * (tests/ptx/int_arith.cu): 32/64-bit add/sub/mul/mul.hi/mul.wide/mad/div/rem,
 * min/max/abs/neg, sad, halving adds, mul24, saturating adds, carry chains and
 * dp4a/dp2a,
 * each compared with the same computation done on the host. */
#include "golden.h"

#include <limits.h>

#define I32_OPS 26
#define I64_OPS 20
#define CARRY_OPS 12

static const char *const i32_names[I32_OPS] = {
    "add", "sub", "mul.lo", "mul.hi.s32", "mul.hi.u32", "div.s32", "rem.s32", "div.u32",
    "rem.u32", "min.s32", "max.s32", "min.u32", "max.u32", "abs.s32", "neg.s32", "mad.lo",
    "sad.s32", "sad.u32", "__hadd", "__rhadd", "__uhadd", "__urhadd", "__mul24", "__umul24",
    "add.sat.s32", "sub.sat.s32"};

static const char *const i64_names[I64_OPS] = {
    "add.s64", "sub.s64", "mul.lo.s64", "mul.hi.s64", "mul.hi.u64", "div.s64", "rem.s64",
    "div.u64", "rem.u64", "min.s64", "max.s64", "min.u64", "max.u64", "abs.s64", "neg.s64",
    "mad.lo.s64", "mul.wide.s32", "mul.wide.u32", "mad.wide.s32", "shr.s64/shr.u64"};

static const char *const carry_names[CARRY_OPS] = {
    "add.cc w0", "addc.cc w1", "addc.cc w2", "addc w3", "sub.cc w0", "subc.cc w1",
    "subc.cc w2", "subc w3", "mul.lo w0", "mad.lo.cc w1", "madc.hi w2", "carry out"};

static int setup(void **state)
{
    return golden_open(state, "tests/ptx/int_arith.ptx");
}

static int64_t floor_half(int64_t s)
{
    return s >= 0 ? s / 2 : -((-s + 1) / 2);
}

static int32_t sext24(uint32_t v)
{
    return (int32_t)((v & 0xffffffu) ^ 0x800000u) - 0x800000;
}

static void ref_i32(int32_t x, int32_t y, int32_t z, uint32_t *o)
{
    uint32_t ux = (uint32_t)x, uy = (uint32_t)y, uz = (uint32_t)z;
    int ok_div = y != 0 && !(x == INT32_MIN && y == -1);
    o[0] = ux + uy;
    o[1] = ux - uy;
    o[2] = ux * uy;
    o[3] = (uint32_t)(((int64_t)x * y) >> 32);
    o[4] = (uint32_t)(((uint64_t)ux * uy) >> 32);
    o[5] = ok_div ? (uint32_t)(x / y) : 12345;
    o[6] = ok_div ? (uint32_t)(x % y) : 12345;
    o[7] = uy ? ux / uy : 777;
    o[8] = uy ? ux % uy : 777;
    o[9] = (uint32_t)(x < y ? x : y);
    o[10] = (uint32_t)(x > y ? x : y);
    o[11] = ux < uy ? ux : uy;
    o[12] = ux > uy ? ux : uy;
    o[13] = x < 0 ? 0u - ux : ux;
    o[14] = 0u - ux;
    o[15] = ux * uy + uz;
    o[16] = (x < y ? uy - ux : ux - uy) + uz;
    o[17] = (ux < uy ? uy - ux : ux - uy) + uz;
    o[18] = (uint32_t)floor_half((int64_t)x + y);
    o[19] = (uint32_t)floor_half((int64_t)x + y + 1);
    o[20] = (uint32_t)(((uint64_t)ux + uy) >> 1);
    o[21] = (uint32_t)(((uint64_t)ux + uy + 1) >> 1);
    o[22] = (uint32_t)((int64_t)sext24(ux) * sext24(uy));
    o[23] = (uint32_t)((uint64_t)(ux & 0xffffff) * (uy & 0xffffff));
    int64_t s = (int64_t)x + y, d = (int64_t)x - y;
    o[24] = (uint32_t)(int32_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s);
    o[25] = (uint32_t)(int32_t)(d > INT32_MAX ? INT32_MAX : d < INT32_MIN ? INT32_MIN : d);
}

static void test_i32(void **state)
{
    struct golden *g = *state;
    static const int32_t edge[] = {0, 1, -1, 2, -2, 7, -7, 3, INT32_MIN, INT32_MAX,
                                   INT32_MIN + 1, 0x12345678, -0x1234567, 65536, -100000,
                                   0x00ffffff, 0x00800000};
    enum { NE = sizeof(edge) / sizeof(edge[0]), NR = 75, N = NE * NE + NR };
    int32_t a[N], b[N], c[N];
    struct rng rs;
    rng_init(&rs, 42);
    for (int i = 0; i < N; i++) {
        if (i < NE * NE) {
            a[i] = edge[i / NE];
            b[i] = edge[i % NE];
        } else {
            a[i] = (int32_t)rng_next(&rs);
            b[i] = (int32_t)(rng_next(&rs) >> (i % 30));
        }
        c[i] = (int32_t)rng_next(&rs);
    }
    ws_devptr da = golden_upload(g, a, sizeof a), db = golden_upload(g, b, sizeof b);
    ws_devptr dc = golden_upload(g, c, sizeof c);
    ws_devptr dout = golden_upload(g, NULL, sizeof(uint32_t) * N * I32_OPS);
    int n = N;
    void *args[] = {&da, &db, &dc, &dout, &n};
    golden_launch(g, "i32_ops", (N + 63) / 64, 64, 0, args);
    static uint32_t got[N * I32_OPS], want[N * I32_OPS];
    golden_download(g, got, dout, sizeof got);
    for (int i = 0; i < N; i++)
        ref_i32(a[i], b[i], c[i], want + i * I32_OPS);
    golden_check_u32("i32_ops", want, got, N * I32_OPS, I32_OPS, i32_names);
}

static void ref_i64(int64_t x, int64_t y, int64_t z, uint64_t *o)
{
    uint64_t ux = (uint64_t)x, uy = (uint64_t)y, uz = (uint64_t)z;
    int ok_div = y != 0 && !(x == INT64_MIN && y == -1);
    o[0] = ux + uy;
    o[1] = ux - uy;
    o[2] = ux * uy;
    o[3] = (uint64_t)(((__int128)x * y) >> 64);
    o[4] = (uint64_t)(((unsigned __int128)ux * uy) >> 64);
    o[5] = ok_div ? (uint64_t)(x / y) : 12345;
    o[6] = ok_div ? (uint64_t)(x % y) : 12345;
    o[7] = uy ? ux / uy : 777;
    o[8] = uy ? ux % uy : 777;
    o[9] = (uint64_t)(x < y ? x : y);
    o[10] = (uint64_t)(x > y ? x : y);
    o[11] = ux < uy ? ux : uy;
    o[12] = ux > uy ? ux : uy;
    o[13] = x < 0 ? 0u - ux : ux;
    o[14] = 0u - ux;
    o[15] = ux * uy + uz;
    o[16] = (uint64_t)((int64_t)(int32_t)(uint32_t)ux * (int32_t)(uint32_t)uy);
    o[17] = (uint64_t)(uint32_t)ux * (uint32_t)uy;
    o[18] = (uint64_t)((int64_t)(int32_t)(uint32_t)ux * (int32_t)(uint32_t)uy) + uz;
    int64_t sx = x < 0 ? -(int64_t)((~ux) >> 3) - 1 : (int64_t)(ux >> 3); /* x >> 3 */
    o[19] = (uint64_t)sx - (uy >> 5);
}

static void test_i64(void **state)
{
    struct golden *g = *state;
    static const int64_t edge[] = {0, 1, -1, 2, -3, 7, INT64_MIN, INT64_MAX, INT64_MIN + 1,
                                   INT32_MIN, INT32_MAX, 0x100000000ll, -0x100000000ll,
                                   0x123456789abcdefll, -1000000007ll, 4294967295ll};
    enum { NE = sizeof(edge) / sizeof(edge[0]), NR = 44, N = NE * NE + NR };
    int64_t a[N], b[N], c[N];
    struct rng rs;
    rng_init(&rs, 7);
    for (int i = 0; i < N; i++) {
        if (i < NE * NE) {
            a[i] = edge[i / NE];
            b[i] = edge[i % NE];
        } else {
            a[i] = (int64_t)rng_next(&rs);
            b[i] = (int64_t)rng_next(&rs) >> (i % 60);
        }
        c[i] = (int64_t)rng_next(&rs);
    }
    ws_devptr da = golden_upload(g, a, sizeof a), db = golden_upload(g, b, sizeof b);
    ws_devptr dc = golden_upload(g, c, sizeof c);
    ws_devptr dout = golden_upload(g, NULL, sizeof(uint64_t) * N * I64_OPS);
    int n = N;
    void *args[] = {&da, &db, &dc, &dout, &n};
    golden_launch(g, "i64_ops", (N + 127) / 128, 128, 0, args);
    static uint64_t got[N * I64_OPS], want[N * I64_OPS];
    golden_download(g, got, dout, sizeof got);
    for (int i = 0; i < N; i++)
        ref_i64(a[i], b[i], c[i], want + i * I64_OPS);
    golden_check_u64("i64_ops", want, got, N * I64_OPS, I64_OPS, i64_names);
}

static void ref_carry(const uint32_t *x, const uint32_t *y, uint32_t *o)
{
    unsigned __int128 X = 0, Y = 0;
    for (int w = 3; w >= 0; w--) {
        X = (X << 32) | x[w];
        Y = (Y << 32) | y[w];
    }
    unsigned __int128 s = X + Y, d = X - Y;
    for (int w = 0; w < 4; w++) {
        o[w] = (uint32_t)(s >> (32 * w));
        o[4 + w] = (uint32_t)(d >> (32 * w));
    }
    unsigned __int128 p = (unsigned __int128)x[0] * (((uint64_t)y[1] << 32) | y[0]);
    o[8] = (uint32_t)p;
    o[9] = (uint32_t)(p >> 32);
    o[10] = (uint32_t)(p >> 64);
    o[11] = (uint32_t)(((uint64_t)x[3] + y[3]) >> 32);
}

static void test_carry(void **state)
{
    struct golden *g = *state;
    enum { N = 80 };
    uint32_t a[4 * N], b[4 * N];
    struct rng rs;
    rng_init(&rs, 99);
    static const uint32_t edge[] = {0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu};
    for (int i = 0; i < N; i++) {
        for (int w = 0; w < 4; w++) {
            if (i < 50) { /* word patterns built from edge values: long carry ripples */
                a[4 * i + w] = edge[(i + w) % 5];
                b[4 * i + w] = edge[(i / 5 + w * (i % 3)) % 5];
            } else {
                a[4 * i + w] = (uint32_t)rng_next(&rs);
                b[4 * i + w] = (uint32_t)rng_next(&rs);
            }
        }
    }
    ws_devptr da = golden_upload(g, a, sizeof a), db = golden_upload(g, b, sizeof b);
    ws_devptr dout = golden_upload(g, NULL, sizeof(uint32_t) * N * CARRY_OPS);
    int n = N;
    void *args[] = {&da, &db, &dout, &n};
    golden_launch(g, "carry_ops", 3, 32, 0, args);
    uint32_t got[N * CARRY_OPS], want[N * CARRY_OPS];
    golden_download(g, got, dout, sizeof got);
    for (int i = 0; i < N; i++)
        ref_carry(a + 4 * i, b + 4 * i, want + i * CARRY_OPS);
    golden_check_u32("carry_ops", want, got, N * CARRY_OPS, CARRY_OPS, carry_names);
}

static int32_t lane8(uint32_t v, int k, int is_signed)
{
    uint32_t byte = (v >> (8 * k)) & 0xff;
    return is_signed ? (int32_t)(int8_t)(uint8_t)byte : (int32_t)byte;
}

static int32_t lane16(uint32_t v, int k, int is_signed)
{
    uint32_t h = (v >> (16 * k)) & 0xffff;
    return is_signed ? (int32_t)(int16_t)(uint16_t)h : (int32_t)h;
}

static uint32_t dp4a(uint32_t a, uint32_t b, uint32_t c, int sgn)
{
    uint32_t d = c;
    for (int k = 0; k < 4; k++)
        d += (uint32_t)(lane8(a, k, sgn) * lane8(b, k, sgn));
    return d;
}

static uint32_t dp2a(uint32_t a, uint32_t b, uint32_t c, int hi, int sgn)
{
    int base = hi ? 2 : 0;
    uint32_t d = c;
    for (int k = 0; k < 2; k++)
        d += (uint32_t)(lane16(a, k, sgn) * lane8(b, base + k, sgn));
    return d;
}

static void test_dot(void **state)
{
    struct golden *g = *state;
    static const char *const names[5] = {"dp4a.s32.s32", "dp4a.u32.u32", "dp2a.lo.s32.s32",
                                         "dp2a.hi.s32.s32", "dp2a.lo.u32.u32"};
    enum { N = 150 };
    uint32_t a[N], b[N], c[N], got[5 * N], want[5 * N];
    struct rng rs;
    rng_init(&rs, 1234);
    for (int i = 0; i < N; i++) {
        a[i] = (uint32_t)rng_next(&rs);
        b[i] = (uint32_t)rng_next(&rs);
        c[i] = (uint32_t)rng_next(&rs) >> (i % 32);
    }
    a[0] = b[0] = 0x80808080u; /* most negative bytes */
    a[1] = b[1] = 0xffffffffu;
    a[2] = 0x7fff8000u;
    b[2] = 0x807f7f80u;
    c[3] = 0x7fffffffu;
    ws_devptr da = golden_upload(g, a, sizeof a), db = golden_upload(g, b, sizeof b);
    ws_devptr dc = golden_upload(g, c, sizeof c), dout = golden_upload(g, NULL, sizeof got);
    int n = N;
    void *args[] = {&da, &db, &dc, &dout, &n};
    golden_launch(g, "dot_ops", 5, 32, 0, args);
    golden_download(g, got, dout, sizeof got);
    for (int i = 0; i < N; i++) {
        want[5 * i] = dp4a(a[i], b[i], c[i], 1);
        want[5 * i + 1] = dp4a(a[i], b[i], c[i], 0);
        want[5 * i + 2] = dp2a(a[i], b[i], c[i], 0, 1);
        want[5 * i + 3] = dp2a(a[i], b[i], c[i], 1, 1);
        want[5 * i + 4] = dp2a(a[i], b[i], c[i], 0, 0);
    }
    golden_check_u32("dot_ops", want, got, 5 * N, 5, names);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_i32),
        cmocka_unit_test(test_i64),
        cmocka_unit_test(test_carry),
        cmocka_unit_test(test_dot),
    };
    return cmocka_run_group_tests(tests, setup, golden_close);
}
