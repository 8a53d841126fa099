/* host.c (vecadd): c = a + b over float vectors, checked element by element
 * against the same sum on the CPU. */
#include "workload.h"

#include <stdlib.h>

#include "base/alloc.h"

#define VECADD_BLOCK 256u

static uint32_t vecadd_elems(enum wl_size s)
{
    switch (s) {
    case WL_SMALL:
        return 50000u; /* not a multiple of the block: exercises the bound check */
    case WL_MEDIUM:
        return 1u << 20;
    case WL_LARGE:
        return (1u << 24) + 777u;
    }
    return 0;
}

/* Copy a and b in, run the kernel, copy c out. */
static int vecadd_device(ws_gpu *gpu, ws_module *mod, const float *a, const float *b, float *c,
                         uint32_t n, char *detail, size_t detail_len)
{
    size_t bytes = (size_t)n * sizeof(float);
    ws_devptr da, db, dc;
    WL_TRY(gpu, ws_malloc(gpu, bytes, &da), detail, detail_len);
    WL_TRY(gpu, ws_malloc(gpu, bytes, &db), detail, detail_len);
    WL_TRY(gpu, ws_malloc(gpu, bytes, &dc), detail, detail_len);
    WL_TRY(gpu, ws_memcpy_htod(gpu, da, a, bytes), detail, detail_len);
    WL_TRY(gpu, ws_memcpy_htod(gpu, db, b, bytes), detail, detail_len);
    WL_TRY(gpu, ws_memset(gpu, dc, 0xff, bytes), detail, detail_len); /* NaN if unwritten */
    void *args[] = {&da, &db, &dc, &n};
    uint32_t blocks = (n + VECADD_BLOCK - 1) / VECADD_BLOCK;
    WL_TRY(gpu,
           ws_launch(mod, "vecadd", ws_dim(blocks, 1, 1), ws_dim(VECADD_BLOCK, 1, 1), 0, args),
           detail, detail_len);
    WL_TRY(gpu, ws_memcpy_dtoh(gpu, c, dc, bytes), detail, detail_len);
    WL_TRY(gpu, ws_free(gpu, da), detail, detail_len);
    WL_TRY(gpu, ws_free(gpu, db), detail, detail_len);
    WL_TRY(gpu, ws_free(gpu, dc), detail, detail_len);
    return WS_OK;
}

static int vecadd_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                      size_t detail_len)
{
    uint32_t n = vecadd_elems(a->size);
    float *ha = xmalloc((size_t)n * sizeof(float));
    float *hb = xmalloc((size_t)n * sizeof(float));
    float *hc = xmalloc((size_t)n * sizeof(float));
    float *want = xmalloc((size_t)n * sizeof(float));
    struct rng rng;
    rng_seed(&rng, a->seed);
    for (uint32_t i = 0; i < n; i++) {
        ha[i] = rng_float(&rng) * 200.0f - 100.0f;
        hb[i] = rng_float(&rng) * 200.0f - 100.0f;
        want[i] = ha[i] + hb[i];
    }
    int rc = vecadd_device(gpu, mod, ha, hb, hc, n, detail, detail_len);
    if (rc == WS_OK) /* one IEEE addition: the result must be bit-exact */
        rc = wl_check_f32("c", want, hc, n, 0.0f, 0.0f, detail, detail_len);
    free(ha);
    free(hb);
    free(hc);
    free(want);
    return rc;
}

const struct workload workload_vecadd = {
    .name = "vecadd",
    .desc = "c = a + b on float vectors, one thread per element (1-D grid)",
    .run = vecadd_run,
};
