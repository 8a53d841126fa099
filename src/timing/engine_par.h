/* engine_par.h: the host threads of the parallel engine (docs/parallel.md):
 * a pool of workers that, with the calling thread, run one job per index of
 * a range and return when every index is done.  Only the mechanism: which
 * work is safe to run at once is engine.c's business.  Each thread has a
 * contiguous chunk of the range and runs it while it keeps up; what it
 * has not begun when another thread is done is run by that one, so which thread runs an
 * index can vary from round to round: a job must only touch state of its own
 * index. */
#ifndef WS_TIMING_ENGINE_PAR_H
#define WS_TIMING_ENGINE_PAR_H

#include <stdint.h>

struct par_pool;

/* Job i, run by thread `thread` (0 = the caller, < par_threads): a job may
 * keep per-thread results, each thread's in its own cache line, for the
 * caller to combine once the round is done. */
typedef void (*par_job_fn)(void *ctx, uint32_t i, uint32_t thread);

/* A pool of n - 1 workers (the caller is the n-th thread); with fewer if
 * threads cannot be started. */
struct par_pool *par_new(uint32_t n);
void par_free(struct par_pool *p);
/* Run fn(ctx, i) for every i < n (n <= PAR_MAX_JOBS) on the pool's threads
 * and the caller. */
#define PAR_MAX_JOBS 0xffffu
void par_run(struct par_pool *p, par_job_fn fn, void *ctx, uint32_t n);
/* The threads of a pool (the caller included). */
uint32_t par_threads(const struct par_pool *p);

/* Monotonic time in nanoseconds (the pool's waits, the engine's tuning). */
uint64_t par_clock_ns(void);

/* The cores this process may run on (its affinity mask; else the machine's
 * online cores; at least 1). */
uint32_t par_cores(void);

#endif
