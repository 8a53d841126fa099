/* progress.c: see progress.h. */
#include "base/progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int progress_wanted(int forced)
{
    return forced || isatty(fileno(stderr));
}

void progress_line_start(struct progress_line *p)
{
    p->start = p->last = now_seconds();
    p->shown = 0;
    p->newline = !isatty(fileno(stderr));
    if (p->newline)
        p->last -= 10.0; /* a log gets the first report at once */
}

void progress_line_report(void *ctx, uint64_t cycles, uint64_t insn, uint32_t launch)
{
    struct progress_line *p = ctx;
    double t = now_seconds();
    /* off a terminal (a log file) one line every 10 s is enough */
    if (t - p->last < (p->newline ? 10.0 : 0.25))
        return;
    p->last = t;
    double secs = t - p->start;
    double rate = secs > 0 ? (double)insn / secs : 0;
    fprintf(stderr, "%s  kernel %u  cycle %llu  instructions %llu  %.2f M insn/s  %.0f s%s",
            p->newline ? "" : "\r", launch, (unsigned long long)cycles,
            (unsigned long long)insn, rate / 1e6, secs, p->newline ? "\n" : " ");
    fflush(stderr);
    p->shown = !p->newline;
}

void progress_line_end(struct progress_line *p)
{
    if (p->shown)
        fprintf(stderr, "\r%100s\r", "");
    p->shown = 0;
}
