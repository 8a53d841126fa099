/* test_daws_workloads.c: Profiled-DAWS on every built-in workload at small
 * size through the timing model (--config daws): results verify and nothing
 * deadlocks (barrier kernels, warps finishing inside loops).  The profile
 * comes from `warpsim profile`'s code path: a functional run of another seed
 * with the load profiler attached.  (Detected-DAWS: test_daws_detected_wl.c.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "api/gpu.h"
#include "profile/profile.h"
#include "warpsim.h"
#include "workload.h"

/* Run we; with pr, functionally with the profiler attached, and the profile
 * built into *out before the gpu (and its modules) is freed. */
static int run_one(const struct workload_entry *we, const char *sched, uint64_t seed,
                   struct profiler *pr, struct load_profile *out)
{
    ws_gpu *gpu;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    if (pr) {
        assert_int_equal(ws_gpu_set(gpu, "mode", "functional"), WS_OK);
        gpu->trace_fn = profiler_trace;
        gpu->trace_ctx = pr;
    } else {
        assert_int_equal(ws_gpu_load_config(gpu, "daws"), WS_OK);
        assert_int_equal(ws_gpu_set(gpu, "sm.sched", sched), WS_OK);
    }
    struct wl_args args = {.size = WL_SMALL, .seed = seed};
    char detail[1024] = "";
    int rc = workload_run(gpu, we, &args, detail, sizeof detail);
    if (rc != WS_OK)
        fail_msg("%s under %s: %s (%s)", we->w->name, pr ? "profiling" : sched, detail,
                 ws_last_error(gpu));
    if (pr) {
        struct err e;
        err_clear(&e);
        assert_int_equal(profiler_finish(pr, out, &e), WS_OK);
    }
    ws_gpu_free(gpu);
    return rc;
}

static void test_every_workload(void **state)
{
    (void)state;
    static struct load_profile p;
    for (unsigned i = 0; i < workload_count; i++) {
        const struct workload_entry *we = &workload_table[i];
        struct profiler *pr = profiler_new();
        run_one(we, NULL, 2, pr, &p);
        profiler_free(pr);
        struct err e;
        err_clear(&e);
        char path[64];
        snprintf(path, sizeof path, "/tmp/daws_wlXXXXXX");
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        close(fd);
        assert_int_equal(profile_write_file(path, &p, we->w->name, &e), WS_OK);
        char spec[128];
        snprintf(spec, sizeof spec, "daws_profiled:profile=%s", path);
        run_one(we, spec, 1, NULL, NULL);
        unlink(path);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_workload),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
