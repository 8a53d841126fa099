/* test_tex_cache.c: texture fetches in the timing model go through the per-SM
 * texture cache (tex.*).  One warp fetches the same 32 texels (one 128-byte
 * line) ten times, each fetch depending on the previous one: the first
 * misses, the nine others hit (tex_cache_hit = 9), and the chain is much
 * faster than the same fetches sent to the L2 with tex.enabled=0 and the L1D
 * off.  With tex.enabled=0 (and the L1D on) they are L1D accesses instead.
 * A second kernel makes four warps fetch one line at once: the three later
 * warps merge into the first one's MSHR entry.  With tex.nc=1 a chain of
 * ld.global.nc loads takes the same path (and the L1D without it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "func/tex.h"
#include "warpsim.h"

static const char ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry chain(.param .u64 t, .param .u64 o)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<6>;\n.reg .f32 %f<6>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [t];\nld.param.u64 %rd2, [o];\n"
    "mov.u32 %r1, %tid.x;\nmov.u32 %r2, 0;\nmov.f32 %f5, 0f00000000;\n"
    "$L:\n"
    "tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1}];\n"
    "cvt.rzi.s32.f32 %r3, %f1;\n"          /* texels are 0: the index stays, but waits */
    "add.s32 %r1, %r1, %r3;\n"
    "add.f32 %f5, %f5, %f1;\n"
    "add.s32 %r2, %r2, 1;\n"
    "setp.lt.u32 %p1, %r2, 10;\n@%p1 bra $L;\n"
    "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd3, %rd2, %rd3;\nst.global.f32 [%rd3], %f5;\n"
    "ret;\n}\n"
    ".visible .entry once(.param .u64 t, .param .u64 o)\n{\n"
    ".reg .b32 %r<4>;\n.reg .f32 %f<5>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [t];\nld.param.u64 %rd2, [o];\n"
    "mov.u32 %r1, %tid.x;\nand.b32 %r1, %r1, 31;\n"
    "tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1}];\n"
    "mov.u32 %r2, %tid.x;\n"
    "mul.wide.u32 %rd3, %r2, 4;\nadd.s64 %rd3, %rd2, %rd3;\nst.global.f32 [%rd3], %f1;\n"
    "ret;\n}\n"
    ".visible .entry ncchain(.param .u64 t, .param .u64 o)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .f32 %f<3>;\n.reg .b64 %rd<5>;\n"
    "ld.param.u64 %rd1, [o];\n"                  /* zero-filled, read through .nc */
    "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\n"
    "add.s64 %rd3, %rd1, %rd2;\nmov.u32 %r2, 0;\n"
    "$N:\n"
    "ld.global.nc.f32 %f1, [%rd3];\n"
    "cvt.rzi.s64.f32 %rd4, %f1;\n"          /* the data are 0: same address, but waits */
    "add.s64 %rd3, %rd3, %rd4;\n"
    "add.s32 %r2, %r2, 1;\n"
    "setp.lt.u32 %p1, %r2, 10;\n@%p1 bra $N;\n"
    "ret;\n}\n";

struct res {
    uint64_t access, hit, miss, merged, l1d, cycles;
};

static void run_nc(const char *kernel, unsigned threads, int tex_on, int l1d_on, int nc,
                   struct res *r)
{
    ws_gpu *gpu;
    ws_module *mod;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "mode", "timing"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "sm.count", "1"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "tex.enabled", tex_on ? "1" : "0"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "l1d.enabled", l1d_on ? "1" : "0"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "tex.nc", nc ? "1" : "0"), WS_OK);
    if (ws_module_load_string(gpu, ptx, "tex.ptx", &mod) != WS_OK)
        fail_msg("%s", ws_last_error(gpu));
    ws_devptr data, out, h;
    assert_int_equal(ws_malloc(gpu, 128, &data), WS_OK); /* 32 zero floats: one line */
    assert_int_equal(ws_malloc(gpu, 4 * threads, &out), WS_OK);
    struct tex_desc d;
    memset(&d, 0, sizeof d);
    d.magic = TEX_DESC_MAGIC;
    d.res = TEX_RES_LINEAR;
    d.dims = 1;
    d.nchan = 1;
    d.chan_bits = 32;
    d.kind = TEX_KIND_FLOAT;
    d.width = 32;
    d.height = d.depth = d.layers = 1;
    d.pitch = d.slice = 128;
    d.base = data;
    assert_int_equal(ws_malloc(gpu, sizeof d, &h), WS_OK);
    assert_int_equal(ws_memcpy_htod(gpu, h, &d, sizeof d), WS_OK);
    void *args[] = {&h, &out};
    if (ws_launch(mod, kernel, ws_dim(1, 1, 1), ws_dim(threads, 1, 1), 0, args) != WS_OK)
        fail_msg("%s", ws_last_error(gpu));
    assert_int_equal(ws_stat(gpu, "tex_cache_access", &r->access), WS_OK);
    assert_int_equal(ws_stat(gpu, "tex_cache_hit", &r->hit), WS_OK);
    assert_int_equal(ws_stat(gpu, "tex_cache_miss", &r->miss), WS_OK);
    assert_int_equal(ws_stat(gpu, "tex_cache_hit_reserved", &r->merged), WS_OK);
    assert_int_equal(ws_stat(gpu, "l1d_accesses", &r->l1d), WS_OK);
    assert_int_equal(ws_stat(gpu, "gpu_sim_cycle", &r->cycles), WS_OK);
    ws_gpu_free(gpu);
}

static void run(const char *kernel, unsigned threads, int tex_on, int l1d_on, struct res *r)
{
    run_nc(kernel, threads, tex_on, l1d_on, 0, r);
}

static void test_reuse_hits(void **state)
{
    (void)state;
    struct res on, off;
    run("chain", 32, 1, 1, &on);
    assert_int_equal(on.access, 10);
    assert_int_equal(on.miss, 1);
    assert_int_equal(on.hit, 9);
    assert_int_equal(on.merged, 0);
    /* without the texture cache: global loads through the L1D */
    struct res l1;
    run("chain", 32, 0, 1, &l1);
    assert_int_equal(l1.access, 0);
    assert_int_equal(l1.l1d - on.l1d, 10); /* on.l1d: the final store */
    /* and with the L1D off too, every fetch goes to the L2 */
    run("chain", 32, 0, 0, &off);
    assert_int_equal(off.access, 0);
    /* nine L2 round trips saved: the cached chain is well under half as long */
    assert_true(on.cycles * 2 < off.cycles);
}

static void test_merge_across_warps(void **state)
{
    (void)state;
    struct res r;
    run("once", 128, 1, 1, &r); /* four warps, the same line */
    assert_int_equal(r.access, 4);
    assert_int_equal(r.miss, 1);
    assert_int_equal(r.hit + r.merged, 3);
    assert_true(r.merged >= 1);
}

static void test_nc_loads(void **state)
{
    (void)state;
    struct res nc, plain;
    run_nc("ncchain", 32, 1, 1, 1, &nc);
    assert_int_equal(nc.access, 10);
    assert_int_equal(nc.miss, 1);
    assert_int_equal(nc.hit, 9);
    assert_int_equal(nc.l1d, 0);
    run_nc("ncchain", 32, 1, 1, 0, &plain);
    assert_int_equal(plain.access, 0);
    assert_int_equal(plain.l1d, 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reuse_hits),
        cmocka_unit_test(test_merge_across_warps),
        cmocka_unit_test(test_nc_loads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
