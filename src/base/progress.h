/* progress.h: the one-line progress display of long simulations on stderr
 * (warpsim run, compare, exec): kernel, simulated cycles and instructions,
 * and the simulation rate, redrawn in place at most four times a second.
 * Shown on a terminal, or anywhere when asked (--progress, WARPSIM_PROGRESS). */
#ifndef WS_BASE_PROGRESS_H
#define WS_BASE_PROGRESS_H

#include <stdint.h>

struct progress_line {
    double start, last; /* monotonic seconds */
    int shown;          /* a line is on the screen */
    int newline;        /* not a terminal: one line per report, no \r */
};

/* 1 when progress should be shown: forced, or stderr is a terminal. */
int progress_wanted(int forced);
/* Starts timing a run; the next reports go to one redrawn line. */
void progress_line_start(struct progress_line *p);
/* A ws_progress_fn: cycles of the current kernel, instructions so far (as
 * gpu_sim_insn: thread instructions, GPGPU-Sim's simulation-rate unit),
 * launches so far. */
void progress_line_report(void *ctx, uint64_t cycles, uint64_t insn, uint32_t launch);
/* Erases the line (on a terminal) before other output. */
void progress_line_end(struct progress_line *p);

#endif
