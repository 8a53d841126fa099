/* test_regs_ptxas.c: registers per thread come from ptxas when a count is
 * known (GPGPU-Sim reads ptxas's "Used N registers"), from
 * sm.regs_per_thread when set, and from warpsim's estimate otherwise; the
 * statistics kernel_regs_{configured,ptxas,estimated} say which; a CTA's
 * allocation rounds them as GPGPU-Sim 3.x does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "warpsim.h"
#include "workload.h"

static uint64_t stat(ws_gpu *gpu, const char *name)
{
    uint64_t v = 0;
    assert_int_equal(ws_stat(gpu, name, &v), WS_OK);
    return v;
}

/* The built-in vecadd runs with its committed count (workloads/vecadd/vecadd.regs). */
static void test_workload_uses_committed_count(void **state)
{
    (void)state;
    const struct workload_entry *we = workload_find("vecadd");
    assert_non_null(we);
    assert_non_null(strstr(we->regs, "vecadd 12"));
    ws_gpu *gpu;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_load_config(gpu, "gtx480"), WS_OK);
    struct wl_args a = {WL_SMALL, 1};
    char detail[256];
    assert_int_equal(workload_run(gpu, we, &a, detail, sizeof detail), WS_OK);
    assert_int_equal(stat(gpu, "kernel_regs_ptxas"), stat(gpu, "kernels_launched"));
    assert_int_equal(stat(gpu, "kernel_regs_estimated"), 0);
    ws_gpu_free(gpu);
}

static const char ptx[] = ".version 7.0\n.target sm_70\n.address_size 64\n"
                          ".visible .entry k()\n{\nret;\n}\n";

static int launch(ws_module *mod)
{
    return ws_launch(mod, "k", ws_dim(1, 1, 1), ws_dim(256, 1, 1), 0, NULL);
}

/* A count makes occupancy: 255 registers x 256 threads do not fit the
 * gtx480's 32768 registers per SM; the configured value wins over it. */
static void test_count_used_and_fallback_reported(void **state)
{
    (void)state;
    ws_gpu *gpu;
    ws_module *mod;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_load_config(gpu, "gtx480"), WS_OK);
    assert_int_equal(ws_module_load_string(gpu, ptx, "k.ptx", &mod), WS_OK);
    assert_int_equal(launch(mod), WS_OK); /* no count: the estimate */
    assert_int_equal(stat(gpu, "kernel_regs_estimated"), 1);
    assert_int_equal(stat(gpu, "kernel_regs_ptxas"), 0);

    assert_int_equal(ws_module_set_regs(mod, "k", 255), WS_OK);
    assert_int_not_equal(launch(mod), WS_OK);
    assert_non_null(strstr(ws_last_error(gpu), "registers"));

    assert_int_equal(ws_module_set_regs(mod, "nokernel", 8), WS_ERR_NOT_FOUND);
    assert_int_equal(ws_module_set_regs(mod, "k", 0), WS_ERR_INVALID);
    assert_int_equal(ws_module_set_regs(mod, "k", 256), WS_ERR_INVALID);
    ws_gpu_free(gpu);

    /* sm.regs_per_thread (the daws preset's 16) wins over the count */
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_load_config(gpu, "gtx480"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "sm.regs_per_thread", "16"), WS_OK);
    assert_int_equal(ws_module_load_string(gpu, ptx, "k.ptx", &mod), WS_OK);
    assert_int_equal(ws_module_set_regs(mod, "k", 255), WS_OK);
    assert_int_equal(launch(mod), WS_OK);
    assert_int_equal(stat(gpu, "kernel_regs_configured"), 1);
    assert_int_equal(stat(gpu, "kernel_regs_ptxas"), 0);
    ws_gpu_free(gpu);
}

static int launch_threads(ws_module *mod, uint32_t threads)
{
    return ws_launch(mod, "k", ws_dim(1, 1, 1), ws_dim(threads, 1, 1), 0, NULL);
}

/* A CTA's registers are allocated as GPGPU-Sim 3.x allocates them
 * (shader_core_config::max_cta): each thread's count rounded up to a
 * multiple of sm.regs_round (default 4), the threads padded to whole warps. */
static void test_allocation_rounds_as_gpgpusim(void **state)
{
    (void)state;
    ws_gpu *gpu;
    ws_module *mod;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_load_config(gpu, "gtx480"), WS_OK);
    /* 127 x 256 = 32512 registers would fit exactly; 128 x 256 do not */
    assert_int_equal(ws_gpu_set(gpu, "sm.registers", "32512"), WS_OK);
    assert_int_equal(ws_module_load_string(gpu, ptx, "k.ptx", &mod), WS_OK);
    assert_int_equal(ws_module_set_regs(mod, "k", 127), WS_OK);
    assert_int_not_equal(launch_threads(mod, 256), WS_OK);
    assert_non_null(strstr(ws_last_error(gpu), "needs 32768 registers"));
    ws_gpu_free(gpu);

    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_load_config(gpu, "gtx480"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "sm.registers", "32512"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "sm.regs_round", "1"), WS_OK); /* exact counts */
    assert_int_equal(ws_module_load_string(gpu, ptx, "k.ptx", &mod), WS_OK);
    assert_int_equal(ws_module_set_regs(mod, "k", 127), WS_OK);
    assert_int_equal(launch_threads(mod, 256), WS_OK);
    ws_gpu_free(gpu);

    /* 250 threads take 8 whole warps: 4 x 256 = 1024 registers, not 1000 */
    for (int fits = 0; fits < 2; fits++) {
        assert_int_equal(ws_gpu_new(&gpu), WS_OK);
        assert_int_equal(ws_gpu_load_config(gpu, "gtx480"), WS_OK);
        assert_int_equal(ws_gpu_set(gpu, "sm.registers", fits ? "1024" : "1000"), WS_OK);
        assert_int_equal(ws_module_load_string(gpu, ptx, "k.ptx", &mod), WS_OK);
        assert_int_equal(ws_module_set_regs(mod, "k", 4), WS_OK);
        if (fits) {
            assert_int_equal(launch_threads(mod, 250), WS_OK);
        } else {
            assert_int_not_equal(launch_threads(mod, 250), WS_OK);
            assert_non_null(strstr(ws_last_error(gpu), "needs 1024 registers"));
        }
        ws_gpu_free(gpu);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_workload_uses_committed_count),
        cmocka_unit_test(test_count_used_and_fallback_reported),
        cmocka_unit_test(test_allocation_rounds_as_gpgpusim),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
