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

#endif
