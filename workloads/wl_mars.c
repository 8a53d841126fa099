/* wl_mars.c: the host side of the Mars MapReduce runtime shared by pvc, pvr
 * and iix (wl_mars.h).  Between launches it reads back only what Mars's
 * runtime reads: each prefix sum's total, to size buffers and count groups. */
#include "wl_mars.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/alloc.h"

int mars_alloc(struct mars_dev *d, size_t bytes, ws_devptr *out)
{
    MARS_API(d, ws_malloc(d->gpu, bytes ? bytes : 4, out));
    if (d->nheld == d->cap) {
        d->cap = d->cap ? 2 * d->cap : 64;
        d->held = xrealloc(d->held, (size_t)d->cap * sizeof *d->held);
    }
    d->held[d->nheld++] = *out;
    return WS_OK;
}

void mars_free(struct mars_dev *d)
{
    for (uint32_t i = d->nheld; i > 0; i--)
        ws_free(d->gpu, d->held[i - 1]);
    free(d->held);
    d->held = NULL;
    d->nheld = d->cap = 0;
}

int mars_launch(struct mars_dev *d, const char *stage, uint32_t blocks, uint32_t threads,
                void **args)
{
    char kernel[64];
    snprintf(kernel, sizeof kernel, "%s_%s", d->prefix, stage);
    MARS_API(d, ws_launch(d->mod, kernel, ws_dim(blocks, 1, 1), ws_dim(threads, 1, 1), 0, args));
    return WS_OK;
}

int mars_read(struct mars_dev *d, ws_devptr src, size_t bytes, uint8_t **out)
{
    *out = xmalloc(bytes ? bytes : 1);
    MARS_API(d, ws_memcpy_dtoh(d->gpu, *out, src, bytes));
    return WS_OK;
}

static int mars_scan_level(struct mars_dev *d, ws_devptr in, ws_devptr out, uint32_t n)
{
    uint32_t blocks = mars_ceil(n, MARS_SCAN);
    int32_t n_arg = (int32_t)n;
    ws_devptr sums, scanned;
    MARS_CHECK(mars_alloc(d, (size_t)blocks * 4, &sums));
    void *args[] = {&in, &out, &n_arg, &sums};
    MARS_CHECK(mars_launch(d, "scan", blocks, MARS_SCAN / 2, args));
    if (blocks > 1) {
        MARS_CHECK(mars_alloc(d, (size_t)blocks * 4, &scanned));
        MARS_CHECK(mars_scan_level(d, sums, scanned, blocks));
        void *add[] = {&out, &n_arg, &scanned};
        MARS_CHECK(mars_launch(d, "scan_add", blocks, MARS_SCAN / 2, add));
    }
    return WS_OK;
}

int mars_prefix_sum(struct mars_dev *d, ws_devptr in, ws_devptr out, uint32_t n,
                    uint32_t *total)
{
    MARS_CHECK(mars_scan_level(d, in, out, n));
    int32_t last_in, last_out;
    MARS_API(d, ws_memcpy_dtoh(d->gpu, &last_in, in + (n - 1) * 4ull, 4));
    MARS_API(d, ws_memcpy_dtoh(d->gpu, &last_out, out + (n - 1) * 4ull, 4));
    *total = (uint32_t)(last_in + last_out);
    return WS_OK;
}

int mars_count_buffers(struct mars_dev *d, size_t bytes, ws_devptr sz[3], ws_devptr ps[3])
{
    for (int k = 0; k < 3; k++)
        MARS_CHECK(mars_alloc(d, bytes, &sz[k]));
    for (int k = 0; k < 3; k++)
        MARS_CHECK(mars_alloc(d, bytes, &ps[k]));
    for (int k = 0; k < 3; k++)
        MARS_API(d, ws_memset(d->gpu, sz[k], 0, bytes));
    return WS_OK;
}

int mars_emit_buffers(struct mars_dev *d, const ws_devptr sz[3], const ws_devptr ps[3],
                      uint32_t tasks, int fill, ws_devptr out[3], uint32_t total[3])
{
    for (int k = 0; k < 3; k++)
        MARS_CHECK(mars_prefix_sum(d, sz[k], ps[k], tasks, &total[k]));
    size_t bytes[3] = {total[0], total[1], (size_t)total[2] * 16};
    for (int k = 0; k < 3; k++) {
        MARS_CHECK(mars_alloc(d, bytes[k], &out[k]));
        MARS_API(d, ws_memset(d->gpu, out[k], fill, bytes[k]));
    }
    return WS_OK;
}

/* bitonic sort of `padded` (a power of two, >= 256) index records: one
 * global step per (k, j), as Mars sorts up to MARS_GLOBAL_SORT records */
static int mars_sort(struct mars_dev *d, ws_devptr rec, ws_devptr keys, uint32_t padded)
{
    if (padded > MARS_GLOBAL_SORT) {
        snprintf(d->detail, d->detail_len,
                 "%s: %u records to sort: Mars's shared-memory scheme above %u is not "
                 "implemented",
                 d->prefix, padded, MARS_GLOBAL_SORT);
        return WS_ERR_INVALID;
    }
    int32_t k, j;
    void *step[] = {&rec, &keys, &k, &j};
    for (k = 2; (uint32_t)k <= padded; k <<= 1)
        for (j = k >> 1; j > 0; j >>= 1)
            MARS_CHECK(mars_launch(d, "sort_step", padded / MARS_BLOCK, MARS_BLOCK, step));
    return WS_OK;
}

int mars_group(struct mars_dev *d, const struct mars_set *in, struct mars_groups *out)
{
    ws_devptr ikeys = in->keys, ivals = in->vals;
    uint32_t m = in->n;

    /* sort the index, padded with key offsets of -1 that sort first */
    uint32_t padded = MARS_BLOCK;
    while (padded < m)
        padded <<= 1;
    ws_devptr pad;
    MARS_CHECK(mars_alloc(d, (size_t)padded * 16, &pad));
    MARS_API(d, ws_memset(d->gpu, pad, 0xff, (size_t)padded * 16));
    MARS_API(d, ws_memcpy_dtod(d->gpu, pad, in->idx, (size_t)m * 16));
    MARS_CHECK(mars_sort(d, pad, ikeys, padded));
    ws_devptr sorted = pad + (uint64_t)(padded - m) * 16;

    /* scatter the values, then the keys, in sorted order */
    int32_t m_arg = (int32_t)m, field;
    ws_devptr sizes, sums, skeys, svals, src, dst;
    MARS_CHECK(mars_alloc(d, (size_t)m * 4, &sizes));
    MARS_CHECK(mars_alloc(d, (size_t)m * 4, &sums));
    MARS_CHECK(mars_alloc(d, in->key_bytes, &skeys));
    MARS_CHECK(mars_alloc(d, in->val_bytes, &svals));
    void *cs[] = {&sorted, &m_arg, &field, &sizes};
    void *cc[] = {&sorted, &m_arg, &field, &src, &sums, &dst};
    for (field = 1; field >= 0; field--) {
        uint32_t total;
        src = field ? ivals : ikeys;
        dst = field ? svals : skeys;
        MARS_CHECK(mars_launch(d, "chunk_sizes", mars_ceil(m, MARS_WIDE), MARS_WIDE, cs));
        MARS_CHECK(mars_prefix_sum(d, sizes, sums, m, &total));
        MARS_CHECK(mars_launch(d, "copy_chunks", mars_ceil(m, MARS_COPY), MARS_COPY, cc));
    }

    /* group boundaries */
    ws_devptr flags, fsum, bound, ranges;
    uint32_t g;
    MARS_CHECK(mars_alloc(d, (size_t)m * 4, &flags));
    MARS_CHECK(mars_alloc(d, (size_t)m * 4, &fsum));
    void *bd[] = {&sorted, &skeys, &m_arg, &flags};
    MARS_CHECK(mars_launch(d, "boundary", mars_ceil(m, MARS_WIDE), MARS_WIDE, bd));
    MARS_CHECK(mars_prefix_sum(d, flags, fsum, m, &g));
    int32_t g_arg = (int32_t)g;
    MARS_CHECK(mars_alloc(d, (size_t)g * 4, &bound));
    MARS_CHECK(mars_alloc(d, (size_t)g * 8, &ranges));
    void *wb[] = {&flags, &fsum, &m_arg, &bound};
    MARS_CHECK(mars_launch(d, "write_boundary", mars_ceil(m, MARS_WIDE), MARS_WIDE, wb));
    void *rg[] = {&bound, &g_arg, &m_arg, &ranges};
    MARS_CHECK(mars_launch(d, "ranges", mars_ceil(g, MARS_WIDE), MARS_WIDE, rg));

    out->set = (struct mars_set){.keys = skeys, .vals = svals, .idx = sorted, .n = m,
                                 .key_bytes = in->key_bytes, .val_bytes = in->val_bytes};
    out->ranges = ranges;
    out->ngroups = g;
    return WS_OK;
}
