/* file.h: whole-file reading for inputs (PTX files, configs, profiles). */
#ifndef WS_BASE_FILE_H
#define WS_BASE_FILE_H

#include <stddef.h>

#include "base/err.h"

/* Read `path` into a new NUL-terminated buffer (*out, length *len without
 * the NUL).  WS_ERR_IO with the path and the system's reason on failure. */
int file_read_all(const char *path, char **out, size_t *len, struct err *e);

#endif
