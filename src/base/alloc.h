/* alloc.h: checked allocation.  Out-of-memory on the host is not a user
 * error we can recover from in the middle of a data structure update, so these
 * wrappers panic instead of returning NULL. */
#ifndef WS_BASE_ALLOC_H
#define WS_BASE_ALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
/* A host cache line: data that different threads write goes in different
 * lines (_Alignas(CACHE_LINE)), or each write moves the line between cores. */
#define CACHE_LINE 64
/* xcalloc, aligned to CACHE_LINE (for types declared with that alignment);
 * released with free. */
void *xcalloc_lines(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* Grow a dynamic array *arr (element size elem) so it holds at least need
 * elements; *cap is updated.  Doubling growth. */
void array_reserve(void **arr, size_t *cap, size_t need, size_t elem);
#define ARRAY_PUSH(arr, len, cap)                                                        \
    (array_reserve((void **)&(arr), &(cap), (len) + 1, sizeof *(arr)), &(arr)[(len)++])

#endif
