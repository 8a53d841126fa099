/* err.c: formatting of error messages into struct err. */
#include "base/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void err_clear(struct err *e)
{
    e->code = WS_OK;
    e->msg[0] = '\0';
}

int err_set(struct err *e, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    e->code = code;
    return code;
}

int err_prefix(struct err *e, const char *fmt, ...)
{
    char old[ERR_MSG_MAX];
    memcpy(old, e->msg, sizeof old);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < sizeof e->msg)
        snprintf(e->msg + n, sizeof e->msg - (size_t)n, "%s", old);
    return e->code;
}
