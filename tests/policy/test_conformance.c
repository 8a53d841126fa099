/* test_conformance.c: contract checks run over EVERY registered policy (the
 * generated tables of src/policy/registry.h, with the test-only ones), so a
 * new policy file is covered without editing this test.  The policies see
 * real kernel facts: a workload kernel (memc) parsed and analysed, its
 * phases sized at the gtx480 latencies, its PCs in views, events and
 * accesses, and a per-kernel scratch area as the SM gives it.  Schedulers:
 * thousands of seeded random views and events; never a non-ready slot, -1
 * when nothing is ready, deterministic.  Caches: victims within the
 * candidates for every way count, deterministic.  DRAM: index < n of a
 * ready bank or -1, deterministic.  Classifiers: deterministic tags, values
 * published only for live slots. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/analysis.h"
#include "analysis/phase.h"
#include "base/file.h"
#include "base/rng.h"
#include "config/config.h"
#include "policy/registry.h"
#include "ptx/parser.h"
#include "timing/sm.h"

static uint64_t rng_mask(struct rng *s, uint32_t nbits)
{
    uint64_t m = rng_next(s) & rng_next(s); /* about a quarter of the bits */
    if (rng_next(s) & 1)
        m |= rng_next(s);
    return nbits >= 64 ? m : m & ((1ull << nbits) - 1);
}

/* ---- the kernel every policy sees ---- */

struct kfacts {
    struct ptx_module *m;
    struct analysis *an;
    struct pc_phase *phase;
    uint32_t lat[ICLASS_COUNT];
    struct sched_kernel k;
    uint32_t first, n;     /* PCs of the kernel */
    uint32_t mem_pc[64];   /* its global memory instructions */
    uint32_t nmem;
};

static struct kfacts K;

static int kfacts_load(void **state)
{
    (void)state;
    struct err e;
    err_clear(&e);
    char *text;
    size_t len;
    if (file_read_all(WS_SOURCE_DIR "/workloads/memc/memc.ptx", &text, &len, &e) != WS_OK ||
        ptx_parse(text, len, "memc.ptx", &K.m, &e) != WS_OK ||
        analysis_run(K.m, &K.an, &e) != WS_OK) {
        fprintf(stderr, "%s\n", e.msg);
        return -1;
    }
    free(text);
    uint32_t fi = 0;
    while (fi < K.m->nfuncs && !K.m->funcs[fi].is_entry)
        fi++;
    if (fi == K.m->nfuncs || K.an->nloops == 0)
        return -1;
    struct gpu_config cfg;
    config_defaults(&cfg);
    sm_class_latency(&cfg, K.lat);
    K.phase = calloc(K.m->ninsts, sizeof *K.phase);
    phase_size(K.m, K.an, K.lat, 1, K.phase, NULL);
    K.first = K.m->funcs[fi].first_pc;
    K.n = K.m->funcs[fi].ninsts;
    for (uint32_t pc = K.first; pc < K.first + K.n && K.nmem < 64; pc++) {
        unsigned c = K.an->pc[pc].iclass;
        if (c == ICLASS_LOAD_GLOBAL || c == ICLASS_STORE_GLOBAL || c == ICLASS_ATOMIC)
            K.mem_pc[K.nmem++] = pc;
    }
    if (K.nmem == 0)
        return -1;
    K.k = (struct sched_kernel){.name = K.m->funcs[fi].name, .func = fi, .m = K.m, .an = K.an,
                                .l1d_lines = cfg.l1d.sets * cfg.l1d.assoc,
                                .class_latency = K.lat, .phase = K.phase};
    return 0;
}

static int kfacts_free(void **state)
{
    (void)state;
    free(K.phase);
    analysis_free(K.an);
    ptx_module_free(K.m);
    return 0;
}

/* A PC of the kernel. */
static uint32_t kpc(struct rng *rng)
{
    return K.first + (uint32_t)(rng_next(rng) % K.n);
}

/* The kernel's facts with this instance's scratch (allocated as the SM
 * does: zeroed, sized by the policy); *area receives the allocation. */
static struct sched_kernel kernel_for(size_t (*scratch)(const void *, const struct sched_kernel *),
                                      const void *priv, void **area)
{
    struct sched_kernel k = K.k;
    k.scratch_size = scratch ? scratch(priv, &k) : 0;
    free(*area);
    *area = k.scratch_size ? calloc(1, k.scratch_size) : NULL;
    k.scratch = *area;
    return k;
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

/* A random event of `kind`, with real PCs (KERNEL_START: the kernel). */
static struct sched_event event_of(uint32_t kind, int32_t slot, uint64_t age, uint64_t now,
                                   const struct sched_kernel *k, struct rng *rng)
{
    uint32_t pc = kpc(rng);
    int taken = kind == SCHED_EV_ISSUE && (rng_next(rng) & 1);
    struct sched_event ev = {.kind = kind, .slot = slot, .pc = pc,
                             .cta = (uint32_t)(rng_next(rng) % 4), .age = age,
                             .addr = rng_next(rng) % 1024, .hit = (uint8_t)(rng_next(rng) & 1),
                             .lanes = 32, .accesses = 1 + (uint32_t)(rng_next(rng) % 32),
                             .kernel = kind == SCHED_EV_KERNEL_START ? k : NULL,
                             .next_pc = taken ? kpc(rng) : pc + 1, .taken = (uint8_t)taken,
                             .now = now};
    return ev;
}

struct sched_inst {
    const struct sched_ops *ops;
    void *priv;
    void *scratch;
    struct sched_kernel k;
    int filtered; /* deliver only the kinds of ops->events, as the SM does */
};

/* Is an event of `kind` delivered to a policy with these `on_event` and
 * `events` (everything, unfiltered: what a policy must not depend on)? */
static int delivered(int filtered, int has_event, uint32_t events, uint32_t kind)
{
    return has_event && (!filtered || (events >> kind & 1));
}

static void sched_emit(struct sched_inst *I, uint32_t kind, int32_t slot, uint64_t age,
                       uint64_t now, struct rng *rng)
{
    if (kind == SCHED_EV_KERNEL_START)
        I->k = kernel_for(I->ops->kernel_scratch, I->priv, &I->scratch);
    struct sched_event ev = event_of(kind, slot, age, now, &I->k, rng);
    if (delivered(I->filtered, I->ops->on_event != NULL, I->ops->events, kind))
        I->ops->on_event(I->priv, &ev);
}

/* Run one seeded sequence, checking every pick; the picks go to out.
 * filtered: the policy sees only the kinds it declares. */
static void sched_sequence(const struct sched_ops *ops, uint64_t seed, uint32_t nslots, int *out,
                           int filtered)
{
    struct rng rng;
    rng_init(&rng, seed);
    struct sched_inst I = {.ops = ops, .priv = sched_new(ops, nslots), .filtered = filtered};
    uint64_t age[SCHED_MAX_WARPS] = {0};
    uint32_t wtag[SCHED_MAX_WARPS];
    int64_t wscore[SCHED_MAX_WARPS];
    uint32_t pc[SCHED_MAX_WARPS] = {0}, active[SCHED_MAX_WARPS] = {0}, cta[SCHED_MAX_WARPS] = {0};
    uint64_t next_age = 0, valid = 0;
    int32_t last = -1;
    uint64_t slots = nslots >= 64 ? ~0ull : (1ull << nslots) - 1;
    sched_emit(&I, SCHED_EV_KERNEL_START, -1, 0, 0, &rng);
    for (uint32_t step = 0; step < SCHED_STEPS; step++) {
        /* launches and exits */
        uint64_t change = rng_next(&rng) % 8 == 0 ? rng_mask(&rng, nslots) & slots : 0;
        for (uint64_t c = change; c; c &= c - 1) {
            int s = __builtin_ctzll(c);
            if (valid >> s & 1) {
                valid &= ~(1ull << s);
                sched_emit(&I, SCHED_EV_WARP_EXIT, s, age[s], step, &rng);
                if (last == s)
                    last = -1;
            } else {
                valid |= 1ull << s;
                age[s] = next_age++;
                pc[s] = 0;
                active[s] = 32;
                cta[s] = (uint32_t)s / 4;
                sched_emit(&I, SCHED_EV_WARP_LAUNCH, s, age[s], step, &rng);
            }
        }
        for (uint32_t s = 0; s < nslots; s++) {
            pc[s] = kpc(&rng);
            active[s] = (uint32_t)(rng_next(&rng) % 33);
            wtag[s] = (uint32_t)(rng_next(&rng) % 4);
            wscore[s] = (int64_t)(rng_next(&rng) % 1000) - 500;
        }
        uint64_t ready = rng_next(&rng) % 10 == 0 ? 0 : rng_mask(&rng, nslots) & valid;
        uint64_t longop = rng_mask(&rng, nslots) & valid & ~ready;
        uint64_t barrier = rng_next(&rng) % 4 == 0 ? rng_mask(&rng, nslots) & valid & ~ready : 0;
        struct sched_view v = {
            .nslots = nslots, .valid = valid, .ready = ready,
            .next_is_load = rng_mask(&rng, nslots) & valid,
            .next_is_mem = rng_mask(&rng, nslots) & valid, .long_op_pending = longop,
            .at_barrier = barrier, .age = age, .pc = pc, .active = active, .cta = cta,
            .pcinfo = K.an->pc, .warp_tag = wtag, .warp_score = wscore, .last_issued = last,
            .now = step};
        int p = ops->pick(I.priv, &v);
        out[step] = p;
        if (!ready)
            assert_int_equal(p, -1);
        if (p != -1) {
            assert_true(p >= 0 && (uint32_t)p < nslots);
            assert_true(ready >> p & 1);
            last = p;
            sched_emit(&I, SCHED_EV_ISSUE, p, age[p], step, &rng);
        }
        /* other events, on random live slots */
        uint32_t k = (uint32_t)(rng_next(&rng) % 10);
        int s = valid ? __builtin_ctzll(valid) : -1;
        if (valid) {
            uint32_t skip = (uint32_t)(rng_next(&rng) % 64);
            uint64_t m = valid;
            while (skip-- && (m & (m - 1)))
                m &= m - 1;
            s = __builtin_ctzll(m);
        }
        switch (k) {
        case 0: sched_emit(&I, SCHED_EV_LOAD_DONE, s, 0, step, &rng); break;
        case 1: sched_emit(&I, SCHED_EV_L1D_ACCESS, s, 0, step, &rng); break;
        case 2: sched_emit(&I, SCHED_EV_L1D_EVICT, s, 0, step, &rng); break;
        case 3: sched_emit(&I, SCHED_EV_BARRIER, s, 0, step, &rng); break;
        case 4: sched_emit(&I, SCHED_EV_BARRIER_RELEASE, -1, 0, step, &rng); break;
        case 5:
            if (rng_next(&rng) % 50 == 0)
                sched_emit(&I, SCHED_EV_KERNEL_START, -1, 0, step, &rng);
            break;
        case 6: sched_emit(&I, SCHED_EV_STORE, s, 0, step, &rng); break;
        case 7: sched_emit(&I, SCHED_EV_MEM_ISSUE, s, 0, step, &rng); break;
        case 8: sched_emit(&I, SCHED_EV_L2_ACCESS, s, age[s < 0 ? 0 : s], step, &rng); break;
        default: break;
        }
    }
    free(I.priv);
    free(I.scratch);
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
        /* an event reader declares what it reads, and only a reader does */
        assert_int_equal(ops->on_event != NULL, ops->events != 0);
        for (unsigned z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            uint64_t seed = 1000 + i * 97 + z;
            sched_sequence(ops, seed, sizes[z], a, 0);
            sched_sequence(ops, seed, sizes[z], b, 0);
            assert_memory_equal(a, b, sizeof a);
            /* the kinds it leaves out change no pick */
            sched_sequence(ops, seed, sizes[z], b, 1);
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
    struct rng rng;
    rng_init(&rng, seed);
    *nvict = 0;
    for (uint32_t step = 0; step < CACHE_STEPS; step++) {
        uint64_t addr = rng_next(&rng) % (CACHE_SETS * ways * 3);
        if (rng_next(&rng) % 3 == 0)
            addr = rng_next(&rng) % (CACHE_SETS * 2); /* a hot subset */
        uint32_t set = (uint32_t)(addr % CACHE_SETS);
        struct cache_access a = {.line_addr = addr, .pc = K.mem_pc[addr % K.nmem], .sm = 0,
                                 .warp = (int32_t)(rng_next(&rng) % 48), .warp_age = step,
                                 .is_write = (uint8_t)(rng_next(&rng) % 5 == 0),
                                 .tag = (uint32_t)(rng_next(&rng) % 4)};
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
        struct rng rng;
        rng_init(&rng, 5 + i);
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

/* ---- request classifiers ---- */

#define CLS_STEPS 4000
#define CLS_UNITS 2

/* One seeded sequence on an SM of nslots slots: launches, exits, issues,
 * memory events and kernel starts; every memory instruction asks for a tag
 * (into tags[0 .. CLS_STEPS-1]), and the published tags and scores at the
 * end follow (CLS_BOARD words).  Nothing may be published for a slot the SM
 * does not have.  filtered: the policy sees only the kinds it declares. */
#define CLS_BOARD (CLS_UNITS * SCHED_MAX_WARPS * 3)
static void classify_sequence(const struct classify_ops *ops, uint64_t seed, uint32_t nslots,
                              uint32_t *tags, int filtered)
{
    struct param_set ps;
    struct err e;
    const struct classify_ops *found = NULL;
    err_clear(&e);
    assert_int_equal(registry_classify(ops->name, &found, &ps, &e), WS_OK);
    assert_ptr_equal(found, ops);
    void *priv = calloc(1, ops->priv_size ? ops->priv_size : 1);
    static uint32_t btag[CLS_UNITS * SCHED_MAX_WARPS];
    static int64_t bscore[CLS_UNITS * SCHED_MAX_WARPS];
    memset(btag, 0, sizeof btag);
    memset(bscore, 0, sizeof bscore);
    struct classify_board board = {CLS_UNITS, btag, bscore};
    if (ops->init) {
        struct classify_init in = {nslots, 0, CLS_UNITS, &board};
        assert_int_equal(ops->init(priv, &ps, &in, &e), WS_OK);
    }
    struct rng rng;
    rng_init(&rng, seed);
    uint64_t age[CLS_UNITS * SCHED_MAX_WARPS] = {0}, next_age = 0, live = 0;
    void *scratch = NULL;
    struct sched_kernel k = kernel_for(ops->kernel_scratch, priv, &scratch);
    struct sched_event ev = event_of(SCHED_EV_KERNEL_START, -1, 0, 0, &k, &rng);
    if (delivered(filtered, ops->on_event != NULL, ops->events, ev.kind))
        ops->on_event(priv, &ev);
    for (uint32_t step = 0; step < CLS_STEPS; step++) {
        uint32_t s = (uint32_t)(rng_next(&rng) % nslots);
        uint32_t kind = SCHED_EV_ISSUE;
        if (!(live >> s & 1)) {
            live |= 1ull << s;
            age[s] = next_age++;
            kind = SCHED_EV_WARP_LAUNCH;
        } else if (rng_next(&rng) % 16 == 0) {
            live &= ~(1ull << s);
            kind = SCHED_EV_WARP_EXIT;
        } else if (rng_next(&rng) % 3 == 0) {
            static const uint32_t mem_kinds[] = {SCHED_EV_MEM_ISSUE, SCHED_EV_L1D_ACCESS,
                                                 SCHED_EV_LOAD_DONE, SCHED_EV_L1D_EVICT,
                                                 SCHED_EV_STORE, SCHED_EV_BARRIER,
                                                 SCHED_EV_L2_ACCESS, SCHED_EV_L2_ACCESS};
            kind = mem_kinds[rng_next(&rng) % 8];
        } else if (rng_next(&rng) % 500 == 0) {
            kind = SCHED_EV_KERNEL_START;
            k = kernel_for(ops->kernel_scratch, priv, &scratch);
        }
        int32_t slot = kind == SCHED_EV_KERNEL_START ? -1 : (int32_t)s;
        ev = event_of(kind, slot, age[s], step, &k, &rng);
        if (kind == SCHED_EV_ISSUE && (rng_next(&rng) & 1)) {
            struct classify_req r = {.slot = s, .pc = K.mem_pc[rng_next(&rng) % K.nmem],
                                     .cta = s / 4, .age = age[s], .space = 1,
                                     .is_store = (uint8_t)(rng_next(&rng) & 1), .lanes = 32,
                                     .now = step};
            tags[step] = ops->tag(priv, &r);
        } else {
            tags[step] = UINT32_MAX;
        }
        if (delivered(filtered, ops->on_event != NULL, ops->events, kind))
            ops->on_event(priv, &ev);
    }
    memcpy(tags + CLS_STEPS, btag, sizeof btag);
    memcpy(tags + CLS_STEPS + CLS_UNITS * SCHED_MAX_WARPS, bscore, sizeof bscore);
    /* nothing published for a slot the SM does not have */
    for (uint32_t u = 0; u < CLS_UNITS; u++)
        for (uint32_t i = 0; i < SCHED_MAX_WARPS; i++)
            if (i * CLS_UNITS + u >= nslots) {
                assert_int_equal(btag[u * SCHED_MAX_WARPS + i], 0);
                assert_int_equal(bscore[u * SCHED_MAX_WARPS + i], 0);
            }
    free(scratch);
    free(priv);
}

static void test_classify_all(void **state)
{
    (void)state;
    assert_true(classify_policy_count >= 1);
    static const uint32_t sizes[] = {1, 7, 48, 64};
    static uint32_t a[CLS_STEPS + CLS_BOARD], b[CLS_STEPS + CLS_BOARD];
    int none = 0;
    for (unsigned i = 0; i < classify_policy_count; i++) {
        const struct classify_ops *ops = classify_policies[i];
        assert_non_null(ops->name);
        assert_non_null(ops->desc);
        assert_non_null(ops->tag);
        none |= strcmp(ops->name, "none") == 0;
        assert_int_equal(ops->on_event != NULL, ops->events != 0);
        for (unsigned z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            classify_sequence(ops, 300 + i * 31 + z, sizes[z], a, 0);
            classify_sequence(ops, 300 + i * 31 + z, sizes[z], b, 0);
            assert_memory_equal(a, b, sizeof a);
            /* the kinds it leaves out change no tag and nothing published */
            classify_sequence(ops, 300 + i * 31 + z, sizes[z], b, 1);
            assert_memory_equal(a, b, sizeof a);
        }
    }
    assert_true(none); /* the default */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sched_all),
        cmocka_unit_test(test_cache_all),
        cmocka_unit_test(test_dram_all),
        cmocka_unit_test(test_classify_all),
    };
    return cmocka_run_group_tests(tests, kfacts_load, kfacts_free);
}
