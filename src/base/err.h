/* err.h: error values carried from where a problem is found to the caller.
 *
 * Every fallible function in warpsim returns an int status (WS_OK on
 * success, one of enum ws_status otherwise) and, on failure, writes a
 * human-readable message into a caller-owned struct err.  Library code never
 * prints and never exits; the command line and the public API decide what to
 * do with the message.  "fatal" conditions caused by user input are errors;
 * simulator bugs use panic() in log.h. */
#ifndef WS_BASE_ERR_H
#define WS_BASE_ERR_H

#include "warpsim.h" /* enum ws_status */

#define ERR_MSG_MAX 1024

struct err {
    int code;              /* enum ws_status; WS_OK when nothing failed */
    char msg[ERR_MSG_MAX]; /* NUL-terminated message, "" when code == WS_OK */
};

void err_clear(struct err *e);

/* Record an error and return its code, so callers can write
 *     return err_set(e, WS_ERR_PARSE, "%s:%u:%u: unexpected '%s'", ...); */
int err_set(struct err *e, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prefix an existing message with more context ("while loading x.ptx: ..."). */
int err_prefix(struct err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
