/* alloc.c: checked allocation wrappers. */
#include "base/alloc.h"

#include <stdlib.h>
#include <string.h>

#include "base/log.h"

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        panic("out of host memory (%zu bytes)", n);
    return p;
}

void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        panic("out of host memory (%zu x %zu bytes)", count, size);
    return p;
}

void *xcalloc_lines(size_t count, size_t size)
{
    size_t n = count * size;
    if (size && n / size != count)
        panic("out of host memory (%zu x %zu bytes)", count, size);
    n = (n + CACHE_LINE - 1) / CACHE_LINE * CACHE_LINE;
    void *p = aligned_alloc(CACHE_LINE, n ? n : CACHE_LINE);
    if (!p)
        panic("out of host memory (%zu x %zu bytes)", count, size);
    memset(p, 0, n ? n : CACHE_LINE);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        panic("out of host memory (%zu bytes)", n);
    return q;
}

char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
    char *d = xmalloc(n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

void array_reserve(void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return;
    size_t ncap = *cap ? *cap * 2 : 8;
    while (ncap < need)
        ncap *= 2;
    *arr = xrealloc(*arr, ncap * elem);
    memset((char *)*arr + *cap * elem, 0, (ncap - *cap) * elem);
    *cap = ncap;
}
