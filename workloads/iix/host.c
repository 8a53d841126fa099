/* host.c: the iix workload: Inverted Index from the Mars MapReduce suite
 * (MeDiC's IIX).  Generated HTML files, each in its own device buffer, are
 * cut into blocks of about 1 KB ending at a line's end, one map task per
 * block, as Mars's sample does; one MapReduce pass on the GPU (iix.cu: map
 * count, prefix sums, map with Mars's link scanner, bitonic sort of the
 * links, scatter, group boundaries; no reduce) gives every distinct link
 * with the files that link to it.  Checked exactly against the generator's
 * own list of the links it wrote: each output record is one of them (file,
 * place, hash), each once; the records in Mars's order (hash, then the
 * link's bytes); one group per distinct link. */
#include "workload.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "wl_mars.h"
#include "wl_weblog.h"

#define IIX_KEY 16u      /* sizeof(mars_str_key): file pointer, link offset, hash */
#define IIX_VAL 12u      /* sizeof(iix_val): block offset, block size, file id */
#define IIX_BLOCK 1024u  /* a map task's block: this many bytes, then to the line's end */
#define IIX_ANCHOR 88u   /* bytes a link takes with its anchor element and gap, about */

struct iix_size {
    uint32_t files, file_bytes, links_per_file, urls;
};

static const struct iix_size iix_sizes[] = {
    {16u, 8192u, 64u, 2048u},     /* small */
    {64u, 32768u, 224u, 8192u},   /* medium */
    {256u, 32768u, 224u, 32768u}, /* large */
};

/* ---- the HTML files ---- */

struct iix_link {
    uint32_t file, off; /* the link's first byte is file's text[off] */
    uint32_t url;       /* index into the URL universe */
};

struct iix_files {
    struct weblog_urls urls;
    uint32_t nfiles;
    char **text;      /* file f: text[f][0 .. len[f]) ending in '\n', then a NUL */
    uint32_t *len;
    struct iix_link *links; /* in file order, then by place */
    uint32_t nlinks;
};

struct iix_buf {
    char *p;
    size_t len, cap, line;
};

static void iix_put(struct iix_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void iix_put(struct iix_buf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if ((size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            b->line += (size_t)n;
            return;
        }
        b->cap = 2 * b->cap + (size_t)n;
        b->p = xrealloc(b->p, b->cap);
    }
}

static void iix_word(struct iix_buf *b, struct rng *r)
{
    char w[12];
    uint32_t n = 2 + rng_below(r, 8);
    for (uint32_t i = 0; i < n; i++)
        w[i] = (char)('a' + rng_below(r, 26));
    w[n] = 0;
    iix_put(b, "%s", w);
}

/* a space between tokens, or a new line once the line is 60-119 bytes long */
static void iix_gap(struct iix_buf *b, struct rng *r)
{
    if (b->line >= 60 + rng_below(r, 60)) {
        iix_put(b, "\n");
        b->line = 0;
    } else if (b->line > 0) {
        iix_put(b, " ");
    }
}

/* Text and tags that are no links to Mars's scanner, some of them links to
 * a browser (area, a single-quoted href, an href after another attribute). */
static void iix_filler(struct iix_buf *b, struct rng *r, const struct weblog_urls *u)
{
    static const char *tags[] = {"<p>", "</p>", "<b>", "</b>", "<li>", "<br>", "<h2>", "</h2>"};
    uint32_t k = rng_below(r, 40);
    if (k < 24)
        iix_word(b, r);
    else if (k < 32)
        iix_put(b, "%s", tags[k - 24]);
    else if (k == 32)
        iix_put(b, "<div class=\"c%u\">", rng_below(r, 100));
    else if (k == 33)
        iix_put(b, "<img src=\"/img/p%u.png\">", rng_below(r, 1000));
    else if (k == 34)
        iix_put(b, "<a name=\"s%u\"></a>", rng_below(r, 100));
    else if (k == 35)
        iix_put(b, "<abbr title=\"t%u\">x</abbr>", rng_below(r, 100));
    else if (k == 36)
        iix_put(b, "<area href=\"%s\">", u->url[weblog_urls_pick(u, r)]);
    else if (k == 37)
        iix_put(b, "<a href='%s'>y</a>", u->url[weblog_urls_pick(u, r)]);
    else if (k == 38)
        iix_put(b, "<a hreflang=\"en\" href=\"%s\">z</a>", u->url[weblog_urls_pick(u, r)]);
    else
        iix_put(b, "< b>");
}

/* A link as Mars's scanner finds it, in one of its accepted spellings;
 * records where the link starts. */
static void iix_anchor(struct iix_buf *b, struct rng *r, uint32_t url, const char *s,
                       uint32_t *off)
{
    static const char *open[] = {"<a href=\"", "<a href=\"", "<a href=\"", "<a  href=\"",
                                 "<a href = \"", "< a href=\""};
    iix_put(b, "%s", open[rng_below(r, 6)]);
    *off = (uint32_t)b->len;
    iix_put(b, "%s\">", s);
    if (rng_below(r, 4) == 0)
        iix_put(b, "<img src=\"/img/l%u.png\">", url % 1000);
    else
        iix_word(b, r);
    iix_put(b, "</a>");
}

/* Each file: links_per_file links to URLs drawn by popularity, each after
 * filler of 0 to twice the length that brings the file to about file_bytes. */
static void iix_make_files(struct iix_files *fs, const struct iix_size *sz, struct rng *r)
{
    weblog_urls_make(&fs->urls, sz->urls, r);
    fs->nfiles = sz->files;
    fs->text = xmalloc((size_t)sz->files * sizeof *fs->text);
    fs->len = xmalloc((size_t)sz->files * sizeof *fs->len);
    fs->nlinks = sz->files * sz->links_per_file;
    fs->links = xmalloc((size_t)fs->nlinks * sizeof *fs->links);
    /* filler between links: file_bytes / links_per_file on average with the
     * link (about IIX_ANCHOR bytes) */
    uint32_t per_link = sz->file_bytes / sz->links_per_file, l = 0;
    uint32_t gap = per_link > IIX_ANCHOR ? per_link - IIX_ANCHOR : 0;
    for (uint32_t f = 0; f < sz->files; f++) {
        struct iix_buf b = {.p = xmalloc(256), .cap = 256};
        iix_put(&b, "<html><body>\n");
        b.line = 0;
        for (uint32_t k = 0; k < sz->links_per_file; k++) {
            size_t fill = b.len + rng_below(r, 2 * gap + 1);
            while (b.len < fill) {
                iix_gap(&b, r);
                iix_filler(&b, r, &fs->urls);
            }
            iix_gap(&b, r);
            struct iix_link *lk = &fs->links[l++];
            lk->file = f;
            lk->url = weblog_urls_pick(&fs->urls, r);
            iix_anchor(&b, r, lk->url, fs->urls.url[lk->url], &lk->off);
        }
        iix_put(&b, "\n</body></html>\n");
        fs->text[f] = b.p;
        fs->len[f] = (uint32_t)b.len;
    }
}

static void iix_free_files(struct iix_files *fs)
{
    for (uint32_t f = 0; f < fs->nfiles; f++)
        free(fs->text[f]);
    free(fs->text);
    free(fs->len);
    free(fs->links);
    weblog_urls_free(&fs->urls);
}

/* ---- CPU reference ---- */

/* Mars's hash, in unsigned arithmetic with the device's signed results */
static int32_t iix_hash(const char *s, uint32_t len)
{
    uint32_t h = len;
    for (uint32_t i = 0; i < len; i++)
        h = (h << 4) ^ (uint32_t)((int32_t)h >> 28) ^ (uint32_t)(int32_t)(signed char)s[i];
    return (int32_t)h;
}

/* Mars's key order: hash, then the bytes (signed chars, as on the device) */
static int iix_order(int32_t ha, const char *a, int32_t hb, const char *b)
{
    if (ha != hb)
        return ha > hb ? 1 : -1;
    while (*a == *b && *a != 0) {
        a++;
        b++;
    }
    return (signed char)*a > (signed char)*b ? 1 : (signed char)*a < (signed char)*b ? -1 : 0;
}

/* the link of file f starting at off, or -1 (fs->links is in file order,
 * then by place) */
static int64_t iix_link_at(const struct iix_files *fs, uint32_t f, int32_t off)
{
    uint32_t lo = 0, hi = fs->nlinks;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const struct iix_link *m = &fs->links[mid];
        if (m->file < f || (m->file == f && (int64_t)m->off < off))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < fs->nlinks && fs->links[lo].file == f && (int64_t)fs->links[lo].off == off
               ? (int64_t)lo
               : -1;
}

/* Every record: a link the generator wrote (its file, place and hash), each
 * once, in Mars's key order; the groups: the runs of one link.  *top gets
 * the largest group's size. */
static int iix_check_records(struct mars_dev *d, const struct iix_files *fs,
                             const ws_devptr *dfile, const struct mars_groups *res,
                             const struct mars_host *h, uint32_t want_groups, uint32_t *top)
{
    const struct mars_set *s = &res->set;
    uint8_t *seen = xcalloc(fs->nlinks, 1);
    uint32_t *first = xmalloc(((size_t)want_groups + 1) * sizeof *first), runs = 0;
    int rc = WS_OK;
    int32_t prev_hash = 0;
    const char *prev = NULL;
    for (uint32_t i = 0; i < s->n && rc == WS_OK; i++) {
        const uint8_t *key, *val;
        if ((rc = mars_record(d, s, h, i, IIX_KEY, 4, &key, &val)) != WS_OK)
            break;
        uint64_t p;
        memcpy(&p, key, 8);
        int32_t off = mars_i32(key + 8), hash = mars_i32(key + 12), fid = mars_i32(val);
        if (fid < 0 || (uint32_t)fid >= fs->nfiles || dfile[fid] != p) {
            rc = mars_fail(d, "iix: record %u: file id %d with file buffer 0x%llx", i, fid,
                           (unsigned long long)p);
            break;
        }
        int64_t l = iix_link_at(fs, (uint32_t)fid, off);
        if (l < 0) {
            rc = mars_fail(d, "iix: record %u: no link at file %d offset %d", i, fid, off);
            break;
        }
        const char *url = fs->urls.url[fs->links[l].url];
        int32_t want_hash = iix_hash(url, (uint32_t)strlen(url));
        int c = prev ? iix_order(hash, url, prev_hash, prev) : 1;
        if (seen[l])
            rc = mars_fail(d, "iix: record %u: the link at file %d offset %d a second time", i,
                           fid, off);
        else if (hash != want_hash)
            rc = mars_fail(d, "iix: record %u: %s: hash %d, expected %d", i, url, hash,
                           want_hash);
        else if (c < 0)
            rc = mars_fail(d, "iix: record %u: %s after %s: not in Mars's key order", i, url,
                           prev);
        else if (c > 0 && runs == want_groups)
            rc = mars_fail(d, "iix: more than the %u distinct links expected", want_groups);
        else if (c > 0)
            first[runs++] = i;
        seen[l] = 1;
        prev = url;
        prev_hash = hash;
    }
    free(seen);
    if (rc == WS_OK && runs != want_groups)
        rc = mars_fail(d, "iix: expected %u distinct links, the records hold %u", want_groups,
                       runs);
    if (rc == WS_OK && res->ngroups != want_groups)
        rc = mars_fail(d, "iix: expected %u groups, got %u", want_groups, res->ngroups);
    *top = 0;
    for (uint32_t g = 0; rc == WS_OK && g < res->ngroups; g++) {
        int32_t a = mars_i32(h->ranges + (size_t)g * 8);
        int32_t b = mars_i32(h->ranges + (size_t)g * 8 + 4);
        int32_t want_b = g + 1 < runs ? (int32_t)first[g + 1] : (int32_t)s->n;
        if (a != (int32_t)first[g] || b != want_b)
            rc = mars_fail(d, "iix: group %u: range [%d, %d), expected [%u, %d)", g, a, b,
                          first[g], want_b);
        else if ((uint32_t)(b - a) > *top)
            *top = (uint32_t)(b - a);
    }
    free(first);
    return rc;
}

static int iix_check(struct mars_dev *d, const struct iix_files *fs, const ws_devptr *dfile,
                     const struct mars_groups *res, uint32_t want_groups, uint32_t *top)
{
    struct mars_host h;
    int rc = mars_read_groups(d, res, &h);
    if (rc == WS_OK)
        rc = iix_check_records(d, fs, dfile, res, &h, want_groups, top);
    mars_host_free(&h);
    return rc;
}

static int iix_cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* ---- the device pipeline ---- */

/* Mars's map input: one record per block of each file (keys and values,
 * *nrec of them) */
static void iix_records(struct iix_files *fs, const ws_devptr *dfile, uint8_t **keys,
                        uint8_t **vals, uint32_t *nrec)
{
    uint32_t n = 0, cap = 1024;
    uint8_t *k = xmalloc((size_t)cap * IIX_KEY), *v = xmalloc((size_t)cap * IIX_VAL);
    for (uint32_t f = 0; f < fs->nfiles; f++) {
        char *t = fs->text[f];
        uint32_t size = fs->len[f] + 1, off = 0; /* with the NUL */
        while (off < fs->len[f]) {
            uint32_t end = off + IIX_BLOCK;
            if (end >= fs->len[f]) {
                end = size;
            } else {
                while (t[end] != '\n')
                    end++;
                t[end++] = 0;
            }
            if (n == cap) {
                cap *= 2;
                k = xrealloc(k, (size_t)cap * IIX_KEY);
                v = xrealloc(v, (size_t)cap * IIX_VAL);
            }
            int32_t val[3] = {(int32_t)off, (int32_t)(end - off), (int32_t)f}, zero[2] = {0, 0};
            memcpy(k + (size_t)n * IIX_KEY, &dfile[f], 8);
            memcpy(k + (size_t)n * IIX_KEY + 8, zero, 8);
            memcpy(v + (size_t)n * IIX_VAL, val, IIX_VAL);
            n++;
            off = end;
        }
    }
    *keys = k;
    *vals = v;
    *nrec = n;
}

static int iix_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                   size_t detail_len)
{
    const struct iix_size *sz = &iix_sizes[a->size];
    struct rng rng;
    rng_seed(&rng, a->seed);
    struct iix_files fs;
    iix_make_files(&fs, sz, &rng);
    size_t bytes = 0;
    for (uint32_t f = 0; f < fs.nfiles; f++)
        bytes += fs.len[f];

    /* the reference's distinct links */
    uint32_t *u = xmalloc((size_t)fs.nlinks * sizeof *u), want_groups = 0;
    for (uint32_t i = 0; i < fs.nlinks; i++)
        u[i] = fs.links[i].url;
    qsort(u, fs.nlinks, sizeof *u, iix_cmp_u32);
    for (uint32_t i = 0; i < fs.nlinks; i++)
        want_groups += i == 0 || u[i] != u[i - 1];
    free(u);

    struct mars_dev dev = {.gpu = gpu, .mod = mod, .prefix = "iix", .detail = detail,
                           .detail_len = detail_len};
    struct mars_dev *d = &dev;
    ws_devptr *dfile = xcalloc(fs.nfiles, sizeof *dfile), cursor, emitted;
    uint8_t *hkeys = NULL, *hvals = NULL;
    struct mars_set in, inter;
    struct mars_groups grp;
    uint32_t top = 0, nrec;
    int rc = WS_OK;
    /* one buffer per file, as Mars's sample allocates them */
    for (uint32_t f = 0; f < fs.nfiles && rc == WS_OK; f++)
        rc = mars_alloc(d, fs.len[f] + 1, &dfile[f]);
    if (rc != WS_OK)
        goto out;
    iix_records(&fs, dfile, &hkeys, &hvals, &nrec);
    for (uint32_t f = 0; f < fs.nfiles; f++)
        WL_TRY_OUT(ws_memcpy_htod(gpu, dfile[f], fs.text[f], fs.len[f] + 1));
    if ((rc = mars_input(d, hkeys, hvals, nrec, IIX_KEY, IIX_VAL, &in)) != WS_OK)
        goto out;
    /* the map's emit cursors, per task, zeroed as Mars's are */
    size_t tb = (size_t)mars_ceil(nrec, MARS_BLOCK) * MARS_BLOCK * 4;
    if ((rc = mars_alloc(d, 2 * tb, &cursor)) != WS_OK ||
        (rc = mars_alloc(d, tb, &emitted)) != WS_OK)
        goto out;
    WL_TRY_OUT(ws_memset(gpu, cursor, 0, 2 * tb));
    WL_TRY_OUT(ws_memset(gpu, emitted, 0, tb));
    void *extra[] = {&cursor, &emitted};
    if ((rc = mars_map(d, &in, extra, 2, &inter)) != WS_OK)
        goto out;
    if (inter.n != fs.nlinks) {
        rc = mars_fail(d, "iix: the map emitted %u links, the files hold %u", inter.n,
                       fs.nlinks);
        goto out;
    }
    if ((rc = mars_group(d, &inter, &grp)) != WS_OK ||
        (rc = iix_check(d, &fs, dfile, &grp, want_groups, &top)) != WS_OK)
        goto out;
    snprintf(detail, detail_len,
             "iix: %u HTML files (%zu bytes, %u map tasks), %u links to %u distinct URLs: "
             "every record, the key order and the groups match the CPU reference; the most "
             "linked URL has %u links",
             fs.nfiles, bytes, in.n, fs.nlinks, want_groups, top);
out:
    mars_free(d);
    free(dfile);
    free(hvals);
    free(hkeys);
    iix_free_files(&fs);
    return rc;
}

const struct workload workload_iix = {
    .name = "iix",
    .desc = "inverted index (Mars MapReduce): a link scanner over HTML files, prefix sums, "
            "bitonic sort of the links and grouping (MeDiC's IIX)",
    .run = iix_run,
};
