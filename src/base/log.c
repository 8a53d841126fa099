/* log.c: panic() implementation. */
#include "base/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

_Noreturn void panic_at(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "warpsim internal error at %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\n", stderr);
    abort();
}
