/* file.c: whole-file reading. */
#include "base/file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

int file_read_all(const char *path, char **out, size_t *len, struct err *e)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return err_set(e, WS_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *buf = xmalloc(cap);
    for (;;) {
        if (n + 1 >= cap)
            buf = xrealloc(buf, cap *= 2);
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        free(buf);
        return err_set(e, WS_ERR_IO, "cannot read '%s'", path);
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return WS_OK;
}
