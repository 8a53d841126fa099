/* file.h: whole-file reading for inputs (PTX files, configs, profiles). */
#ifndef WS_BASE_FILE_H
#define WS_BASE_FILE_H

#include <stddef.h>

#include "base/err.h"

#include <stdio.h>

/* Largest input file warpsim reads (PTX, configuration, load profile). */
#define FILE_MAX_INPUT_BYTES (256ull << 20)

/* Check that the open stream f of `path` is a regular file no larger than
 * FILE_MAX_INPUT_BYTES (a device such as /dev/zero or a FIFO never ends, a
 * directory is no input).  WS_ERR_IO naming the path otherwise. */
int file_check_input(const char *path, FILE *f, struct err *e);

/* Read `path` into a new NUL-terminated buffer (*out, length *len without
 * the NUL).  WS_ERR_IO with the path and the system's reason on failure;
 * the file must pass file_check_input. */
int file_read_all(const char *path, char **out, size_t *len, struct err *e);

/* An output file written atomically: the data goes to a temporary file
 * next to `path` (so a failed or interrupted run never leaves a truncated
 * file, nor destroys the previous one), renamed over `path` on commit.
 * Opening it up front also proves the path writable before a long run. */
struct file_out {
    FILE *f;    /* write here between open and commit */
    char *path; /* the final name */
    char *tmp;  /* the temporary file's name */
};

/* Create the temporary file; WS_ERR_IO naming `path` and the reason. */
int file_out_open(struct file_out *o, const char *path, struct err *e);
/* Close and rename over the final name; WS_ERR_IO if any write failed (the
 * temporary file is removed and `path` is left as it was). */
int file_out_commit(struct file_out *o, struct err *e);
/* Close and remove the temporary file (nothing written). */
void file_out_abort(struct file_out *o);

#endif
