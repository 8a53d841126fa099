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

#define PVC_BLOCK 256u      /* map, reduce, sort and scan blocks (pvc.cu) */
#define PVC_SCAN 512u       /* elements per scan block (pvc.cu) */
#define PVC_WIDE 512u       /* blocks of the boundary and size kernels */
#define PVC_COPY 128u       /* blocks of the byte-copy scatter */
#define PVC_KEY 16u         /* sizeof(pvc_key): log pointer, offset, hash */
#define PVC_ENTRY 8u        /* sizeof(pvc_entry): size, phase */
#define PVC_GLOBAL_SORT (256u * 1024u) /* Mars sorts up to this many records
                                          with global bitonic steps only */
#define PVC_DUP_WINDOW 1024u /* a duplicate repeats one of the last 1024 entries */
#define PVC_ENTRY_MAX 128u   /* bytes an entry can take, with its NUL */

struct pvc_size {
    uint32_t entries, urls;
};

static const struct pvc_size pvc_sizes[] = {
    {1024u, 2048u},    /* small */
    {16384u, 4096u},   /* medium */
    {65536u, 8192u},   /* large */
};

/* ---- the web log ---- */

struct pvc_log {
    char *text;     /* the entries, each "URL\tIP\tCOOKIE" and a NUL */
    uint32_t *off;  /* entry i starts at text + off[i] */
    uint32_t *size; /* and takes size[i] bytes with its NUL */
    uint32_t n;
    size_t bytes;
};

static void pvc_word(struct rng *r, char *out, uint32_t lo, uint32_t hi)
{
    uint32_t len = lo + rng_below(r, hi - lo + 1);
    for (uint32_t i = 0; i < len; i++)
        out[i] = (char)('a' + rng_below(r, 26));
    out[len] = 0;
}

/* URLs "http://www.<host>.<tld>/<dir>/<page><u>.html", distinct since u is;
 * URL u has popularity rank u + 1 and weight 1 / (u + 1) (Zipf, s = 1).
 * Each entry: with probability 1/4 an exact copy of one of the previous
 * PVC_DUP_WINDOW entries (a reload), otherwise a URL drawn by popularity, a
 * random IPv4 address and a cookie of 16-32 random hex digits. */
static void pvc_make_log(struct pvc_log *log, uint32_t n, uint32_t nurls, struct rng *r)
{
    static const char *tlds[] = {"com", "org", "net", "edu"};
    char **urls = xmalloc((size_t)nurls * sizeof *urls);
    double *cdf = xmalloc((size_t)nurls * sizeof *cdf), sum = 0;
    for (uint32_t u = 0; u < nurls; u++) {
        char host[16], dir[16], page[16], buf[96];
        pvc_word(r, host, 4, 10);
        pvc_word(r, dir, 3, 8);
        pvc_word(r, page, 3, 8);
        snprintf(buf, sizeof buf, "http://www.%s.%s/%s/%s%u.html", host,
                 tlds[rng_below(r, 4)], dir, page, u);
        urls[u] = xstrdup(buf);
        sum += 1.0 / (u + 1);
        cdf[u] = sum;
    }
    log->n = n;
    log->text = xmalloc((size_t)n * PVC_ENTRY_MAX);
    log->off = xmalloc((size_t)n * sizeof *log->off);
    log->size = xmalloc((size_t)n * sizeof *log->size);
    size_t at = 0;
    for (uint32_t i = 0; i < n; i++) {
        log->off[i] = (uint32_t)at;
        if (i > 0 && rng_below(r, 4) == 0) {
            uint32_t w = i < PVC_DUP_WINDOW ? i : PVC_DUP_WINDOW;
            uint32_t j = i - 1 - rng_below(r, w);
            memcpy(log->text + at, log->text + log->off[j], log->size[j]);
            log->size[i] = log->size[j];
        } else {
            double x = (double)(rng_next(r) >> 11) * 0x1p-53 * sum;
            uint32_t lo = 0, hi = nurls - 1; /* the first u with cdf[u] > x */
            while (lo < hi) {
                uint32_t mid = (lo + hi) / 2;
                if (cdf[mid] > x)
                    hi = mid;
                else
                    lo = mid + 1;
            }
            char cookie[40];
            uint32_t clen = 16 + rng_below(r, 17);
            for (uint32_t c = 0; c < clen; c++)
                cookie[c] = "0123456789abcdef"[rng_below(r, 16)];
            cookie[clen] = 0;
            uint32_t a = rng_below(r, 256), b = rng_below(r, 256), c = rng_below(r, 256),
                     d = rng_below(r, 256);
            int len = snprintf(log->text + at, PVC_ENTRY_MAX, "%s\t%u.%u.%u.%u\t%s", urls[lo],
                               a, b, c, d, cookie);
            log->size[i] = (uint32_t)len + 1;
        }
        at += log->size[i];
    }
    log->bytes = at;
    for (uint32_t u = 0; u < nurls; u++)
        free(urls[u]);
    free(urls);
    free(cdf);
}

/* ---- CPU reference ---- */

struct pvc_view {
    const char *url; /* up to its '\t' */
    uint32_t count;
};

static int pvc_cmp_entry(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* URLs end at their '\t', which orders below every URL character */
static int pvc_url_cmp(const char *a, const char *b)
{
    while (*a == *b && *a != '\t') {
        a++;
        b++;
    }
    return (unsigned char)*a - (unsigned char)*b;
}

static int pvc_cmp_url(const void *a, const void *b)
{
    return pvc_url_cmp(*(const char *const *)a, *(const char *const *)b);
}

static int pvc_cmp_view(const void *a, const void *b)
{
    return pvc_url_cmp(((const struct pvc_view *)a)->url, ((const struct pvc_view *)b)->url);
}

/* The distinct entries (*ndistinct) and each URL's number of them, sorted by
 * URL; returns the number of URLs. */
static uint32_t pvc_reference(const struct pvc_log *log, struct pvc_view **views,
                              uint32_t *ndistinct)
{
    const char **e = xmalloc((size_t)log->n * sizeof *e);
    for (uint32_t i = 0; i < log->n; i++)
        e[i] = log->text + log->off[i];
    qsort(e, log->n, sizeof *e, pvc_cmp_entry);
    uint32_t d = 0;
    for (uint32_t i = 0; i < log->n; i++)
        if (d == 0 || strcmp(e[i], e[d - 1]) != 0)
            e[d++] = e[i];
    *ndistinct = d;
    qsort(e, d, sizeof *e, pvc_cmp_url);
    struct pvc_view *v = xmalloc((size_t)d * sizeof *v);
    uint32_t nv = 0;
    for (uint32_t i = 0; i < d; i++) {
        if (nv > 0 && pvc_url_cmp(e[i], v[nv - 1].url) == 0) {
            v[nv - 1].count++;
        } else {
            v[nv].url = e[i];
            v[nv++].count = 1;
        }
    }
    free(e);
    *views = v;
    return nv;
}

/* ---- the device pipeline ---- */

struct pvc_dev {
    ws_gpu *gpu;
    ws_module *mod;
    ws_devptr *held; /* every buffer, freed at the end */
    uint32_t nheld, cap;
    char *detail;
    size_t detail_len;
};

/* a set of MapReduce records: key and value bytes and the int4 index */
struct pvc_set {
    ws_devptr keys, vals, idx;
    uint32_t n, key_bytes, val_bytes;
};

#define PVC_CHECK(call)                                                                  \
    do {                                                                                 \
        int pvc_rc_ = (call);                                                            \
        if (pvc_rc_ != WS_OK)                                                            \
            return pvc_rc_;                                                              \
    } while (0)

#define PVC_API(d, call) WL_TRY((d)->gpu, call, (d)->detail, (d)->detail_len)

static uint32_t pvc_ceil(uint32_t n, uint32_t m)
{
    return (n + m - 1) / m;
}

static int pvc_alloc(struct pvc_dev *d, size_t bytes, ws_devptr *out)
{
    PVC_API(d, ws_malloc(d->gpu, bytes ? bytes : 4, out));
    if (d->nheld == d->cap) {
        d->cap = d->cap ? 2 * d->cap : 64;
        d->held = xrealloc(d->held, (size_t)d->cap * sizeof *d->held);
    }
    d->held[d->nheld++] = *out;
    return WS_OK;
}

static int pvc_launch(struct pvc_dev *d, const char *kernel, uint32_t blocks, uint32_t threads,
                      void **args)
{
    PVC_API(d, ws_launch(d->mod, kernel, ws_dim(blocks, 1, 1), ws_dim(threads, 1, 1), 0, args));
    return WS_OK;
}

static int pvc_scan_level(struct pvc_dev *d, ws_devptr in, ws_devptr out, uint32_t n)
{
    uint32_t blocks = pvc_ceil(n, PVC_SCAN);
    int32_t n_arg = (int32_t)n;
    ws_devptr sums, scanned;
    PVC_CHECK(pvc_alloc(d, (size_t)blocks * 4, &sums));
    void *args[] = {&in, &out, &n_arg, &sums};
    PVC_CHECK(pvc_launch(d, "pvc_scan", blocks, PVC_SCAN / 2, args));
    if (blocks > 1) {
        PVC_CHECK(pvc_alloc(d, (size_t)blocks * 4, &scanned));
        PVC_CHECK(pvc_scan_level(d, sums, scanned, blocks));
        void *add[] = {&out, &n_arg, &scanned};
        PVC_CHECK(pvc_launch(d, "pvc_scan_add", blocks, PVC_SCAN / 2, add));
    }
    return WS_OK;
}

/* exclusive prefix sum of n ints; *total: their sum (the last input plus the
 * last output, read back as Mars does) */
static int pvc_prefix_sum(struct pvc_dev *d, ws_devptr in, ws_devptr out, uint32_t n,
                          uint32_t *total)
{
    PVC_CHECK(pvc_scan_level(d, in, out, n));
    int32_t last_in, last_out;
    PVC_API(d, ws_memcpy_dtoh(d->gpu, &last_in, in + (n - 1) * 4ull, 4));
    PVC_API(d, ws_memcpy_dtoh(d->gpu, &last_out, out + (n - 1) * 4ull, 4));
    *total = (uint32_t)(last_in + last_out);
    return WS_OK;
}

/* bitonic sort of `padded` (a power of two, >= 256) index records: one
 * global step per (k, j), as Mars sorts up to PVC_GLOBAL_SORT records */
/* The per-task counts of an emitting stage (key bytes, value bytes, records:
 * sz[], zeroed) and their prefix sums (ps[]), `bytes` each. */
static int pvc_count_buffers(struct pvc_dev *d, size_t bytes, ws_devptr sz[3], ws_devptr ps[3])
{
    for (int k = 0; k < 3; k++)
        PVC_CHECK(pvc_alloc(d, bytes, &sz[k]));
    for (int k = 0; k < 3; k++)
        PVC_CHECK(pvc_alloc(d, bytes, &ps[k]));
    for (int k = 0; k < 3; k++)
        PVC_API(d, ws_memset(d->gpu, sz[k], 0, bytes));
    return WS_OK;
}

/* The output buffers of an emitting stage (map or reduce): the exclusive
 * prefix sums ps[] of its tasks' key bytes, value bytes and record counts
 * sz[], then key, value and index buffers of those totals (an index record
 * is 16 bytes), filled with `fill`; total[] gets the three totals. */
static int pvc_emit_buffers(struct pvc_dev *d, const ws_devptr sz[3], const ws_devptr ps[3],
                            uint32_t tasks, int fill, ws_devptr out[3], uint32_t total[3])
{
    for (int k = 0; k < 3; k++)
        PVC_CHECK(pvc_prefix_sum(d, sz[k], ps[k], tasks, &total[k]));
    size_t bytes[3] = {total[0], total[1], (size_t)total[2] * 16};
    for (int k = 0; k < 3; k++) {
        PVC_CHECK(pvc_alloc(d, bytes[k], &out[k]));
        PVC_API(d, ws_memset(d->gpu, out[k], fill, bytes[k]));
    }
    return WS_OK;
}

static int pvc_sort(struct pvc_dev *d, ws_devptr rec, ws_devptr keys, uint32_t padded)
{
    if (padded > PVC_GLOBAL_SORT) {
        snprintf(d->detail, d->detail_len,
                 "pvc: %u records to sort: Mars's shared-memory scheme above %u is not "
                 "implemented",
                 padded, PVC_GLOBAL_SORT);
        return WS_ERR_INVALID;
    }
    int32_t k, j;
    void *step[] = {&rec, &keys, &k, &j};
    for (k = 2; (uint32_t)k <= padded; k <<= 1)
        for (j = k >> 1; j > 0; j >>= 1)
            PVC_CHECK(pvc_launch(d, "pvc_sort_step", padded / PVC_BLOCK, PVC_BLOCK, step));
    return WS_OK;
}

/* one MapReduce pass: pass 0 removes duplicate entries, pass 1 counts each
 * URL's views (the map tells them apart by the input values' phase) */
static int pvc_pass(struct pvc_dev *d, const struct pvc_set *in, int32_t pass,
                    struct pvc_set *out)
{
    ws_devptr in_keys = in->keys, in_vals = in->vals, in_idx = in->idx;
    uint32_t n = in->n, tasks = pvc_ceil(n, PVC_BLOCK) * PVC_BLOCK;
    size_t tb = (size_t)tasks * 4;
    int32_t n_arg = (int32_t)n;

    /* map: count, prefix sums, emit */
    ws_devptr sz[3], ps[3], o1[3];
    PVC_CHECK(pvc_count_buffers(d, tb, sz, ps));
    void *mc[] = {&in_vals, &in_idx, &n_arg, &sz[0], &sz[1], &sz[2]};
    PVC_CHECK(pvc_launch(d, "pvc_map_count", tasks / PVC_BLOCK, PVC_BLOCK, mc));
    uint32_t t1[3];
    PVC_CHECK(pvc_emit_buffers(d, sz, ps, tasks, 0, o1, t1));
    ws_devptr ikeys = o1[0], ivals = o1[1], iidx = o1[2];
    uint32_t kb = t1[0], vb = t1[1], m = t1[2];
    void *mp[] = {&in_keys, &in_vals, &in_idx, &n_arg, &ps[0], &ps[1], &ps[2], &ikeys, &ivals, &iidx};
    PVC_CHECK(pvc_launch(d, "pvc_map", tasks / PVC_BLOCK, PVC_BLOCK, mp));

    /* group: sort the index, padded with key offsets of -1 that sort first */
    uint32_t padded = PVC_BLOCK;
    while (padded < m)
        padded <<= 1;
    ws_devptr pad;
    PVC_CHECK(pvc_alloc(d, (size_t)padded * 16, &pad));
    PVC_API(d, ws_memset(d->gpu, pad, 0xff, (size_t)padded * 16));
    PVC_API(d, ws_memcpy_dtod(d->gpu, pad, iidx, (size_t)m * 16));
    PVC_CHECK(pvc_sort(d, pad, ikeys, padded));
    ws_devptr sorted = pad + (uint64_t)(padded - m) * 16;

    /* scatter the values, then the keys, in sorted order */
    int32_t m_arg = (int32_t)m, field;
    ws_devptr sizes, sums, skeys, svals, src, dst;
    PVC_CHECK(pvc_alloc(d, (size_t)m * 4, &sizes));
    PVC_CHECK(pvc_alloc(d, (size_t)m * 4, &sums));
    PVC_CHECK(pvc_alloc(d, kb, &skeys));
    PVC_CHECK(pvc_alloc(d, vb, &svals));
    void *cs[] = {&sorted, &m_arg, &field, &sizes};
    void *cc[] = {&sorted, &m_arg, &field, &src, &sums, &dst};
    for (field = 1; field >= 0; field--) {
        uint32_t total;
        src = field ? ivals : ikeys;
        dst = field ? svals : skeys;
        PVC_CHECK(pvc_launch(d, "pvc_chunk_sizes", pvc_ceil(m, PVC_WIDE), PVC_WIDE, cs));
        PVC_CHECK(pvc_prefix_sum(d, sizes, sums, m, &total));
        PVC_CHECK(pvc_launch(d, "pvc_copy_chunks", pvc_ceil(m, PVC_COPY), PVC_COPY, cc));
    }

    /* group boundaries */
    ws_devptr flags, fsum, bound, ranges;
    uint32_t g;
    PVC_CHECK(pvc_alloc(d, (size_t)m * 4, &flags));
    PVC_CHECK(pvc_alloc(d, (size_t)m * 4, &fsum));
    void *bd[] = {&sorted, &skeys, &m_arg, &flags};
    PVC_CHECK(pvc_launch(d, "pvc_boundary", pvc_ceil(m, PVC_WIDE), PVC_WIDE, bd));
    PVC_CHECK(pvc_prefix_sum(d, flags, fsum, m, &g));
    int32_t g_arg = (int32_t)g;
    PVC_CHECK(pvc_alloc(d, (size_t)g * 4, &bound));
    PVC_CHECK(pvc_alloc(d, (size_t)g * 8, &ranges));
    void *wb[] = {&flags, &fsum, &m_arg, &bound};
    PVC_CHECK(pvc_launch(d, "pvc_write_boundary", pvc_ceil(m, PVC_WIDE), PVC_WIDE, wb));
    void *rg[] = {&bound, &g_arg, &m_arg, &ranges};
    PVC_CHECK(pvc_launch(d, "pvc_ranges", pvc_ceil(g, PVC_WIDE), PVC_WIDE, rg));

    /* reduce: one thread per distinct key */
    uint32_t gtasks = pvc_ceil(g, PVC_BLOCK) * PVC_BLOCK;
    size_t gb = (size_t)gtasks * 4;
    ws_devptr rsz[3], rps[3], o2[3];
    PVC_CHECK(pvc_count_buffers(d, gb, rsz, rps));
    void *rc_args[] = {&ranges, &sorted, &g_arg, &pass, &rsz[0], &rsz[1], &rsz[2]};
    PVC_CHECK(pvc_launch(d, "pvc_reduce_count", gtasks / PVC_BLOCK, PVC_BLOCK, rc_args));
    uint32_t t2[3];
    /* pre-filled with -1, so that a record the reduce leaves unwritten fails */
    PVC_CHECK(pvc_emit_buffers(d, rsz, rps, gtasks, 0xff, o2, t2));
    ws_devptr okeys = o2[0], ovals = o2[1], oidx = o2[2];
    uint32_t okb = t2[0], ovb = t2[1], og = t2[2];
    void *rd[] = {&skeys,  &svals,  &sorted, &ranges, &g_arg, &pass,
                  &rps[0], &rps[1], &rps[2], &okeys,  &ovals, &oidx};
    PVC_CHECK(pvc_launch(d, "pvc_reduce", gtasks / PVC_BLOCK, PVC_BLOCK, rd));
    out->keys = okeys;
    out->vals = ovals;
    out->idx = oidx;
    out->n = og;
    out->key_bytes = okb;
    out->val_bytes = ovb;
    return WS_OK;
}

static int32_t pvc_i32(const uint8_t *p)
{
    int32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* Read pass 2's records back and compare them with the reference. */
static int pvc_check(struct pvc_dev *d, const struct pvc_log *log, const struct pvc_set *res,
                     const struct pvc_view *want, uint32_t nwant)
{
    uint8_t *keys = xmalloc(res->key_bytes ? res->key_bytes : 1);
    uint8_t *vals = xmalloc(res->val_bytes ? res->val_bytes : 1);
    uint8_t *idx = xmalloc((size_t)res->n * 16 + 1);
    struct pvc_view *got = xmalloc(((size_t)res->n + 1) * sizeof *got);
    int rc = ws_memcpy_dtoh(d->gpu, keys, res->keys, res->key_bytes);
    if (rc == WS_OK)
        rc = ws_memcpy_dtoh(d->gpu, vals, res->vals, res->val_bytes);
    if (rc == WS_OK)
        rc = ws_memcpy_dtoh(d->gpu, idx, res->idx, (size_t)res->n * 16);
    if (rc != WS_OK) {
        snprintf(d->detail, d->detail_len, "%s", ws_last_error(d->gpu));
        goto out;
    }
    rc = WS_ERR_VERIFY;
    if (res->n != nwant) {
        snprintf(d->detail, d->detail_len, "pvc: expected %u distinct URLs, got %u groups",
                 nwant, res->n);
        goto out;
    }
    for (uint32_t i = 0; i < res->n; i++) {
        const uint8_t *r = idx + (size_t)i * 16;
        int32_t ko = pvc_i32(r), ks = pvc_i32(r + 4), vo = pvc_i32(r + 8), vs = pvc_i32(r + 12);
        if (ko < 0 || ks != (int32_t)PVC_KEY || (uint32_t)ko + PVC_KEY > res->key_bytes ||
            vo < 0 || vs != 4 || (uint32_t)vo + 4 > res->val_bytes) {
            snprintf(d->detail, d->detail_len,
                     "pvc: output record %u: bad index (key %d+%d, value %d+%d)", i, ko, ks, vo,
                     vs);
            goto out;
        }
        int32_t off = pvc_i32(keys + ko + 8);
        if (off < 0 || (size_t)off >= log->bytes) {
            snprintf(d->detail, d->detail_len, "pvc: output record %u: entry offset %d", i, off);
            goto out;
        }
        got[i].url = log->text + off;
        got[i].count = (uint32_t)pvc_i32(vals + vo);
    }
    qsort(got, res->n, sizeof *got, pvc_cmp_view);
    for (uint32_t i = 0; i < res->n; i++) {
        int c = pvc_url_cmp(want[i].url, got[i].url);
        if (c != 0 || want[i].count != got[i].count) {
            const struct pvc_view *w = &want[i], *g = &got[i];
            int wl = (int)(strchr(w->url, '\t') - w->url), gl = (int)strcspn(g->url, "\t");
            snprintf(d->detail, d->detail_len,
                     "pvc: URL %u in order: expected %.*s with %u views, got %.*s with %u", i,
                     wl, w->url, w->count, gl, g->url, g->count);
            goto out;
        }
    }
    rc = WS_OK;
out:
    free(got);
    free(idx);
    free(vals);
    free(keys);
    return rc;
}

static int pvc_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                   size_t detail_len)
{
    const struct pvc_size *sz = &pvc_sizes[a->size];
    struct rng rng;
    rng_seed(&rng, a->seed);
    struct pvc_log log;
    pvc_make_log(&log, sz->entries, sz->urls, &rng);
    struct pvc_view *want;
    uint32_t ndistinct, nwant = pvc_reference(&log, &want, &ndistinct);

    struct pvc_dev dev = {.gpu = gpu, .mod = mod, .detail = detail, .detail_len = detail_len};
    struct pvc_dev *d = &dev;
    uint32_t n = log.n;
    uint8_t *hkeys = xcalloc(n, PVC_KEY), *hvals = xcalloc(n, PVC_ENTRY);
    int32_t *hidx = xmalloc((size_t)n * 16);
    struct pvc_set in = {.n = n, .key_bytes = n * PVC_KEY, .val_bytes = n * PVC_ENTRY};
    struct pvc_set distinct, views;
    ws_devptr d_log;
    int rc = pvc_alloc(d, log.bytes, &d_log);
    if (rc != WS_OK)
        goto out;
    /* Mars's input records: key (log pointer, offset, hash), value (size,
     * phase 0), index (key offset, key size, value offset, value size) */
    for (uint32_t i = 0; i < n; i++) {
        uint64_t p = d_log;
        int32_t off = (int32_t)log.off[i], size = (int32_t)log.size[i];
        memcpy(hkeys + (size_t)i * PVC_KEY, &p, 8);
        memcpy(hkeys + (size_t)i * PVC_KEY + 8, &off, 4);
        memcpy(hvals + (size_t)i * PVC_ENTRY, &size, 4);
        hidx[4 * i] = (int32_t)(i * PVC_KEY);
        hidx[4 * i + 1] = (int32_t)PVC_KEY;
        hidx[4 * i + 2] = (int32_t)(i * PVC_ENTRY);
        hidx[4 * i + 3] = (int32_t)PVC_ENTRY;
    }
    if ((rc = pvc_alloc(d, in.key_bytes, &in.keys)) != WS_OK ||
        (rc = pvc_alloc(d, in.val_bytes, &in.vals)) != WS_OK ||
        (rc = pvc_alloc(d, (size_t)n * 16, &in.idx)) != WS_OK)
        goto out;
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_log, log.text, log.bytes));
    WL_TRY_OUT(ws_memcpy_htod(gpu, in.keys, hkeys, in.key_bytes));
    WL_TRY_OUT(ws_memcpy_htod(gpu, in.vals, hvals, in.val_bytes));
    WL_TRY_OUT(ws_memcpy_htod(gpu, in.idx, hidx, (size_t)n * 16));

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
    for (uint32_t i = d->nheld; i > 0; i--)
        ws_free(gpu, d->held[i - 1]);
    free(d->held);
    free(hidx);
    free(hvals);
    free(hkeys);
    free(want);
    free(log.size);
    free(log.off);
    free(log.text);
    return rc;
}

const struct workload workload_pvc = {
    .name = "pvc",
    .desc = "page view count (Mars MapReduce): two passes of map, prefix sums, bitonic sort "
            "of string keys and reduce over a web log (MeDiC's PVC)",
    .run = pvc_run,
};
