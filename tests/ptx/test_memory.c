/* test_memory.c: golden test of memory-space PTX produced by nvcc
 * (tests/ptx/memory.cu): .const arrays with initializers, .global variables
 * read back through ws_module_symbol, static and dynamic .shared, .local
 * arrays with dynamic indexes, vector loads/stores, narrow loads with sign
 * extension, generic pointers into shared memory, a by-value struct
 * parameter, and the index special registers of a 3-D launch. */
#include "golden.h"

static int setup(void **state)
{
    return golden_open(state, "tests/ptx/memory.ptx");
}

static const int ctab[16] = {3, -1, 4, 1, -5, 9, 2, -6, 5, 3, -5, 8, 9, -7, 9, 3};
static const float cscale[4] = {0.5f, 1.5f, -2.0f, 4.0f};

static void test_const_global(void **state)
{
    struct golden *g = *state;
    enum { N = 200 };
    int idx[N], got[N];
    for (int i = 0; i < N; i++)
        idx[i] = i * 37 + (i >> 2);
    ws_devptr di = golden_upload(g, idx, sizeof idx), dout = golden_upload(g, NULL, sizeof got);
    int n = N;
    void *args[] = {&di, &dout, &n};
    golden_launch(g, "const_global", 4, 64, 0, args);
    golden_download(g, got, dout, sizeof got);
    for (int i = 0; i < N; i++) {
        int k = idx[i] & 15;
        int want = ctab[k] * 10 + (int)(cscale[k & 3] * 4.0f);
        if (got[i] != want)
            fail_msg("const_global out[%d] (ctab[%d]): expected %d, got %d", i, k, want, got[i]);
    }

    ws_devptr addr;
    size_t size;
    GOLDEN_OK(g, ws_module_symbol(g->mod, "dev_out", &addr, &size));
    assert_int_equal(size, 64 * sizeof(float));
    float dev_out[64];
    golden_download(g, dev_out, addr, sizeof dev_out);
    for (int i = 0; i < 64; i++)
        if (dev_out[i] != cscale[i & 3] * (float)i)
            fail_msg("dev_out[%d]: expected %g, got %g", i, (double)(cscale[i & 3] * (float)i),
                     (double)dev_out[i]);

    GOLDEN_OK(g, ws_module_symbol(g->mod, "dev_hist", &addr, &size));
    assert_int_equal(size, 16);
    int hist[4];
    golden_download(g, hist, addr, sizeof hist);
    for (int i = 0; i < 4; i++)
        assert_int_equal(hist[i], ctab[i] + ctab[15 - i]);

    GOLDEN_OK(g, ws_module_symbol(g->mod, "dev_word", &addr, &size));
    assert_int_equal(size, 8);
    uint64_t word;
    golden_download(g, &word, addr, 8);
    assert_true(word == 0x1122334455667788ull * 3 + 1);

    /* The constant bank holds the initializer bytes (the PTX omits trailing zeros). */
    GOLDEN_OK(g, ws_module_symbol(g->mod, "ctab", &addr, &size));
    assert_int_equal(size, 64);
    int ct[16];
    golden_download(g, ct, addr, sizeof ct);
    assert_memory_equal(ct, ctab, sizeof ct);

    assert_int_equal(ws_module_symbol(g->mod, "no_such_symbol", &addr, &size),
                     WS_ERR_NOT_FOUND);
}

static void test_shared_reverse(void **state)
{
    struct golden *g = *state;
    enum { B = 128, NB = 3, N = B * NB };
    int in[N], got[N];
    for (int i = 0; i < N; i++)
        in[i] = i * 7 - 500;
    ws_devptr din = golden_upload(g, in, sizeof in), dout = golden_upload(g, NULL, sizeof got);
    void *args[] = {&din, &dout};
    golden_launch(g, "shared_reverse", NB, B, 0, args);
    golden_download(g, got, dout, sizeof got);
    for (int b = 0; b < NB; b++)
        for (int t = 0; t < B; t++)
            if (got[b * B + t] != in[b * B + B - 1 - t])
                fail_msg("shared_reverse out[%d]: expected %d, got %d", b * B + t,
                         in[b * B + B - 1 - t], got[b * B + t]);
}

static void test_dyn_shared(void **state)
{
    struct golden *g = *state;
    enum { B = 96, NB = 2, N = B * NB };
    float in[N], got[N];
    for (int i = 0; i < N; i++)
        in[i] = (float)i * 0.25f - 7.0f;
    ws_devptr din = golden_upload(g, in, sizeof in), dout = golden_upload(g, NULL, sizeof got);
    void *args[] = {&din, &dout};
    golden_launch(g, "dyn_shared", NB, B, 2 * B * sizeof(float), args);
    golden_download(g, got, dout, sizeof got);
    for (int b = 0; b < NB; b++)
        for (int t = 0; t < B; t++) {
            float want = in[b * B + (t + 1) % B] + in[b * B + B - 1 - t] * 2.0f;
            if (got[b * B + t] != want)
                fail_msg("dyn_shared out[%d]: expected %g, got %g", b * B + t, (double)want,
                         (double)got[b * B + t]);
        }
}

/* The last dynamic shared element lies at align_up(20, 16) + 4 * (B - 1): the
 * CTA must be sized from the aligned offset (issue 15 defect 2: it was sized
 * 20 + 4 * B, and the store of thread 0's value faulted). */
static void test_dyn_after_static(void **state)
{
    struct golden *g = *state;
    enum { B = 64, NB = 3, N = B * NB };
    int in[N], got[N];
    for (int i = 0; i < N; i++)
        in[i] = i * 3 + 11;
    ws_devptr din = golden_upload(g, in, sizeof in), dout = golden_upload(g, NULL, sizeof got);
    void *args[] = {&din, &dout};
    golden_launch(g, "dyn_after_static", NB, B, B * sizeof(int), args);
    golden_download(g, got, dout, sizeof got);
    for (int b = 0; b < NB; b++)
        for (int t = 0; t < B; t++) {
            int want = in[b * B + B - 1 - t] + b * 100 + t % 5;
            if (got[b * B + t] != want)
                fail_msg("dyn_after_static out[%d]: expected %d, got %d", b * B + t, want,
                         got[b * B + t]);
        }
}

static void test_local_array(void **state)
{
    struct golden *g = *state;
    enum { N = 100 };
    int in[N], got[N];
    for (int i = 0; i < N; i++)
        in[i] = (i * 131) % 1000;
    ws_devptr din = golden_upload(g, in, sizeof in), dout = golden_upload(g, NULL, sizeof got);
    int n = N;
    void *args[] = {&din, &dout, &n};
    golden_launch(g, "local_array", 2, 64, 0, args);
    golden_download(g, got, dout, sizeof got);
    for (int i = 0; i < N; i++) {
        int v = in[i], arr[24], s = 0;
        for (int k = 0; k < 24; k++)
            arr[k] = v * k + (k ^ i);
        for (int k = 0; k < 24; k++)
            s += arr[(v + k * 7) % 24];
        arr[v % 24] = s;
        int want = s + arr[(v / 3) % 24];
        if (got[i] != want)
            fail_msg("local_array out[%d]: expected %d, got %d", i, want, got[i]);
    }
}

static void test_vec(void **state)
{
    struct golden *g = *state;
    enum { N = 70 };
    float a[4 * N], o4[4 * N];
    int b[2 * N], o2[2 * N];
    for (int i = 0; i < N; i++) {
        for (int k = 0; k < 4; k++)
            a[4 * i + k] = (float)(i * 4 + k) * 1.5f - 100.0f;
        b[2 * i] = i * 3 - 50;
        b[2 * i + 1] = -i * 11;
    }
    ws_devptr da = golden_upload(g, a, sizeof a), db = golden_upload(g, b, sizeof b);
    ws_devptr d4 = golden_upload(g, NULL, sizeof o4), d2 = golden_upload(g, NULL, sizeof o2);
    int n = N;
    void *args[] = {&da, &db, &d4, &d2, &n};
    golden_launch(g, "vec_ops", 3, 32, 0, args);
    golden_download(g, o4, d4, sizeof o4);
    golden_download(g, o2, d2, sizeof o2);
    for (int i = 0; i < N; i++) {
        const float *v = a + 4 * i;
        const int *w = b + 2 * i;
        float want4[4] = {v[3] + (float)w[0], v[2] * 2.0f, v[1] - (float)w[1], v[0]};
        int want2[2] = {w[1], w[0] + (int)v[0]};
        for (int k = 0; k < 4; k++)
            if (o4[4 * i + k] != want4[k])
                fail_msg("vec_ops float4 out[%d].%c: expected %g, got %g", i, "xyzw"[k],
                         (double)want4[k], (double)o4[4 * i + k]);
        for (int k = 0; k < 2; k++)
            if (o2[2 * i + k] != want2[k])
                fail_msg("vec_ops int2 out[%d].%c: expected %d, got %d", i, "xy"[k], want2[k],
                         o2[2 * i + k]);
    }
}

static void test_narrow(void **state)
{
    struct golden *g = *state;
    enum { N = 80 };
    int8_t c[N];
    uint8_t uc[N];
    int16_t s[N];
    uint16_t us[N];
    for (int i = 0; i < N; i++) {
        c[i] = (int8_t)(i * 29 - 128);
        uc[i] = (uint8_t)(255 - i * 3);
        s[i] = (int16_t)(i * 997 - 32768);
        us[i] = (uint16_t)(65535 - i * 811);
    }
    c[0] = -128;
    c[1] = 127;
    c[2] = -1;
    s[1] = 32767;
    s[2] = -1;
    ws_devptr dc = golden_upload(g, c, sizeof c), duc = golden_upload(g, uc, sizeof uc);
    ws_devptr ds = golden_upload(g, s, sizeof s), dus = golden_upload(g, us, sizeof us);
    ws_devptr dout = golden_upload(g, NULL, 4 * N * sizeof(int));
    ws_devptr d16 = golden_upload(g, NULL, N * 2), d8 = golden_upload(g, NULL, N);
    int n = N;
    void *args[] = {&dc, &duc, &ds, &dus, &dout, &d16, &d8, &n};
    golden_launch(g, "narrow_loads", 3, 32, 0, args);
    int out[4 * N];
    int16_t o16[N];
    int8_t o8[N];
    golden_download(g, out, dout, sizeof out);
    golden_download(g, o16, d16, sizeof o16);
    golden_download(g, o8, d8, sizeof o8);
    for (int i = 0; i < N; i++) {
        int want[4] = {c[i], uc[i], s[i], us[i]};
        static const char *const what[4] = {"ld.s8", "ld.u8", "ld.s16", "ld.u16"};
        for (int k = 0; k < 4; k++)
            if (out[4 * i + k] != want[k])
                fail_msg("narrow_loads %s [%d]: expected %d, got %d", what[k], i, want[k],
                         out[4 * i + k]);
        int16_t w16 = (int16_t)(uint16_t)(s[i] * 3 + c[i]);
        int8_t w8 = (int8_t)(uint8_t)(c[i] + 100);
        if (o16[i] != w16)
            fail_msg("narrow_loads st.u16 [%d]: expected %d, got %d", i, w16, o16[i]);
        if (o8[i] != w8)
            fail_msg("narrow_loads st.u8 [%d]: expected %d, got %d", i, w8, o8[i]);
    }
}

static void test_generic(void **state)
{
    struct golden *g = *state;
    enum { B = 64 };
    int gm[B], out[B];
    for (int t = 0; t < B; t++)
        gm[t] = 1000 * t;
    ws_devptr dg = golden_upload(g, gm, sizeof gm), dout = golden_upload(g, NULL, sizeof out);
    void *args[] = {&dg, &dout};
    golden_launch(g, "generic_ptrs", 1, B, 0, args);
    int gm_got[B];
    golden_download(g, gm_got, dg, sizeof gm_got);
    golden_download(g, out, dout, sizeof out);
    int s[B];
    for (int t = 0; t < B; t++)
        s[t] = (t & 1) ? t + 100 + t : t;
    for (int t = 0; t < B; t++) {
        int wg = (t & 1) ? 1000 * t : 1000 * t + 100 + t;
        if (gm_got[t] != wg)
            fail_msg("generic_ptrs global[%d]: expected %d, got %d", t, wg, gm_got[t]);
        int wo = s[t] + s[t ^ 1] * 1000;
        if (out[t] != wo)
            fail_msg("generic_ptrs out[%d] (shared through generic st): expected %d, got %d",
                     t, wo, out[t]);
    }
}

struct by_value_arg {
    int32_t a;
    float b;
    int64_t c;
    char d[3];
};

static void test_by_value(void **state)
{
    struct golden *g = *state;
    struct by_value_arg p;
    memset(&p, 0, sizeof p);
    p.a = -123456;
    p.b = 3.25f;
    p.c = -0x123456789abcll;
    p.d[0] = 5;
    p.d[1] = -2;
    p.d[2] = 100;
    assert_int_equal(sizeof p, 24);
    ws_devptr dout = golden_upload(g, NULL, 5 * sizeof(int));
    void *args[] = {&p, &dout};
    golden_launch(g, "by_value", 1, 1, 0, args);
    int out[5];
    golden_download(g, out, dout, sizeof out);
    assert_int_equal(out[0], p.a);
    assert_int_equal(out[1], (int32_t)golden_f2u(6.5f));
    assert_int_equal(out[2], (int32_t)(uint32_t)(uint64_t)p.c);
    assert_int_equal(out[3], (int32_t)(uint32_t)((uint64_t)p.c >> 32));
    assert_int_equal(out[4], 5 + (-2) * 256 + 100 * 65536);
}

static void test_index_3d(void **state)
{
    struct golden *g = *state;
    enum { GX = 2, GY = 3, GZ = 2, BX = 4, BY = 3, BZ = 3, NT = BX * BY * BZ,
           N = GX * GY * GZ * NT };
    ws_devptr dout = golden_upload(g, NULL, 5 * N * sizeof(int));
    void *args[] = {&dout};
    int rc = ws_launch(g->mod, "index_3d", ws_dim(GX, GY, GZ), ws_dim(BX, BY, BZ), 0, args);
    if (rc != WS_OK)
        fail_msg("launch index_3d: %s: %s", ws_status_name(rc), ws_last_error(g->gpu));
    static int got[5 * N];
    golden_download(g, got, dout, sizeof got);
    for (int bz = 0; bz < GZ; bz++)
        for (int by = 0; by < GY; by++)
            for (int bx = 0; bx < GX; bx++)
                for (int tz = 0; tz < BZ; tz++)
                    for (int ty = 0; ty < BY; ty++)
                        for (int tx = 0; tx < BX; tx++) {
                            int b = bx + GX * (by + GY * bz), t = tx + BX * (ty + BY * tz);
                            const int *o = got + 5 * (b * NT + t);
                            int want[5] = {tx | ty << 8 | tz << 16, bx | by << 8 | bz << 16,
                                           BX | BY << 8 | BZ << 16, GX | GY << 8 | GZ << 16,
                                           t % 32};
                            static const char *const what[5] = {"tid", "ctaid", "ntid",
                                                                "nctaid", "laneid"};
                            for (int k = 0; k < 5; k++)
                                if (o[k] != want[k])
                                    fail_msg("index_3d block (%d,%d,%d) thread (%d,%d,%d) %s: "
                                             "expected 0x%x, got 0x%x",
                                             bx, by, bz, tx, ty, tz, what[k], want[k], o[k]);
                        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_const_global), cmocka_unit_test(test_shared_reverse),
        cmocka_unit_test(test_dyn_shared),   cmocka_unit_test(test_dyn_after_static),
        cmocka_unit_test(test_local_array),
        cmocka_unit_test(test_vec),          cmocka_unit_test(test_narrow),
        cmocka_unit_test(test_generic),      cmocka_unit_test(test_by_value),
        cmocka_unit_test(test_index_3d),
    };
    return cmocka_run_group_tests(tests, setup, golden_close);
}
