/* file.c: whole-file reading. */
#include "base/file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

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

int file_out_open(struct file_out *o, const char *path, struct err *e)
{
    memset(o, 0, sizeof *o);
    size_t n = strlen(path) + sizeof ".tmp-XXXXXX";
    char *tmp = xmalloc(n);
    snprintf(tmp, n, "%s.tmp-XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int rc = err_set(e, WS_ERR_IO, "cannot write '%s': %s", path, strerror(errno));
        free(tmp);
        return rc;
    }
    /* the permissions fopen(path, "w") would give, not mkstemp's 0600 */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0 || !(o->f = fdopen(fd, "w"))) {
        int rc = err_set(e, WS_ERR_IO, "cannot write '%s': %s", path, strerror(errno));
        close(fd);
        unlink(tmp);
        free(tmp);
        return rc;
    }
    o->path = xstrdup(path);
    o->tmp = tmp;
    return WS_OK;
}

static void file_out_forget(struct file_out *o)
{
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof *o);
}

int file_out_commit(struct file_out *o, struct err *e)
{
    int bad = ferror(o->f);
    bad |= fflush(o->f) != 0 || fsync(fileno(o->f)) != 0;
    bad |= fclose(o->f) != 0;
    int rc = WS_OK;
    if (bad)
        rc = err_set(e, WS_ERR_IO, "error writing '%s': %s", o->path, strerror(errno));
    else if (rename(o->tmp, o->path) != 0)
        rc = err_set(e, WS_ERR_IO, "cannot write '%s': %s", o->path, strerror(errno));
    if (rc != WS_OK)
        unlink(o->tmp);
    file_out_forget(o);
    return rc;
}

void file_out_abort(struct file_out *o)
{
    if (!o->f)
        return;
    fclose(o->f);
    unlink(o->tmp);
    file_out_forget(o);
}
