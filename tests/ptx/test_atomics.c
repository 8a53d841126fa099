/* test_atomics.c: golden test of atomic PTX produced by nvcc
 * (tests/ptx/atomics.cu): atom.add (u32/s32/f32/f64/u64), min/max (signed,
 * unsigned, 64-bit), inc/dec with wrap, and/or/xor (32 and 64-bit), exch, cas
 * loops (32 and 64-bit, global and shared), red, .cta/.sys scopes and
 * fetch-and-add tickets, on global and shared memory.  Final values are
 * compared with totals computed on the host, which do not depend on the order
 * of the updates. */
#include "golden.h"

#include <limits.h>

static int setup(void **state)
{
    return golden_open(state, "tests/ptx/atomics.ptx");
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void test_global(void **state)
{
    struct golden *g = *state;
    enum { B = 64, NB = 4, N = B * NB };
    int v[N];
    for (int i = 0; i < N; i++)
        v[i] = (int)((uint32_t)i * 2654435761u) >> 3;
    v[5] = INT_MIN;
    v[77] = INT_MAX;
    v[100] = -1;
    v[200] = 0;
    int ires[5] = {10, 1000, -1000, -7, 1};
    uint32_t ures[9] = {3, 0xfffffff0u, 5, 0, 5, 0xffffffffu, 0, 0x5a5a5a5au, 1};
    float fres[1] = {1.0f};
    double dres[1] = {-2.0};
    uint64_t llres[4] = {7, 5, 0, UINT64_MAX};
    ws_devptr dv = golden_upload(g, v, sizeof v), di = golden_upload(g, ires, sizeof ires);
    ws_devptr du = golden_upload(g, ures, sizeof ures), df = golden_upload(g, fres, sizeof fres);
    ws_devptr dd = golden_upload(g, dres, sizeof dres);
    ws_devptr dll = golden_upload(g, llres, sizeof llres);
    ws_devptr dold = golden_upload(g, NULL, N * sizeof(int));
    void *args[] = {&dv, &di, &du, &df, &dd, &dll, &dold};
    golden_launch(g, "global_atomics", NB, B, 0, args);

    int gi[5], old[N];
    uint32_t gu[9];
    float gf;
    double gd;
    uint64_t gll[4];
    golden_download(g, gi, di, sizeof gi);
    golden_download(g, gu, du, sizeof gu);
    golden_download(g, &gf, df, sizeof gf);
    golden_download(g, &gd, dd, sizeof gd);
    golden_download(g, gll, dll, sizeof gll);
    golden_download(g, old, dold, sizeof old);

    uint32_t sum = (uint32_t)ires[0], usum = ures[0], uand = ures[5], uor = ures[6];
    uint32_t uxor = ures[7], inc = ures[3], dec = ures[4], cas = (uint32_t)ires[4];
    int imin = ires[1], imax = ires[2];
    uint32_t umin = ures[1], umax = ures[2];
    uint64_t llsum = llres[0], llmax2 = llres[1], llmax = llres[2], llmin = llres[3];
    for (int i = 0; i < N; i++) {
        int x = v[i];
        sum += (uint32_t)x;
        usum += (uint32_t)i;
        llsum += 0x100000001ull * (uint32_t)(i + 1);
        imin = x < imin ? x : imin;
        imax = x > imax ? x : imax;
        umin = (uint32_t)x < umin ? (uint32_t)x : umin;
        umax = (uint32_t)x > umax ? (uint32_t)x : umax;
        inc = inc >= 16 ? 0 : inc + 1;
        dec = (dec == 0 || dec > 9) ? 9 : dec - 1;
        uand &= ~(1u << ((i * 7) % 23));
        uor |= 1u << (i % 29);
        uxor ^= (uint32_t)x;
        cas *= 3;
        uint64_t sq = (uint64_t)((int64_t)x * x);
        llmax2 = sq > llmax2 ? sq : llmax2;
        llmax = (uint32_t)x > llmax ? (uint32_t)x : llmax;
        llmin = (uint32_t)x < llmin ? (uint32_t)x : llmin;
    }
    assert_int_equal((uint32_t)gi[0], sum);
    assert_int_equal(gi[1], imin);
    assert_int_equal(gi[2], imax);
    assert_int_equal((uint32_t)gi[4], cas);
    assert_int_equal(gu[0], usum);
    assert_int_equal(gu[1], umin);
    assert_int_equal(gu[2], umax);
    assert_int_equal(gu[3], inc);
    assert_int_equal(gu[4], dec);
    assert_int_equal(gu[5], uand);
    assert_int_equal(gu[6], uor);
    assert_int_equal(gu[7], uxor);
    assert_int_equal(gu[8], ures[8] + 2u * N);
    assert_true(gf == 1.0f + 0.5f * N);
    assert_true(gd == -2.0 + 0.25 * N);
    assert_true(gll[0] == llsum);
    assert_true(gll[1] == llmax2);
    assert_true(gll[2] == llmax);
    assert_true(gll[3] == llmin);

    /* exch: the old values plus the final value are a permutation of the
     * initial value and every thread's index. */
    int all[N + 1], ref[N + 1];
    memcpy(all, old, sizeof old);
    all[N] = gi[3];
    for (int i = 0; i < N; i++)
        ref[i] = i;
    ref[N] = ires[3];
    qsort(all, N + 1, sizeof(int), cmp_int);
    qsort(ref, N + 1, sizeof(int), cmp_int);
    for (int i = 0; i <= N; i++)
        if (all[i] != ref[i])
            fail_msg("atomicExch: sorted old values differ at %d: expected %d, got %d", i,
                     ref[i], all[i]);
}

static void test_shared(void **state)
{
    struct golden *g = *state;
    enum { N = 1000, NB = 3, B = 128 };
    uint32_t v[N];
    for (uint32_t i = 0; i < N; i++)
        v[i] = i * 40503u ^ (i << 20);
    v[17] = 0x80000000u;
    v[18] = 0x7fffffffu;
    uint32_t hist[16] = {0};
    int stats[4] = {INT_MAX, INT_MIN, 0, 0};
    ws_devptr dv = golden_upload(g, v, sizeof v), dh = golden_upload(g, hist, sizeof hist);
    ws_devptr ds = golden_upload(g, stats, sizeof stats);
    int n = N;
    void *args[] = {&dv, &dh, &ds, &n};
    golden_launch(g, "shared_hist", NB, B, 0, args);
    uint32_t gh[16];
    int gs[4];
    golden_download(g, gh, dh, sizeof gh);
    golden_download(g, gs, ds, sizeof gs);
    int mn = INT_MAX, mx = INT_MIN, x = 0;
    for (int i = 0; i < N; i++) {
        hist[v[i] & 15]++;
        mn = (int)v[i] < mn ? (int)v[i] : mn;
        mx = (int)v[i] > mx ? (int)v[i] : mx;
        x ^= (int)v[i];
    }
    for (int k = 0; k < 16; k++)
        if (gh[k] != hist[k])
            fail_msg("shared_hist hist[%d]: expected %u, got %u", k, hist[k], gh[k]);
    assert_int_equal(gs[0], mn);
    assert_int_equal(gs[1], mx);
    assert_int_equal(gs[2], x);
    assert_int_equal(gs[3], N);
}

static void test_more(void **state)
{
    struct golden *g = *state;
    enum { B = 64, NB = 3, N = B * NB };
    uint64_t ll[4] = {0x8000000000000000ull, ~0ull, 0x5555aaaa5555aaaaull, 7};
    uint32_t counters[4] = {1000, 1, 2, 3};
    double dsum = 0.5;
    ws_devptr dt = golden_upload(g, NULL, N * sizeof(uint32_t));
    ws_devptr dll = golden_upload(g, ll, sizeof ll);
    ws_devptr dc = golden_upload(g, counters, sizeof counters);
    ws_devptr dd = golden_upload(g, &dsum, sizeof dsum);
    void *args[] = {&dt, &dll, &dc, &dd};
    golden_launch(g, "more_atomics", NB, B, 0, args);
    uint32_t tickets[N], gc[4];
    uint64_t gll[4];
    double gd;
    golden_download(g, tickets, dt, sizeof tickets);
    golden_download(g, gll, dll, sizeof gll);
    golden_download(g, gc, dc, sizeof gc);
    golden_download(g, &gd, dd, sizeof gd);

    /* fetch-and-add tickets are all distinct: a permutation of 1000..1000+N-1 */
    int seen[N] = {0};
    for (int i = 0; i < N; i++) {
        if (tickets[i] < 1000 || tickets[i] >= 1000 + N || seen[tickets[i] - 1000]++)
            fail_msg("atomicAdd ticket of thread %d: %u is out of range or repeated", i,
                     tickets[i]);
    }
    uint64_t w0 = ll[0], w1 = ll[1], w2 = ll[2];
    for (int i = 0; i < N; i++) {
        w0 |= 1ull << (i % 64);
        w1 &= ~(1ull << ((i * 5) % 61));
        w2 ^= 0x0123456789abcdefull * (uint64_t)(i + 1);
    }
    uint32_t cas = 1;
    for (int t = 0; t < B; t++)
        cas = cas * 5 + 1;
    assert_int_equal(gc[0], counters[0] + N);
    assert_int_equal(gc[1], counters[1] + 2 * N);
    assert_int_equal(gc[2], counters[2] + 3 * N);
    assert_int_equal(gc[3], counters[3] + NB * cas);
    assert_true(gll[0] == w0);
    assert_true(gll[1] == w1);
    assert_true(gll[2] == w2);
    assert_true(gll[3] == 42);
    assert_true(gd == 0.5 + NB * B * 0.125);
}

/* atomicAdd on __half2 / __half (atom.add.noftz.f16x2 / .f16): thread i adds
 * (0.5 * (i % 4), i odd ? -1 : 2) to h2, the low half to h[0] and -0.125 to
 * h[1]; every partial sum is exact in f16 whatever the order. */
static void test_half(void **state)
{
    struct golden *g = *state;
    enum { B = 64, NB = 2, N = B * NB };
    static const uint16_t lo_bits[4] = {0x0000, 0x3800, 0x3c00, 0x3e00}; /* 0 .5 1 1.5 */
    uint32_t add[N];
    for (int i = 0; i < N; i++)
        add[i] = lo_bits[i % 4] | (uint32_t)((i & 1) ? 0xbc00u /* -1 */ : 0x4000u /* 2 */) << 16;
    ws_devptr dh2 = golden_upload(g, NULL, 4);
    ws_devptr dh = golden_upload(g, NULL, 4);
    ws_devptr dadd = golden_upload(g, add, sizeof add);
    void *args[] = {&dh2, &dh, &dadd};
    golden_launch(g, "half_atomics", NB, B, 0, args);
    uint16_t h2[2], h[2];
    golden_download(g, h2, dh2, sizeof h2);
    golden_download(g, h, dh, sizeof h);
    assert_int_equal(h2[0], 0x5600); /* 32 * (0 + .5 + 1 + 1.5) = 96 */
    assert_int_equal(h2[1], 0x5400); /* 64 * 2 - 64 = 64 */
    assert_int_equal(h[0], 0x5600);  /* 96 */
    assert_int_equal(h[1], 0xcc00);  /* 128 * -0.125 = -16 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_global),
        cmocka_unit_test(test_shared),
        cmocka_unit_test(test_more),
        cmocka_unit_test(test_half),
    };
    return cmocka_run_group_tests(tests, setup, golden_close);
}
