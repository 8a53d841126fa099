/* wl_run.h: for policy tests, run a built-in workload at small size on the
 * daws preset (with keys overridden) under one scheduler, failing the test
 * unless its results verify; the caller reads statistics from the returned
 * gpu and frees it. */
#ifndef WS_TESTS_WL_RUN_H
#define WS_TESTS_WL_RUN_H

#include "warpsim.h"
#include "workload.h"

/* kv: key, value, key, value, ..., NULL */
static inline ws_gpu *wl_run_small_keys(const char *wl, const char *sched,
                                        const char *const *kv)
{
    const struct workload_entry *we = workload_find(wl);
    assert_non_null(we);
    ws_gpu *gpu;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_load_config(gpu, "daws"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "mode", "timing"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "sm.sched", sched), WS_OK);
    for (; kv && kv[0]; kv += 2)
        assert_int_equal(ws_gpu_set(gpu, kv[0], kv[1]), WS_OK);
    struct wl_args a = {.size = WL_SMALL, .seed = 1};
    char detail[1024] = "";
    int rc = workload_run(gpu, we, &a, detail, sizeof detail);
    if (rc != WS_OK)
        fail_msg("%s under %s: %s: %s", wl, sched, ws_status_name(rc), detail);
    return gpu;
}

static inline ws_gpu *wl_run_small_set(const char *wl, const char *sched, const char *key,
                                       const char *val)
{
    const char *const kv[] = {key, val, NULL};
    return wl_run_small_keys(wl, sched, key ? kv : NULL);
}

static inline ws_gpu *wl_run_small(const char *wl, const char *sched)
{
    return wl_run_small_set(wl, sched, NULL, NULL);
}

#endif
