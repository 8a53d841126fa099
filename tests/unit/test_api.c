/* test_api.c: the public API (include/warpsim.h) — options, memory calls,
 * module symbols, misuse — and hand-written PTX for recursion with divergent
 * returns, nested divergence sharing a reconvergence point, .const data
 * reached through cvta.const and a generic load, and guarded exit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "warpsim.h"

static const char hand_ptx[] =
    ".version 7.5\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".const .align 4 .b32 c_coef[4] = {10, 20, 30, 40};\n"
    ".global .align 4 .u32 g_count;\n"
    "\n"
    ".func (.param .b32 r) sumto(.param .b32 x)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<6>;\n"
    "  ld.param.u32 %r1, [x];\n"
    "  setp.le.s32 %p1, %r1, 0;\n"
    "  @%p1 bra DONE;\n"
    "  add.s32 %r2, %r1, -1;\n"
    "  {\n"
    "  .param .b32 a0;\n"
    "  .param .b32 r0;\n"
    "  st.param.b32 [a0], %r2;\n"
    "  call (r0), sumto, (a0);\n"
    "  ld.param.b32 %r3, [r0];\n"
    "  }\n"
    "  add.s32 %r4, %r3, %r1;\n"
    "  st.param.b32 [r], %r4;\n"
    "  ret;\n"
    "DONE:\n"
    "  mov.u32 %r5, 0;\n"
    "  st.param.b32 [r], %r5;\n"
    "  ret;\n"
    "}\n"
    "\n"
    ".visible .entry rec(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<10>;\n"
    "  .reg .b64 %rd<6>;\n"
    "  .reg .pred %p<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.gt.u32 %p3, %r1, 40;\n"
    "  @%p3 exit;\n"
    "  rem.u32 %r2, %r1, 6;\n"
    "  {\n"
    "  .param .b32 a0;\n"
    "  .param .b32 r0;\n"
    "  st.param.b32 [a0], %r2;\n"
    "  call (r0), sumto, (a0);\n"
    "  ld.param.b32 %r3, [r0];\n"
    "  }\n"
    "  and.b32 %r4, %r1, 3;\n"
    "  mul.wide.u32 %rd2, %r4, 4;\n"
    "  mov.u64 %rd3, c_coef;\n"
    "  cvta.const.u64 %rd3, %rd3;\n"
    "  add.s64 %rd3, %rd3, %rd2;\n"
    "  ld.u32 %r5, [%rd3];\n"
    "  and.b32 %r6, %r1, 1;\n"
    "  setp.eq.u32 %p1, %r6, 0;\n"
    "  @%p1 bra EVEN;\n"
    "  and.b32 %r7, %r1, 2;\n"
    "  setp.eq.u32 %p2, %r7, 0;\n"
    "  @%p2 bra J;\n"
    "  add.s32 %r5, %r5, 1000;\n"
    "  bra J;\n"
    "EVEN:\n"
    "  add.s32 %r5, %r5, 2000;\n"
    "J:\n"
    "  mul.lo.u32 %r8, %r3, 10000;\n"
    "  add.s32 %r8, %r8, %r5;\n"
    "  mul.wide.u32 %rd4, %r1, 4;\n"
    "  add.s64 %rd5, %rd1, %rd4;\n"
    "  st.global.u32 [%rd5], %r8;\n"
    "  atom.global.add.u32 %r9, [g_count], 1;\n"
    "  ret;\n"
    "}\n";

static void test_recursion_nested(void **state)
{
    (void)state;
    ws_gpu *gpu;
    ws_module *mod;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    int rc = ws_module_load_string(gpu, hand_ptx, "hand.ptx", &mod);
    if (rc != WS_OK)
        fprintf(stderr, "%s\n", ws_last_error(gpu));
    assert_int_equal(rc, WS_OK);
    enum { T = 64 };
    ws_devptr d;
    assert_int_equal(ws_malloc(gpu, T * 4, &d), WS_OK);
    assert_int_equal(ws_memset(gpu, d, 0xff, T * 4), WS_OK);
    void *args[] = {&d};
    rc = ws_launch(mod, "rec", ws_dim(1, 1, 1), ws_dim(T, 1, 1), 0, args);
    if (rc != WS_OK)
        fprintf(stderr, "%s\n", ws_last_error(gpu));
    assert_int_equal(rc, WS_OK);
    int out[T];
    assert_int_equal(ws_memcpy_dtoh(gpu, out, d, sizeof out), WS_OK);
    static const int coef[4] = {10, 20, 30, 40};
    for (int t = 0; t < T; t++) {
        if (t > 40) {
            assert_int_equal(out[t], -1);
            continue;
        }
        int x = t % 6;
        int v = coef[t & 3] + ((t & 1) ? ((t & 2) ? 1000 : 0) : 2000);
        assert_int_equal(out[t], x * (x + 1) / 2 * 10000 + v);
    }
    ws_devptr gc;
    size_t sz;
    assert_int_equal(ws_module_symbol(mod, "g_count", &gc, &sz), WS_OK);
    assert_int_equal(sz, 4);
    uint32_t cnt;
    assert_int_equal(ws_memcpy_dtoh(gpu, &cnt, gc, 4), WS_OK);
    assert_int_equal(cnt, 41);
    ws_devptr cc;
    assert_int_equal(ws_module_symbol(mod, "c_coef", &cc, &sz), WS_OK);
    assert_int_equal(sz, 16);
    int cv[4];
    assert_int_equal(ws_memcpy_dtoh(gpu, cv, cc, sizeof cv), WS_OK);
    assert_memory_equal(cv, coef, sizeof cv);
    assert_int_equal(ws_module_symbol(mod, "nope", &cc, &sz), WS_ERR_NOT_FOUND);
    ws_gpu_free(gpu);
}

static void test_options(void **state)
{
    (void)state;
    ws_gpu *gpu;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_string_equal(ws_last_error(gpu), "");
    assert_int_equal(ws_gpu_set(gpu, "mode", "functional"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "mode", "cycle"), WS_ERR_INVALID);
    assert_non_null(strstr(ws_last_error(gpu), "functional"));
    assert_int_equal(ws_gpu_set(gpu, "bogus_key", "1"), WS_ERR_INVALID);
    assert_non_null(strstr(ws_last_error(gpu), "bogus_key"));
    assert_non_null(strstr(ws_last_error(gpu), "device_memory"));
    assert_non_null(strstr(ws_last_error(gpu), "max_warp_insn"));
    assert_int_equal(ws_gpu_set(gpu, "device_memory", "12Q"), WS_ERR_INVALID);
    assert_int_equal(ws_gpu_set(gpu, "local_memory_per_thread", "-5"), WS_ERR_INVALID);
    assert_int_equal(ws_gpu_set(gpu, "local_memory_per_thread", "64K"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "device_memory", "1K"), WS_OK);
    ws_devptr p, q;
    assert_int_equal(ws_malloc(gpu, 512, &p), WS_OK);
    assert_int_equal(ws_malloc(gpu, 1024, &q), WS_ERR_NOMEM);
    assert_non_null(strstr(ws_last_error(gpu), "device_memory"));
    assert_int_equal(ws_free(gpu, p), WS_OK);
    assert_int_equal(ws_malloc(gpu, 1024, &q), WS_OK);
    assert_int_equal(q % 256, 0);
    assert_int_equal(ws_gpu_set(gpu, NULL, "1"), WS_ERR_INVALID);
    FILE *tmp = tmpfile();
    ws_gpu_options(tmp);
    assert_true(ftell(tmp) > 0);
    fclose(tmp);
    ws_gpu_free(gpu);
}

static void test_memory_and_misuse(void **state)
{
    (void)state;
    ws_gpu *gpu;
    assert_int_equal(ws_gpu_new(NULL), WS_ERR_INVALID);
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    ws_devptr a, b;
    assert_int_equal(ws_malloc(gpu, 100, &a), WS_OK);
    assert_int_equal(ws_malloc(gpu, 300, &b), WS_OK);
    assert_true(a != b && a % 256 == 0 && b % 256 == 0);
    assert_int_equal(ws_malloc(gpu, 16, NULL), WS_ERR_INVALID);
    uint8_t buf[300], back[300];
    for (int i = 0; i < 300; i++)
        buf[i] = (uint8_t)(i * 7);
    assert_int_equal(ws_memcpy_htod(gpu, b, buf, 300), WS_OK);
    assert_int_equal(ws_memcpy_dtod(gpu, a, b + 10, 100), WS_OK);
    assert_int_equal(ws_memcpy_dtoh(gpu, back, a, 100), WS_OK);
    assert_memory_equal(back, buf + 10, 100);
    assert_int_equal(ws_memset(gpu, a, 0x5a, 50), WS_OK);
    assert_int_equal(ws_memcpy_dtoh(gpu, back, a, 100), WS_OK);
    assert_int_equal(back[49], 0x5a);
    assert_int_equal(back[50], buf[60]);
    /* out of range, NULL host pointers, bad frees */
    assert_int_equal(ws_memcpy_htod(gpu, a, buf, 101), WS_ERR_INVALID);
    assert_non_null(strstr(ws_last_error(gpu), "ws_memcpy_htod"));
    assert_int_equal(ws_memcpy_dtoh(gpu, back, 0x1234, 4), WS_ERR_INVALID);
    assert_int_equal(ws_memcpy_htod(gpu, a, NULL, 4), WS_ERR_INVALID);
    assert_int_equal(ws_free(gpu, a + 4), WS_ERR_INVALID);
    assert_non_null(strstr(ws_last_error(gpu), "not the address"));
    assert_int_equal(ws_free(gpu, a), WS_OK);
    assert_int_equal(ws_free(gpu, a), WS_ERR_INVALID);
    assert_int_equal(ws_free(gpu, 0), WS_OK);
    assert_int_equal(ws_launch(NULL, "k", ws_dim(1, 1, 1), ws_dim(1, 1, 1), 0, NULL),
                     WS_ERR_INVALID);
    ws_module *mod;
    assert_int_equal(ws_module_load_string(gpu, NULL, "x", &mod), WS_ERR_INVALID);
    assert_int_equal(ws_module_load_string(gpu, ".version 7.5\n.target sm_75\n"
                                                ".address_size 64\n.entry k( {\n",
                                           "bad.ptx", &mod),
                     WS_ERR_PARSE);
    assert_non_null(strstr(ws_last_error(gpu), "bad.ptx"));
    assert_int_equal(ws_module_load_file(gpu, "/nonexistent/x.ptx", &mod), WS_ERR_IO);
    uint64_t v;
    assert_int_equal(ws_stat(gpu, "warp_insn", &v), WS_OK);
    assert_int_equal(v, 0);
    assert_int_equal(ws_stat(gpu, "warp_insn", NULL), WS_ERR_INVALID);
    assert_string_equal(ws_status_name(WS_ERR_FAULT), "WS_ERR_FAULT");
    assert_string_equal(ws_status_name(99), "WS_ERR_UNKNOWN");
    ws_gpu_free(gpu);
    ws_gpu_free(NULL);
}

/* Allocations are not adjacent: a store one element past the end of a
 * 256-byte buffer faults instead of landing in the next allocation (as
 * compute-sanitizer would report it). */
static void test_guard_gap(void **state)
{
    (void)state;
    static const char ptx[] = ".version 7.5\n.target sm_75\n.address_size 64\n"
                              ".visible .entry put(.param .u64 p, .param .u32 i)\n{\n"
                              "  .reg .u64 %rd<4>;\n  .reg .u32 %r<2>;\n"
                              "  ld.param.u64 %rd1, [p];\n  ld.param.u32 %r1, [i];\n"
                              "  mul.wide.u32 %rd2, %r1, 4;\n  add.u64 %rd3, %rd1, %rd2;\n"
                              "  st.global.u32 [%rd3], 7;\n  ret;\n}\n";
    ws_gpu *gpu;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    ws_module *mod;
    assert_int_equal(ws_module_load_string(gpu, ptx, "put.ptx", &mod), WS_OK);
    ws_devptr a, b;
    assert_int_equal(ws_malloc(gpu, 256, &a), WS_OK);
    assert_int_equal(ws_malloc(gpu, 256, &b), WS_OK);
    assert_true(b >= a + 512);
    uint32_t i = 63;
    void *args[] = {&a, &i};
    assert_int_equal(ws_launch(mod, "put", ws_dim(1, 1, 1), ws_dim(1, 1, 1), 0, args), WS_OK);
    i = 64;
    assert_int_equal(ws_launch(mod, "put", ws_dim(1, 1, 1), ws_dim(1, 1, 1), 0, args),
                     WS_ERR_FAULT);
    assert_non_null(strstr(ws_last_error(gpu), "outside any allocation"));
    /* a freed range is reused, still with its guards */
    assert_int_equal(ws_free(gpu, a), WS_OK);
    ws_devptr c;
    assert_int_equal(ws_malloc(gpu, 100, &c), WS_OK);
    assert_int_equal(c, a);
    ws_gpu_free(gpu);
}

/* .global .attribute(.managed) (CUDA __managed__): parsed, placed alone at a
 * WS_MANAGED_ALIGN boundary with its initializer, usable by a kernel; other
 * attributes and a managed non-global variable are refused by name. */
static void test_managed_var(void **state)
{
    (void)state;
    static const char ptx[] = ".version 7.5\n.target sm_75\n.address_size 64\n"
                              ".global .align 4 .u32 plain = 3;\n"
                              ".global .attribute(.managed) .align 4 .u32 counter = 5;\n"
                              ".global .attribute(.managed) .align 4 .b8 arr[100];\n"
                              ".visible .entry bump()\n{\n  .reg .u32 %r<3>;\n"
                              "  ld.global.u32 %r1, [counter];\n  add.u32 %r2, %r1, 10;\n"
                              "  st.global.u32 [counter], %r2;\n"
                              "  st.global.u32 [arr+96], %r1;\n  ret;\n}\n";
    ws_gpu *gpu;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    ws_module *mod;
    assert_int_equal(ws_module_load_string(gpu, ptx, "managed.ptx", &mod), WS_OK);
    ws_devptr c, a, p;
    size_t sz;
    assert_int_equal(ws_module_symbol(mod, "counter", &c, &sz), WS_OK);
    assert_int_equal(sz, 4);
    assert_int_equal(c % WS_MANAGED_ALIGN, 0);
    assert_int_equal(ws_module_symbol(mod, "arr", &a, &sz), WS_OK);
    assert_int_equal(sz, 100);
    assert_int_equal(a % WS_MANAGED_ALIGN, 0);
    assert_int_equal(ws_module_symbol(mod, "plain", &p, &sz), WS_OK);
    /* nothing else in the managed variables' pages */
    assert_true(p + 4 <= c || p >= c + WS_MANAGED_ALIGN);
    assert_true(p + 4 <= a || p >= a + WS_MANAGED_ALIGN);
    assert_true(a >= c + WS_MANAGED_ALIGN || c >= a + WS_MANAGED_ALIGN);
    assert_int_equal(ws_launch(mod, "bump", ws_dim(1, 1, 1), ws_dim(1, 1, 1), 0, NULL), WS_OK);
    uint32_t v, w;
    assert_int_equal(ws_memcpy_dtoh(gpu, &v, c, 4), WS_OK);
    assert_int_equal(v, 15);
    assert_int_equal(ws_memcpy_dtoh(gpu, &w, a + 96, 4), WS_OK);
    assert_int_equal(w, 5);
    static const char unified[] = ".version 7.5\n.target sm_75\n.address_size 64\n"
                                  ".global .attribute(.unified(1,2)) .u32 u;\n";
    assert_int_equal(ws_module_load_string(gpu, unified, "u.ptx", &mod), WS_ERR_UNSUPPORTED);
    assert_non_null(strstr(ws_last_error(gpu), ".unified"));
    static const char shared[] = ".version 7.5\n.target sm_75\n.address_size 64\n"
                                 ".shared .attribute(.managed) .u32 s;\n";
    assert_int_equal(ws_module_load_string(gpu, shared, "s.ptx", &mod), WS_ERR_PARSE);
    assert_non_null(strstr(ws_last_error(gpu), ".attribute(.managed)"));
    ws_gpu_free(gpu);
}

/* A kernel that declares no registers at all runs in both modes. */
static void test_no_registers(void **state)
{
    (void)state;
    static const char ptx[] = ".version 9.0\n.target sm_75\n.address_size 64\n"
                              ".visible .entry nothing()\n{\n  ret;\n}\n";
    static const char *const modes[] = {"functional", "timing"};
    for (int i = 0; i < 2; i++) {
        ws_gpu *gpu;
        ws_module *mod;
        uint64_t warps = 0;
        assert_int_equal(ws_gpu_new(&gpu), WS_OK);
        assert_int_equal(ws_gpu_set(gpu, "mode", modes[i]), WS_OK);
        assert_int_equal(ws_module_load_string(gpu, ptx, "nothing.ptx", &mod), WS_OK);
        assert_int_equal(ws_launch(mod, "nothing", ws_dim(3, 1, 1), ws_dim(64, 1, 1), 0, NULL),
                         WS_OK);
        assert_int_equal(ws_stat(gpu, "warps_launched", &warps), WS_OK);
        assert_int_equal(warps, 6);
        ws_gpu_free(gpu);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recursion_nested),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_memory_and_misuse),
        cmocka_unit_test(test_guard_gap),
        cmocka_unit_test(test_no_registers),
        cmocka_unit_test(test_managed_var),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
