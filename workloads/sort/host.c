/* host.c (sort): bitonic sort of 512-key segments (sort.cu), checked against
 * each segment sorted on the CPU. */
#include "workload.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

#define SORT_SEG 512u
#define SORT_BLOCK 256u

static uint32_t sort_keys(enum wl_size s)
{
    switch (s) {
    case WL_SMALL:
        return 16u * SORT_SEG + 100u; /* a partial last segment exercises the padding */
    case WL_MEDIUM:
        return 128u * SORT_SEG;
    case WL_LARGE:
        return 4096u * SORT_SEG;
    }
    return 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int sort_device(ws_gpu *gpu, ws_module *mod, uint32_t *keys, uint32_t n, char *detail,
                       size_t detail_len)
{
    size_t bytes = (size_t)n * sizeof *keys;
    ws_devptr dk;
    WL_TRY(gpu, ws_malloc(gpu, bytes, &dk), detail, detail_len);
    WL_TRY(gpu, ws_memcpy_htod(gpu, dk, keys, bytes), detail, detail_len);
    void *args[] = {&dk, &n};
    uint32_t blocks = (n + SORT_SEG - 1) / SORT_SEG;
    WL_TRY(gpu,
           ws_launch(mod, "sort_bitonic", ws_dim(blocks, 1, 1), ws_dim(SORT_BLOCK, 1, 1), 0,
                     args),
           detail, detail_len);
    WL_TRY(gpu, ws_memcpy_dtoh(gpu, keys, dk, bytes), detail, detail_len);
    WL_TRY(gpu, ws_free(gpu, dk), detail, detail_len);
    return WS_OK;
}

static int sort_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                    size_t detail_len)
{
    uint32_t n = sort_keys(a->size);
    uint32_t *keys = xmalloc((size_t)n * sizeof *keys);
    uint32_t *want = xmalloc((size_t)n * sizeof *want);
    struct rng rng;
    rng_seed(&rng, a->seed);
    for (uint32_t i = 0; i < n; i++)
        keys[i] = (uint32_t)rng_below(&rng, 1000000u); /* duplicates occur */
    memcpy(want, keys, (size_t)n * sizeof *keys);
    for (uint32_t s = 0; s < n; s += SORT_SEG)
        qsort(want + s, n - s < SORT_SEG ? n - s : SORT_SEG, sizeof *want, cmp_u32);
    int rc = sort_device(gpu, mod, keys, n, detail, detail_len);
    if (rc == WS_OK)
        rc = wl_check_u32("keys", want, keys, n, detail, detail_len);
    free(keys);
    free(want);
    return rc;
}

const struct workload workload_sort = {
    .name = "sort",
    .desc = "bitonic sort of 512-key segments in shared memory, data-dependent swaps "
            "(the large-warp slides' sort)",
    .run = sort_run,
};
