/* test_conformance.c: contract checks run over EVERY registered policy (the
 * generated tables of src/policy/registry.h), so a new policy file is covered
 * without editing this test.  Schedulers: thousands of seeded random views
 * and events; never a non-ready slot, -1 when nothing is ready,
 * deterministic.  Caches: victims within the candidates for every way count,
 * deterministic.  DRAM: index < n of a ready bank or -1, deterministic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policy/registry.h"

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t rng_mask(uint64_t *s, uint32_t nbits)
{
    uint64_t m = rng_next(s) & rng_next(s); /* about a quarter of the bits */
    if (rng_next(s) & 1)
        m |= rng_next(s);
    return nbits >= 64 ? m : m & ((1ull << nbits) - 1);
}

/* ---- schedulers ---- */

#define SCHED_STEPS 3000

static void *sched_new(const struct sched_ops *ops, uint32_t nslots)
{
    struct param_set ps;
    struct err e;
    const struct sched_ops *found = NULL;
    err_clear(&e);
    assert_int_equal(registry_sched(ops->name, &found, &ps, &e), WS_OK);
    assert_ptr_equal(found, ops);
    void *priv = calloc(1, ops->priv_size ? ops->priv_size : 1);
    assert_non_null(priv);
    if (ops->init) {
        struct sched_init in = {.nslots = nslots, .sm = 0, .unit = 0, .n_units = 1};
        assert_int_equal(ops->init(priv, &ps, &in, &e), WS_OK);
    }
    return priv;
}

static void sched_emit(const struct sched_ops *ops, void *priv, uint32_t kind, int32_t slot,
                       uint64_t age, uint64_t now, uint64_t *rng)
{
    if (!ops->on_event)
        return;
    struct sched_event ev = {.kind = kind, .slot = slot, .pc = (uint32_t)(rng_next(rng) % 64),
                             .cta = (uint32_t)(rng_next(rng) % 4), .age = age,
                             .addr = rng_next(rng) % 1024, .hit = (uint8_t)(rng_next(rng) & 1),
                             .now = now};
    ops->on_event(priv, &ev);
}

/* Run one seeded sequence, checking every pick; the picks go to out. */
static void sched_sequence(const struct sched_ops *ops, uint64_t seed, uint32_t nslots, int *out)
{
    uint64_t rng = seed;
    void *priv = sched_new(ops, nslots);
    uint64_t age[SCHED_MAX_WARPS] = {0};
    uint32_t pc[SCHED_MAX_WARPS] = {0}, active[SCHED_MAX_WARPS] = {0}, cta[SCHED_MAX_WARPS] = {0};
    uint64_t next_age = 0, valid = 0;
    int32_t last = -1;
    uint64_t slots = nslots >= 64 ? ~0ull : (1ull << nslots) - 1;
    sched_emit(ops, priv, SCHED_EV_KERNEL_START, -1, 0, 0, &rng);
    for (uint32_t step = 0; step < SCHED_STEPS; step++) {
        /* launches and exits */
        uint64_t change = rng_next(&rng) % 8 == 0 ? rng_mask(&rng, nslots) & slots : 0;
        for (uint64_t c = change; c; c &= c - 1) {
            int s = __builtin_ctzll(c);
            if (valid >> s & 1) {
                valid &= ~(1ull << s);
                sched_emit(ops, priv, SCHED_EV_WARP_EXIT, s, age[s], step, &rng);
                if (last == s)
                    last = -1;
            } else {
                valid |= 1ull << s;
                age[s] = next_age++;
                pc[s] = 0;
                active[s] = 32;
                cta[s] = (uint32_t)s / 4;
                sched_emit(ops, priv, SCHED_EV_WARP_LAUNCH, s, age[s], step, &rng);
            }
        }
        for (uint32_t s = 0; s < nslots; s++) {
            pc[s] = (uint32_t)(rng_next(&rng) % 64);
            active[s] = (uint32_t)(rng_next(&rng) % 33);
        }
        uint64_t ready = rng_next(&rng) % 10 == 0 ? 0 : rng_mask(&rng, nslots) & valid;
        uint64_t longop = rng_mask(&rng, nslots) & valid & ~ready;
        uint64_t barrier = rng_next(&rng) % 4 == 0 ? rng_mask(&rng, nslots) & valid & ~ready : 0;
        struct sched_view v = {
            .nslots = nslots, .valid = valid, .ready = ready,
            .next_is_load = rng_mask(&rng, nslots) & valid,
            .next_is_mem = rng_mask(&rng, nslots) & valid, .long_op_pending = longop,
            .at_barrier = barrier, .age = age, .pc = pc, .active = active, .cta = cta,
            .pcinfo = NULL, .last_issued = last, .now = step};
        int p = ops->pick(priv, &v);
        out[step] = p;
        if (!ready)
            assert_int_equal(p, -1);
        if (p != -1) {
            assert_true(p >= 0 && (uint32_t)p < nslots);
            assert_true(ready >> p & 1);
            last = p;
            sched_emit(ops, priv, SCHED_EV_ISSUE, p, age[p], step, &rng);
        }
        /* other events, on random live slots */
        uint32_t k = (uint32_t)(rng_next(&rng) % 8);
        int s = valid ? __builtin_ctzll(valid) : -1;
        if (valid) {
            uint32_t skip = (uint32_t)(rng_next(&rng) % 64);
            uint64_t m = valid;
            while (skip-- && (m & (m - 1)))
                m &= m - 1;
            s = __builtin_ctzll(m);
        }
        switch (k) {
        case 0: sched_emit(ops, priv, SCHED_EV_LOAD_DONE, s, 0, step, &rng); break;
        case 1: sched_emit(ops, priv, SCHED_EV_L1D_ACCESS, s, 0, step, &rng); break;
        case 2: sched_emit(ops, priv, SCHED_EV_L1D_EVICT, s, 0, step, &rng); break;
        case 3: sched_emit(ops, priv, SCHED_EV_BARRIER, s, 0, step, &rng); break;
        case 4: sched_emit(ops, priv, SCHED_EV_BARRIER_RELEASE, -1, 0, step, &rng); break;
        case 5:
            if (rng_next(&rng) % 50 == 0)
                sched_emit(ops, priv, SCHED_EV_KERNEL_START, -1, 0, step, &rng);
            break;
        default: break;
        }
    }
    free(priv);
}

static void test_sched_all(void **state)
{
    (void)state;
    assert_true(sched_policy_count >= 5);
    static const uint32_t sizes[] = {1, 3, 8, 24, 48, 63, 64};
    static int a[SCHED_STEPS], b[SCHED_STEPS];
    for (unsigned i = 0; i < sched_policy_count; i++) {
        const struct sched_ops *ops = sched_policies[i];
        assert_non_null(ops->name);
        assert_non_null(ops->desc);
        assert_non_null(ops->pick);
        for (unsigned z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            uint64_t seed = 1000 + i * 97 + z;
            sched_sequence(ops, seed, sizes[z], a);
            sched_sequence(ops, seed, sizes[z], b);
            assert_memory_equal(a, b, sizeof a);
            int issued = 0;
            for (int k = 0; k < SCHED_STEPS; k++)
                issued += a[k] >= 0;
            assert_true(issued > 0); /* a scheduler that never issues is broken */
        }
    }
}

/* ---- caches ---- */

#define CACHE_SETS 16
#define CACHE_STEPS 20000

struct line {
    uint64_t tag;
    int valid, reused;
};

static void cache_sequence(const struct cache_policy_ops *ops, uint32_t ways, uint64_t seed,
                           uint32_t *victims, uint32_t *nvict)
{
    struct param_set ps;
    struct err e;
    const struct cache_policy_ops *found = NULL;
    err_clear(&e);
    assert_int_equal(registry_cache(ops->name, &found, &ps, &e), WS_OK);
    assert_ptr_equal(found, ops);
    size_t sz = ops->priv_size(CACHE_SETS, ways);
    void *priv = malloc(sz ? sz : 1);
    memset(priv, 0xa5, sz ? sz : 1); /* init must not rely on zeroed memory */
    struct cache_policy_init in = {.sets = CACHE_SETS, .ways = ways, .instance = 3, .seed = 42};
    assert_int_equal(ops->init(priv, &ps, &in, &e), WS_OK);
    struct line *lines = calloc((size_t)CACHE_SETS * ways, sizeof *lines);
    uint64_t rng = seed;
    *nvict = 0;
    for (uint32_t step = 0; step < CACHE_STEPS; step++) {
        uint64_t addr = rng_next(&rng) % (CACHE_SETS * ways * 3);
        if (rng_next(&rng) % 3 == 0)
            addr = rng_next(&rng) % (CACHE_SETS * 2); /* a hot subset */
        uint32_t set = (uint32_t)(addr % CACHE_SETS);
        struct cache_access a = {.line_addr = addr, .pc = (uint32_t)(addr % 7) * 8, .sm = 0,
                                 .warp = (int32_t)(rng_next(&rng) % 48), .warp_age = step,
                                 .is_write = (uint8_t)(rng_next(&rng) % 5 == 0), .tag = 0};
        struct line *row = lines + (size_t)set * ways;
        int hit = -1, free_way = -1;
        for (uint32_t w = 0; w < ways; w++) {
            if (row[w].valid && row[w].tag == addr)
                hit = (int)w;
            if (!row[w].valid && free_way < 0)
                free_way = (int)w;
        }
        if (hit >= 0) {
            row[hit].reused = 1;
            if (ops->on_hit)
                ops->on_hit(priv, set, (uint32_t)hit, &a);
            continue;
        }
        if (ops->bypass && ops->bypass(priv, set, &a))
            continue;
        uint32_t way;
        if (free_way >= 0) {
            way = (uint32_t)free_way;
        } else {
            uint64_t all = ways >= 64 ? ~0ull : (1ull << ways) - 1;
            uint64_t cand = all;
            if (rng_next(&rng) % 4 == 0) /* some ways reserved */
                cand = rng_next(&rng) & all;
            if (!cand)
                cand = 1ull << (rng_next(&rng) % ways);
            way = ops->victim(priv, set, cand, &a);
            assert_true(way < ways);
            assert_true(cand >> way & 1);
            victims[(*nvict)++] = way;
            if (ops->on_evict)
                ops->on_evict(priv, set, way, row[way].reused);
        }
        row[way].valid = 1;
        row[way].tag = addr;
        row[way].reused = 0;
        if (ops->on_insert)
            ops->on_insert(priv, set, way, &a);
    }
    free(lines);
    free(priv);
}

static void test_cache_all(void **state)
{
    (void)state;
    assert_true(cache_policy_count >= 6);
    static const uint32_t ways_list[] = {1, 2, 4, 6, 8, 16, 64};
    uint32_t *va = malloc(CACHE_STEPS * sizeof *va), *vb = malloc(CACHE_STEPS * sizeof *vb);
    for (unsigned i = 0; i < cache_policy_count; i++) {
        const struct cache_policy_ops *ops = cache_policies[i];
        assert_non_null(ops->name);
        assert_non_null(ops->desc);
        assert_non_null(ops->priv_size);
        assert_non_null(ops->init);
        assert_non_null(ops->victim);
        for (unsigned z = 0; z < sizeof ways_list / sizeof ways_list[0]; z++) {
            uint32_t na, nb;
            cache_sequence(ops, ways_list[z], 77 + z, va, &na);
            cache_sequence(ops, ways_list[z], 77 + z, vb, &nb);
            assert_int_equal(na, nb);
            assert_true(na > 100);
            assert_memory_equal(va, vb, na * sizeof *va);
        }
    }
    free(va);
    free(vb);
}

/* ---- DRAM schedulers ---- */

#define DRAM_MAXQ 64

static void test_dram_all(void **state)
{
    (void)state;
    assert_true(dram_policy_count >= 2);
    for (unsigned i = 0; i < dram_policy_count; i++) {
        const struct dram_sched_ops *ops = dram_policies[i];
        assert_non_null(ops->pick);
        struct param_set ps;
        struct err e;
        const struct dram_sched_ops *found = NULL;
        err_clear(&e);
        assert_int_equal(registry_dram(ops->name, &found, &ps, &e), WS_OK);
        void *pa = calloc(1, ops->priv_size ? ops->priv_size : 1);
        void *pb = calloc(1, ops->priv_size ? ops->priv_size : 1);
        if (ops->init) {
            assert_int_equal(ops->init(pa, &ps, 16, &e), WS_OK);
            assert_int_equal(ops->init(pb, &ps, 16, &e), WS_OK);
        }
        uint64_t rng = 5 + i;
        int served = 0;
        for (int step = 0; step < 5000; step++) {
            uint32_t bank[DRAM_MAXQ], row[DRAM_MAXQ], tag[DRAM_MAXQ];
            uint64_t arrival[DRAM_MAXQ];
            uint8_t is_write[DRAM_MAXQ], bank_ready[16];
            int64_t open_row[16];
            uint32_t n_banks = 1 + (uint32_t)(rng_next(&rng) % 16);
            uint32_t n = (uint32_t)(rng_next(&rng) % (DRAM_MAXQ + 1));
            uint64_t t = 0;
            for (uint32_t q = 0; q < n; q++) {
                bank[q] = (uint32_t)(rng_next(&rng) % n_banks);
                row[q] = (uint32_t)(rng_next(&rng) % 4);
                t += rng_next(&rng) % 3; /* ties happen */
                arrival[q] = t;
                is_write[q] = (uint8_t)(rng_next(&rng) % 4 == 0);
                tag[q] = (uint32_t)(rng_next(&rng) % 3);
            }
            for (uint32_t b = 0; b < n_banks; b++) {
                bank_ready[b] = (uint8_t)(rng_next(&rng) % 3 != 0);
                open_row[b] = (int64_t)(rng_next(&rng) % 5) - 1;
            }
            struct dram_view v = {.n = n, .bank = bank, .row = row, .arrival = arrival,
                                  .is_write = is_write, .tag = tag, .bank_ready = bank_ready,
                                  .open_row = open_row, .n_banks = n_banks, .now = t + 10};
            int a = ops->pick(pa, &v), b = ops->pick(pb, &v);
            assert_int_equal(a, b);
            assert_true(a >= -1 && a < (int)n);
            if (a >= 0) {
                assert_true(bank_ready[bank[a]]);
                served++;
            }
            if (n == 0)
                assert_int_equal(a, -1);
        }
        assert_true(served > 1000);
        free(pa);
        free(pb);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sched_all),
        cmocka_unit_test(test_cache_all),
        cmocka_unit_test(test_dram_all),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
