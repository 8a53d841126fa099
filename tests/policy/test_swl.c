/* test_swl.c: static warp limiting (SPEC-policies 2.5): the GTO list
 * truncated to K slots gives exactly K eligible warps when the greedy warp is
 * among the K oldest and K + 1 otherwise, waiting warps sort last, the limit
 * gates every instruction, scope=core divides K among the units; the
 * `warpsim best-swl` command's table on a small workload; and every workload
 * at small size under swl:limit=2 without deadlock. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policy/registry.h"
#include "wl_run.h"

static const char *g_argv0;

struct h {
    const struct sched_ops *ops;
    void *priv;
    struct sched_view v;
    uint64_t age[SCHED_MAX_WARPS];
    uint32_t pc[SCHED_MAX_WARPS], active[SCHED_MAX_WARPS], cta[SCHED_MAX_WARPS];
};

static void h_open(struct h *h, const char *spec, uint32_t nslots, uint32_t unit,
                   uint32_t n_units)
{
    struct param_set ps;
    struct err e;
    err_clear(&e);
    memset(h, 0, sizeof *h);
    assert_int_equal(registry_sched(spec, &h->ops, &ps, &e), WS_OK);
    h->priv = calloc(1, h->ops->priv_size);
    struct sched_init in = {.nslots = nslots, .unit = unit, .n_units = n_units};
    assert_int_equal(h->ops->init(h->priv, &ps, &in, &e), WS_OK);
    h->v.nslots = nslots;
    h->v.valid = (1ull << nslots) - 1;
    h->v.age = h->age;
    h->v.pc = h->pc;
    h->v.active = h->active;
    h->v.cta = h->cta;
    h->v.last_issued = -1;
    /* slot s has age (s * 5) % nslots: ages not in slot order */
    for (uint32_t s = 0; s < nslots; s++)
        h->age[s] = (s * 5) % nslots;
}

/* The slots that may issue: each alone ready. */
static uint64_t eligible(struct h *h)
{
    uint64_t m = 0;
    for (uint32_t s = 0; s < h->v.nslots; s++) {
        if (!(h->v.valid >> s & 1))
            continue;
        h->v.ready = 1ull << s;
        int p = h->ops->pick(h->priv, &h->v);
        assert_true(p == -1 || p == (int)s);
        if (p >= 0)
            m |= 1ull << s;
    }
    return m;
}

static uint64_t slot_of_age(const struct h *h, uint64_t age)
{
    for (uint32_t s = 0; s < h->v.nslots; s++)
        if (h->age[s] == age)
            return s;
    fail();
    return 0;
}

/* The slots holding the k oldest warps. */
static uint64_t oldest_k(const struct h *h, uint32_t k)
{
    uint64_t m = 0;
    for (uint64_t a = 0; a < k; a++)
        m |= 1ull << slot_of_age(h, a);
    return m;
}

static void test_truncation(void **state)
{
    (void)state;
    struct h h;
    h_open(&h, "swl:limit=3", 8, 0, 1);
    /* greedy among the 3 oldest: exactly K */
    h.v.last_issued = (int32_t)slot_of_age(&h, 1);
    assert_int_equal(eligible(&h), oldest_k(&h, 3));
    /* greedy not among them: K + 1 */
    int32_t g = (int32_t)slot_of_age(&h, 6);
    h.v.last_issued = g;
    uint64_t e = eligible(&h);
    assert_int_equal(__builtin_popcountll(e), 4);
    assert_int_equal(e, oldest_k(&h, 3) | 1ull << g);
    /* every instruction is limited, not only loads (next_is_load is 0) and
     * among the eligible GTO order: greedy first, then the oldest */
    h.v.ready = 0xff;
    assert_int_equal(h.ops->pick(h.priv, &h.v), g);
    h.v.ready = 0xff & ~(1ull << g);
    assert_int_equal(h.ops->pick(h.priv, &h.v), (int)slot_of_age(&h, 0));
    /* a ready warp outside the list is held back */
    h.v.ready = 1ull << slot_of_age(&h, 4);
    assert_int_equal(h.ops->pick(h.priv, &h.v), -1);
    /* warps at a barrier sort after live ones: age 0 waits, so ages 1..3 */
    h.v.last_issued = g;
    h.v.at_barrier = 1ull << slot_of_age(&h, 0);
    e = eligible(&h);
    assert_int_equal(e, (oldest_k(&h, 4) & ~h.v.at_barrier) | 1ull << g);
    /* finished warps leave the list: age 1 done, so ages 0, 2, 3 */
    h.v.at_barrier = 0;
    h.v.valid &= ~(1ull << slot_of_age(&h, 1));
    e = eligible(&h);
    assert_int_equal(e, (oldest_k(&h, 4) & ~(1ull << slot_of_age(&h, 1))) | 1ull << g);
    /* before anything issued the greedy slot is the unit's first */
    h.v.valid = 0xff;
    h.v.last_issued = -1;
    e = eligible(&h);
    assert_int_equal(e, oldest_k(&h, 3) | 1u);
    free(h.priv);
    /* a limit at least the warp count limits nothing */
    h_open(&h, "swl:limit=32", 8, 0, 1);
    assert_int_equal(eligible(&h), 0xff);
    free(h.priv);
}

static void test_scope(void **state)
{
    (void)state;
    struct h h;
    /* scope=core: K = 5 over 2 units: 3 and 2 */
    h_open(&h, "swl:limit=5", 8, 0, 2);
    h.v.last_issued = (int32_t)slot_of_age(&h, 0);
    assert_int_equal(__builtin_popcountll(eligible(&h)), 3);
    free(h.priv);
    h_open(&h, "swl:limit=5", 8, 1, 2);
    h.v.last_issued = (int32_t)slot_of_age(&h, 0);
    assert_int_equal(__builtin_popcountll(eligible(&h)), 2);
    free(h.priv);
    /* a limit below the unit count still lets every unit issue */
    h_open(&h, "swl:limit=1", 8, 1, 2);
    h.v.last_issued = (int32_t)slot_of_age(&h, 0);
    assert_int_equal(__builtin_popcountll(eligible(&h)), 1);
    free(h.priv);
    /* scope=scheduler: K per unit */
    h_open(&h, "swl:limit=5,scope=scheduler", 8, 1, 2);
    h.v.last_issued = (int32_t)slot_of_age(&h, 0);
    assert_int_equal(__builtin_popcountll(eligible(&h)), 5);
    free(h.priv);
    struct param_set ps;
    struct err e;
    const struct sched_ops *ops;
    err_clear(&e);
    assert_int_equal(registry_sched("swl:scope=gpu", &ops, &ps, &e), WS_OK);
    void *p = calloc(1, ops->priv_size);
    struct sched_init in = {.nslots = 8, .n_units = 1};
    assert_int_not_equal(ops->init(p, &ps, &in, &e), WS_OK);
    assert_int_equal(registry_sched("swl:limit=0", &ops, &ps, &e), WS_OK);
    assert_int_not_equal(ops->init(p, &ps, &in, &e), WS_OK);
    free(p);
}

static double ipc_of(const char *wl, const char *sched)
{
    ws_gpu *gpu = wl_run_small(wl, sched);
    double ipc = 0;
    assert_int_equal(ws_stat_double(gpu, "gpu_ipc", &ipc), WS_OK);
    ws_gpu_free(gpu);
    return ipc;
}

/* `warpsim best-swl` (the binary next to this test): one row per K with the
 * IPC of that limit, and the best K. */
static void test_best_swl_command(void **state)
{
    (void)state;
    char cmd[4096];
    const char *slash = strrchr(g_argv0, '/');
    int dl = slash ? (int)(slash - g_argv0) : 1;
    snprintf(cmd, sizeof cmd, "%.*s/warpsim best-swl spmv_scalar --config daws --max 3",
             dl, slash ? g_argv0 : ".");
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    char line[512];
    double ipc[4] = {0};
    int rows = 0, best = 0;
    double best_ipc = 0;
    while (fgets(line, sizeof line, f)) {
        int k;
        double v;
        unsigned long long cyc;
        if (sscanf(line, "%d %lf %llu", &k, &v, &cyc) == 3 && k >= 1 && k <= 3) {
            ipc[k] = v;
            rows++;
        } else if (sscanf(line, "best K = %d (IPC %lf)", &best, &best_ipc) == 2) {
            continue;
        }
    }
    assert_int_equal(pclose(f), 0);
    assert_int_equal(rows, 3);
    assert_true(best >= 1 && best <= 3);
    for (int k = 1; k <= 3; k++)
        assert_true(ipc[k] <= ipc[best]);
    assert_true(ipc[best] == best_ipc);
    /* the row for K = 2 is the IPC of swl:limit=2 */
    double direct = ipc_of("spmv_scalar", "swl:limit=2");
    assert_true(direct > ipc[2] - 1e-4 && direct < ipc[2] + 1e-4);
}

/* Every workload at small size under a tight limit: verified, no deadlock
 * (barriers with fewer eligible warps than the CTA, warps finishing inside
 * loops). */
static void test_workloads_no_deadlock(void **state)
{
    (void)state;
    for (unsigned i = 0; i < workload_count; i++)
        assert_true(ipc_of(workload_table[i].w->name, "swl:limit=2") > 0);
}

int main(int argc, char **argv)
{
    (void)argc;
    g_argv0 = argv[0];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truncation),
        cmocka_unit_test(test_scope),
        cmocka_unit_test(test_best_swl_command),
        cmocka_unit_test(test_workloads_no_deadlock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
