/* wl_weblog.c: the Mars Page View workloads' web log and its CPU reference
 * (wl_weblog.h). */
#include "wl_weblog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

#define WEBLOG_DUP_WINDOW 1024u /* a reload repeats one of the last 1024 entries */

static void weblog_word(struct rng *r, char *out, uint32_t lo, uint32_t hi)
{
    uint32_t len = lo + rng_below(r, hi - lo + 1);
    for (uint32_t i = 0; i < len; i++)
        out[i] = (char)('a' + rng_below(r, 26));
    out[len] = 0;
}

void weblog_urls_make(struct weblog_urls *u, uint32_t n, struct rng *r)
{
    static const char *tlds[] = {"com", "org", "net", "edu"};
    u->url = xmalloc((size_t)n * sizeof *u->url);
    u->cdf = xmalloc((size_t)n * sizeof *u->cdf);
    u->n = n;
    double sum = 0;
    for (uint32_t i = 0; i < n; i++) {
        char host[16], dir[16], page[16], buf[96];
        weblog_word(r, host, 4, 10);
        weblog_word(r, dir, 3, 8);
        weblog_word(r, page, 3, 8);
        snprintf(buf, sizeof buf, "http://www.%s.%s/%s/%s%u.html", host,
                 tlds[rng_below(r, 4)], dir, page, i);
        u->url[i] = xstrdup(buf);
        sum += 1.0 / (i + 1);
        u->cdf[i] = sum;
    }
}

uint32_t weblog_urls_pick(const struct weblog_urls *u, struct rng *r)
{
    double x = (double)(rng_next(r) >> 11) * 0x1p-53 * u->cdf[u->n - 1];
    uint32_t lo = 0, hi = u->n - 1; /* the first i with cdf[i] > x */
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (u->cdf[mid] > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

void weblog_urls_free(struct weblog_urls *u)
{
    for (uint32_t i = 0; i < u->n; i++)
        free(u->url[i]);
    free(u->url);
    free(u->cdf);
}

void weblog_make(struct weblog *log, uint32_t n, uint32_t nurls, struct rng *r)
{
    struct weblog_urls urls;
    weblog_urls_make(&urls, nurls, r);
    log->n = n;
    log->text = xmalloc((size_t)n * WEBLOG_ENTRY_MAX);
    log->off = xmalloc((size_t)n * sizeof *log->off);
    log->size = xmalloc((size_t)n * sizeof *log->size);
    size_t at = 0;
    for (uint32_t i = 0; i < n; i++) {
        log->off[i] = (uint32_t)at;
        if (i > 0 && rng_below(r, 4) == 0) {
            uint32_t w = i < WEBLOG_DUP_WINDOW ? i : WEBLOG_DUP_WINDOW;
            uint32_t j = i - 1 - rng_below(r, w);
            memcpy(log->text + at, log->text + log->off[j], log->size[j]);
            log->size[i] = log->size[j];
        } else {
            uint32_t u = weblog_urls_pick(&urls, r);
            char cookie[40];
            uint32_t clen = 16 + rng_below(r, 17);
            for (uint32_t c = 0; c < clen; c++)
                cookie[c] = "0123456789abcdef"[rng_below(r, 16)];
            cookie[clen] = 0;
            uint32_t a = rng_below(r, 256), b = rng_below(r, 256), c = rng_below(r, 256),
                     d = rng_below(r, 256);
            int len = snprintf(log->text + at, WEBLOG_ENTRY_MAX, "%s\t%u.%u.%u.%u\t%s",
                               urls.url[u], a, b, c, d, cookie);
            log->size[i] = (uint32_t)len + 1;
        }
        at += log->size[i];
    }
    log->bytes = at;
    weblog_urls_free(&urls);
}

void weblog_free(struct weblog *log)
{
    free(log->size);
    free(log->off);
    free(log->text);
}

static int weblog_entry_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int weblog_url_cmp(const char *a, const char *b)
{
    while (*a == *b && *a != '\t') {
        a++;
        b++;
    }
    return (unsigned char)*a - (unsigned char)*b;
}

static int weblog_entry_url_cmp(const void *a, const void *b)
{
    return weblog_url_cmp(*(const char *const *)a, *(const char *const *)b);
}

int weblog_view_cmp(const void *a, const void *b)
{
    return weblog_url_cmp(((const struct weblog_view *)a)->url,
                          ((const struct weblog_view *)b)->url);
}

uint32_t weblog_views(const struct weblog *log, struct weblog_view **views,
                      uint32_t *ndistinct)
{
    const char **e = xmalloc((size_t)log->n * sizeof *e);
    for (uint32_t i = 0; i < log->n; i++)
        e[i] = log->text + log->off[i];
    qsort(e, log->n, sizeof *e, weblog_entry_cmp);
    uint32_t d = 0;
    for (uint32_t i = 0; i < log->n; i++)
        if (d == 0 || strcmp(e[i], e[d - 1]) != 0)
            e[d++] = e[i];
    *ndistinct = d;
    qsort(e, d, sizeof *e, weblog_entry_url_cmp);
    struct weblog_view *v = xmalloc((size_t)d * sizeof *v);
    uint32_t nv = 0;
    for (uint32_t i = 0; i < d; i++) {
        if (nv > 0 && weblog_url_cmp(e[i], v[nv - 1].url) == 0) {
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
