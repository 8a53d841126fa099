/* host.c: the histo workload: a 256-bin byte histogram with shared and global
 * atomics, plus a warp-shuffle sum and a ballot count, all checked exactly. */
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/alloc.h"

#define HISTO_BINS 256u
#define HISTO_BLOCK 256u
#define HISTO_PER_THREAD 8u
#define HISTO_THRESHOLD 200u

/* Skewed bytes: half are drawn from 16 "hot" values, which makes many lanes
 * hit the same shared bin at once; the rest are uniform. */
static uint8_t *histo_make_data(uint32_t n, uint64_t seed)
{
    struct rng rng;
    rng_seed(&rng, seed);
    uint8_t hot[16];
    for (unsigned i = 0; i < 16; i++)
        hot[i] = (uint8_t)rng_below(&rng, HISTO_BINS);
    uint8_t *data = xmalloc(n);
    for (uint32_t i = 0; i < n; i++)
        data[i] = rng_below(&rng, 2) ? hot[rng_below(&rng, 16)]
                                        : (uint8_t)rng_below(&rng, HISTO_BINS);
    return data;
}

static int histo_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                     size_t detail_len)
{
    /* Not multiples of the block size, so the last warp is partly idle. */
    static const uint32_t sizes[] = {65536 + 77, 1048576 + 333, 16777216 + 1001};
    uint32_t n = sizes[a->size];
    uint32_t threshold = HISTO_THRESHOLD;
    uint8_t *data = histo_make_data(n, a->seed);
    uint32_t bins[HISTO_BINS], want_bins[HISTO_BINS] = {0};
    uint32_t sums[2], want_sums[2] = {0, 0}; /* total, count of values >= threshold */
    for (uint32_t i = 0; i < n; i++) {
        want_bins[data[i]]++;
        want_sums[0] += data[i];
        want_sums[1] += data[i] >= threshold;
    }

    ws_devptr d_data = 0, d_bins = 0, d_sums = 0;
    uint32_t blocks = (n + HISTO_BLOCK * HISTO_PER_THREAD - 1) / (HISTO_BLOCK * HISTO_PER_THREAD);
    char check[192];
    int rc;
    WL_TRY_OUT(ws_malloc(gpu, n, &d_data));
    WL_TRY_OUT(ws_malloc(gpu, sizeof bins, &d_bins));
    WL_TRY_OUT(ws_malloc(gpu, sizeof sums, &d_sums));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_data, data, n));
    WL_TRY_OUT(ws_memset(gpu, d_bins, 0, sizeof bins));
    WL_TRY_OUT(ws_memset(gpu, d_sums, 0, sizeof sums));
    ws_devptr d_total = d_sums, d_above = d_sums + sizeof(uint32_t);
    void *args[] = {&d_data, &n, &threshold, &d_bins, &d_total, &d_above};
    WL_TRY_OUT(ws_launch(mod, "histo_kernel", ws_dim(blocks, 1, 1), ws_dim(HISTO_BLOCK, 1, 1),
                         0, args));
    WL_TRY_OUT(ws_memcpy_dtoh(gpu, bins, d_bins, sizeof bins));
    WL_TRY_OUT(ws_memcpy_dtoh(gpu, sums, d_sums, sizeof sums));

    rc = wl_check_u32("bins", want_bins, bins, HISTO_BINS, check, sizeof check);
    if (rc == WS_OK && sums[0] != want_sums[0]) {
        rc = WS_ERR_VERIFY;
        snprintf(check, sizeof check, "shuffle-reduced total: expected %u, got %u",
                 want_sums[0], sums[0]);
    }
    if (rc == WS_OK && sums[1] != want_sums[1]) {
        rc = WS_ERR_VERIFY;
        snprintf(check, sizeof check, "ballot count of values >= %u: expected %u, got %u",
                 threshold, want_sums[1], sums[1]);
    }
    if (rc == WS_OK)
        snprintf(detail, detail_len,
                 "histo: %u bytes in %u blocks: %u bins, total %u and %u values >= %u "
                 "match the CPU reference",
                 n, blocks, HISTO_BINS, sums[0], sums[1], threshold);
    else
        snprintf(detail, detail_len, "histo: %u bytes in %u blocks: %s", n, blocks, check);

out:
    if (d_sums)
        ws_free(gpu, d_sums);
    if (d_bins)
        ws_free(gpu, d_bins);
    if (d_data)
        ws_free(gpu, d_data);
    free(data);
    return rc;
}

const struct workload workload_histo = {
    .name = "histo",
    .desc = "256-bin byte histogram with shared/global atomics, a __shfl_down_sync sum "
            "and a __ballot_sync count",
    .run = histo_run,
};
