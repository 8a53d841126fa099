/* test_pool.c: the parallel engine's worker pool (src/timing/engine_par.c)
 * runs every index of every round exactly once, on any number of threads,
 * also when a thread is slow (its chunk is then run by the others), a job
 * learns which thread runs it, and a round returns only when all its
 * indices are done. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmocka.h>

#include "timing/engine_par.h"

#define MAX_JOBS 40

struct count {
    _Atomic uint32_t runs[MAX_JOBS];
    uint32_t round;           /* the round the caller opened */
    _Atomic uint32_t stale;   /* jobs that ran after their round returned */
    uint32_t slow_job;        /* index that sleeps, or MAX_JOBS */
    uint32_t threads;         /* the pool's: a job's thread index is below */
};

static void job(void *ctx, uint32_t i, uint32_t thread)
{
    struct count *c = ctx;
    if (thread >= c->threads)
        atomic_fetch_add(&c->stale, 1);
    if (i == c->slow_job) {
        struct timespec ts = {0, 200000}; /* 0.2 ms: far beyond a round's work */
        nanosleep(&ts, NULL);
    }
    uint32_t r = atomic_fetch_add(&c->runs[i], 1);
    if (r != c->round) /* a second run in this round, or a run of a later one */
        atomic_fetch_add(&c->stale, 1);
}

/* rounds rounds of n jobs on a pool of threads threads: each index once a round. */
static void check_rounds(uint32_t threads, uint32_t n, uint32_t rounds, uint32_t slow_job)
{
    static struct count c;
    for (uint32_t i = 0; i < MAX_JOBS; i++)
        atomic_store(&c.runs[i], 0);
    atomic_store(&c.stale, 0);
    c.slow_job = slow_job;
    c.threads = threads;
    struct par_pool *p = par_new(threads);
    assert_int_equal(par_threads(p), threads);
    for (uint32_t r = 0; r < rounds; r++) {
        c.round = r;
        par_run(p, job, &c, n);
        /* the round is over: every index ran exactly once */
        for (uint32_t i = 0; i < n; i++)
            assert_int_equal(atomic_load(&c.runs[i]), r + 1);
    }
    par_free(p);
    assert_int_equal(atomic_load(&c.stale), 0);
    for (uint32_t i = n; i < MAX_JOBS; i++)
        assert_int_equal(atomic_load(&c.runs[i]), 0);
}

static void test_every_index_once(void **state)
{
    (void)state;
    /* more threads than jobs, as many, fewer; an empty round */
    for (uint32_t threads = 1; threads <= 5; threads++)
        for (uint32_t n = 0; n <= 17; n++)
            check_rounds(threads, n, 300, MAX_JOBS);
    check_rounds(4, MAX_JOBS, 2000, MAX_JOBS);
}

/* One index sleeps every round: its chunk's other indices are run by the
 * threads that are done, and the round still runs each index once. */
static void test_slow_thread(void **state)
{
    (void)state;
    for (uint32_t threads = 2; threads <= 4; threads++) {
        check_rounds(threads, 15, 50, 0);  /* the caller's own chunk */
        check_rounds(threads, 15, 50, 14); /* the last worker's chunk */
    }
}

/* Rounds of changing sizes on one pool, some with fewer indices than
 * threads (empty chunks): a chunk is set afresh from its own round's size,
 * so no index runs twice or in a round that is over. */
static void test_changing_sizes(void **state)
{
    (void)state;
    static struct count c;
    struct par_pool *p = par_new(4);
    c.slow_job = MAX_JOBS;
    c.threads = 4;
    const uint32_t sizes[] = {1, 17, 2, 40, 0, 3, 9, 4};
    for (uint32_t r = 0; r < 4000; r++) {
        uint32_t n = sizes[r % 8];
        for (uint32_t i = 0; i < MAX_JOBS; i++)
            atomic_store(&c.runs[i], 0);
        c.round = 0;
        par_run(p, job, &c, n);
        for (uint32_t i = 0; i < MAX_JOBS; i++)
            assert_int_equal(atomic_load(&c.runs[i]), i < n);
    }
    par_free(p);
    assert_int_equal(atomic_load(&c.stale), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_index_once),
        cmocka_unit_test(test_slow_thread),
        cmocka_unit_test(test_changing_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
