/* log.h: panic() for simulator bugs (a broken internal invariant).
 *
 * User errors never reach here: they travel as struct err (err.h).  panic()
 * prints the location and aborts so that a sanitizer or debugger stops at the
 * faulty state. */
#ifndef WS_BASE_LOG_H
#define WS_BASE_LOG_H

_Noreturn void panic_at(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#define panic(...) panic_at(__FILE__, __LINE__, __VA_ARGS__)
#define ws_assert(cond)                                                                  \
    do {                                                                                 \
        if (!(cond))                                                                     \
            panic("assertion failed: %s", #cond);                                        \
    } while (0)

#endif
