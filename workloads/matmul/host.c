/* host.c (matmul): C = A B for random square integer matrices (matmul.cu),
 * checked against the product on the CPU. */
#include "workload.h"

#include <stdlib.h>

#include "base/alloc.h"

#define MM_TILE 16u

static uint32_t mm_n(enum wl_size s)
{
    switch (s) {
    case WL_SMALL:
        return 128;
    case WL_MEDIUM:
        return 256; /* the slides' input: two 256 x 256 integer matrices */
    case WL_LARGE:
        return 1024;
    }
    return 0;
}

static int mm_device(ws_gpu *gpu, ws_module *mod, const int32_t *a, const int32_t *b,
                     int32_t *c, uint32_t n, char *detail, size_t detail_len)
{
    size_t bytes = (size_t)n * n * 4;
    ws_devptr da, db, dc;
    WL_TRY(gpu, ws_malloc(gpu, bytes, &da), detail, detail_len);
    WL_TRY(gpu, ws_malloc(gpu, bytes, &db), detail, detail_len);
    WL_TRY(gpu, ws_malloc(gpu, bytes, &dc), detail, detail_len);
    WL_TRY(gpu, ws_memcpy_htod(gpu, da, a, bytes), detail, detail_len);
    WL_TRY(gpu, ws_memcpy_htod(gpu, db, b, bytes), detail, detail_len);
    WL_TRY(gpu, ws_memcpy_htod(gpu, dc, c, bytes), detail, detail_len);
    void *args[] = {&da, &db, &dc, &n};
    WL_TRY(gpu,
           ws_launch(mod, "matmul", ws_dim(n / MM_TILE, n / MM_TILE, 1),
                     ws_dim(MM_TILE, MM_TILE, 1), 0, args),
           detail, detail_len);
    WL_TRY(gpu, ws_memcpy_dtoh(gpu, c, dc, bytes), detail, detail_len);
    WL_TRY(gpu, ws_free(gpu, da), detail, detail_len);
    WL_TRY(gpu, ws_free(gpu, db), detail, detail_len);
    WL_TRY(gpu, ws_free(gpu, dc), detail, detail_len);
    return WS_OK;
}

static int mm_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *args, char *detail,
                  size_t detail_len)
{
    uint32_t n = mm_n(args->size);
    size_t nn = (size_t)n * n;
    int32_t *a = xmalloc(nn * 4), *b = xmalloc(nn * 4), *c = xmalloc(nn * 4),
            *want = xmalloc(nn * 4);
    struct rng rng;
    rng_seed(&rng, args->seed);
    for (size_t i = 0; i < nn; i++) {
        a[i] = (int32_t)rng_below(&rng, 201) - 100;
        b[i] = (int32_t)rng_below(&rng, 201) - 100;
        c[i] = INT32_MIN; /* an unwritten element fails */
    }
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++) {
            int32_t s = 0;
            for (uint32_t k = 0; k < n; k++)
                s += a[(size_t)i * n + k] * b[(size_t)k * n + j];
            want[(size_t)i * n + j] = s;
        }
    int rc = mm_device(gpu, mod, a, b, c, n, detail, detail_len);
    if (rc == WS_OK)
        rc = wl_check_i32("c", want, c, nn, detail, detail_len);
    free(a);
    free(b);
    free(c);
    free(want);
    return rc;
}

const struct workload workload_matmul = {
    .name = "matmul",
    .desc = "tiled integer matrix multiplication in shared memory, 16 x 16 blocks (the "
            "large-warp slides' matrix_mult)",
    .run = mm_run,
};
