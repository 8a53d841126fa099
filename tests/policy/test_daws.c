/* test_daws.c: Profiled- and Detected-DAWS driven directly through
 * init/on_event/pick with a hand-built loop analysis (Rogers et al., MICRO
 * 2013; SPEC-policies 4.2-4.5): the paper's Figure 1 and Figure 6 scenarios,
 * the inner-loop, outside-loop, leave-loop and barrier rules, the
 * kAssocFactor cutoff (equal allowed, not floored), the override, RepID
 * grouping, the load profile file (round trip and errors), and Detected-DAWS's
 * sampling, VTA, divergence detector and ILRD on synthetic event streams. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "analysis/analysis.h"
#include "policy/daws_common.h"
#include "policy/registry.h"
#include "profile/profile.h"
#include "ptx/ir.h"

/* ---- a hand-built kernel ---------------------------------------------------
 * PCs 0..39 of one function.  Loop 0 (outer) PCs 10-30, header 10; loop 1
 * (inner, inside loop 0) PCs 15-20, header 15; loop 2 PCs 32-36, header 32.
 * Loads: 12 (loop 0), 17 and 18 (loop 1), 33, 34, 35 (loop 2). */
#define NPCS 40
struct kernel_fixture {
    struct pc_info pc[NPCS];
    struct basic_block bb;
    struct loop_info loops[3];
    struct analysis an;
    struct ptx_module m;
    uint8_t path[NPCS]; /* enum load_path */
    struct sched_kernel k;
};

static void fixture_init(struct kernel_fixture *f, uint32_t l1d_lines)
{
    memset(f, 0, sizeof *f);
    f->loops[0] = (struct loop_info){.header_pc = 10, .first_pc = 10, .last_pc = 30,
                                     .parent = PTX_NO_INDEX, .depth = 1};
    f->loops[1] = (struct loop_info){.header_pc = 15, .first_pc = 15, .last_pc = 20, .parent = 0,
                                     .depth = 2};
    f->loops[2] = (struct loop_info){.header_pc = 32, .first_pc = 32, .last_pc = 36,
                                     .parent = PTX_NO_INDEX, .depth = 1};
    for (uint32_t p = 0; p < NPCS; p++) {
        f->pc[p].loop = PTX_NO_INDEX;
        f->pc[p].iclass = ICLASS_ALU;
        if (p >= 10 && p <= 30)
            f->pc[p].loop = 0;
        if (p >= 15 && p <= 20)
            f->pc[p].loop = 1;
        if (p >= 32 && p <= 36)
            f->pc[p].loop = 2;
    }
    static const uint32_t loads[] = {12, 17, 18, 33, 34, 35, 5};
    for (size_t i = 0; i < sizeof loads / sizeof loads[0]; i++) {
        f->pc[loads[i]].iclass = ICLASS_LOAD_GLOBAL;
        f->path[loads[i]] = LOAD_PATH_L1D;
    }
    f->bb = (struct basic_block){.first_pc = 0, .last_pc = NPCS - 1};
    f->an.pc = f->pc;
    f->an.bbs = &f->bb;
    f->an.nbbs = 1;
    f->an.loops = f->loops;
    f->an.nloops = 3;
    f->m.ninsts = NPCS;
    f->k = (struct sched_kernel){
        .name = "k", .m = &f->m, .an = &f->an, .l1d_lines = l1d_lines, .path = f->path};
}

/* ---- profile files ---------------------------------------------------------- */

struct prof_row {
    uint32_t pc, is_div, repid;
    uint32_t no_locality; /* 1: 3 of 10 executions re-touched a line (no locality) */
};

/* Write a profile for kernel "k" to a fresh temporary file; path gets it. */
static void write_profile(char *path, size_t len, const struct prof_row *rows, size_t n)
{
    snprintf(path, len, "/tmp/daws_tXXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    static struct load_profile p;
    memset(&p, 0, sizeof p);
    p.nkernels = 1;
    snprintf(p.kernels[0], PROFILE_NAME_MAX, "k");
    for (size_t i = 0; i < n; i++) {
        struct profile_load *l = &p.loads[p.nloads++];
        l->pc = rows[i].pc;
        l->is_div = (uint8_t)rows[i].is_div;
        l->repid = rows[i].repid;
        l->samples = 10;
        l->div_samples = rows[i].is_div ? 10 : 0;
        l->execs = 10;
        l->reuse = rows[i].no_locality ? 3 : 6;
    }
    struct err e;
    err_clear(&e);
    assert_int_equal(profile_write_file(path, &p, "test", &e), WS_OK);
}

/* ---- harness ------------------------------------------------------------------ */

struct harness {
    const struct sched_ops *ops;
    void *priv;
    struct sched_view v;
    uint64_t age[SCHED_MAX_WARPS];
    uint32_t pc[SCHED_MAX_WARPS], active[SCHED_MAX_WARPS], cta[SCHED_MAX_WARPS];
    struct kernel_fixture f;
};

static void h_open(struct harness *h, const char *spec, uint32_t nslots, uint32_t l1d_lines)
{
    struct param_set ps;
    struct err e;
    err_clear(&e);
    memset(h, 0, sizeof *h);
    assert_int_equal(registry_sched(spec, &h->ops, &ps, &e), WS_OK);
    h->priv = calloc(1, h->ops->priv_size);
    struct sched_init in = {.nslots = nslots, .n_units = 1};
    assert_int_equal(h->ops->init(h->priv, &ps, &in, &e), WS_OK);
    fixture_init(&h->f, l1d_lines);
    h->v.nslots = nslots;
    h->v.age = h->age;
    h->v.pc = h->pc;
    h->v.active = h->active;
    h->v.cta = h->cta;
    h->v.pcinfo = h->f.pc;
    h->v.last_issued = -1;
    struct sched_event ks = {.kind = SCHED_EV_KERNEL_START, .slot = -1, .kernel = &h->f.k};
    h->ops->on_event(h->priv, &ks);
    for (uint32_t s = 0; s < nslots; s++) {
        h->age[s] = s;
        h->active[s] = 32;
        h->v.valid |= 1ull << s;
        struct sched_event ev = {.kind = SCHED_EV_WARP_LAUNCH, .slot = (int32_t)s, .age = s};
        h->ops->on_event(h->priv, &ev);
    }
}

static void h_close(struct harness *h)
{
    free(h->priv);
}

static struct daws_core *h_core(struct harness *h)
{
    return (struct daws_core *)h->priv; /* both policies keep the core first */
}

static void h_event(struct harness *h, struct sched_event ev)
{
    h->ops->on_event(h->priv, &ev);
}

/* Warp `slot` issues the instruction at pc with `lanes` active lanes (the
 * SM calls pick first, then reports the issue), then moves to next_pc. */
static void h_issue(struct harness *h, int32_t slot, uint32_t pc, uint32_t lanes,
                    uint32_t next_pc)
{
    h->pc[slot] = pc;
    h->active[slot] = lanes;
    h->v.ready = 1ull << slot;
    h->v.next_is_load = 0;
    assert_int_equal(h->ops->pick(h->priv, &h->v), slot);
    h_event(h, (struct sched_event){.kind = SCHED_EV_ISSUE, .slot = slot, .pc = pc,
                                    .age = h->age[slot]});
    h->v.last_issued = slot;
    h->pc[slot] = next_pc;
}

/* Is `slot`, ready with a load next, allowed to issue it now? */
static int h_load_allowed(struct harness *h, int32_t slot)
{
    h->v.ready = 1ull << slot;
    h->v.next_is_load = 1ull << slot;
    int p = h->ops->pick(h->priv, &h->v);
    assert_true(p == -1 || p == slot);
    return p == slot;
}

/* ---- Profiled-DAWS ------------------------------------------------------------ */

static void test_fig6_timeline(void **state)
{
    (void)state;
    /* Figure 6: a loop with intra-warp locality and one divergent load.
     * 100 lines x 0.6 = EffCacheSize 60.  T1: warp 0 enters with 32 lanes
     * (32 lines); T2: warp 1 with 16 (16); T3: warp 2 with 24 would make 72
     * > 60: held back; T4: 16 of warp 0's lanes leave the loop, warp 0 now
     * predicts 16 and warp 2 may issue loads again (56 <= 60). */
    char path[64];
    struct prof_row rows[] = {{33, 1, 0, 0}};
    write_profile(path, sizeof path, rows, 1);
    char spec[128];
    snprintf(spec, sizeof spec, "daws_profiled:profile=%s", path);
    struct harness h;
    h_open(&h, spec, 4, 100);
    struct daws_core *c = h_core(&h);
    for (int w = 0; w < 3; w++)
        assert_true(h_load_allowed(&h, w)); /* T0: no predictions */
    h_issue(&h, 0, 32, 32, 33);
    assert_int_equal(c->pred[0], 32);
    h_issue(&h, 1, 32, 16, 33);
    assert_int_equal(c->pred[1], 16);
    h_issue(&h, 2, 32, 24, 33);
    assert_int_equal(c->pred[2], 24);
    assert_true(h_load_allowed(&h, 0));
    assert_true(h_load_allowed(&h, 1));
    assert_false(h_load_allowed(&h, 2)); /* T3: de-scheduled */
    assert_int_equal(c->gauge_footprint, 72);
    /* warp 3 predicts 0 but comes after a prefix of 72 > 60 */
    assert_int_equal(c->gauge_allowed, 2);
    /* a non-load instruction of warp 2 is never gated */
    h.v.ready = 1ull << 2;
    h.v.next_is_load = 0;
    assert_int_equal(h.ops->pick(h.priv, &h.v), 2);
    /* T4: warp 0 starts its next trip with 16 lanes */
    h_issue(&h, 0, 32, 16, 33);
    assert_int_equal(c->pred[0], 16);
    assert_true(h_load_allowed(&h, 2));
    assert_int_equal(c->gauge_footprint, 56);
    assert_true(c->st_gated_cycles >= 1);
    h_close(&h);
    unlink(path);
}

static void test_fig1_outside_loop_and_equal(void **state)
{
    (void)state;
    /* Figure 1: 4-entry cache, 4-lane warps, one divergent load A[i].  Warp 0
     * in the loop with 4 lanes predicts 4 lines.  Warp 1 (3 lanes; about to
     * enter: its next load is outside any loop) is predicted from the next
     * loop in program order: 3 lines, 7 > 4: held back.  When warp 0 is down
     * to one lane, 1 + 3 = 4 lines fit exactly (equal is allowed). */
    char path[64];
    struct prof_row rows[] = {{33, 1, 0, 0}};
    write_profile(path, sizeof path, rows, 1);
    char spec[128];
    snprintf(spec, sizeof spec, "daws_profiled:profile=%s,assoc_factor=1.0", path);
    struct harness h;
    h_open(&h, spec, 2, 4);
    struct daws_core *c = h_core(&h);
    h_issue(&h, 0, 32, 4, 33);
    assert_int_equal(c->pred[0], 4);
    h.pc[1] = 31; /* a load at PC 31, outside any loop, just before loop 2 */
    h.active[1] = 3;
    assert_false(h_load_allowed(&h, 1));
    assert_int_equal(c->gauge_footprint, 7);
    h_issue(&h, 0, 32, 1, 33);
    assert_int_equal(c->pred[0], 1);
    assert_true(h_load_allowed(&h, 1));
    assert_int_equal(c->gauge_footprint, 4);
    /* with no prediction anywhere the outside-loop rule does not apply */
    h.pc[0] = 38; /* warp 0 left loop 2: cleared */
    assert_true(h_load_allowed(&h, 1));
    assert_int_equal(c->pred[0], 0);
    assert_int_equal(c->gauge_footprint, 0);
    h_close(&h);
    unlink(path);
}

/* The outside-loop rule tests the validity of the slot it predicts for, not
 * slot 0's: with slot 0 empty, warp 2's load outside any loop is still
 * predicted from the next loop (3 lines) and held back behind warp 1's 4. */
static void test_outside_loop_slot0_empty(void **state)
{
    (void)state;
    char path[64];
    struct prof_row rows[] = {{33, 1, 0, 0}};
    write_profile(path, sizeof path, rows, 1);
    char spec[128];
    snprintf(spec, sizeof spec, "daws_profiled:profile=%s,assoc_factor=1.0", path);
    struct harness h;
    h_open(&h, spec, 3, 4);
    struct daws_core *c = h_core(&h);
    h_event(&h, (struct sched_event){.kind = SCHED_EV_WARP_EXIT, .slot = 0});
    h.v.valid &= ~1ull;
    h_issue(&h, 1, 32, 4, 33);
    assert_int_equal(c->pred[1], 4);
    h.pc[2] = 31;
    h.active[2] = 3;
    assert_false(h_load_allowed(&h, 2));
    assert_int_equal(c->gauge_footprint, 7);
    h_close(&h);
    unlink(path);
}

/* Sec. 5.1: only loops with locality are predicted for.  Loop 2's two
 * profiled loads re-touched a line in 6 + 3 of 20 executions: no locality,
 * no prediction (locality=all: 32 + 2 lines); loop 0's load in 6 of 10:
 * predicted. */
static void test_profiled_locality(void **state)
{
    (void)state;
    char path[64];
    struct prof_row rows[] = {{33, 1, 0, 0}, {34, 0, 1, 1}, {35, 0, 2, 1}, {12, 1, 3, 0}};
    write_profile(path, sizeof path, rows, 4);
    char spec[160];
    snprintf(spec, sizeof spec, "daws_profiled:profile=%s", path);
    struct harness h;
    h_open(&h, spec, 2, 256);
    struct daws_core *c = h_core(&h);
    assert_int_equal(c->nloads, 1); /* only loop 0's load joined the table */
    h_issue(&h, 0, 32, 32, 33);
    assert_int_equal(c->pred[0], 0);
    h_issue(&h, 1, 10, 32, 11);
    assert_int_equal(c->pred[1], 32);
    h_close(&h);
    snprintf(spec, sizeof spec, "daws_profiled:profile=%s,locality=all", path);
    h_open(&h, spec, 2, 256);
    c = h_core(&h);
    assert_int_equal(c->nloads, 4);
    h_issue(&h, 0, 32, 32, 33);
    assert_int_equal(c->pred[0], 32 + 2 + 2);
    h_close(&h);
    /* the decision: more executions with reuse than without */
    assert_true(profile_loop_has_locality(10, 6));
    assert_false(profile_loop_has_locality(10, 5));
    assert_false(profile_loop_has_locality(0, 0));
    unlink(path);
}

static void test_inner_loop_rule(void **state)
{
    (void)state;
    /* loop 0 holds a converged load (2 lines at > 1 lane); inner loop 1 a
     * diverged one (one line per lane). */
    char path[64];
    struct prof_row rows[] = {{12, 0, 0, 0}, {17, 1, 1, 0}};
    write_profile(path, sizeof path, rows, 2);
    char spec[128];
    snprintf(spec, sizeof spec, "daws_profiled:profile=%s", path);
    struct harness h;
    h_open(&h, spec, 2, 256);
    struct daws_core *c = h_core(&h);
    h_issue(&h, 0, 10, 32, 11); /* outer loop entry */
    assert_int_equal(c->pred[0], 2);
    assert_int_equal(c->pred_loop[0], 0);
    h_issue(&h, 0, 15, 32, 16); /* inner loop: overwrite with its prediction */
    assert_int_equal(c->pred[0], 32);
    assert_int_equal(c->pred_loop[0], 1);
    h.pc[0] = 22; /* left the inner loop, still in the outer: kept */
    assert_true(h_load_allowed(&h, 0));
    assert_int_equal(c->pred[0], 32);
    h_issue(&h, 0, 10, 8, 11); /* outer's next trip: from the inner loop's loads */
    assert_int_equal(c->pred[0], 8);
    assert_int_equal(c->pred_loop[0], 1);
    h.pc[0] = 31; /* left the outer loop: cleared */
    assert_true(h_load_allowed(&h, 0));
    assert_int_equal(c->pred[0], 0);
    assert_int_equal(c->pred_loop[0], DAWS_NONE);
    /* issuing an instruction outside the loop clears as well */
    h_issue(&h, 0, 15, 32, 16);
    assert_int_equal(c->pred[0], 32);
    h_issue(&h, 0, 37, 32, 38);
    assert_int_equal(c->pred[0], 0);
    h_close(&h);
    unlink(path);
}

static void test_barrier_clears(void **state)
{
    (void)state;
    char path[64];
    struct prof_row rows[] = {{33, 1, 0, 0}};
    write_profile(path, sizeof path, rows, 1);
    char spec[128];
    snprintf(spec, sizeof spec, "daws_profiled:profile=%s", path);
    struct harness h;
    h_open(&h, spec, 2, 50); /* EffCacheSize 30 */
    struct daws_core *c = h_core(&h);
    h_issue(&h, 0, 32, 24, 33);
    h_issue(&h, 1, 32, 24, 33);
    assert_false(h_load_allowed(&h, 1)); /* 48 > 30 */
    h_event(&h, (struct sched_event){.kind = SCHED_EV_BARRIER, .slot = 0, .pc = 34});
    assert_int_equal(c->pred[0], 0);
    assert_true(h_load_allowed(&h, 1));
    /* warp exit clears too */
    h_issue(&h, 0, 32, 24, 33);
    assert_false(h_load_allowed(&h, 1));
    h_event(&h, (struct sched_event){.kind = SCHED_EV_WARP_EXIT, .slot = 0});
    h.v.valid &= ~1ull;
    assert_true(h_load_allowed(&h, 1));
    h_close(&h);
    unlink(path);
}

static void test_assoc_cutoff(void **state)
{
    (void)state;
    /* 256 lines x 0.6 = 153.6, not floored: 4 x 32 + 25 = 153 fits, + 26 =
     * 154 does not.  Equal case: 100 lines x 0.6 = 60: 30 + 30 allowed. */
    char path[64];
    struct prof_row rows[] = {{33, 1, 0, 0}};
    write_profile(path, sizeof path, rows, 1);
    char spec[128];
    snprintf(spec, sizeof spec, "daws_profiled:profile=%s", path);
    struct harness h;
    h_open(&h, spec, 5, 256);
    for (int w = 0; w < 4; w++)
        h_issue(&h, w, 32, 32, 33);
    h_issue(&h, 4, 32, 25, 33);
    assert_true(h_load_allowed(&h, 4));
    h_issue(&h, 4, 32, 26, 33);
    assert_false(h_load_allowed(&h, 4));
    assert_true(h_load_allowed(&h, 3)); /* older warps are unaffected */
    h_close(&h);

    h_open(&h, spec, 2, 100);
    h_issue(&h, 0, 32, 30, 33);
    h_issue(&h, 1, 32, 30, 33);
    assert_true(h_load_allowed(&h, 1)); /* 60 == 60: allowed */
    h_issue(&h, 1, 32, 31, 33);
    assert_false(h_load_allowed(&h, 1));
    h_close(&h);

    /* assoc_factor=0.5: 50 lines; 30 + 30 no longer fits */
    snprintf(spec, sizeof spec, "daws_profiled:profile=%s,assoc_factor=0.5", path);
    h_open(&h, spec, 2, 100);
    h_issue(&h, 0, 32, 30, 33);
    h_issue(&h, 1, 32, 20, 33);
    assert_true(h_load_allowed(&h, 1));
    h_issue(&h, 1, 32, 21, 33);
    assert_false(h_load_allowed(&h, 1));
    h_close(&h);
    unlink(path);
}

/* A load the configuration reads through the texture cache (the paper's
 * SPMV reads x with tex fetches; ours with ld.global.nc under tex.nc) has no
 * L1D footprint: Profiled-DAWS predicts nothing for it. */
static void test_texture_path_not_predicted(void **state)
{
    (void)state;
    char path[64];
    struct prof_row rows[] = {{33, 1, 0, 0}, {34, 1, 1, 0}};
    write_profile(path, sizeof path, rows, 2);
    char spec[128];
    snprintf(spec, sizeof spec, "daws_profiled:profile=%s", path);
    struct harness h;
    h_open(&h, spec, 1, 256);
    h_issue(&h, 0, 32, 32, 33);
    assert_int_equal(h_core(&h)->pred[0], 64); /* two divergent loads x 32 lanes */
    h_close(&h);

    h_open(&h, spec, 1, 256);
    h.f.path[34] = LOAD_PATH_TEX;
    struct sched_event ks = {.kind = SCHED_EV_KERNEL_START, .slot = -1, .kernel = &h.f.k};
    h_event(&h, ks); /* the table is built at launch from the loads it may use */
    h_issue(&h, 0, 32, 32, 33);
    assert_int_equal(h_core(&h)->pred[0], 32);
    h_close(&h);
    unlink(path);
}

static void test_override_and_guard(void **state)
{
    (void)state;
    char path[64];
    struct prof_row rows[] = {{33, 1, 0, 0}};
    write_profile(path, sizeof path, rows, 1);
    char spec[128];
    snprintf(spec, sizeof spec, "daws_profiled:profile=%s", path);
    struct harness h;
    /* 40 lines: EffCacheSize 24.  Warp 0 alone predicts 30 (> 24, <= 40):
     * never held back by its own prediction; warp 1 is. */
    h_open(&h, spec, 2, 40);
    h_issue(&h, 0, 32, 30, 33);
    h_issue(&h, 1, 32, 4, 33);
    assert_true(h_load_allowed(&h, 0));
    assert_false(h_load_allowed(&h, 1));
    /* a single prediction above the whole L1D (41 > 40): nobody is held back */
    h_issue(&h, 0, 32, 41, 33);
    assert_true(h_load_allowed(&h, 1));
    h_close(&h);
    unlink(path);
}

static void test_repid_groups(void **state)
{
    (void)state;
    struct kernel_fixture f;
    fixture_init(&f, 256);
    struct daws_core c;
    daws_core_init(&c, 0.6);
    daws_core_kernel(&c, &f.an, NPCS, 256);
    c.loads[c.nloads++] = (struct daws_load){.pc = 33, .loop = 2, .repid = 0, .is_div = 1};
    c.loads[c.nloads++] = (struct daws_load){.pc = 34, .loop = 2, .repid = 0, .is_div = 1};
    assert_int_equal(daws_footprint(&c, 2, 32), 32); /* one RepID: counted once */
    c.loads[c.nloads++] = (struct daws_load){.pc = 35, .loop = 2, .repid = 1, .is_div = 0};
    assert_int_equal(daws_footprint(&c, 2, 32), 34); /* + converged: 2 */
    assert_int_equal(daws_footprint(&c, 2, 1), 2);   /* 1 lane: 1 line each */
    assert_int_equal(daws_footprint(&c, 2, 0), 0);
    c.loads[1].repid = 1; /* group 1 now mixed: diverged */
    c.loads[0].repid = 2;
    assert_int_equal(daws_footprint(&c, 2, 16), 32);
    assert_int_equal(daws_footprint(&c, 0, 16), 0); /* no loads in loop 0 */
}

static void test_kernel_without_profile_entry(void **state)
{
    (void)state;
    char path[64];
    struct prof_row rows[] = {{33, 1, 0, 0}};
    write_profile(path, sizeof path, rows, 1);
    char spec[128];
    snprintf(spec, sizeof spec, "daws_profiled:profile=%s", path);
    struct harness h;
    h_open(&h, spec, 2, 10);
    h.f.k.name = "other"; /* a kernel the profile does not know */
    h_event(&h, (struct sched_event){.kind = SCHED_EV_KERNEL_START, .slot = -1,
                                     .kernel = &h.f.k});
    h_issue(&h, 0, 32, 32, 33);
    h_issue(&h, 1, 32, 32, 33);
    assert_int_equal(h_core(&h)->pred[0], 0);
    assert_true(h_load_allowed(&h, 1));
    h_close(&h);
    /* entries whose PC is not a load in a loop are ignored */
    struct prof_row bad[] = {{3, 1, 0, 0}, {300, 1, 1, 0}, {33, 0, 2, 0}};
    write_profile(path, sizeof path, bad, 3);
    snprintf(spec, sizeof spec, "daws_profiled:profile=%s", path);
    h_open(&h, spec, 2, 10);
    assert_int_equal(h_core(&h)->nloads, 1);
    h_close(&h);
    unlink(path);
}

/* ---- the profile file ------------------------------------------------------ */

static void test_profile_round_trip(void **state)
{
    (void)state;
    static struct load_profile p, q;
    memset(&p, 0, sizeof p);
    p.nkernels = 2;
    snprintf(p.kernels[0], PROFILE_NAME_MAX, "spmv_scalar");
    snprintf(p.kernels[1], PROFILE_NAME_MAX, "bfs_expand");
    for (uint32_t i = 0; i < 7; i++)
        p.loads[p.nloads++] = (struct profile_load){
            .kernel = i % 2, .pc = 10 + i, .src_line = 50 + i, .loop_begin = 9,
            .loop_end = 40, .samples = 100 + i, .div_samples = 7 * i, .repid = i / 2,
            .is_div = (uint8_t)profile_is_div(100 + i, 7 * i), .execs = 200 + i,
            .reuse = 3 * i};
    char path[64];
    snprintf(path, sizeof path, "/tmp/daws_rtXXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    struct err e;
    err_clear(&e);
    assert_int_equal(profile_write_file(path, &p, "round trip", &e), WS_OK);
    assert_int_equal(profile_read(path, &q, &e), WS_OK);
    assert_int_equal(q.nkernels, 2);
    assert_string_equal(q.kernels[0], "spmv_scalar");
    assert_string_equal(q.kernels[1], "bfs_expand");
    assert_int_equal(q.nloads, p.nloads);
    assert_memory_equal(q.loads, p.loads, sizeof p.loads[0] * p.nloads);
    assert_int_equal(profile_find_kernel(&q, "bfs_expand"), 1);
    assert_int_equal(profile_find_kernel(&q, "nope"), -1);
    unlink(path);
    /* IsDiv: converged only when consistently converged */
    assert_true(profile_is_div(0, 0));
    assert_false(profile_is_div(100, 5));
    assert_true(profile_is_div(100, 6));
    assert_false(profile_is_div(1, 0));
}

static void expect_read_error(const char *text, const char *want)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/daws_erXXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    static struct load_profile q;
    struct err e;
    err_clear(&e);
    assert_int_equal(profile_read(path, &q, &e), WS_ERR_PARSE);
    char full[128];
    snprintf(full, sizeof full, "%s%s", path, want);
    if (!strstr(e.msg, full))
        fail_msg("message '%s' lacks '%s'", e.msg, full);
    unlink(path);
}

static void test_profile_errors(void **state)
{
    (void)state;
    static struct load_profile q;
    struct err e;
    err_clear(&e);
    assert_int_equal(profile_read("/tmp/daws_no_such_profile", &q, &e), WS_ERR_IO);
    assert_non_null(strstr(e.msg, "/tmp/daws_no_such_profile"));
    expect_read_error("hello\n", ":1: not a warpsim load profile");
    expect_read_error("", ":1: empty file");
    expect_read_error("warpsim-load-profile 1\nk 1 2 3 4 5 6 1 0\n", ":1: load profile format 1");
    expect_read_error("warpsim-load-profile 2\n# c\nk 1 2 3 4 5 6 1\n", ":3: expected 11 fields");
    expect_read_error("warpsim-load-profile 2\nk 1 2 3 4 5 x 1 0 1 1\n", ":2: field 'div'");
    expect_read_error("warpsim-load-profile 2\nk 1 2 3 4 5 4 1 0 1 y\n", ":2: field 'reuse'");
    expect_read_error("warpsim-load-profile 2\n\nk 1 2 3 4 5 6 2 0 1 1\n", ":3: is_div must be");
    expect_read_error("warpsim-load-profile 2\nk 1 2 3 4 5 9 1 0 1 1\n", ":2: is_div must be 0 or 1, "
                                                                    "div must not exceed");
    expect_read_error("warpsim-load-profile 2\nk 1 2 3 4 5 4 1 0 1 2\n", ":2: is_div must be");
    /* the policy passes the error on at init */
    const struct sched_ops *ops;
    struct param_set ps;
    assert_int_equal(registry_sched("daws_profiled:profile=/tmp/daws_no_such", &ops, &ps, &e),
                     WS_OK);
    void *priv = calloc(1, ops->priv_size);
    struct sched_init in = {.nslots = 4, .n_units = 1};
    assert_int_equal(ops->init(priv, &ps, &in, &e), WS_ERR_IO);
    assert_non_null(strstr(e.msg, "/tmp/daws_no_such"));
    free(priv);
}

/* ---- Detected-DAWS ------------------------------------------------------------ */

static void l1d(struct harness *h, int32_t slot, uint32_t pc, uint64_t line, int hit, int own)
{
    h_event(h, (struct sched_event){.kind = SCHED_EV_L1D_ACCESS, .slot = slot, .pc = pc,
                                    .addr = line, .hit = (uint8_t)hit, .own_line = (uint8_t)own});
}

static void mem_issue(struct harness *h, int32_t slot, uint32_t pc, uint32_t lanes,
                      uint32_t accesses)
{
    h_event(h, (struct sched_event){.kind = SCHED_EV_MEM_ISSUE, .slot = slot, .pc = pc,
                                    .lanes = lanes, .accesses = accesses,
                                    .space = PTX_SPACE_GLOBAL});
}

static void test_detected_needs_locality(void **state)
{
    (void)state;
    struct harness h;
    h_open(&h, "daws_detected", 4, 256);
    struct daws_core *c = h_core(&h);
    /* warp 0 enters loop 2 with 2 lanes: not a sampler; warp 1 with 32 is */
    h_issue(&h, 0, 32, 2, 33);
    h_issue(&h, 1, 32, 32, 33);
    /* only misses: no locality, so no classification and no prediction */
    for (int i = 0; i < 4; i++) {
        mem_issue(&h, 1, 33, 32, 1); /* coalesced: detector stays at 0 */
        l1d(&h, 1, 33, 100 + (uint64_t)i, 0, 0);
    }
    h_issue(&h, 1, 32, 32, 33);
    assert_int_equal(c->pred[1], 0);
    assert_int_equal(c->nloads, 0);
    /* a non-sampler's accesses do not count: warp 0 hits its own lines */
    for (int i = 0; i < 20; i++)
        l1d(&h, 0, 33, 5, 1, 1);
    h_issue(&h, 1, 32, 32, 33);
    assert_int_equal(c->nloads, 0);
    /* lost locality: line 7 evicted from warp 1's lines, then missed by it:
     * HasLocality -4 + 5 = 1 > 0, and the load joins the table */
    for (int i = 0; i < 5; i++) {
        h_event(&h, (struct sched_event){.kind = SCHED_EV_L1D_EVICT, .slot = 1, .addr = 7});
        mem_issue(&h, 1, 33, 32, 1);
        l1d(&h, 1, 33, 7, 0, 0);
    }
    assert_int_equal(c->nloads, 1);
    h_issue(&h, 1, 32, 32, 33);
    assert_int_equal(c->pred[1], 2); /* converged so far */
    mem_issue(&h, 2, 33, 32, 32);    /* detector 1 (any warp's loads train it) */
    h_issue(&h, 1, 32, 32, 33);
    assert_int_equal(c->pred[1], 2);
    mem_issue(&h, 2, 33, 32, 32); /* 2: diverged */
    h_issue(&h, 1, 32, 32, 33);
    assert_int_equal(c->pred[1], 32);
    /* a store invalidates the victim tag: the next miss is no lost locality */
    h_event(&h, (struct sched_event){.kind = SCHED_EV_STORE, .slot = 2, .addr = 7});
    for (int i = 0; i < 3; i++) {
        mem_issue(&h, 1, 33, 32, 1);
        l1d(&h, 1, 33, 7, 0, 0); /* counter 1 -> -2 */
    }
    h_issue(&h, 1, 32, 32, 33);
    assert_int_equal(c->pred[1], 0); /* HasLocality no longer positive */
    h_close(&h);
}

/* Learn locality for loop 2's load 33 (sampler warp 1, lost locality 5
 * times), then launch the kernel again: keep=module (default) predicts at
 * once from the kept classification; keep=none starts afresh; a kernel of
 * another module starts afresh under keep=module too. */
static void learn_and_relaunch(struct harness *h, const struct ptx_module *m2)
{
    h_issue(h, 1, 32, 32, 33);
    for (int i = 0; i < 5; i++) {
        h_event(h, (struct sched_event){.kind = SCHED_EV_L1D_EVICT, .slot = 1, .addr = 7});
        mem_issue(h, 1, 33, 32, 32);
        l1d(h, 1, 33, 7, 0, 0);
    }
    assert_int_equal(h_core(h)->nloads, 1);
    struct sched_kernel k2 = h->f.k;
    if (m2)
        k2.m = m2;
    h_event(h, (struct sched_event){.kind = SCHED_EV_KERNEL_START, .slot = -1, .kernel = &k2});
    h_event(h, (struct sched_event){.kind = SCHED_EV_WARP_LAUNCH, .slot = 0, .age = 10});
    h->age[0] = 10;
    h_issue(h, 0, 32, 32, 33);
}

static void test_detected_keep_across_launches(void **state)
{
    (void)state;
    struct harness h;
    h_open(&h, "daws_detected", 4, 256);
    learn_and_relaunch(&h, NULL);
    assert_int_equal(h_core(&h)->nloads, 1);
    assert_int_equal(h_core(&h)->pred[0], 32); /* diverged, 32 lanes */
    h_close(&h);
    h_open(&h, "daws_detected:keep=none", 4, 256);
    learn_and_relaunch(&h, NULL);
    assert_int_equal(h_core(&h)->nloads, 0);
    assert_int_equal(h_core(&h)->pred[0], 0);
    h_close(&h);
    h_open(&h, "daws_detected", 4, 256);
    struct ptx_module other = h.f.m;
    learn_and_relaunch(&h, &other);
    assert_int_equal(h_core(&h)->nloads, 0);
    assert_int_equal(h_core(&h)->pred[0], 0);
    h_close(&h);
}

/* HasLocality moves once per load instruction of the sampler (Sec. 5.2.1:
 * "on each load issued"): a 32-access load with one captured hit counts +1
 * once its 32 accesses have reached the L1D, however many others missed. */
static void test_locality_per_load(void **state)
{
    (void)state;
    struct harness h;
    h_open(&h, "daws_detected", 2, 256);
    struct daws_core *c = h_core(&h);
    h_issue(&h, 0, 32, 32, 33); /* warp 0 samples loop 2 */
    mem_issue(&h, 0, 33, 32, 32);
    mem_issue(&h, 0, 33, 32, 32); /* detector 2: diverged; the first load closes: -1 */
    l1d(&h, 0, 33, 500, 1, 1);    /* one captured hit ... */
    for (uint64_t k = 1; k < 32; k++)
        l1d(&h, 0, 33, 500 + k, 0, 0); /* ... 31 plain misses, then the load closes: +1 */
    h_issue(&h, 0, 32, 32, 33);
    assert_int_equal(c->pred[0], 0); /* HasLocality -1 + 1 = 0: no prediction */
    for (int i = 0; i < 2; i++) {
        mem_issue(&h, 0, 33, 32, 32);
        l1d(&h, 0, 33, 600, 1, 1);
        for (uint64_t k = 1; k < 32; k++)
            l1d(&h, 0, 33, 600 + k, 0, 0);
    }
    h_issue(&h, 0, 32, 32, 33);
    assert_int_equal(c->pred[0], 32); /* 0 + 2 = 2 > 0: one diverged load */
    /* loads whose accesses all miss: -1 at each one's 32nd access */
    for (int i = 0; i < 2; i++) {
        mem_issue(&h, 0, 33, 32, 32);
        for (uint64_t k = 0; k < 32; k++)
            l1d(&h, 0, 33, 700 + k, 0, 0);
    }
    h_issue(&h, 0, 32, 32, 33);
    assert_int_equal(c->pred[0], 0); /* 2 - 2 = 0 */
    h_close(&h);
}

static void test_divergence_detector(void **state)
{
    (void)state;
    struct harness h;
    h_open(&h, "daws_detected", 2, 256);
    struct daws_core *c = h_core(&h);
    h_issue(&h, 0, 32, 32, 33);
    mem_issue(&h, 0, 33, 2, 1); /* 2 lanes: no divergence sample */
    l1d(&h, 0, 33, 9, 1, 1);    /* captured locality: HasLocality 1 */
    /* accesses: >2 +1, <=2 -1 (2-bit saturating): 1,2,3,3(sat) then 2,1 */
    uint32_t acc[] = {5, 5, 5, 5, 2, 2};
    uint32_t got[6];
    for (int i = 0; i < 6; i++) {
        mem_issue(&h, 0, 33, 32, acc[i]);
        h_issue(&h, 0, 32, 32, 33);
        got[i] = c->pred[0];
        l1d(&h, 0, 33, 9, 1, 1);
    }
    assert_int_equal(got[0], 2);  /* 1: converged */
    assert_int_equal(got[1], 32); /* 2: diverged */
    assert_int_equal(got[2], 32); /* 3 */
    assert_int_equal(got[3], 32); /* 3 (saturated) */
    assert_int_equal(got[4], 32); /* 2 */
    assert_int_equal(got[5], 2);  /* 1: converged again */
    /* samples with <= 2 lanes are ignored */
    mem_issue(&h, 0, 33, 2, 32);
    mem_issue(&h, 0, 33, 2, 32);
    h_issue(&h, 0, 32, 32, 33);
    assert_int_equal(c->pred[0], 2);
    h_close(&h);
}

static void test_ilrd(void **state)
{
    (void)state;
    struct harness h;
    h_open(&h, "daws_detected", 2, 256);
    struct daws_core *c = h_core(&h);
    h_issue(&h, 0, 32, 32, 33); /* warp 0 samples loop 2 */
    /* three diverged loads; locality captured */
    for (int k = 0; k < 2; k++)
        for (uint32_t pc = 33; pc <= 35; pc++) {
            mem_issue(&h, 0, pc, 32, 32);
            l1d(&h, 0, pc, 1000 + pc * 10 + (uint64_t)k, 1, 1);
        }
    h_issue(&h, 0, 32, 32, 33);
    assert_int_equal(c->nloads, 3);
    assert_int_equal(c->pred[0], 96); /* three RepIDs x 32 lanes */
    /* in one iteration, loads 33 and 34 touch the same line: one RepID */
    l1d(&h, 0, 33, 555, 1, 1);
    l1d(&h, 0, 34, 555, 1, 1);
    h_issue(&h, 0, 32, 32, 33);
    assert_int_equal(c->pred[0], 64);
    /* the sampler's ILRD entries are cleared at its loop start: 35 touching
     * line 555 in the next iteration is no repetition */
    l1d(&h, 0, 35, 555, 1, 1);
    h_issue(&h, 0, 32, 32, 33);
    assert_int_equal(c->pred[0], 64);
    /* same-iteration repetition by a non-sampler is not observed */
    l1d(&h, 1, 33, 777, 1, 1);
    l1d(&h, 1, 35, 777, 1, 1);
    h_issue(&h, 0, 32, 32, 33);
    assert_int_equal(c->pred[0], 64);
    /* the sampler leaves; warp 1 takes over when it enters with > 2 lanes */
    h.pc[0] = 38;
    assert_true(h_load_allowed(&h, 0));
    h_issue(&h, 1, 32, 32, 33);
    l1d(&h, 1, 33, 888, 1, 1);
    l1d(&h, 1, 35, 888, 1, 1);
    h_issue(&h, 1, 32, 32, 33);
    assert_int_equal(c->pred[1], 32); /* all three loads now one RepID */
    h_close(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fig6_timeline),
        cmocka_unit_test(test_texture_path_not_predicted),
        cmocka_unit_test(test_fig1_outside_loop_and_equal),
        cmocka_unit_test(test_outside_loop_slot0_empty),
        cmocka_unit_test(test_profiled_locality),
        cmocka_unit_test(test_inner_loop_rule),
        cmocka_unit_test(test_barrier_clears),
        cmocka_unit_test(test_assoc_cutoff),
        cmocka_unit_test(test_override_and_guard),
        cmocka_unit_test(test_repid_groups),
        cmocka_unit_test(test_kernel_without_profile_entry),
        cmocka_unit_test(test_profile_round_trip),
        cmocka_unit_test(test_profile_errors),
        cmocka_unit_test(test_detected_needs_locality),
        cmocka_unit_test(test_locality_per_load),
        cmocka_unit_test(test_detected_keep_across_launches),
        cmocka_unit_test(test_divergence_detector),
        cmocka_unit_test(test_ilrd),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
