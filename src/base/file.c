/* file.c: whole-file reading. */
#include "base/file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "base/alloc.h"

int file_check_input(const char *path, FILE *f, struct err *e)
{
    struct stat st;
    if (fstat(fileno(f), &st) != 0)
        return err_set(e, WS_ERR_IO, "cannot read '%s': %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return err_set(e, WS_ERR_IO, "cannot read '%s': not a regular file%s", path,
                       S_ISDIR(st.st_mode) ? " (a directory)" : "");
    if ((unsigned long long)st.st_size > FILE_MAX_INPUT_BYTES)
        return err_set(e, WS_ERR_IO, "cannot read '%s': %lld bytes, more than the input limit "
                       "of %llu MiB", path, (long long)st.st_size, FILE_MAX_INPUT_BYTES >> 20);
    return WS_OK;
}

int file_read_all(const char *path, char **out, size_t *len, struct err *e)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return err_set(e, WS_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
    int rc = file_check_input(path, f, e);
    if (rc != WS_OK) {
        fclose(f);
        return rc;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = xmalloc(cap);
    for (;;) {
        if (n + 1 >= cap)
            buf = xrealloc(buf, cap *= 2);
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0 || n > FILE_MAX_INPUT_BYTES)
            break;
    }
    int failed = ferror(f) || n > FILE_MAX_INPUT_BYTES; /* grew while read */
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
