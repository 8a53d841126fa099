/* test_hoist.c: ptx.hoist_loads (src/analysis/hoist.h) in the timing model.
 * One warp runs a chain of D dependent adds, then loads a value whose
 * address does not depend on the chain, then adds the two (the chain starts
 * from the kernel parameter the load's address needs, so that the cold
 * constant-cache miss of that parameter comes first in both orders).  In nvcc's order
 * the load issues after the chain, so the run takes about D x sp.latency plus
 * the load's latency; hoisted, the load issues first and its latency hides
 * under the chain: the run is shorter by most of the chain's D x 4 cycles (the
 * chain is shorter than a load's round trip), and the stored result is the
 * same.  The option cannot change once code is loaded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "warpsim.h"

#define CHAIN 40u /* dependent adds: 160 cycles at sp.latency 4 */

static char *chain_ptx(void)
{
    size_t cap = 2048 + CHAIN * 40;
    char *p = malloc(cap);
    assert_non_null(p);
    int n = snprintf(p, cap,
                     ".version 7.0\n.target sm_70\n.address_size 64\n"
                     ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
                     ".reg .b32 %%r<8>;\n.reg .b64 %%rd<8>;\n"
                     "ld.param.u64 %%rd1, [in];\nld.param.u64 %%rd2, [out];\n"
                     "mov.u32 %%r1, %%tid.x;\ncvt.u32.u64 %%r2, %%rd1;\n");
    for (unsigned i = 0; i < CHAIN; i++)
        n += snprintf(p + n, cap - (size_t)n, "add.s32 %%r2, %%r2, 3;\n");
    snprintf(p + n, cap - (size_t)n,
             "mul.wide.u32 %%rd3, %%r1, 4;\nadd.s64 %%rd4, %%rd1, %%rd3;\n"
             "ld.global.u32 %%r3, [%%rd4];\nadd.s32 %%r4, %%r3, %%r2;\n"
             "add.s64 %%rd5, %%rd2, %%rd3;\nst.global.u32 [%%rd5], %%r4;\nret;\n}\n");
    return p;
}

/* Cycles of one 32-thread launch; checks out[i] = in[i] + (u32)in + 3 CHAIN. */
static uint64_t chain_run(const char *hoist)
{
    ws_gpu *gpu;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "mode", "timing"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "ptx.hoist_loads", hoist), WS_OK);
    char *ptx = chain_ptx();
    ws_module *mod;
    int rc = ws_module_load_string(gpu, ptx, "chain.ptx", &mod);
    free(ptx);
    if (rc != WS_OK)
        fail_msg("%s", ws_last_error(gpu));
    /* the code is in its order now: the option may not change */
    assert_int_equal(ws_gpu_set(gpu, "ptx.hoist_loads", hoist[0] == '1' ? "0" : "1"),
                     WS_ERR_INVALID);
    uint32_t in[32], out[32];
    for (uint32_t i = 0; i < 32; i++)
        in[i] = 1000u * i + 7u;
    ws_devptr din, dout;
    assert_int_equal(ws_malloc(gpu, sizeof in, &din), WS_OK);
    assert_int_equal(ws_malloc(gpu, sizeof out, &dout), WS_OK);
    assert_int_equal(ws_memcpy_htod(gpu, din, in, sizeof in), WS_OK);
    void *args[] = {&din, &dout};
    rc = ws_launch(mod, "k", ws_dim(1, 1, 1), ws_dim(32, 1, 1), 0, args);
    if (rc != WS_OK)
        fail_msg("%s", ws_last_error(gpu));
    assert_int_equal(ws_memcpy_dtoh(gpu, out, dout, sizeof out), WS_OK);
    for (uint32_t i = 0; i < 32; i++)
        assert_int_equal(out[i], in[i] + (uint32_t)din + 3u * CHAIN);
    uint64_t cyc = 0;
    assert_int_equal(ws_stat(gpu, "gpu_sim_cycle", &cyc), WS_OK);
    ws_gpu_free(gpu);
    return cyc;
}

static void test_hoisted_load_hides_under_chain(void **state)
{
    (void)state;
    uint64_t plain = chain_run("0"), hoisted = chain_run("1");
    print_message("nvcc order %llu cycles, hoisted %llu\n", (unsigned long long)plain,
                  (unsigned long long)hoisted);
    /* the chain (CHAIN x 4 cycles) overlaps the load's round trip */
    assert_true(hoisted + CHAIN * 4 * 3 / 4 <= plain);
    assert_true(hoisted + CHAIN * 4 + 16 >= plain);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hoisted_load_hides_under_chain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
