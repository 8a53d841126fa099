/* test_store_ack.c: sm.store_ack, GPGPU-Sim 3.x's store acknowledgements:
 * the L2 answers every store request with a reply of no data, and a warp
 * completes, and a fence passes, only once its stores are acknowledged.
 * Checked on one warp storing one line, at the GTX480 defaults (core, icnt
 * and L2 at 700 MHz, ROP delay 120, crossbar latency 8 each way): the
 * acknowledgement's round trip (at least 120 + 2 x 8 cycles) is added to the
 * kernel once at its end, and once more for each fence after a store. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "warpsim.h"

#define ROUND_TRIP_MIN (120 + 2 * 8)

/* One warp stores %r1 to out[lane] `stores` times, each store followed by
 * a membar.gl when `fence`. */
static const char *const ptx[2] = {
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\n"
    "add.s64 %rd3, %rd1, %rd2;\n"
    "st.global.u32 [%rd3], %r1;\nst.global.u32 [%rd3], %r1;\nret;\n}\n",
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\n"
    "add.s64 %rd3, %rd1, %rd2;\n"
    "st.global.u32 [%rd3], %r1;\nmembar.gl;\nst.global.u32 [%rd3], %r1;\nmembar.gl;\n"
    "ret;\n}\n",
};

struct run {
    uint64_t cycles, replies, l2_writes;
};

static struct run run_with(int fence, const char *ack, const char *key, const char *value)
{
    ws_gpu *gpu;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "mode", "timing"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "sm.store_ack", ack), WS_OK);
    if (key)
        assert_int_equal(ws_gpu_set(gpu, key, value), WS_OK);
    ws_module *mod;
    if (ws_module_load_string(gpu, ptx[fence], "st.ptx", &mod) != WS_OK)
        fail_msg("%s", ws_last_error(gpu));
    ws_devptr out;
    assert_int_equal(ws_malloc(gpu, 128, &out), WS_OK);
    void *args[] = {&out};
    if (ws_launch(mod, "k", ws_dim(1, 1, 1), ws_dim(32, 1, 1), 0, args) != WS_OK)
        fail_msg("%s", ws_last_error(gpu));
    uint32_t v[32];
    assert_int_equal(ws_memcpy_dtoh(gpu, v, out, sizeof v), WS_OK);
    for (uint32_t i = 0; i < 32; i++)
        assert_int_equal(v[i], i);
    struct run r;
    assert_int_equal(ws_stat(gpu, "gpu_sim_cycle", &r.cycles), WS_OK);
    assert_int_equal(ws_stat(gpu, "icnt_reply_packets", &r.replies), WS_OK);
    assert_int_equal(ws_stat(gpu, "l2_writes", &r.l2_writes), WS_OK);
    ws_gpu_free(gpu);
    return r;
}

static struct run run(int fence, const char *ack)
{
    return run_with(fence, ack, NULL, NULL);
}

/* Without acknowledgements the kernel ends while its stores travel: they are
 * not even looked up in the L2 by then. */
static void test_no_ack(void **state)
{
    (void)state;
    struct run r = run(0, "0");
    assert_int_equal(r.l2_writes, 0);
    struct run f = run(1, "0");
    assert_true(f.cycles < r.cycles + ROUND_TRIP_MIN); /* the fences wait for nothing */
}

static void test_ack_at_exit(void **state)
{
    (void)state;
    struct run off = run(0, "0"), on = run(0, "1");
    assert_int_equal(on.l2_writes, 2);
    assert_int_equal(on.replies, off.replies + 2); /* one acknowledgement per store */
    assert_true(on.cycles >= off.cycles + ROUND_TRIP_MIN);
    /* the other ways a store takes: a sectored L2, and no L2 (DRAM acknowledges) */
    static const char *const other[][2] = {{"l2.sector_bytes", "32"}, {"l2.enabled", "0"}};
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
        struct run o = run_with(0, "0", other[i][0], other[i][1]);
        struct run a = run_with(0, "1", other[i][0], other[i][1]);
        assert_int_equal(a.replies, o.replies + 2);
        assert_true(a.cycles >= o.cycles + ROUND_TRIP_MIN);
    }
}

/* The first fence waits for the first store's acknowledgement before the
 * second store issues: a round trip more than without the fences. */
static void test_ack_at_fence(void **state)
{
    (void)state;
    struct run plain = run(0, "1"), fenced = run(1, "1");
    assert_int_equal(fenced.l2_writes, 2);
    assert_true(fenced.cycles >= plain.cycles + ROUND_TRIP_MIN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_ack),
        cmocka_unit_test(test_ack_at_exit),
        cmocka_unit_test(test_ack_at_fence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
