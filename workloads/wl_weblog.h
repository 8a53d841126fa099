/* wl_weblog.h: the generated web log of the Mars Page View workloads (pvc
 * counts each URL's distinct views in it; pvr ranks the URLs by those
 * counts) with its CPU reference, and the URL universe with Zipf popularity
 * that the log and iix's HTML pages draw their URLs from. */
#ifndef WS_WL_WEBLOG_H
#define WS_WL_WEBLOG_H

#include "workload.h"

/* URLs "http://www.<host>.<tld>/<dir>/<page><u>.html", distinct since u is;
 * URL u has popularity rank u + 1 and weight 1 / (u + 1) (Zipf, s = 1). */
struct weblog_urls {
    char **url;
    double *cdf; /* cumulative weights; cdf[n - 1] is their sum */
    uint32_t n;
};

void weblog_urls_make(struct weblog_urls *u, uint32_t n, struct rng *r);
/* a URL index drawn by popularity */
uint32_t weblog_urls_pick(const struct weblog_urls *u, struct rng *r);
void weblog_urls_free(struct weblog_urls *u);

struct weblog {
    char *text;     /* the entries, each "URL\tIP\tCOOKIE" and a NUL */
    uint32_t *off;  /* entry i starts at text + off[i] */
    uint32_t *size; /* and takes size[i] bytes with its NUL */
    uint32_t n;
    size_t bytes;
};

#define WEBLOG_ENTRY_MAX 128u /* bytes an entry can take, with its NUL */

/* n entries over a universe of nurls URLs.  Each entry: with probability 1/4
 * an exact copy of one of the previous 1 024 entries (a reload), otherwise a
 * URL drawn by popularity, a random IPv4 address and a cookie of 16-32 random
 * hex digits. */
void weblog_make(struct weblog *log, uint32_t n, uint32_t nurls, struct rng *r);
void weblog_free(struct weblog *log);

/* ---- CPU reference of Page View Count ---- */

struct weblog_view {
    const char *url; /* up to its '\t' */
    uint32_t count;
};

/* URLs end at their '\t', which orders below every URL character */
int weblog_url_cmp(const char *a, const char *b);
/* qsort order of weblog_view by URL */
int weblog_view_cmp(const void *a, const void *b);

/* The distinct entries (*ndistinct) and each URL's number of them, sorted by
 * URL (*views, xmalloc'd); returns the number of URLs. */
uint32_t weblog_views(const struct weblog *log, struct weblog_view **views,
                      uint32_t *ndistinct);

#endif
