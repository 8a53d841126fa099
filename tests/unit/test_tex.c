/* test_tex.c: texture and surface objects without nvcc.
 *  - the sampling rules of func/tex.c against values worked out by hand from
 *    the CUDA programming guide's texture-fetching appendix: point sampling,
 *    linear filtering at the texel centres (x - 0.5) with 9-bit weights,
 *    clamp / wrap / mirror / border addressing, normalized coordinates,
 *    normalized-float reads of 8/16-bit integers, tex1Dfetch bounds, the
 *    gather order, surface bounds modes;
 *  - PTX of the shape nvcc emits for texture and surface objects (tex.2d,
 *    tld4, txq, suld.b, sust.b) run through the API on descriptors the test
 *    writes, and the fault of an out-of-range .trap surface store;
 *  - nvcc's own PTX for texture and surface objects (tex_kernels.cu, committed
 *    as tex_kernels.ptx): tex1Dfetch, tex2D with a float4 result, the layered
 *    fetches, tex2Dgather, tex3D with normalized wrapped coordinates and a
 *    16-bit surface read-modify-write, in both modes, against values worked
 *    out here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "func/tex.h"
#include "warpsim.h"

static float f_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* A 1D float texture of n texels at host memory `data`. */
static struct tex_desc desc_1d(uint64_t n, unsigned addr, int linear, int norm)
{
    struct tex_desc d;
    memset(&d, 0, sizeof d);
    d.magic = TEX_DESC_MAGIC;
    d.res = TEX_RES_ARRAY;
    d.dims = 1;
    d.nchan = 1;
    d.chan_bits = 32;
    d.kind = TEX_KIND_FLOAT;
    d.filter_linear = (uint8_t)linear;
    d.norm_coords = (uint8_t)norm;
    d.addr[0] = d.addr[1] = d.addr[2] = (uint8_t)addr;
    d.width = n;
    d.height = d.depth = d.layers = 1;
    d.pitch = n * 4;
    d.slice = d.pitch;
    d.border[0] = -7.0f;
    return d;
}

static float fetch1(const struct tex_desc *d, const void *data, float x)
{
    float fc[3] = {x, 0, 0};
    int32_t ic[3] = {0, 0, 0};
    uint32_t out[4];
    uint64_t first;
    tex_fetch(d, data, 0, fc, ic, 0, out, &first);
    return f_of(out[0]);
}

static const float T4[4] = {10.0f, 20.0f, 40.0f, 80.0f};

static void test_point_clamp(void **state)
{
    (void)state;
    struct tex_desc d = desc_1d(4, TEX_ADDR_CLAMP, 0, 0);
    assert_true(tex_desc_check(&d) == NULL);
    assert_true(fetch1(&d, T4, 2.7f) == 40.0f);   /* floor(2.7) = 2 */
    assert_true(fetch1(&d, T4, 0.0f) == 10.0f);
    assert_true(fetch1(&d, T4, -3.0f) == 10.0f);  /* clamped to texel 0 */
    assert_true(fetch1(&d, T4, 9.0f) == 80.0f);   /* clamped to texel 3 */
    /* wrap with unnormalized coordinates acts as clamp */
    d.addr[0] = TEX_ADDR_WRAP;
    assert_true(fetch1(&d, T4, 5.5f) == 80.0f);
}

static void test_linear_weights(void **state)
{
    (void)state;
    struct tex_desc d = desc_1d(4, TEX_ADDR_CLAMP, 1, 0);
    /* x = 1.75: x - 0.5 = 1.25, i = 1, alpha = 0.25 */
    assert_true(fetch1(&d, T4, 1.75f) == 0.75f * 20.0f + 0.25f * 40.0f);
    /* texel centres return the texel exactly */
    assert_true(fetch1(&d, T4, 2.5f) == 40.0f);
    /* alpha = 0.001 is below half of 1/256: the 9-bit weight is 0 */
    assert_true(fetch1(&d, T4, 1.501f) == 20.0f);
    /* alpha = 0.3 -> 77/256 */
    float a = 77.0f / 256.0f;
    assert_true(fetch1(&d, T4, 1.8f) == (1.0f - a) * 20.0f + a * 40.0f);
    /* left of the first centre: both taps clamp to texel 0 */
    assert_true(fetch1(&d, T4, 0.2f) == 10.0f);
    /* border: the tap at -1 reads the border colour (-7) */
    d.addr[0] = TEX_ADDR_BORDER;
    assert_true(fetch1(&d, T4, 0.25f) == 0.25f * -7.0f + 0.75f * 10.0f);
    d.filter_linear = 0;
    assert_true(fetch1(&d, T4, -0.5f) == -7.0f);
    assert_true(fetch1(&d, T4, 4.0f) == -7.0f);
}

static void test_normalized_wrap_mirror(void **state)
{
    (void)state;
    struct tex_desc d = desc_1d(4, TEX_ADDR_WRAP, 0, 1);
    assert_true(fetch1(&d, T4, 0.625f) == 40.0f);  /* 2.5 texels */
    assert_true(fetch1(&d, T4, 1.125f) == 10.0f);  /* wraps to 0.125: 0.5 texels */
    assert_true(fetch1(&d, T4, -0.125f) == 80.0f); /* wraps to 0.875: 3.5 texels */
    d.addr[0] = TEX_ADDR_MIRROR;
    assert_true(fetch1(&d, T4, 1.125f) == 80.0f);  /* mirrored to 0.875 */
    assert_true(fetch1(&d, T4, 2.125f) == 10.0f);  /* even period: 0.125 */
    /* linear filtering across the wrap seam: taps 3 and 0, alpha 0.5 */
    d.addr[0] = TEX_ADDR_WRAP;
    d.filter_linear = 1;
    assert_true(fetch1(&d, T4, 1.0f) == 0.5f * 80.0f + 0.5f * 10.0f);
}

static void test_2d_linear_and_gather(void **state)
{
    (void)state;
    /* 3x2 texels, rows 16 bytes apart (pitched) */
    float img[2][4] = {{1, 2, 4, -1}, {8, 16, 32, -1}};
    struct tex_desc d = desc_1d(3, TEX_ADDR_CLAMP, 1, 0);
    d.dims = 2;
    d.height = 2;
    d.pitch = 16;
    d.slice = 32;
    assert_true(tex_desc_check(&d) == NULL);
    assert_int_equal(tex_extent(&d), 28);
    float fc[3] = {1.25f, 1.0f, 0}; /* i = 0, alpha = 0.75; j = 0, beta = 0.5 */
    int32_t ic[3] = {0, 0, 0};
    uint32_t out[4];
    uint64_t first;
    tex_fetch(&d, (const uint8_t *)img, 0, fc, ic, 0, out, &first);
    float a = 0.75f, b = 0.5f, want = 0.0f;
    want += (1 - a) * (1 - b) * 1.0f;
    want += a * (1 - b) * 2.0f;
    want += (1 - a) * b * 8.0f;
    want += a * b * 16.0f;
    assert_true(f_of(out[0]) == want);
    assert_int_equal(first, 0);
    assert_true(f_of(out[3]) == 1.0f); /* a missing w component reads as 1 */
    assert_true(f_of(out[1]) == 0.0f);
    /* gather: (i, j+1), (i+1, j+1), (i+1, j), (i, j) */
    tex_gather(&d, (const uint8_t *)img, fc, 0, 0, out, &first);
    assert_true(f_of(out[0]) == 8.0f && f_of(out[1]) == 16.0f);
    assert_true(f_of(out[2]) == 2.0f && f_of(out[3]) == 1.0f);
}

static void test_formats(void **state)
{
    (void)state;
    uint8_t u8[4] = {0, 51, 255, 128};
    struct tex_desc d = desc_1d(4, TEX_ADDR_CLAMP, 0, 0);
    d.chan_bits = 8;
    d.kind = TEX_KIND_UNSIGNED;
    d.read_normalized = 1;
    d.pitch = d.slice = 4;
    assert_true(tex_returns_float(&d));
    assert_true(fetch1(&d, u8, 1.0f) == 51.0f / 255.0f);
    assert_true(fetch1(&d, u8, 2.0f) == 1.0f);
    int8_t s8[4] = {-128, -127, 127, 0};
    d.kind = TEX_KIND_SIGNED;
    assert_true(fetch1(&d, s8, 0.0f) == -1.0f); /* -128/127 clamps to -1 */
    assert_true(fetch1(&d, s8, 1.0f) == -1.0f);
    assert_true(fetch1(&d, s8, 2.0f) == 1.0f);
    /* element-type read of a 16-bit signed texture: sign-extended integers */
    int16_t s16[2] = {-5, 300};
    d.chan_bits = 16;
    d.read_normalized = 0;
    d.width = 2;
    d.pitch = d.slice = 4;
    assert_false(tex_returns_float(&d));
    float fc[3] = {0, 0, 0};
    int32_t ic[3] = {0, 0, 0};
    uint32_t out[4];
    uint64_t first;
    tex_fetch(&d, (const uint8_t *)s16, 0, fc, ic, 0, out, &first);
    assert_int_equal((int32_t)out[0], -5);
    assert_int_equal(out[3], 1);
    /* tex1Dfetch on linear memory: integer index, zeros outside */
    d.res = TEX_RES_LINEAR;
    ic[0] = 1;
    tex_fetch(&d, (const uint8_t *)s16, 1, fc, ic, 0, out, &first);
    assert_int_equal((int32_t)out[0], 300);
    assert_int_equal(first, 2);
    ic[0] = 2;
    tex_fetch(&d, (const uint8_t *)s16, 1, fc, ic, 0, out, &first);
    assert_int_equal(out[0], 0);
    assert_int_equal(out[3], 0);
    /* half floats */
    uint16_t h[2] = {0x3c00, 0xc000}; /* 1.0, -2.0 */
    d.res = TEX_RES_ARRAY;
    d.kind = TEX_KIND_FLOAT;
    assert_true(fetch1(&d, h, 1.0f) == -2.0f);
}

static void test_surface_bounds(void **state)
{
    (void)state;
    struct tex_desc d = desc_1d(8, TEX_ADDR_CLAMP, 0, 0); /* 8 x 3 texels of 4 bytes */
    d.magic = SURF_DESC_MAGIC;
    d.dims = 2;
    d.height = 3;
    d.pitch = 64;
    d.slice = 192;
    uint64_t off;
    assert_int_equal(surf_offset(&d, 12, 2, 0, 0, 4, PTX_SURF_TRAP, &off), 1);
    assert_int_equal(off, 2 * 64 + 12);
    assert_int_equal(surf_offset(&d, 32, 0, 0, 0, 4, PTX_SURF_TRAP, &off), 0);
    assert_int_equal(surf_offset(&d, 4, 3, 0, 0, 4, PTX_SURF_ZERO, &off), 0);
    assert_int_equal(surf_offset(&d, 40, -1, 0, 0, 4, PTX_SURF_CLAMP, &off), 1);
    assert_int_equal(off, 28); /* x clamped to the last element, y to row 0 */
    /* a 16-byte access in a 32-byte row */
    assert_int_equal(surf_offset(&d, 32, 1, 0, 0, 16, PTX_SURF_CLAMP, &off), 1);
    assert_int_equal(off, 64 + 16);
    /* a garbage descriptor whose extent would overflow is refused */
    struct tex_desc big = d;
    big.dims = 3;
    big.depth = 1u << 30;
    big.slice = 1ull << 40;
    assert_string_equal(tex_desc_check(&big), "resource too large");
    big.depth = 1;
    big.height = 1u << 30;
    big.pitch = 1ull << 39;
    big.slice = 1ull << 62;
    assert_non_null(tex_desc_check(&big));
    assert_int_equal(tex_extent(&big), 0);
    d.magic = 0;
    assert_non_null(tex_desc_check(&d));
}

/* ---- through PTX -------------------------------------------------------- */

static const char tex_ptx[] =
    ".version 9.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".visible .entry k(.param .u64 t, .param .u64 s, .param .u64 o)\n"
    "{\n"
    "  .reg .b16 %rs<5>;\n"
    "  .reg .b32 %r<12>;\n"
    "  .reg .f32 %f<16>;\n"
    "  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [t];\n"
    "  ld.param.u64 %rd2, [s];\n"
    "  ld.param.u64 %rd3, [o];\n"
    "  cvta.to.global.u64 %rd3, %rd3;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  cvt.rn.f32.u32 %f1, %r1;\n"
    "  add.f32 %f1, %f1, 0f3F000000;\n"       /* x = tid + 0.5: texel centre */
    "  mov.f32 %f2, 0f3FC00000;\n"            /* y = 1.5 */
    "  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];\n"
    "  mul.wide.u32 %rd4, %r1, 4;\n"
    "  add.s64 %rd5, %rd3, %rd4;\n"
    "  st.global.f32 [%rd5], %f3;\n"
    "  tld4.r.2d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%f1, %f2}];\n"
    "  st.global.f32 [%rd5+64], %f9;\n"
    "  txq.width.b32 %r2, [%rd1];\n"
    "  txq.height.b32 %r3, [%rd1];\n"
    "  st.global.u32 [%rd5+128], %r2;\n"
    "  st.global.u32 [%rd5+192], %r3;\n"
    "  shl.b32 %r4, %r1, 2;\n"
    "  mov.u32 %r8, 2;\n"
    "  suld.b.2d.b32.trap {%r5}, [%rd2, {%r4, %r8}];\n"    /* row 2 */
    "  add.s32 %r5, %r5, 1000;\n"
    "  mov.u32 %r6, 0;\n"
    "  sust.b.2d.b32.trap [%rd2, {%r4, %r6}], {%r5};\n"    /* row 0 */
    "  suld.b.2d.b32.zero {%r7}, [%rd2, {%r4, %r1}];\n"    /* row tid: zero past row 2 */
    "  st.global.u32 [%rd5+256], %r7;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry bad(.param .u64 t, .param .u64 s)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [t];\n"
    "  ld.param.u64 %rd2, [s];\n"
    "  mov.u32 %r1, 64;\n"
    "  mov.u32 %r2, 0;\n"
    "  sust.b.2d.b32.trap [%rd2, {%r1, %r2}], {%r2};\n"
    "  txq.width.b32 %r3, [%rd1];\n"
    "  ret;\n"
    "}\n";

static ws_devptr put_desc(ws_gpu *gpu, const struct tex_desc *d)
{
    ws_devptr p;
    assert_int_equal(ws_malloc(gpu, sizeof *d, &p), WS_OK);
    assert_int_equal(ws_memcpy_htod(gpu, p, d, sizeof *d), WS_OK);
    return p;
}

static void run_ptx(const char *mode)
{
    ws_gpu *gpu;
    ws_module *mod;
    enum { W = 16, H = 4 };
    float img[H][W];
    uint32_t surf[3][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            img[y][x] = (float)(100 * y + x);
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < W; x++)
            surf[y][x] = (uint32_t)(10 * y + x);
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "mode", mode), WS_OK);
    assert_int_equal(ws_module_load_string(gpu, tex_ptx, "tex.ptx", &mod), WS_OK);
    ws_devptr timg, simg, out;
    assert_int_equal(ws_malloc(gpu, sizeof img, &timg), WS_OK);
    assert_int_equal(ws_memcpy_htod(gpu, timg, img, sizeof img), WS_OK);
    assert_int_equal(ws_malloc(gpu, sizeof surf, &simg), WS_OK);
    assert_int_equal(ws_memcpy_htod(gpu, simg, surf, sizeof surf), WS_OK);
    assert_int_equal(ws_malloc(gpu, 5 * W * 4, &out), WS_OK);
    struct tex_desc td = desc_1d(W, TEX_ADDR_CLAMP, 1, 0);
    td.dims = 2;
    td.height = H;
    td.slice = sizeof img;
    td.base = timg;
    struct tex_desc sd = desc_1d(W, TEX_ADDR_CLAMP, 0, 0);
    sd.magic = SURF_DESC_MAGIC;
    sd.dims = 2;
    sd.height = 3;
    sd.slice = sizeof surf;
    sd.kind = TEX_KIND_UNSIGNED;
    sd.base = simg;
    ws_devptr th = put_desc(gpu, &td), sh = put_desc(gpu, &sd);
    void *args[] = {&th, &sh, &out};
    assert_int_equal(ws_launch(mod, "k", ws_dim(1, 1, 1), ws_dim(W, 1, 1), 0, args), WS_OK);
    uint32_t res[5][W];
    assert_int_equal(ws_memcpy_dtoh(gpu, res, out, sizeof res), WS_OK);
    assert_int_equal(ws_memcpy_dtoh(gpu, surf, simg, sizeof surf), WS_OK);
    for (int x = 0; x < W; x++) {
        /* centre of texel (x, 1) exactly; row 1 between rows 0 and 1 for y = 1.5 */
        assert_true(f_of(res[0][x]) == 100.0f + (float)x);
        /* gather at (x + 0.5, 1.5): i = x, j = 1; component 2 is (i+1, j) */
        float g = x + 1 < W ? 100.0f + (float)(x + 1) : 100.0f + (float)(W - 1);
        assert_true(f_of(res[1][x]) == g);
        assert_int_equal(res[2][x], W);
        assert_int_equal(res[3][x], H);
        assert_int_equal(surf[0][x], 20u + (uint32_t)x + 1000u);
        /* row tid after the store: rows 0..2 exist, later rows read as zero */
        uint32_t want = x == 0 ? 20u + 1000u : x < 3 ? (uint32_t)(10 * x + x) : 0u;
        assert_int_equal(res[4][x], want);
    }
    /* an out-of-range .trap store faults */
    ws_devptr args2[2] = {th, sh};
    void *a2[] = {&args2[0], &args2[1]};
    assert_int_equal(ws_launch(mod, "bad", ws_dim(1, 1, 1), ws_dim(1, 1, 1), 0, a2),
                     WS_ERR_FAULT);
    assert_non_null(strstr(ws_last_error(gpu), "out of range (.trap)"));
    /* a handle that is no object (plain memory), one that is no allocation at
     * all, and a surface used as a texture are faults (the timing model stops
     * at its first fault: these run in functional mode, through the same
     * executor) */
    if (strcmp(mode, "functional") == 0) {
        ws_devptr bogus[3] = {out, 0x1234, sh};
        for (int i = 0; i < 3; i++) {
            void *a3[] = {&bogus[i], &sh, &out};
            int rc = ws_launch(mod, "k", ws_dim(1, 1, 1), ws_dim(W, 1, 1), 0, a3);
            if (rc != WS_ERR_FAULT)
                fail_msg("%d: %s", rc, ws_last_error(gpu));
            assert_non_null(strstr(ws_last_error(gpu), "invalid texture object"));
        }
        assert_non_null(strstr(ws_last_error(gpu), "a surface object used as a texture"));
    }
    ws_gpu_free(gpu);
}

static void test_ptx_functional(void **state)
{
    (void)state;
    run_ptx("functional");
}

static void test_ptx_timing(void **state)
{
    (void)state;
    run_ptx("timing");
}

/* ---- nvcc's PTX (tex_kernels.ptx) -------------------------------------------- */

struct env {
    ws_gpu *gpu;
    ws_module *mod;
};

static ws_devptr dev_copy(struct env *v, const void *p, size_t n)
{
    ws_devptr d;
    assert_int_equal(ws_malloc(v->gpu, n, &d), WS_OK);
    if (p)
        assert_int_equal(ws_memcpy_htod(v->gpu, d, p, n), WS_OK);
    return d;
}

/* A float array texture of w x h x planes texels with nchan channels. */
static ws_devptr obj(struct env *v, const float *texels, unsigned nchan, uint64_t w, uint64_t h,
                     uint64_t planes, unsigned dims, int layered, int linear, int norm,
                     unsigned addr)
{
    struct tex_desc d = desc_1d(w, addr, linear, norm);
    d.nchan = (uint8_t)nchan;
    d.dims = (uint8_t)dims;
    d.layered = (uint8_t)layered;
    d.height = h;
    if (layered)
        d.layers = planes;
    else
        d.depth = planes;
    d.pitch = w * 4 * nchan;
    d.slice = d.pitch * h;
    d.base = dev_copy(v, texels, d.slice * planes);
    return dev_copy(v, &d, sizeof d);
}

static void launch(struct env *v, const char *k, unsigned grid, unsigned block, void **args)
{
    if (ws_launch(v->mod, k, ws_dim(grid, 1, 1), ws_dim(block, 1, 1), 0, args) != WS_OK)
        fail_msg("%s: %s", k, ws_last_error(v->gpu));
}

static void run_nvcc_ptx(const char *mode)
{
    struct env v;
    assert_int_equal(ws_gpu_new(&v.gpu), WS_OK);
    assert_int_equal(ws_gpu_set(v.gpu, "mode", mode), WS_OK);
    if (ws_module_load_file(v.gpu, WS_SOURCE_DIR "/tests/unit/tex_kernels.ptx", &v.mod) != WS_OK)
        fail_msg("%s", ws_last_error(v.gpu));
    enum { N = 32 };
    /* tex1Dfetch on linear memory: 40 texels, indexes past the end read 0 */
    {
        float h[40];
        int idx[N];
        for (int i = 0; i < 40; i++)
            h[i] = 1.5f * (float)i;
        for (int i = 0; i < N; i++)
            idx[i] = (i * 7) % 45;
        struct tex_desc d = desc_1d(40, TEX_ADDR_CLAMP, 0, 0);
        d.res = TEX_RES_LINEAR;
        d.base = dev_copy(&v, h, sizeof h);
        ws_devptr t = dev_copy(&v, &d, sizeof d), di = dev_copy(&v, idx, sizeof idx),
                  o = dev_copy(&v, NULL, N * 4);
        void *a[] = {&t, &di, &o};
        launch(&v, "fetch1d", 1, N, a);
        float out[N];
        assert_int_equal(ws_memcpy_dtoh(v.gpu, out, o, sizeof out), WS_OK);
        for (int i = 0; i < N; i++)
            assert_true(out[i] == (idx[i] < 40 ? h[idx[i]] : 0.0f));
    }
    /* tex2D<float4>, linear, clamp: x = k + 0.75 (alpha 0.25), y = 2 (beta 0.5) */
    {
        enum { W = 8, H = 4 };
        float img[H][W][4];
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                for (int c = 0; c < 4; c++)
                    img[y][x][c] = (float)(64 * c + 8 * y + x);
        ws_devptr t = obj(&v, &img[0][0][0], 4, W, H, 1, 2, 0, 1, 0, TEX_ADDR_CLAMP);
        float xy[N][2];
        for (int k = 0; k < N; k++) {
            xy[k][0] = (float)(k % W) + 0.75f;
            xy[k][1] = 2.0f;
        }
        ws_devptr dq = dev_copy(&v, xy, sizeof xy), o = dev_copy(&v, NULL, N * 16);
        void *a[] = {&t, &dq, &o};
        launch(&v, "sample2d", 1, N, a);
        float out[N][4];
        assert_int_equal(ws_memcpy_dtoh(v.gpu, out, o, sizeof out), WS_OK);
        for (int k = 0; k < N; k++) {
            int i = k % W, i1 = i + 1 < W ? i + 1 : W - 1;
            for (int c = 0; c < 4; c++) {
                float a = 0.25f, b = 0.5f, want = 0.0f;
                want += (1 - a) * (1 - b) * img[1][i][c];
                want += a * (1 - b) * img[1][i1][c];
                want += (1 - a) * b * img[2][i][c];
                want += a * b * img[2][i1][c];
                assert_true(out[k][c] == want);
            }
        }
    }
    /* layered 1D (8 x 3 layers) and 2D (4 x 4 x 3 layers), point, layer clamped */
    {
        float l1[3][8], l2[3][4][4];
        for (int l = 0; l < 3; l++) {
            for (int x = 0; x < 8; x++)
                l1[l][x] = (float)(100 * l + x);
            for (int y = 0; y < 4; y++)
                for (int x = 0; x < 4; x++)
                    l2[l][y][x] = (float)(1000 + 100 * l + 10 * y + x);
        }
        ws_devptr t1 = obj(&v, &l1[0][0], 1, 8, 1, 3, 1, 1, 0, 0, TEX_ADDR_CLAMP);
        ws_devptr t2 = obj(&v, &l2[0][0][0], 1, 4, 4, 3, 2, 1, 0, 0, TEX_ADDR_CLAMP);
        float xy[N][2];
        int layer[N];
        for (int k = 0; k < N; k++) {
            xy[k][0] = (float)(k % 8) + 0.5f;
            xy[k][1] = (float)(k % 4) + 0.5f;
            layer[k] = k % 5;
        }
        ws_devptr dq = dev_copy(&v, xy, sizeof xy), dl = dev_copy(&v, layer, sizeof layer),
                  o = dev_copy(&v, NULL, N * 8);
        void *a[] = {&t1, &t2, &dq, &dl, &o};
        launch(&v, "layered", 1, N, a);
        float out[N][2];
        assert_int_equal(ws_memcpy_dtoh(v.gpu, out, o, sizeof out), WS_OK);
        for (int k = 0; k < N; k++) {
            int l = layer[k] < 3 ? layer[k] : 2;
            assert_true(out[k][0] == l1[l][k % 8]);
            int x = k % 8 < 4 ? k % 8 : 3; /* x clamped to the 4-texel width */
            assert_true(out[k][1] == l2[l][k % 4][x]);
        }
    }
    /* tex2Dgather, component 1 (.g) of a float2 texture at (k + 1, 2): i = k, j = 1 */
    {
        enum { W = 8, H = 4 };
        float img[H][W][2];
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                img[y][x][0] = -1.0f;
                img[y][x][1] = (float)(10 * y + x);
            }
        ws_devptr t = obj(&v, &img[0][0][0], 2, W, H, 1, 2, 0, 0, 0, TEX_ADDR_CLAMP);
        float xy[N][2];
        for (int k = 0; k < N; k++) {
            xy[k][0] = (float)(k % 7) + 1.0f;
            xy[k][1] = 2.0f;
        }
        ws_devptr dq = dev_copy(&v, xy, sizeof xy), o = dev_copy(&v, NULL, N * 16);
        void *a[] = {&t, &dq, &o};
        launch(&v, "gather", 1, N, a);
        float out[N][4];
        assert_int_equal(ws_memcpy_dtoh(v.gpu, out, o, sizeof out), WS_OK);
        for (int k = 0; k < N; k++) {
            int i = k % 7;
            assert_true(out[k][0] == img[2][i][1] && out[k][1] == img[2][i + 1][1]);
            assert_true(out[k][2] == img[1][i + 1][1] && out[k][3] == img[1][i][1]);
        }
    }
    /* tex3D, point, normalized coordinates wrapped: a 4 x 2 x 2 volume */
    {
        float vol[2][2][4];
        for (int z = 0; z < 2; z++)
            for (int y = 0; y < 2; y++)
                for (int x = 0; x < 4; x++)
                    vol[z][y][x] = (float)(100 * z + 10 * y + x);
        ws_devptr t = obj(&v, &vol[0][0][0], 1, 4, 2, 2, 3, 0, 0, 1, TEX_ADDR_WRAP);
        float p[N][4];
        for (int k = 0; k < N; k++) {
            p[k][0] = ((float)(k % 4) + 0.5f) / 4.0f - 1.0f;  /* wraps to texel k % 4 */
            p[k][1] = ((float)(k % 2) + 0.5f) / 2.0f + 2.0f;  /* texel k % 2 */
            p[k][2] = ((float)(k / 2 % 2) + 0.5f) / 2.0f;    /* texel k / 2 % 2 */
            p[k][3] = 0.0f;
        }
        ws_devptr dq = dev_copy(&v, p, sizeof p), o = dev_copy(&v, NULL, N * 4);
        void *a[] = {&t, &dq, &o};
        launch(&v, "sample3d", 1, N, a);
        float out[N];
        assert_int_equal(ws_memcpy_dtoh(v.gpu, out, o, sizeof out), WS_OK);
        for (int k = 0; k < N; k++)
            assert_true(out[k] == vol[k / 2 % 2][k % 2][k % 4]);
    }
    /* a 16-bit surface, 6 x 3: v = 3 v + y; threads past the width do nothing */
    {
        uint16_t s[3][6];
        for (int y = 0; y < 3; y++)
            for (int x = 0; x < 6; x++)
                s[y][x] = (uint16_t)(7 * y + x);
        struct tex_desc d = desc_1d(6, TEX_ADDR_CLAMP, 0, 0);
        d.magic = SURF_DESC_MAGIC;
        d.dims = 2;
        d.height = 3;
        d.chan_bits = 16;
        d.kind = TEX_KIND_UNSIGNED;
        d.pitch = 12;
        d.slice = 36;
        d.base = dev_copy(&v, s, sizeof s);
        ws_devptr h = dev_copy(&v, &d, sizeof d);
        int w = 6;
        void *a[] = {&h, &w};
        launch(&v, "surf_rmw", 3, 8, a);
        uint16_t out[3][6];
        assert_int_equal(ws_memcpy_dtoh(v.gpu, out, d.base, sizeof out), WS_OK);
        for (int y = 0; y < 3; y++)
            for (int x = 0; x < 6; x++)
                assert_int_equal(out[y][x], (uint16_t)(3 * s[y][x] + y));
    }
    ws_gpu_free(v.gpu);
}

static void test_nvcc_ptx_functional(void **state)
{
    (void)state;
    run_nvcc_ptx("functional");
}

static void test_nvcc_ptx_timing(void **state)
{
    (void)state;
    run_nvcc_ptx("timing");
}

static void test_parse_refusals(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "tex.cube.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f2, %f3, %f4}];",
        "tex.level.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f2}], %f1;",
        "suld.p.2d.v4.b32.trap {%f1, %f2, %f3, %f4}, [%rd1, {%r1, %r1}];",
        "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, %rd1, {%f1, %f2}];",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char ptx[1024];
        snprintf(ptx, sizeof ptx,
                 ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n"
                 ".reg .b32 %%r<3>;\n.reg .f32 %%f<6>;\n.reg .b64 %%rd<3>;\n%s\nret;\n}\n",
                 bad[i]);
        ws_gpu *gpu;
        ws_module *mod;
        assert_int_equal(ws_gpu_new(&gpu), WS_OK);
        assert_int_equal(ws_module_load_string(gpu, ptx, "bad.ptx", &mod), WS_ERR_UNSUPPORTED);
        ws_gpu_free(gpu);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_point_clamp),
        cmocka_unit_test(test_linear_weights),
        cmocka_unit_test(test_normalized_wrap_mirror),
        cmocka_unit_test(test_2d_linear_and_gather),
        cmocka_unit_test(test_formats),
        cmocka_unit_test(test_surface_bounds),
        cmocka_unit_test(test_ptx_functional),
        cmocka_unit_test(test_ptx_timing),
        cmocka_unit_test(test_nvcc_ptx_functional),
        cmocka_unit_test(test_nvcc_ptx_timing),
        cmocka_unit_test(test_parse_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
