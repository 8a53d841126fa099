/* host.c (reduce): multi-pass sum of an int array.  reduce_sum turns n values
 * into one partial per block; the host relaunches it on the partials until a
 * single value is left.  The first pass's partials and the total are compared
 * exactly with the CPU. */
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/alloc.h"

#define REDUCE_BLOCK 256u /* power of two: the tree halves it */

static uint32_t reduce_elems(enum wl_size s)
{
    switch (s) {
    case WL_SMALL:
        return 100003u; /* odd, so the last block is partly empty */
    case WL_MEDIUM:
        return (1u << 20) + 12345u;
    case WL_LARGE:
        return (1u << 24) + 4321u;
    }
    return 0;
}

static uint32_t reduce_blocks(uint32_t n)
{
    return (n + 2 * REDUCE_BLOCK - 1) / (2 * REDUCE_BLOCK);
}

/* Run every pass; copy the first pass's partials (reduce_blocks(n) ints) into
 * first and the final sum into *total. */
static int reduce_device(ws_gpu *gpu, ws_module *mod, const int32_t *in, uint32_t n,
                         int32_t *first, int32_t *total, unsigned *passes, char *detail,
                         size_t detail_len)
{
    uint32_t nb = reduce_blocks(n);
    ws_devptr src, dst, spare;
    WL_TRY(gpu, ws_malloc(gpu, (size_t)n * sizeof(int32_t), &src), detail, detail_len);
    WL_TRY(gpu, ws_malloc(gpu, (size_t)nb * sizeof(int32_t), &dst), detail, detail_len);
    WL_TRY(gpu, ws_malloc(gpu, (size_t)nb * sizeof(int32_t), &spare), detail, detail_len);
    ws_devptr input = src;
    WL_TRY(gpu, ws_memcpy_htod(gpu, src, in, (size_t)n * sizeof(int32_t)), detail,
           detail_len);
    *passes = 0;
    uint32_t count = n;
    do {
        uint32_t blocks = reduce_blocks(count);
        void *args[] = {&src, &dst, &count};
        WL_TRY(gpu,
               ws_launch(mod, "reduce_sum", ws_dim(blocks, 1, 1), ws_dim(REDUCE_BLOCK, 1, 1),
                         REDUCE_BLOCK * sizeof(int32_t), args),
               detail, detail_len);
        if (*passes == 0)
            WL_TRY(gpu, ws_memcpy_dtoh(gpu, first, dst, (size_t)blocks * sizeof(int32_t)),
                   detail, detail_len);
        ++*passes;
        count = blocks;
        /* the partials become the next input; never overwrite the original */
        ws_devptr next_dst = src == input ? spare : src;
        src = dst;
        dst = next_dst;
    } while (count > 1);
    WL_TRY(gpu, ws_memcpy_dtoh(gpu, total, src, sizeof(int32_t)), detail, detail_len);
    WL_TRY(gpu, ws_free(gpu, input), detail, detail_len);
    WL_TRY(gpu, ws_free(gpu, src), detail, detail_len);
    WL_TRY(gpu, ws_free(gpu, dst), detail, detail_len);
    return WS_OK;
}

static int reduce_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                      size_t detail_len)
{
    uint32_t n = reduce_elems(a->size);
    uint32_t nb = reduce_blocks(n);
    int32_t *in = xmalloc((size_t)n * sizeof(int32_t));
    int32_t *first = xmalloc((size_t)nb * sizeof(int32_t));
    int32_t *want = xcalloc(nb, sizeof(int32_t));
    struct rng rng;
    rng_seed(&rng, a->seed);
    /* values in [-100, 100]: |sum| <= 100 n stays far inside int32 */
    int32_t want_total = 0;
    for (uint32_t i = 0; i < n; i++) {
        in[i] = (int32_t)rng_below(&rng, 201) - 100;
        want[i / (2 * REDUCE_BLOCK)] += in[i];
        want_total += in[i];
    }
    int32_t total = 0;
    unsigned passes = 0;
    int rc = reduce_device(gpu, mod, in, n, first, &total, &passes, detail, detail_len);
    if (rc == WS_OK)
        rc = wl_check_i32("block partial", want, first, nb, detail, detail_len);
    if (rc == WS_OK)
        rc = wl_check_i32("total", &want_total, &total, 1, detail, detail_len);
    if (rc == WS_OK)
        snprintf(detail, detail_len, "sum of %u ints = %d in %u passes (%u block partials match)",
                 n, (int)total, passes, nb);
    free(in);
    free(first);
    free(want);
    return rc;
}

const struct workload workload_reduce = {
    .name = "reduce",
    .desc = "int sum: shared-memory tree with __syncthreads per block, relaunched on partials",
    .run = reduce_run,
};
