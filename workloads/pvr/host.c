/* host.c: the pvr workload: Page View Rank from the Mars MapReduce suite
 * (MeDiC's PVR).  Its input is Page View Count's output for a generated web
 * log (wl_weblog.h: the log pvc reads, with pvc's CPU reference giving each
 * URL's distinct views), written as lines "URL\tcount" and read as Mars's
 * sample reads them: <count, line offset> records.  One MapReduce pass on the
 * GPU (pvr.cu: map count, prefix sums, map, bitonic sort by count, larger
 * first, scatter, group boundaries; no reduce); the ten first records are the
 * ten most viewed URLs.  Checked exactly against the CPU reference: every
 * output record is one input line with its own count, each line once, the
 * counts in non-increasing order, and the groups of equal counts. */
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "wl_mars.h"
#include "wl_weblog.h"

#define PVR_TOP 10u /* Mars's sample prints the ten first records */

struct pvr_size {
    uint32_t entries, urls; /* the web log counted by Page View Count */
};

static const struct pvr_size pvr_sizes[] = {
    {16384u, 8192u},     /* small */
    {262144u, 131072u},  /* medium */
    {524288u, 262144u},  /* large */
};

/* Page View Count's output: lines "URL\tcount", each '\n' turned into a NUL
 * as Mars's sample does when it reads them. */
struct pvr_input {
    char *text;
    size_t bytes;
    uint32_t n;
    int32_t *count;  /* line i's count (the map's input key) */
    int32_t *off;    /* line i's offset in text (the input value), ascending */
};

static void pvr_make_input(struct pvr_input *in, const struct weblog_view *v, uint32_t n)
{
    size_t cap = 0;
    for (uint32_t i = 0; i < n; i++)
        cap += strcspn(v[i].url, "\t") + 12;
    in->text = xmalloc(cap + 1);
    in->n = n;
    size_t at = 0;
    for (uint32_t i = 0; i < n; i++)
        at += (size_t)sprintf(in->text + at, "%.*s\t%u\n", (int)strcspn(v[i].url, "\t"),
                              v[i].url, v[i].count);
    in->bytes = at;
    /* Mars's reading: the count after the tab, the line's offset */
    in->count = xmalloc((size_t)n * sizeof *in->count);
    in->off = xmalloc((size_t)n * sizeof *in->off);
    char *p = in->text;
    for (uint32_t i = 0; i < n; i++) {
        char *tab = strchr(p, '\t'), *nl = strchr(tab, '\n');
        *nl = 0;
        in->off[i] = (int32_t)(p - in->text);
        in->count[i] = atoi(tab + 1);
        p = nl + 1;
    }
}

static void pvr_free_input(struct pvr_input *in)
{
    free(in->off);
    free(in->count);
    free(in->text);
}

/* the line starting at offset off, or -1 */
static int64_t pvr_line_at(const struct pvr_input *in, int32_t off)
{
    uint32_t lo = 0, hi = in->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (in->off[mid] < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < in->n && in->off[lo] == off ? (int64_t)lo : -1;
}

/* the count of sorted record i (its index already checked) */
static int32_t pvr_count_of(const struct mars_host *h, uint32_t i)
{
    return mars_i32(h->keys + mars_i32(h->idx + (size_t)i * 16));
}

/* Every record of the sorted output: a line of the input with its count,
 * each line once, counts non-increasing; the groups: runs of equal counts. */
static int pvr_check_records(struct mars_dev *d, const struct pvr_input *in,
                             const struct mars_groups *res, const struct mars_host *h,
                             uint32_t want_groups)
{
    const struct mars_set *s = &res->set;
    if (s->n != in->n)
        return mars_fail(d, "pvr: expected %u records, got %u", in->n, s->n);
    uint8_t *seen = xcalloc(in->n, 1);
    int rc = WS_OK;
    int32_t prev = 0;
    for (uint32_t i = 0; i < s->n && rc == WS_OK; i++) {
        const uint8_t *key, *val;
        if ((rc = mars_record(d, s, h, i, 4, 4, &key, &val)) != WS_OK)
            break;
        int32_t count = mars_i32(key), off = mars_i32(val);
        int64_t line = pvr_line_at(in, off);
        if (line < 0)
            rc = mars_fail(d, "pvr: record %u: offset %d starts no line", i, off);
        else if (seen[line])
            rc = mars_fail(d, "pvr: record %u: line %lld (offset %d) a second time", i,
                           (long long)line, off);
        else if (count != in->count[line])
            rc = mars_fail(d, "pvr: record %u: line %lld (%s) has %d views, the key says %d",
                           i, (long long)line, in->text + off, in->count[line], count);
        else if (i > 0 && count > prev)
            rc = mars_fail(d, "pvr: record %u: %d views after %d: not in rank order", i, count,
                           prev);
        else
            seen[line] = 1;
        prev = count;
    }
    free(seen);
    if (rc != WS_OK)
        return rc;
    if (res->ngroups != want_groups)
        return mars_fail(d, "pvr: expected %u groups of equal counts, got %u", want_groups,
                         res->ngroups);
    int32_t end = 0;
    for (uint32_t g = 0; g < res->ngroups; g++) {
        int32_t a = mars_i32(h->ranges + (size_t)g * 8);
        int32_t b = mars_i32(h->ranges + (size_t)g * 8 + 4);
        if (a != end || b <= a || (uint32_t)b > s->n)
            return mars_fail(d, "pvr: group %u: range [%d, %d) after %d", g, a, b, end);
        /* a group is one count, and its neighbours have others */
        int32_t first = pvr_count_of(h, (uint32_t)a), last = pvr_count_of(h, (uint32_t)b - 1);
        if (first != last || ((uint32_t)b < s->n && pvr_count_of(h, (uint32_t)b) == last))
            return mars_fail(d, "pvr: group %u [%d, %d) is not one count's run", g, a, b);
        end = b;
    }
    if ((uint32_t)end != s->n)
        return mars_fail(d, "pvr: the groups end at %d of %u records", end, s->n);
    return WS_OK;
}

static int pvr_check(struct mars_dev *d, const struct pvr_input *in,
                     const struct mars_groups *res, uint32_t want_groups, int32_t top[PVR_TOP])
{
    struct mars_host h;
    int rc = mars_read_groups(d, res, &h);
    if (rc == WS_OK)
        rc = pvr_check_records(d, in, res, &h, want_groups);
    for (uint32_t i = 0; rc == WS_OK && i < PVR_TOP && i < res->set.n; i++)
        top[i] = mars_i32(h.vals + mars_i32(h.idx + (size_t)i * 16 + 8));
    mars_host_free(&h);
    return rc;
}

static int pvr_cmp_desc(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x < y) - (x > y);
}

static int pvr_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                   size_t detail_len)
{
    const struct pvr_size *sz = &pvr_sizes[a->size];
    struct rng rng;
    rng_seed(&rng, a->seed);
    struct weblog log;
    weblog_make(&log, sz->entries, sz->urls, &rng);
    struct weblog_view *views;
    uint32_t ndistinct, n = weblog_views(&log, &views, &ndistinct);
    struct pvr_input in;
    pvr_make_input(&in, views, n);
    free(views);
    weblog_free(&log);

    /* the reference: counts in rank order, and how many distinct */
    int32_t *ranked = xmalloc((size_t)n * sizeof *ranked);
    memcpy(ranked, in.count, (size_t)n * sizeof *ranked);
    qsort(ranked, n, sizeof *ranked, pvr_cmp_desc);
    uint32_t want_groups = 0;
    for (uint32_t i = 0; i < n; i++)
        want_groups += i == 0 || ranked[i] != ranked[i - 1];

    struct mars_dev dev = {.gpu = gpu, .mod = mod, .prefix = "pvr", .detail = detail,
                           .detail_len = detail_len};
    struct mars_dev *d = &dev;
    struct mars_set rec, inter;
    struct mars_groups grp;
    int32_t top[PVR_TOP];
    int rc;
    if ((rc = mars_input(d, in.count, in.off, n, 4, 4, &rec)) != WS_OK)
        goto out;

    /* map: count, prefix sums, emit */
    if ((rc = mars_map(d, &rec, NULL, 0, &inter)) != WS_OK)
        goto out;
    /* group: sort by count, larger first; the groups of equal counts */
    if ((rc = mars_group(d, &inter, &grp)) != WS_OK ||
        (rc = pvr_check(d, &in, &grp, want_groups, top)) != WS_OK)
        goto out;
    int len = snprintf(detail, detail_len,
                       "pvr: %u URLs (%zu bytes of Page View Count output, from %u log "
                       "entries) ranked by views: every record, the rank order and the %u "
                       "groups of equal counts match the CPU reference; the top ten have",
                       n, in.bytes, sz->entries, want_groups);
    for (uint32_t i = 0; i < PVR_TOP && i < n && len > 0 && (size_t)len < detail_len; i++) {
        int64_t line = pvr_line_at(&in, top[i]);
        len += snprintf(detail + len, detail_len - (size_t)len, " %d", in.count[line]);
    }
out:
    mars_free(d);
    free(ranked);
    pvr_free_input(&in);
    return rc;
}

const struct workload workload_pvr = {
    .name = "pvr",
    .desc = "page view rank (Mars MapReduce): map, prefix sums, bitonic sort of the URLs by "
            "view count and grouping over Page View Count's output (MeDiC's PVR)",
    .run = pvr_run,
};
