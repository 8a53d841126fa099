/* test_func_vec.c: vector operands of mov and st — packing registers and
 * immediate elements ({0, %rs1}, as nvcc emits for bf16 conversions),
 * unpacking with "_" sinks, and vector stores with an immediate element. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "warpsim.h"

static const char vec_ptx[] =
    ".version 9.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".visible .entry vec(.param .u64 out)\n"
    "{\n"
    "  .reg .b16 %rs<3>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  cvt.u16.u32 %rs1, %r1;\n"
    "  mov.b32 %r2, {0, %rs1};\n"           /* tid << 16 */
    "  mov.b32 %r3, {%rs1, 7};\n"           /* 0x00070000 | tid */
    "  mov.b64 %rd2, {%r1, %r2};\n"
    "  mov.b64 {_, %r4}, %rd2;\n"           /* high half: %r2 */
    "  mul.wide.u32 %rd3, %r1, 16;\n"
    "  add.s64 %rd3, %rd1, %rd3;\n"
    "  st.global.v4.u32 [%rd3], {%r2, %r3, %r4, 5};\n"
    "  ret;\n"
    "}\n";

static void test_vector_operands(void **state)
{
    (void)state;
    ws_gpu *gpu;
    ws_module *mod;
    ws_devptr out;
    enum { N = 64 };
    uint32_t host[N * 4];
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "mode", "functional"), WS_OK);
    assert_int_equal(ws_module_load_string(gpu, vec_ptx, "vec.ptx", &mod), WS_OK);
    assert_int_equal(ws_malloc(gpu, sizeof host, &out), WS_OK);
    void *args[] = {&out};
    assert_int_equal(ws_launch(mod, "vec", ws_dim(1, 1, 1), ws_dim(N, 1, 1), 0, args), WS_OK);
    assert_int_equal(ws_memcpy_dtoh(gpu, host, out, sizeof host), WS_OK);
    for (uint32_t t = 0; t < N; t++) {
        assert_int_equal(host[4 * t + 0], t << 16);
        assert_int_equal(host[4 * t + 1], 0x00070000u | t);
        assert_int_equal(host[4 * t + 2], t << 16);
        assert_int_equal(host[4 * t + 3], 5);
    }
    ws_gpu_free(gpu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vector_operands),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
