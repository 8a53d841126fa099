/* engine_par.c: the worker pool of the parallel engine (engine_par.h).
 *
 * A cycle of the timing model is a few microseconds of work, so a job range
 * is started and ended by a barrier that first spins (PAR_SPIN polls) and
 * then sleeps on a futex: on an idle machine the hand-off costs well under a
 * microsecond, on a loaded one a descheduled partner does not burn the
 * other's time slice.  The last thread to arrive bumps the generation and
 * wakes sleepers only when some thread went to sleep. */
#include "timing/engine_par.h"

#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/alloc.h"

#define PAR_SPIN 4000

struct par_barrier {
    _Atomic uint32_t arrived;
    _Atomic uint32_t gen;
    _Atomic uint32_t sleepers;
    uint32_t n;
};

struct par_pool {
    uint32_t n;
    pthread_t *th;
    struct par_barrier start, end;
    par_job_fn fn;
    void *ctx;
    uint32_t count;
    _Atomic uint32_t next;
    int quit;
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

static void barrier_wait(struct par_barrier *b)
{
    uint32_t g = atomic_load(&b->gen);
    if (atomic_fetch_add(&b->arrived, 1) + 1 == b->n) {
        atomic_store(&b->arrived, 0);
        atomic_fetch_add(&b->gen, 1);
        if (atomic_load(&b->sleepers))
            futex_wake_all(&b->gen);
        return;
    }
    for (int i = 0; i < PAR_SPIN; i++) {
        if (atomic_load_explicit(&b->gen, memory_order_acquire) != g)
            return;
        cpu_relax();
    }
    atomic_fetch_add(&b->sleepers, 1);
    while (atomic_load(&b->gen) == g)
        futex_wait(&b->gen, g);
    atomic_fetch_sub(&b->sleepers, 1);
}

static void run_jobs(struct par_pool *p)
{
    uint32_t i;
    while ((i = atomic_fetch_add_explicit(&p->next, 1, memory_order_relaxed)) < p->count)
        p->fn(p->ctx, i);
}

static void *worker(void *arg)
{
    struct par_pool *p = arg;
    for (;;) {
        barrier_wait(&p->start);
        if (p->quit)
            return NULL;
        run_jobs(p);
        barrier_wait(&p->end);
    }
}

struct par_pool *par_new(uint32_t n)
{
    struct par_pool *p = xcalloc(1, sizeof *p);
    p->n = n ? n : 1;
    p->start.n = p->end.n = p->n;
    p->th = xcalloc(p->n, sizeof *p->th);
    for (uint32_t i = 1; i < p->n; i++) {
        if (pthread_create(&p->th[i], NULL, worker, p) != 0) {
            /* run with the threads that started */
            p->n = i;
            p->start.n = p->end.n = i;
            break;
        }
    }
    return p;
}

void par_free(struct par_pool *p)
{
    if (!p)
        return;
    if (p->n > 1) {
        p->quit = 1;
        barrier_wait(&p->start);
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
    p->count = n;
    atomic_store(&p->next, 0);
    if (p->n > 1)
        barrier_wait(&p->start);
    run_jobs(p);
    if (p->n > 1)
        barrier_wait(&p->end);
}

uint32_t par_threads(const struct par_pool *p)
{
    return p->n;
}

uint32_t par_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (uint32_t)n : 1;
}
