/* golden.h: shared helpers for the golden PTX tests in tests/ptx/.
 *
 * Each test loads one nvcc-generated PTX file (tests/ptx/<family>.ptx) into a
 * fresh simulated GPU, launches kernels through the public API and compares
 * the device results with the same computation done on the host.  Everything
 * here is static inline so that each test uses only what it needs. */
#ifndef WS_TESTS_PTX_GOLDEN_H
#define WS_TESTS_PTX_GOLDEN_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/rng.h" /* deterministic test inputs */
#include "warpsim.h"

struct golden {
    ws_gpu *gpu;
    ws_module *mod;
};

/* Create a GPU and load `path` (repo-relative).  The simulation mode is
 * "functional" unless the environment variable WS_GOLDEN_MODE names another
 * one (to run the same golden checks through another mode). */
static inline int golden_open(void **state, const char *path)
{
    struct golden *g = calloc(1, sizeof(*g));
    if (!g)
        return -1;
    if (ws_gpu_new(&g->gpu) != WS_OK) {
        free(g);
        return -1;
    }
    const char *mode = getenv("WS_GOLDEN_MODE");
    if (!mode || !*mode)
        mode = "functional";
    int rc = ws_gpu_set(g->gpu, "mode", mode);
    if (rc == WS_OK)
        rc = ws_module_load_file(g->gpu, path, &g->mod);
    if (rc != WS_OK) {
        fprintf(stderr, "golden: mode %s, loading %s: %s: %s\n", mode, path, ws_status_name(rc),
                ws_last_error(g->gpu));
        ws_gpu_free(g->gpu);
        free(g);
        return -1;
    }
    *state = g;
    return 0;
}

static inline int golden_close(void **state)
{
    struct golden *g = *state;
    if (g) {
        ws_gpu_free(g->gpu);
        free(g);
    }
    *state = NULL;
    return 0;
}

/* Fail the test with the simulator's message when an API call fails. */
#define GOLDEN_OK(g, call)                                                               \
    do {                                                                                 \
        int golden_rc_ = (call);                                                         \
        if (golden_rc_ != WS_OK)                                                         \
            fail_msg("%s -> %s: %s", #call, ws_status_name(golden_rc_),                 \
                     ws_last_error((g)->gpu));                                           \
    } while (0)

/* Allocate `bytes` of device memory and fill it from `src` (or zero it). */
static inline ws_devptr golden_upload(struct golden *g, const void *src, size_t bytes)
{
    ws_devptr p = 0;
    GOLDEN_OK(g, ws_malloc(g->gpu, bytes, &p));
    if (src)
        GOLDEN_OK(g, ws_memcpy_htod(g->gpu, p, src, bytes));
    else
        GOLDEN_OK(g, ws_memset(g->gpu, p, 0, bytes));
    return p;
}

static inline void golden_download(struct golden *g, void *dst, ws_devptr src, size_t bytes)
{
    GOLDEN_OK(g, ws_memcpy_dtoh(g->gpu, dst, src, bytes));
}

static inline void golden_launch(struct golden *g, const char *kernel, uint32_t grid,
                                 uint32_t block, uint32_t shmem, void **args)
{
    int rc = ws_launch(g->mod, kernel, ws_dim(grid, 1, 1), ws_dim(block, 1, 1), shmem, args);
    if (rc != WS_OK)
        fail_msg("launch %s<<<%u,%u,%u>>> -> %s: %s", kernel, grid, block, shmem,
                 ws_status_name(rc), ws_last_error(g->gpu));
}

/* Compare integer arrays; report the first mismatch with its index and a label. */
static inline void golden_check_u32(const char *what, const uint32_t *want,
                                    const uint32_t *got, size_t n, unsigned stride,
                                    const char *const *names)
{
    for (size_t i = 0; i < n; i++) {
        if (want[i] != got[i]) {
            if (names && stride)
                fail_msg("%s: element %zu op %u (%s): expected 0x%08x (%d), got 0x%08x (%d)",
                         what, i / stride, (unsigned)(i % stride), names[i % stride], want[i],
                         (int32_t)want[i], got[i], (int32_t)got[i]);
            fail_msg("%s[%zu]: expected 0x%08x (%d), got 0x%08x (%d)", what, i, want[i],
                     (int32_t)want[i], got[i], (int32_t)got[i]);
        }
    }
}

static inline void golden_check_u64(const char *what, const uint64_t *want,
                                    const uint64_t *got, size_t n, unsigned stride,
                                    const char *const *names)
{
    for (size_t i = 0; i < n; i++) {
        if (want[i] != got[i]) {
            if (names && stride)
                fail_msg("%s: element %zu op %u (%s): expected 0x%016llx (%lld), got "
                         "0x%016llx (%lld)",
                         what, i / stride, (unsigned)(i % stride), names[i % stride],
                         (unsigned long long)want[i], (long long)want[i],
                         (unsigned long long)got[i], (long long)got[i]);
            fail_msg("%s[%zu]: expected 0x%016llx, got 0x%016llx", what, i,
                     (unsigned long long)want[i], (unsigned long long)got[i]);
        }
    }
}

static inline uint32_t golden_f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline float golden_u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint64_t golden_d2u(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static inline double golden_u2d(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* Distance in units in the last place between two finite floats of the same
 * sign region (maps the bit patterns onto a monotonic integer line). */
static inline int64_t golden_ulp_dist_f32(float a, float b)
{
    int32_t ia = (int32_t)golden_f2u(a), ib = (int32_t)golden_f2u(b);
    int64_t la = ia < 0 ? (int64_t)INT32_MIN - ia : ia;
    int64_t lb = ib < 0 ? (int64_t)INT32_MIN - ib : ib;
    int64_t d = la - lb;
    return d < 0 ? -d : d;
}

#endif
