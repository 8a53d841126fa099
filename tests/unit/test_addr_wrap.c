/* test_addr_wrap.c: .shared and .local addresses are 32 bits wide and wrap
 * (issue 15, defect 1).  nvcc folds an index into the immediate of a shared
 * access: for thread 0 of a Needleman-Wunsch kernel it computes
 * %r4 = 0xFFFFFFC0 and loads [%r4+68], which hardware and GPGPU-Sim wrap to
 * offset 4; summed in 64 bits it was 0x100000004 and faulted.  Each kernel
 * runs in functional mode and through the timing model (whose shared bank
 * model takes the same per-lane addresses). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "warpsim.h"

enum { T = 32 };

/* s[i] = 3i + 1 for i < 64; thread t then reads s[t + 1] through
 *   (1) [%r4+68] with %r4 = &s + 4t - 64 (a u32 that wraps for t < 16),
 *   (2) cvta.to.shared.u32 of s's generic address, then [%r6+4t+4 - 64 + 64],
 *   (3) a 64-bit register holding (1)'s u32: [%rd5+68] is 0x100000004 for
 *       thread 0 in 64 bits, offset 4 in the 32-bit shared window,
 * and writes the three values to out[3t .. 3t+2]. */
static const char *const ptx_shared =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    ".visible .entry wrap_shared(.param .u64 out)\n{\n"
    "  .reg .b32 %r<16>;\n  .reg .b64 %rd<12>;\n"
    "  .shared .align 4 .b8 s[256];\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, s;\n"
    "  shl.b32 %r3, %r1, 2;\n"
    "  add.u32 %r5, %r2, %r3;\n"
    "  mad.lo.u32 %r7, %r1, 3, 1;\n"
    "  st.shared.u32 [%r5], %r7;\n"
    "  add.u32 %r8, %r1, 32;\n"
    "  mad.lo.u32 %r7, %r8, 3, 1;\n"
    "  st.shared.u32 [%r5+128], %r7;\n"
    "  bar.sync 0;\n"
    /* (1) */
    "  add.u32 %r4, %r5, -64;\n"
    "  ld.shared.u32 %r10, [%r4+68];\n"
    /* (2) */
    "  mov.u64 %rd2, s;\n"
    "  cvta.shared.u64 %rd3, %rd2;\n"
    "  cvta.to.shared.u32 %r6, %rd3;\n"
    "  add.u32 %r6, %r6, %r3;\n"
    "  add.u32 %r6, %r6, -64;\n"
    "  ld.shared.u32 %r11, [%r6+68];\n"
    /* (3) */
    "  cvt.u64.u32 %rd5, %r4;\n"
    "  ld.shared.u32 %r12, [%rd5+68];\n"
    "  mul.lo.u32 %r9, %r1, 12;\n"
    "  cvt.u64.u32 %rd6, %r9;\n"
    "  add.u64 %rd7, %rd1, %rd6;\n"
    "  st.global.u32 [%rd7], %r10;\n"
    "  st.global.u32 [%rd7+4], %r11;\n"
    "  st.global.u32 [%rd7+8], %r12;\n"
    "  ret;\n}\n";

/* The same in .local: each thread writes d[i] = 7i + t for i < 8 into its
 * depot, then reads d[2] through [%r4+76] with %r4 = &d - 68 (u32, wraps)
 * and through a generic address made by cvta.local.u64. */
static const char *const ptx_local =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    ".visible .entry wrap_local(.param .u64 out)\n{\n"
    "  .local .align 4 .b8 d[32];\n"
    "  .reg .b32 %r<16>;\n  .reg .b64 %rd<12>;\n  .reg .pred %p<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, d;\n"
    "  mov.u32 %r3, 0;\n"
    "L1:\n"
    "  mad.lo.u32 %r5, %r3, 7, %r1;\n"
    "  shl.b32 %r6, %r3, 2;\n"
    "  add.u32 %r6, %r2, %r6;\n"
    "  st.local.u32 [%r6], %r5;\n"
    "  add.u32 %r3, %r3, 1;\n"
    "  setp.lt.u32 %p1, %r3, 8;\n"
    "  @%p1 bra L1;\n"
    "  add.u32 %r4, %r2, -68;\n"
    "  ld.local.u32 %r10, [%r4+76];\n"
    "  mov.u64 %rd2, d;\n"
    "  cvta.local.u64 %rd3, %rd2;\n"
    "  ld.u32 %r11, [%rd3+8];\n"
    "  mul.wide.u32 %rd4, %r1, 8;\n"
    "  add.u64 %rd5, %rd1, %rd4;\n"
    "  st.global.u32 [%rd5], %r10;\n"
    "  st.global.u32 [%rd5+4], %r11;\n"
    "  ret;\n}\n";

static void run(const char *mode, const char *ptx, const char *kernel, uint32_t *out,
                size_t words)
{
    ws_gpu *gpu;
    ws_module *mod;
    ws_devptr d;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "mode", mode), WS_OK);
    if (ws_module_load_string(gpu, ptx, kernel, &mod) != WS_OK)
        fail_msg("%s", ws_last_error(gpu));
    assert_int_equal(ws_malloc(gpu, words * 4, &d), WS_OK);
    void *args[] = {&d};
    if (ws_launch(mod, kernel, ws_dim(1, 1, 1), ws_dim(T, 1, 1), 0, args) != WS_OK)
        fail_msg("%s mode: %s", mode, ws_last_error(gpu));
    assert_int_equal(ws_memcpy_dtoh(gpu, out, d, words * 4), WS_OK);
    ws_gpu_free(gpu);
}

static void check_shared(const char *mode)
{
    uint32_t out[3 * T];
    run(mode, ptx_shared, "wrap_shared", out, 3 * T);
    for (uint32_t t = 0; t < T; t++)
        for (int k = 0; k < 3; k++)
            if (out[3 * t + k] != 3 * (t + 1) + 1)
                fail_msg("%s mode, thread %u, form %d: read %u, want s[%u] = %u", mode, t, k + 1,
                         out[3 * t + k], t + 1, 3 * (t + 1) + 1);
}

static void check_local(const char *mode)
{
    uint32_t out[2 * T];
    run(mode, ptx_local, "wrap_local", out, 2 * T);
    for (uint32_t t = 0; t < T; t++)
        for (int k = 0; k < 2; k++)
            if (out[2 * t + k] != 14 + t)
                fail_msg("%s mode, thread %u, form %d: read %u, want d[2] = %u", mode, t, k + 1,
                         out[2 * t + k], 14 + t);
}

static void test_shared_functional(void **state)
{
    (void)state;
    check_shared("functional");
}

static void test_shared_timing(void **state)
{
    (void)state;
    check_shared("timing");
}

static void test_local_functional(void **state)
{
    (void)state;
    check_local("functional");
}

static void test_local_timing(void **state)
{
    (void)state;
    check_local("timing");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_functional),
        cmocka_unit_test(test_shared_timing),
        cmocka_unit_test(test_local_functional),
        cmocka_unit_test(test_local_timing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
