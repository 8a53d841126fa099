/* test_shared_per_kernel.c: a CTA holds only the shared variables its kernel
 * reaches (issue 10).  shared4.ptx has four kernels of 16 KB shared memory
 * each (own arrays declared in the .entry bodies, one kernel also calling a
 * .func with its own 256-byte array); summed over the module they would be
 * 65,792 bytes, more than the 48 KB an SM of the gtx480 preset has, and the
 * timing model refused every launch before the layout was per kernel. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "ptx/parser.h"
#include "warpsim.h"

#define PTX WS_SOURCE_DIR "/tests/unit/shared4.ptx"

static uint64_t kernel_shared(const struct ptx_module *m, const char *name)
{
    uint32_t f = ptx_find_func(m, name);
    assert_int_not_equal(f, PTX_NO_INDEX);
    return m->funcs[f].shared_bytes;
}

static void test_layout_per_kernel(void **state)
{
    (void)state;
    char *text;
    size_t len;
    struct err e;
    struct ptx_module *m;
    assert_int_equal(file_read_all(PTX, &text, &len, &e), WS_OK);
    assert_int_equal(ptx_parse(text, len, "shared4.ptx", &m, &e), WS_OK);
    free(text);
    assert_int_equal(kernel_shared(m, "own_a"), 16384);
    assert_int_equal(kernel_shared(m, "own_b"), 16384);
    assert_int_equal(kernel_shared(m, "module_scope"), 16384);
    assert_int_equal(kernel_shared(m, "with_call"), 16384 + 256); /* + the callee's ring */
    ptx_module_free(m);
}

/* Each kernel runs through the timing model at the gtx480 preset (48 KB of
 * shared memory per SM) and writes s[4095 - t] (+ the callee's value). */
static void test_launch_each(void **state)
{
    (void)state;
    ws_gpu *gpu;
    ws_module *mod;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_load_config(gpu, "gtx480"), WS_OK);
    assert_int_equal(ws_module_load_file(gpu, PTX, &mod), WS_OK);
    static const char *const names[] = {"own_a", "own_b", "module_scope", "with_call"};
    enum { T = 64 }; /* one ring slot per thread in the callee */
    ws_devptr d;
    assert_int_equal(ws_malloc(gpu, T * sizeof(float), &d), WS_OK);
    for (int k = 0; k < 4; k++) {
        void *args[] = {&d};
        int rc = ws_launch(mod, names[k], ws_dim(2, 1, 1), ws_dim(T, 1, 1), 0, args);
        if (rc != WS_OK)
            fail_msg("%s: %s", names[k], ws_last_error(gpu));
        float out[T];
        assert_int_equal(ws_memcpy_dtoh(gpu, out, d, sizeof out), WS_OK);
        for (int t = 0; t < T; t++) {
            float want = (float)(k + 1) * (float)(4095 - t);
            if (k == 3)
                want += (float)((t + 1) & 63);
            assert_true(out[t] == want);
        }
    }
    ws_gpu_free(gpu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_per_kernel),
        cmocka_unit_test(test_launch_each),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
