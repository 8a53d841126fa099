/* test_limits.c: hostile PTX through the public API: a kernel whose
 * parameter list exceeds CUDA's limit is rejected at load time (it used to
 * make ws_launch copy gigabytes from the caller's pointers), and a kernel
 * whose own .local frame exceeds local_memory_per_thread is rejected at
 * launch (it used to abort() with "out of host memory"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "warpsim.h"

/* Load a one-kernel module "k" with PTX ISA `version` whose parameter list is
 * `params`; returns the status (the message is ws_last_error). */
static int load_params(ws_gpu *gpu, const char *version, const char *params,
                       ws_module **mod)
{
    char ptx[512];
    snprintf(ptx, sizeof ptx,
             ".version %s\n.target sm_75\n.address_size 64\n"
             ".visible .entry k(%s)\n{\n  ret;\n}\n",
             version, params);
    *mod = NULL;
    return ws_module_load_string(gpu, ptx, "limits.ptx", mod);
}

static void test_param_limit(void **state)
{
    (void)state;
    ws_gpu *gpu;
    ws_module *mod;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    /* the reproducer: a 4 GiB parameter */
    assert_int_equal(load_params(gpu, "9.0", ".param .b8 p[4294967295]", &mod), WS_ERR_PARSE);
    assert_non_null(strstr(ws_last_error(gpu), "4294967295 bytes, more than CUDA's limit of 32764"));
    assert_non_null(strstr(ws_last_error(gpu), "limits.ptx:4:"));
    /* PTX ISA 8.1+ on sm_70+: 32764 bytes */
    assert_int_equal(load_params(gpu, "9.0", ".param .b8 p[32764]", &mod), WS_OK);
    assert_int_equal(load_params(gpu, "8.1", ".param .b8 p[32760], .param .u64 q", &mod),
                     WS_ERR_PARSE);
    assert_non_null(strstr(ws_last_error(gpu), "32768 bytes"));
    /* older PTX: 4096 bytes */
    assert_int_equal(load_params(gpu, "8.0", ".param .b8 p[4096]", &mod), WS_OK);
    assert_int_equal(load_params(gpu, "7.5", ".param .b8 p[4097]", &mod), WS_ERR_PARSE);
    assert_non_null(strstr(ws_last_error(gpu), "limit of 4096 (PTX ISA 7.5, target sm_75)"));
    ws_gpu_free(gpu);
}

static const char big_local[] = ".version 9.0\n.target sm_75\n.address_size 64\n"
                                ".visible .entry k()\n{\n"
                                "  .local .align 8 .b8 s[1099511627776];\n"
                                "  .reg .b64 %rd<2>;\n"
                                "  mov.u64 %rd1, s;\n"
                                "  ret;\n}\n";

static void test_kernel_local_frame(void **state)
{
    (void)state;
    const char *modes[] = {"functional", "timing"};
    for (int i = 0; i < 2; i++) {
        ws_gpu *gpu;
        ws_module *mod;
        assert_int_equal(ws_gpu_new(&gpu), WS_OK);
        assert_int_equal(ws_gpu_set(gpu, "mode", modes[i]), WS_OK);
        assert_int_equal(ws_module_load_string(gpu, big_local, "local.ptx", &mod), WS_OK);
        assert_int_equal(ws_launch(mod, "k", ws_dim(1, 1, 1), ws_dim(32, 1, 1), 0, NULL),
                         WS_ERR_LAUNCH);
        assert_non_null(strstr(ws_last_error(gpu), "1099511627776 bytes per thread"));
        assert_non_null(strstr(ws_last_error(gpu), "local_memory_per_thread"));
        ws_gpu_free(gpu);
    }
}

/* A kernel with no instructions completes in both modes (the timing model
 * used to report it as a deadlock). */
static void test_empty_kernel(void **state)
{
    (void)state;
    const char *ptx = ".version 9.0\n.target sm_75\n.address_size 64\n"
                      ".visible .entry k()\n{\n}\n";
    const char *modes[] = {"functional", "timing"};
    for (int i = 0; i < 2; i++) {
        ws_gpu *gpu;
        ws_module *mod;
        assert_int_equal(ws_gpu_new(&gpu), WS_OK);
        assert_int_equal(ws_gpu_set(gpu, "mode", modes[i]), WS_OK);
        assert_int_equal(ws_module_load_string(gpu, ptx, "empty.ptx", &mod), WS_OK);
        assert_int_equal(ws_launch(mod, "k", ws_dim(3, 1, 1), ws_dim(64, 1, 1), 0, NULL), WS_OK);
        uint64_t ctas = 0, warps = 0;
        assert_int_equal(ws_stat(gpu, "ctas_launched", &ctas), WS_OK);
        assert_int_equal(ws_stat(gpu, "warps_launched", &warps), WS_OK);
        assert_int_equal(ctas, 3);
        assert_int_equal(warps, 6);
        ws_gpu_free(gpu);
    }
}

/* The default warp-instruction budget stops a runaway kernel. */
static void test_default_budget(void **state)
{
    (void)state;
    ws_gpu *gpu;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    char buf[4096];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    ws_gpu_print_config(gpu, f);
    fclose(f);
    assert_non_null(strstr(buf, "max_warp_insn = 1G"));
    ws_gpu_free(gpu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_param_limit),
        cmocka_unit_test(test_kernel_local_frame),
        cmocka_unit_test(test_empty_kernel),
        cmocka_unit_test(test_default_budget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
