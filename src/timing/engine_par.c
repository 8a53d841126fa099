/* engine_par.c: the worker pool of the parallel engine (engine_par.h).
 *
 * A cycle of the timing model is a few microseconds of work, so hand-offs
 * must be cheap and must not wait for a thread that the host has
 * descheduled (the machine may run more threads than it has cores):
 * - the caller opens a round (a generation counter) and claims jobs like
 *   the workers do, from one atomic counter;
 * - a worker waits for the next round by spinning PAR_SPIN polls, then
 *   sleeping on a futex; a worker that sleeps through a whole round simply
 *   finds no job left;
 * - the caller waits for the round's jobs to be done (a completion counter),
 *   not for the workers to arrive, so a round costs the caller no more than
 *   doing every job itself, plus a job a descheduled worker had claimed. */
#include "timing/engine_par.h"

#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/alloc.h"

#define PAR_SPIN 1500

struct par_pool {
    uint32_t n;
    pthread_t *th;
    par_job_fn fn;
    void *ctx;
    _Atomic uint64_t work;     /* jobs of the round << 32 | the next job to claim */
    _Atomic uint32_t done;     /* jobs of the round finished */
    _Atomic uint32_t round;    /* generation: a new round opened */
    _Atomic uint32_t sleepers; /* workers asleep on round */
    _Atomic uint32_t waiting;  /* 1 while the caller sleeps on done */
    _Atomic int quit;
};

static void futex_wait(_Atomic uint32_t *addr, uint32_t val)
{
    syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake_all(_Atomic uint32_t *addr)
{
    syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Claim and run jobs until none is left. */
static void run_jobs(struct par_pool *p)
{
    uint64_t x = atomic_load(&p->work);
    for (;;) {
        uint32_t i = (uint32_t)x, n = (uint32_t)(x >> 32);
        if (i >= n)
            return;
        /* count and index in one word: a claim can never take a job of a
         * round that a late worker did not see open */
        if (!atomic_compare_exchange_weak(&p->work, &x, x + 1))
            continue;
        p->fn(p->ctx, i);
        if (atomic_fetch_add(&p->done, 1) + 1 == n && atomic_load(&p->waiting))
            futex_wake_all(&p->done);
        x = atomic_load(&p->work);
    }
}

static void *worker(void *arg)
{
    struct par_pool *p = arg;
    uint32_t seen = 0;
    for (;;) {
        int spin = 0;
        uint32_t r;
        while ((r = atomic_load(&p->round)) == seen) {
            if (spin++ < PAR_SPIN) {
                cpu_relax();
                continue;
            }
            atomic_fetch_add(&p->sleepers, 1);
            if (atomic_load(&p->round) == seen)
                futex_wait(&p->round, seen);
            atomic_fetch_sub(&p->sleepers, 1);
        }
        seen = r;
        if (atomic_load(&p->quit))
            return NULL;
        run_jobs(p);
    }
}

struct par_pool *par_new(uint32_t n)
{
    struct par_pool *p = xcalloc(1, sizeof *p);
    p->n = n ? n : 1;
    p->th = xcalloc(p->n, sizeof *p->th);
    for (uint32_t i = 1; i < p->n; i++) {
        if (pthread_create(&p->th[i], NULL, worker, p) != 0) {
            p->n = i; /* run with the threads that started */
            break;
        }
    }
    return p;
}

static void open_round(struct par_pool *p)
{
    atomic_fetch_add(&p->round, 1);
    if (atomic_load(&p->sleepers))
        futex_wake_all(&p->round);
}

void par_free(struct par_pool *p)
{
    if (!p)
        return;
    if (p->n > 1) {
        atomic_store(&p->quit, 1);
        open_round(p);
        for (uint32_t i = 1; i < p->n; i++)
            pthread_join(p->th[i], NULL);
    }
    free(p->th);
    free(p);
}

void par_run(struct par_pool *p, par_job_fn fn, void *ctx, uint32_t n)
{
    p->fn = fn;
    p->ctx = ctx;
    atomic_store(&p->done, 0);
    atomic_store(&p->work, (uint64_t)n << 32);
    if (p->n > 1)
        open_round(p);
    run_jobs(p);
    int spin = 0;
    while (atomic_load(&p->done) < n) {
        if (spin++ < PAR_SPIN) {
            cpu_relax();
            continue;
        }
        atomic_store(&p->waiting, 1);
        uint32_t d = atomic_load(&p->done);
        if (d < n)
            futex_wait(&p->done, d);
        atomic_store(&p->waiting, 0);
    }
}

uint32_t par_threads(const struct par_pool *p)
{
    return p->n;
}

uint32_t par_cores(void)
{
    cpu_set_t set; /* the cores this process may run on (a container's share) */
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return (uint32_t)CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (uint32_t)n : 1;
}
