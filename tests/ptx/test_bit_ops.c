/* test_bit_ops.c: golden test of bit-manipulation PTX produced by nvcc
 * (tests/ptx/bit_ops.cu): and/or/xor/not, shifts (incl. amounts >= the width),
 * shf (funnel shifts, wrap and clamp), prmt, popc, clz, brev, bfind, bfe, bfi,
 * lop3, and 64-bit shifts, each compared with the PTX ISA semantics on the host. */
#include "golden.h"

#define BIT_OPS 34

static const char *const bit_names[BIT_OPS] = {
    "and", "or", "xor", "not", "shl", "shr.u32", "shr.s32", "shl.b32 >=32", "shr.u32 >=32",
    "shr.s32 >=32", "shf.l.wrap", "shf.r.wrap", "shf.l.clamp", "shf.r.clamp",
    "prmt (__byte_perm)", "popc.b32", "clz.b32", "brev.b32", "__ffs (brev+bfind.shiftamt)",
    "popc.b64", "clz.b64", "__ffsll", "brev.b64", "bfe.u32", "bfe.s32", "bfi.b32",
    "select (and/or/not)", "(x^y)&~z", "(x|~y)^(z&x)", "bfe.u64", "prmt sign mode",
    "prmt.f4e", "lop3 0xE8", "lop3 0x1E"};

static int setup(void **state)
{
    return golden_open(state, "tests/ptx/bit_ops.ptx");
}

static uint32_t popc64(uint64_t v)
{
    uint32_t n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

static uint32_t clz64(uint64_t v, unsigned width)
{
    uint32_t n = 0;
    for (int i = (int)width - 1; i >= 0 && !((v >> i) & 1); i--)
        n++;
    return n;
}

static uint64_t brev64(uint64_t v, unsigned width)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < width; i++)
        if ((v >> i) & 1)
            r |= 1ull << (width - 1 - i);
    return r;
}

static uint32_t ffs64(uint64_t v)
{
    for (uint32_t i = 0; i < 64; i++)
        if ((v >> i) & 1)
            return i + 1;
    return 0;
}

/* bfe per the PTX ISA: msb = width - 1. */
static uint64_t bfe(uint64_t a, uint32_t pos, uint32_t len, unsigned width, int is_signed)
{
    unsigned msb = width - 1;
    uint64_t sbit = 0;
    if (is_signed) {
        unsigned top = pos + len - 1 < msb ? pos + len - 1 : msb;
        sbit = (a >> top) & 1;
    }
    uint64_t d = 0;
    for (unsigned i = 0; i <= msb; i++) {
        uint64_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;
        d |= bit << i;
    }
    return d;
}

static uint32_t bfi32(uint32_t a, uint32_t b, uint32_t pos, uint32_t len)
{
    uint32_t f = b;
    for (uint32_t i = 0; i < len && pos + i <= 31; i++) {
        f &= ~(1u << (pos + i));
        f |= ((a >> i) & 1) << (pos + i);
    }
    return f;
}

static uint32_t prmt(uint32_t a, uint32_t b, uint32_t c)
{
    uint64_t t = ((uint64_t)b << 32) | a;
    uint32_t d = 0;
    for (int n = 0; n < 4; n++) {
        uint32_t sel = (c >> (4 * n)) & 0xf;
        uint32_t byte = (uint32_t)(t >> (8 * (sel & 7))) & 0xff;
        if (sel & 8)
            byte = (byte & 0x80) ? 0xff : 0;
        d |= byte << (8 * n);
    }
    return d;
}

static uint32_t prmt_f4e(uint32_t a, uint32_t b, uint32_t c)
{
    uint64_t t = ((uint64_t)b << 32) | a;
    uint32_t d = 0;
    for (uint32_t n = 0; n < 4; n++)
        d |= ((uint32_t)(t >> (8 * (((c & 3) + n) & 7))) & 0xff) << (8 * n);
    return d;
}

static uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut)
{
    uint32_t d = 0;
    for (int i = 0; i < 32; i++) {
        uint32_t idx = (((a >> i) & 1) << 2) | (((b >> i) & 1) << 1) | ((c >> i) & 1);
        d |= ((lut >> idx) & 1) << i;
    }
    return d;
}

static uint32_t funnel(uint32_t lo, uint32_t hi, uint32_t n, int left)
{
    uint64_t v = ((uint64_t)hi << 32) | lo;
    return left ? (uint32_t)((v << n) >> 32) : (uint32_t)(v >> n);
}

static void ref_bits(uint32_t x, uint32_t y, uint32_t z, uint32_t *o)
{
    uint32_t s = y & 31, big = y & 63;
    o[0] = x & y;
    o[1] = x | y;
    o[2] = x ^ y;
    o[3] = ~x;
    o[4] = x << s;
    o[5] = x >> s;
    o[6] = (uint32_t)(int32_t)((int64_t)(int32_t)x >> s);
    o[7] = big >= 32 ? 0 : x << big;
    o[8] = big >= 32 ? 0 : x >> big;
    o[9] = (uint32_t)(int32_t)((int64_t)(int32_t)x >> (big >= 32 ? 31 : big));
    o[10] = funnel(x, z, y & 31, 1);
    o[11] = funnel(x, z, y & 31, 0);
    o[12] = funnel(x, z, y > 32 ? 32 : y, 1);
    o[13] = funnel(x, z, y > 32 ? 32 : y, 0);
    o[14] = prmt(x, z, y & 0x7777);
    o[15] = popc64(x);
    o[16] = clz64(x, 32);
    o[17] = (uint32_t)brev64(x, 32);
    o[18] = ffs64(x);
    uint64_t w = ((uint64_t)z << 32) | x;
    o[19] = popc64(w);
    o[20] = clz64(w, 64);
    o[21] = ffs64(w);
    o[22] = (uint32_t)(brev64(w, 64) >> 16);
    uint32_t pos = y & 0xff, len = (y >> 8) & 0xff;
    o[23] = (uint32_t)bfe(x, pos, len, 32, 0);
    o[24] = (uint32_t)bfe(x, y & 31, 1 + ((y >> 8) & 31), 32, 1);
    o[25] = bfi32(z, x, pos, len);
    o[26] = (x & y) | (~x & z);
    o[27] = (x ^ y) & ~z;
    o[28] = (x | ~y) ^ (z & x);
    uint64_t bw = bfe(w, pos, len, 64, 0);
    o[29] = (uint32_t)(bw ^ (bw >> 32));
    o[30] = prmt(x, z, y);
    o[31] = prmt_f4e(x, z, y);
    o[32] = lop3(x, y, z, 0xE8);
    o[33] = lop3(x, y, z, 0x1E);
}

static void test_bits32(void **state)
{
    struct golden *g = *state;
    static const uint32_t xs[] = {0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x12345678u,
                                  0xdeadbeefu, 0x00ff00ffu, 0x80808080u, 0x00010000u};
    static const uint32_t ys[] = {0, 1, 5, 31, 32, 33, 63, 64, 0x1005, 0x2010, 0x0818,
                                  0x201f, 0x1c1c, 0x0400, 0x76543210u, 0x89abcdefu,
                                  0xba98fedcu, 0x3210, 0xff00, 0x00ff};
    enum { NX = sizeof(xs) / sizeof(xs[0]), NY = sizeof(ys) / sizeof(ys[0]), NR = 100,
           N = NX * NY + NR };
    uint32_t a[N], b[N], c[N];
    struct rng rs;
    rng_init(&rs, 5);
    for (int i = 0; i < N; i++) {
        if (i < NX * NY) {
            a[i] = xs[i / NY];
            b[i] = ys[i % NY];
            c[i] = (i % 3 == 0) ? 0 : (i % 3 == 1) ? 0xcafef00du : ~xs[i / NY];
        } else {
            a[i] = (uint32_t)rng_next(&rs);
            b[i] = (uint32_t)rng_next(&rs);
            c[i] = (uint32_t)rng_next(&rs);
        }
    }
    ws_devptr da = golden_upload(g, a, sizeof a), db = golden_upload(g, b, sizeof b);
    ws_devptr dc = golden_upload(g, c, sizeof c);
    ws_devptr dout = golden_upload(g, NULL, sizeof(uint32_t) * N * BIT_OPS);
    int n = N;
    void *args[] = {&da, &db, &dc, &dout, &n};
    golden_launch(g, "bit_ops", (N + 95) / 96, 96, 0, args);
    static uint32_t got[N * BIT_OPS], want[N * BIT_OPS];
    golden_download(g, got, dout, sizeof got);
    for (int i = 0; i < N; i++)
        ref_bits(a[i], b[i], c[i], want + i * BIT_OPS);
    golden_check_u32("bit_ops", want, got, N * BIT_OPS, BIT_OPS, bit_names);
}

static void test_shift64(void **state)
{
    struct golden *g = *state;
    static const char *const names[4] = {"shl.b64", "shr.u64", "shr.s64", "rotate"};
    enum { N = 130 };
    uint64_t a[N];
    uint32_t b[N];
    struct rng rs;
    rng_init(&rs, 11);
    for (int i = 0; i < N; i++) {
        a[i] = (i % 4 == 0) ? 0x8000000000000001ull : (i % 4 == 1) ? ~0ull : rng_next(&rs);
        b[i] = (uint32_t)i; /* shift amount i & 63 covers 0..63 twice */
    }
    ws_devptr da = golden_upload(g, a, sizeof a), db = golden_upload(g, b, sizeof b);
    ws_devptr dout = golden_upload(g, NULL, sizeof(uint64_t) * N * 4);
    int n = N;
    void *args[] = {&da, &db, &dout, &n};
    golden_launch(g, "shift64_ops", 5, 32, 0, args);
    uint64_t got[N * 4], want[N * 4];
    golden_download(g, got, dout, sizeof got);
    for (int i = 0; i < N; i++) {
        uint64_t x = a[i];
        unsigned s = b[i] & 63;
        want[4 * i] = x << s;
        want[4 * i + 1] = x >> s;
        want[4 * i + 2] = (x >> 63) ? ~(~x >> s) : x >> s;
        want[4 * i + 3] = (x << s) | (x >> ((64 - s) & 63));
    }
    golden_check_u64("shift64_ops", want, got, N * 4, 4, names);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bits32),
        cmocka_unit_test(test_shift64),
    };
    return cmocka_run_group_tests(tests, setup, golden_close);
}
