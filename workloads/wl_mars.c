/* wl_mars.c: the host side of the Mars MapReduce runtime shared by pvc, pvr
 * and iix (wl_mars.h).  Between launches it reads back only what Mars's
 * runtime reads: each prefix sum's total, to size buffers and count groups. */
#include "wl_mars.h"

#include <stdarg.h>
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

int mars_read_set(struct mars_dev *d, const struct mars_set *s, struct mars_host *h)
{
    *h = (struct mars_host){0};
    MARS_CHECK(mars_read(d, s->idx, (size_t)s->n * 16, &h->idx));
    MARS_CHECK(mars_read(d, s->keys, s->key_bytes, &h->keys));
    MARS_CHECK(mars_read(d, s->vals, s->val_bytes, &h->vals));
    return WS_OK;
}

int mars_read_groups(struct mars_dev *d, const struct mars_groups *g, struct mars_host *h)
{
    MARS_CHECK(mars_read_set(d, &g->set, h));
    MARS_CHECK(mars_read(d, g->ranges, (size_t)g->ngroups * 8, &h->ranges));
    return WS_OK;
}

void mars_host_free(struct mars_host *h)
{
    free(h->ranges);
    free(h->vals);
    free(h->keys);
    free(h->idx);
}

int mars_fail(struct mars_dev *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->detail, d->detail_len, fmt, ap);
    va_end(ap);
    return WS_ERR_VERIFY;
}

int mars_record(struct mars_dev *d, const struct mars_set *s, const struct mars_host *h,
                uint32_t i, uint32_t key_size, uint32_t val_size, const uint8_t **key,
                const uint8_t **val)
{
    const uint8_t *r = h->idx + (size_t)i * 16;
    int32_t ko = mars_i32(r), ks = mars_i32(r + 4), vo = mars_i32(r + 8), vs = mars_i32(r + 12);
    if (ko < 0 || ks != (int32_t)key_size || (uint32_t)ko + key_size > s->key_bytes || vo < 0 ||
        vs != (int32_t)val_size || (uint32_t)vo + val_size > s->val_bytes)
        return mars_fail(d, "%s: output record %u: bad index (key %d+%d, value %d+%d)",
                         d->prefix, i, ko, ks, vo, vs);
    *key = h->keys + ko;
    *val = h->vals + vo;
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

int mars_input(struct mars_dev *d, const void *keys, const void *vals, uint32_t n,
               uint32_t key_size, uint32_t val_size, struct mars_set *in)
{
    *in = (struct mars_set){.n = n, .key_bytes = n * key_size, .val_bytes = n * val_size};
    MARS_CHECK(mars_alloc(d, in->key_bytes, &in->keys));
    MARS_CHECK(mars_alloc(d, in->val_bytes, &in->vals));
    MARS_CHECK(mars_alloc(d, (size_t)n * 16, &in->idx));
    int32_t *idx = xmalloc((size_t)n * 16 + 1);
    for (uint32_t i = 0; i < n; i++) {
        idx[4 * i] = (int32_t)(i * key_size);
        idx[4 * i + 1] = (int32_t)key_size;
        idx[4 * i + 2] = (int32_t)(i * val_size);
        idx[4 * i + 3] = (int32_t)val_size;
    }
    int rc = ws_memcpy_htod(d->gpu, in->keys, keys, in->key_bytes);
    if (rc == WS_OK)
        rc = ws_memcpy_htod(d->gpu, in->vals, vals, in->val_bytes);
    if (rc == WS_OK)
        rc = ws_memcpy_htod(d->gpu, in->idx, idx, (size_t)n * 16);
    free(idx);
    if (rc != WS_OK)
        snprintf(d->detail, d->detail_len, "%s", ws_last_error(d->gpu));
    return rc;
}

int mars_map(struct mars_dev *d, const struct mars_set *in, void **extra, unsigned nextra,
             struct mars_set *out)
{
    ws_devptr in_keys = in->keys, in_vals = in->vals, in_idx = in->idx;
    uint32_t n = in->n, tasks = mars_ceil(n, MARS_BLOCK) * MARS_BLOCK;
    int32_t n_arg = (int32_t)n;
    ws_devptr sz[3], ps[3], o[3];
    uint32_t tot[3];
    if (nextra > MARS_MAP_EXTRA) {
        snprintf(d->detail, d->detail_len, "%s: %u extra map arguments", d->prefix, nextra);
        return WS_ERR_INVALID;
    }
    MARS_CHECK(mars_count_buffers(d, (size_t)tasks * 4, sz, ps));
    void *mc[] = {&in_keys, &in_vals, &in_idx, &n_arg, &sz[0], &sz[1], &sz[2]};
    MARS_CHECK(mars_launch(d, "map_count", tasks / MARS_BLOCK, MARS_BLOCK, mc));
    MARS_CHECK(mars_emit_buffers(d, sz, ps, tasks, 0, o, tot));
    void *mp[10 + MARS_MAP_EXTRA] = {&in_keys, &in_vals, &in_idx, &n_arg, &ps[0],
                                     &ps[1],   &ps[2],   &o[0],   &o[1],  &o[2]};
    for (unsigned k = 0; k < nextra; k++)
        mp[10 + k] = extra[k];
    MARS_CHECK(mars_launch(d, "map", tasks / MARS_BLOCK, MARS_BLOCK, mp));
    *out = (struct mars_set){.keys = o[0], .vals = o[1], .idx = o[2], .n = tot[2],
                             .key_bytes = tot[0], .val_bytes = tot[1]};
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
