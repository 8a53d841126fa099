/* test_daws_detected_wl.c: Detected-DAWS on every built-in workload at small
 * size through the timing model (--config daws): results verify and nothing
 * deadlocks (barrier kernels, warps finishing inside loops), and the
 * mechanism is active (predictions made on the cache-sensitive BFS). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "warpsim.h"
#include "workload.h"

static void test_every_workload(void **state)
{
    (void)state;
    uint64_t bfs_predictions = 0;
    for (unsigned i = 0; i < workload_count; i++) {
        const struct workload_entry *we = &workload_table[i];
        ws_gpu *gpu;
        assert_int_equal(ws_gpu_new(&gpu), WS_OK);
        assert_int_equal(ws_gpu_load_config(gpu, "daws"), WS_OK);
        assert_int_equal(ws_gpu_set(gpu, "sm.sched", "daws_detected"), WS_OK);
        struct wl_args args = {.size = WL_SMALL, .seed = 1};
        char detail[1024] = "";
        if (workload_run(gpu, we, &args, detail, sizeof detail) != WS_OK)
            fail_msg("%s under daws_detected: %s (%s)", we->w->name, detail, ws_last_error(gpu));
        if (strcmp(we->w->name, "bfs") == 0)
            assert_int_equal(ws_stat(gpu, "sched_daws_predictions", &bfs_predictions), WS_OK);
        ws_gpu_free(gpu);
    }
    assert_true(bfs_predictions > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_workload),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
