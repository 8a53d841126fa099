/* host.c: the pvc workload: Page View Count from the Mars MapReduce suite
 * (MeDiC's PVC).  A generated web log of <URL, IP, cookie> text entries goes
 * through two MapReduce passes on the GPU (pvc.cu: map count, prefix sums,
 * map, bitonic sort of string keys, scatter, group boundaries, reduce): the
 * first removes duplicate entries, the second counts each URL's distinct
 * views.  Checked exactly against a CPU reference: the number of distinct
 * entries, the set of URLs and every URL's count. */
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "wl_mars.h"
#include "wl_weblog.h"

#define PVC_KEY 16u   /* sizeof(mars_str_key): log pointer, offset, hash */
#define PVC_ENTRY 8u  /* sizeof(pvc_entry): size, phase */

struct pvc_size {
    uint32_t entries, urls;
};

static const struct pvc_size pvc_sizes[] = {
    {1024u, 2048u},    /* small */
    {16384u, 4096u},   /* medium */
    {65536u, 8192u},   /* large */
};

/* one MapReduce pass: pass 0 removes duplicate entries, pass 1 counts each
 * URL's views (the map tells them apart by the input values' phase) */
static int pvc_pass(struct mars_dev *d, const struct mars_set *in, int32_t pass,
                    struct mars_set *out)
{
    /* map: count, prefix sums, emit */
    struct mars_set inter;
    MARS_CHECK(mars_map(d, in, NULL, 0, &inter));

    /* group: sort, scatter, boundaries */
    struct mars_groups grp;
    MARS_CHECK(mars_group(d, &inter, &grp));
    int32_t g_arg = (int32_t)grp.ngroups;

    /* reduce: one thread per distinct key */
    uint32_t gtasks = mars_ceil(grp.ngroups, MARS_BLOCK) * MARS_BLOCK;
    size_t gb = (size_t)gtasks * 4;
    ws_devptr rsz[3], rps[3], o2[3];
    MARS_CHECK(mars_count_buffers(d, gb, rsz, rps));
    void *rc_args[] = {&grp.ranges, &grp.set.idx, &g_arg, &pass, &rsz[0], &rsz[1], &rsz[2]};
    MARS_CHECK(mars_launch(d, "reduce_count", gtasks / MARS_BLOCK, MARS_BLOCK, rc_args));
    uint32_t t2[3];
    /* pre-filled with -1, so that a record the reduce leaves unwritten fails */
    MARS_CHECK(mars_emit_buffers(d, rsz, rps, gtasks, 0xff, o2, t2));
    void *rd[] = {&grp.set.keys, &grp.set.vals, &grp.set.idx, &grp.ranges,
                  &g_arg,        &pass,         &rps[0],      &rps[1],
                  &rps[2],       &o2[0],        &o2[1],       &o2[2]};
    MARS_CHECK(mars_launch(d, "reduce", gtasks / MARS_BLOCK, MARS_BLOCK, rd));
    *out = (struct mars_set){.keys = o2[0], .vals = o2[1], .idx = o2[2], .n = t2[2],
                             .key_bytes = t2[0], .val_bytes = t2[1]};
    return WS_OK;
}

/* Read pass 2's records back and compare them with the reference. */
static int pvc_check(struct mars_dev *d, const struct weblog *log, const struct mars_set *res,
                     const struct weblog_view *want, uint32_t nwant)
{
    struct mars_host h;
    struct weblog_view *got = xmalloc(((size_t)res->n + 1) * sizeof *got);
    int rc = mars_read_set(d, res, &h);
    if (rc != WS_OK)
        goto out;
    if (res->n != nwant) {
        rc = mars_fail(d, "pvc: expected %u distinct URLs, got %u groups", nwant, res->n);
        goto out;
    }
    for (uint32_t i = 0; i < res->n; i++) {
        const uint8_t *key, *val;
        if ((rc = mars_record(d, res, &h, i, PVC_KEY, 4, &key, &val)) != WS_OK)
            goto out;
        int32_t off = mars_i32(key + 8);
        if (off < 0 || (size_t)off >= log->bytes) {
            rc = mars_fail(d, "pvc: output record %u: entry offset %d", i, off);
            goto out;
        }
        got[i].url = log->text + off;
        got[i].count = (uint32_t)mars_i32(val);
    }
    qsort(got, res->n, sizeof *got, weblog_view_cmp);
    for (uint32_t i = 0; i < res->n; i++) {
        int c = weblog_url_cmp(want[i].url, got[i].url);
        if (c != 0 || want[i].count != got[i].count) {
            const struct weblog_view *w = &want[i], *g = &got[i];
            int wl = (int)(strchr(w->url, '\t') - w->url), gl = (int)strcspn(g->url, "\t");
            rc = mars_fail(d, "pvc: URL %u in order: expected %.*s with %u views, got %.*s with %u",
                           i, wl, w->url, w->count, gl, g->url, g->count);
            goto out;
        }
    }
out:
    free(got);
    mars_host_free(&h);
    return rc;
}

static int pvc_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                   size_t detail_len)
{
    const struct pvc_size *sz = &pvc_sizes[a->size];
    struct rng rng;
    rng_seed(&rng, a->seed);
    struct weblog log;
    weblog_make(&log, sz->entries, sz->urls, &rng);
    struct weblog_view *want;
    uint32_t ndistinct, nwant = weblog_views(&log, &want, &ndistinct);

    struct mars_dev dev = {.gpu = gpu, .mod = mod, .prefix = "pvc", .detail = detail,
                           .detail_len = detail_len};
    struct mars_dev *d = &dev;
    uint32_t n = log.n;
    uint8_t *hkeys = xcalloc(n, PVC_KEY), *hvals = xcalloc(n, PVC_ENTRY);
    struct mars_set in, distinct, views;
    ws_devptr d_log;
    int rc = mars_alloc(d, log.bytes, &d_log);
    if (rc != WS_OK)
        goto out;
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_log, log.text, log.bytes));
    /* Mars's input records: key (log pointer, offset, hash), value (size,
     * phase 0) */
    for (uint32_t i = 0; i < n; i++) {
        uint64_t p = d_log;
        int32_t off = (int32_t)log.off[i], size = (int32_t)log.size[i];
        memcpy(hkeys + (size_t)i * PVC_KEY, &p, 8);
        memcpy(hkeys + (size_t)i * PVC_KEY + 8, &off, 4);
        memcpy(hvals + (size_t)i * PVC_ENTRY, &size, 4);
    }
    if ((rc = mars_input(d, hkeys, hvals, n, PVC_KEY, PVC_ENTRY, &in)) != WS_OK)
        goto out;

    if ((rc = pvc_pass(d, &in, 0, &distinct)) != WS_OK)
        goto out;
    if (distinct.n != ndistinct) {
        snprintf(detail, detail_len, "pvc: pass 1: expected %u distinct entries, got %u",
                 ndistinct, distinct.n);
        rc = WS_ERR_VERIFY;
        goto out;
    }
    if ((rc = pvc_pass(d, &distinct, 1, &views)) != WS_OK)
        goto out;
    if ((rc = pvc_check(d, &log, &views, want, nwant)) != WS_OK)
        goto out;
    uint32_t top = 0;
    for (uint32_t i = 1; i < nwant; i++)
        if (want[i].count > want[top].count)
            top = i;
    snprintf(detail, detail_len,
             "pvc: %u log entries (%zu bytes), %u distinct, %u URLs: every URL's distinct "
             "views match the CPU reference; the most viewed has %u",
             n, log.bytes, ndistinct, nwant, want[top].count);
out:
    mars_free(d);
    free(hvals);
    free(hkeys);
    free(want);
    weblog_free(&log);
    return rc;
}

const struct workload workload_pvc = {
    .name = "pvc",
    .desc = "page view count (Mars MapReduce): two passes of map, prefix sums, bitonic sort "
            "of string keys and reduce over a web log (MeDiC's PVC)",
    .run = pvc_run,
};
