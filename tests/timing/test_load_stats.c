/* test_load_stats.c: the ALU/memory load breakdown (load_cycles_*, the
 * Phase-aware paper's Fig. 10): every SM cycle is counted once, by whether
 * ALU results and memory instructions are in flight.  A chain of dependent
 * adds keeps only the ALU busy; a chain of dependent loads keeps only the
 * memory busy. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "warpsim.h"

/* One warp: 100 iterations of 8 dependent adds (alu) or 8 dependent loads
 * of p = *p (a loop, so that instruction misses do not count). */
static void run(int alu, uint64_t *cnt, uint64_t *cycles)
{
    char ptx[8192];
    int k = snprintf(ptx, sizeof ptx,
                     ".version 7.0\n.target sm_70\n.address_size 64\n"
                     ".visible .entry k(.param .u64 p)\n{\n"
                     ".reg .pred %%p<2>;\n.reg .b32 %%r<4>;\n.reg .b64 %%rd<4>;\n"
                     "ld.param.u64 %%rd1, [p];\nmov.u32 %%r1, 0;\nmov.u32 %%r2, 0;\n"
                     "$L:\nadd.s32 %%r2, %%r2, 1;\n");
    for (int i = 0; i < 8; i++)
        k += snprintf(ptx + k, sizeof ptx - (size_t)k,
                      alu ? "add.s32 %%r1, %%r1, 1;\n" : "ld.global.u64 %%rd1, [%%rd1];\n");
    snprintf(ptx + k, sizeof ptx - (size_t)k,
             "setp.lt.u32 %%p1, %%r2, 100;\n@%%p1 bra $L;\n"
             "st.global.u32 [%%rd1], %%r1;\nret;\n}\n");
    ws_gpu *gpu;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "mode", "timing"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "sm.count", "1"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "l1d.enabled", "0"), WS_OK); /* every load to the L2 */
    ws_module *mod;
    if (ws_module_load_string(gpu, ptx, "load.ptx", &mod) != WS_OK)
        fail_msg("%s", ws_last_error(gpu));
    ws_devptr p;
    assert_int_equal(ws_malloc(gpu, 64, &p), WS_OK);
    uint64_t self = (uint64_t)p; /* *p = p: the chain stays on one word */
    assert_int_equal(ws_memcpy_htod(gpu, p, &self, 8), WS_OK);
    void *args[] = {&p};
    if (ws_launch(mod, "k", ws_dim(1, 1, 1), ws_dim(32, 1, 1), 0, args) != WS_OK)
        fail_msg("%s", ws_last_error(gpu));
    static const char *const names[4] = {"load_cycles_idle", "load_cycles_alu_only",
                                         "load_cycles_mem_only", "load_cycles_alu_mem"};
    for (int i = 0; i < 4; i++)
        assert_int_equal(ws_stat(gpu, names[i], &cnt[i]), WS_OK);
    assert_int_equal(ws_stat(gpu, "gpu_sim_cycle", cycles), WS_OK);
    ws_gpu_free(gpu);
}

static void test_load_breakdown(void **state)
{
    (void)state;
    uint64_t c[4], cycles;
    run(1, c, &cycles);
    assert_int_equal(c[0] + c[1] + c[2] + c[3], cycles);
    assert_true(c[1] * 10 >= cycles * 8); /* 800 dependent adds: ALU only */
    assert_true(c[2] + c[3] < cycles / 10);
    run(0, c, &cycles);
    assert_int_equal(c[0] + c[1] + c[2] + c[3], cycles);
    assert_true(c[2] * 10 >= cycles * 8); /* 800 dependent loads: memory only */
    assert_true(c[1] + c[3] < cycles / 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_breakdown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
