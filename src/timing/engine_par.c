/* engine_par.c: the worker pool of the parallel engine (engine_par.h).
 *
 * A cycle of the timing model is a few microseconds of work, so hand-offs
 * must be cheap, an SM's state must stay in one core's caches, and a round
 * must not wait for a thread that the host has descheduled (the machine may
 * run more threads than it has cores):
 * - a round's range of indices is cut into one contiguous chunk per thread;
 *   thread k (the caller is thread 0) runs chunk k, so with every thread
 *   running, index i runs on the same thread cycle after cycle and its data
 *   stays in that core's caches (with an index claimed from a shared
 *   counter, an SM's warps moved between cores every cycle: a two-thread run
 *   spent about three times the one-thread time inside sm_cycle);
 * - a thread that is done with its own chunk runs what is left of the
 *   others' from their far end, so a sleeping, descheduled or slow thread
 *   costs the round no more than its part; an index is taken by one
 *   compare-and-swap on its chunk's own cache line;
 * - a worker waits for the next round by polling for PAR_SPIN_NS, then
 *   sleeping on a futex; the caller waits for the indices to be done (a
 *   completion counter, one addition per thread and round), not for the
 *   workers to arrive. */
#include "timing/engine_par.h"

#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/log.h"

/* How long a thread polls before it sleeps: longer than the serial part of
 * a cycle (the memory system, dispatch, the merge), which is often tens of
 * microseconds, so a worker is awake when the next round opens; a futex
 * wake-up costs the caller a system call and the worker the scheduler's
 * latency.  A pause is 10-140 ns depending on the processor, so the bound is
 * time, read every PAR_POLLS polls. */
#define PAR_SPIN_NS 200000
#define PAR_POLLS 64

/* A thread's chunk of a round, alone on its cache line: the round (high 32
 * bits), the end of what is left (16 bits), its first index (low 16 bits). */
struct par_chunk {
    _Alignas(CACHE_LINE) _Atomic uint64_t w;
};

struct par_pool {
    uint32_t n;
    pthread_t *th;
    struct par_worker *wk;
    struct par_chunk *chunk; /* [n] */
    par_job_fn fn;
    void *ctx;
    /* the round being opened or run (high 32 bits) and its number of
     * indices, in one word: a thread sets a chunk afresh only from the
     * size of the round it is working for */
    _Atomic uint64_t round_jobs;
    _Alignas(CACHE_LINE) _Atomic uint32_t round; /* generation: a new round opened (futex word) */
    _Atomic uint32_t sleepers;               /* workers asleep on round */
    _Atomic int quit;
    _Alignas(CACHE_LINE) _Atomic uint32_t done; /* indices of the round finished */
    _Atomic uint32_t waiting;                /* 1 while the caller sleeps on done */
};

struct par_worker {
    struct par_pool *p;
    uint32_t id;
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

uint64_t par_clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One poll of a wait: 1 while it should go on polling, 0 once it has polled
 * for PAR_SPIN_NS (then sleep).  *polls and *t0 start at 0. */
static int keep_polling(uint32_t *polls, uint64_t *t0)
{
    cpu_relax();
    if (++*polls % PAR_POLLS)
        return 1;
    uint64_t now = par_clock_ns();
    if (!*t0)
        *t0 = now;
    return now - *t0 < PAR_SPIN_NS;
}

/* The first and the last index + 1 of thread c's chunk of n. */
static uint32_t chunk_lo(const struct par_pool *p, uint32_t n, uint32_t c)
{
    return (uint32_t)((uint64_t)n * c / p->n);
}

/* Take an index of chunk c in round r: the front one (its owner) or the
 * back one (a thread that is done with its own).  The chunk's word holds the
 * round it was last set for and what is left of it then; the first thread to
 * touch it in a new round sets it afresh.  A late worker that saw an older
 * round finds a newer one there and takes nothing. */
static int take(struct par_pool *p, uint32_t c, uint32_t r, int back, uint32_t *i)
{
    _Atomic uint64_t *w = &p->chunk[c].w;
    uint64_t x = atomic_load_explicit(w, memory_order_relaxed);
    for (;;) {
        uint32_t rr = (uint32_t)(x >> 32), f = x & 0xffff, b = (x >> 16) & 0xffff;
        if (rr != r) {
            if ((int32_t)(rr - r) > 0)
                return 0;
            uint64_t rj = atomic_load(&p->round_jobs);
            if ((uint32_t)(rj >> 32) != r)
                return 0; /* a later round is being opened: this one is over */
            f = chunk_lo(p, (uint32_t)rj, c);
            b = chunk_lo(p, (uint32_t)rj, c + 1);
        }
        if (f >= b)
            return 0;
        *i = back ? b - 1 : f;
        back ? b-- : f++;
        if (atomic_compare_exchange_weak(w, &x, (uint64_t)r << 32 | b << 16 | f))
            return 1;
    }
}

/* Thread id runs what is left of chunk c in round r, from the front (its
 * owner) or the back; the number of indices run. */
static uint32_t run_chunk(struct par_pool *p, uint32_t id, uint32_t c, uint32_t r, int back)
{
    uint32_t did = 0, i;
    while (take(p, c, r, back, &i)) {
        p->fn(p->ctx, i, id);
        did++;
    }
    return did;
}

/* Round r, seen by thread id: its own chunk from the front, then what is
 * left of the others' from the back (their owners work from the front). */
static void run_round(struct par_pool *p, uint32_t id, uint32_t r)
{
    uint32_t did = 0;
    for (uint32_t k = 0; k < p->n; k++)
        did += run_chunk(p, id, (id + k) % p->n, r, k != 0);
    if (!did)
        return;
    /* round r is not over before this addition: its size is still there */
    uint32_t n = (uint32_t)atomic_load(&p->round_jobs);
    if (atomic_fetch_add(&p->done, did) + did == n && atomic_load(&p->waiting))
        futex_wake_all(&p->done);
}

static void *worker(void *arg)
{
    struct par_worker *w = arg;
    struct par_pool *p = w->p;
    uint32_t seen = 0;
    for (;;) {
        uint32_t r, polls = 0;
        uint64_t t0 = 0;
        while ((r = atomic_load(&p->round)) == seen) {
            if (keep_polling(&polls, &t0))
                continue;
            atomic_fetch_add(&p->sleepers, 1);
            if (atomic_load(&p->round) == seen)
                futex_wait(&p->round, seen);
            atomic_fetch_sub(&p->sleepers, 1);
        }
        seen = r;
        if (atomic_load(&p->quit))
            return NULL;
        run_round(p, w->id, r);
    }
}

struct par_pool *par_new(uint32_t n)
{
    struct par_pool *p = xcalloc(1, sizeof *p);
    p->n = n ? n : 1;
    p->th = xcalloc(p->n, sizeof *p->th);
    p->wk = xcalloc(p->n, sizeof *p->wk);
    p->chunk = xcalloc_lines(p->n, sizeof *p->chunk);
    for (uint32_t i = 1; i < p->n; i++) {
        p->wk[i] = (struct par_worker){p, i};
        if (pthread_create(&p->th[i], NULL, worker, &p->wk[i]) != 0) {
            p->n = i; /* run with the threads that started: their chunks cover the range */
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
    free(p->wk);
    free(p->chunk);
    free(p);
}

void par_run(struct par_pool *p, par_job_fn fn, void *ctx, uint32_t n)
{
    if (n > PAR_MAX_JOBS)
        panic("par_run: %u jobs, at most %u", n, PAR_MAX_JOBS);
    p->fn = fn;
    p->ctx = ctx;
    atomic_store(&p->done, 0);
    uint32_t r = atomic_load(&p->round) + 1;
    atomic_store(&p->round_jobs, (uint64_t)r << 32 | n);
    open_round(p);
    run_round(p, 0, r);
    uint32_t polls = 0;
    uint64_t t0 = 0;
    while (atomic_load(&p->done) < n) {
        if (keep_polling(&polls, &t0))
            continue;
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
