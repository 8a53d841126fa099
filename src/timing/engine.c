/* engine.c: the timing model's top level: builds the SMs and the memory
 * system, dispatches CTAs under the occupancy limits, runs the cycle loop
 * (skipping idle cycles), registers the core statistics and produces the
 * deadlock report.
 *
 * The parallel engine (docs/parallel.md; option threads): a cycle is
 *   dispatch and memsys_cycle_begin() (serial) -> every SM's sm_cycle() and
 *   then its LD/ST unit's memsys_ldst_cycle() on the worker pool
 *   (engine_par.h), each CTA deferring its device-memory transfers and step
 *   counters to its SM's sink (func/sink.h) -> merge in SM order: the
 *   max_warp_insn limit, the first SM's error, then each SM's deferred
 *   transfers and counters -> memsys_cycle_end() (serial: interconnect, L2,
 *   DRAM) -> bookkeeping (serial).
 * Device memory thus sees its operations in the single-thread order (SM 0's,
 * then SM 1's, ...), and every serial step sees the single-thread state, so
 * the statistics are identical for any thread count.  A kernel that reads
 * %globaltimer or calls an external function runs on one thread. */
#include "timing/engine.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/phase.h"
#include "base/alloc.h"
#include "base/demangle.h"
#include "base/log.h"
#include "func/mem.h"
#include "func/sink.h"
#include "policy/registry.h"
#include "stats/stats.h"
#include "timing/energy.h"
#include "timing/engine_par.h"
#include "timing/issue_int.h"
#include "timing/memsys.h"
#include "timing/phase_census.h"
#include "timing/sm.h"

#define TIMING_PROGRESS_EVERY 65536u

/* threads = 0 (the machine's cores) alternates between the parallel and the
 * serial cycle in epochs of stepped cycles and keeps the faster (docs/parallel.md):
 * results are identical either way, only the wall-clock time differs. */
#define TUNE_PROBE 256u   /* a measuring epoch */
#define TUNE_LONG 8192u   /* an epoch of the mode that won */
#define TUNE_BACKOFF 64u  /* at most TUNE_LONG x this serial cycles between parallel probes */

struct par_tune {
    int adaptive;       /* threads = 0 */
    int on;             /* the current epoch runs the parallel cycle */
    uint64_t left;      /* stepped cycles left in the epoch */
    uint64_t len;       /* its length */
    uint64_t t0;        /* its start, ns */
    uint64_t ns[2];     /* ns per cycle of the last serial [0] and parallel [1] epoch */
    uint64_t backoff;   /* serial epochs of TUNE_LONG before the next parallel probe */
};

/* What the parallel phase leaves for the merge, per SM: the deferred
 * device-memory effects of its cycle, and sm_cycle's result when it failed
 * (written only then, so the line stays shared between the threads). */
struct par_sm {
    struct func_sink sink;
    int rc;
    struct err err;
};

/* What the SMs one thread ran in a parallel phase leave for the serial
 * phase, so that it reads a line per thread instead of lines of every SM
 * (each read moves a line the SM's thread writes every cycle). */
struct par_thread {
    _Alignas(CACHE_LINE) uint64_t gen; /* the phase (timing.par_gen) it describes */
    uint64_t warp_insn;  /* its SMs' warp steps (their sinks' warp_insn) */
    uint8_t progress;    /* one of its SMs progressed (sm.progressed) */
    uint8_t busy;        /* one has CTAs or writebacks pending */
    uint8_t failed;      /* one's sm_cycle failed (par_sm.rc) */
};

struct timing {
    const struct gpu_config *cfg;
    struct stats *st;
    struct mem_system *ms;
    struct sm *sms;
    uint32_t nsms;
    uint64_t now;          /* core clock, monotonic over launches */
    uint64_t cycles;       /* simulated cycles over every launch */
    uint64_t kernel_cycles;/* cycles of the last launch */
    uint64_t disp_max_ppm; /* largest per-CTA warp finish disparity, x 1e6 */
    uint64_t regs_from[3]; /* launches whose registers per thread came from
                              sm.regs_per_thread, ptxas, the estimate */
    uint64_t next_sample;
    uint32_t dispatch_rr;
    timing_progress_fn progress;
    void *progress_ctx;
    const volatile sig_atomic_t *interrupt; /* timing_set_interrupt */
    char *report;          /* last deadlock report */
    int broken;            /* a launch stopped half-way: state is inconsistent */
    const struct sched_ops *sched_ops; /* the warp-scheduling policy */
    char *privs;           /* [nsms * nunits] policy priv blocks, priv_stride apart */
    size_t priv_stride;
    uint32_t nunits;
    const struct classify_ops *cls_ops; /* the request classifier */
    char *cls_privs;       /* [nsms] classifier priv blocks, cls_stride apart */
    size_t cls_stride;
    uint64_t cta_limit;    /* timing_set_cta_limit */
    struct timing_window win; /* of the last launch */
    /* the parallel engine (docs/parallel.md), built by the first launch that uses it */
    struct par_pool *pool;
    struct par_sm *par_sms;  /* [nsms], cache-line aligned */
    struct par_thread *par_threads; /* [the pool's threads], cache-line aligned */
    uint64_t *par_bits;      /* their sink bitmaps, par_words each, a line apart */
    struct func_written *written; /* the lines the merge wrote (func_sink_apply) */
    uint32_t par_words, par_stride;
    uint64_t par_now;        /* the cycle the parallel phase simulates */
    uint64_t par_gen;        /* counts the parallel phases (par_thread.gen) */
    struct func_stats *fstats; /* the running launch's functional counters (flush_sinks) */
    struct phase_census census; /* timeline_phases: warps per phase (phase_census.h) */
    /* threads = 0: the tuning carries over from launch to launch (a machine
     * where the parallel cycle lost keeps backing off instead of probing
     * again at every launch); tune_live once the first epoch started */
    struct par_tune tune;
    int tune_live;
};

static const char *const lane_bins[SM_LANE_BINS] = {
    "W0-4", "W5-8", "W9-12", "W13-16", "W17-20", "W21-24", "W25-28", "W29-32",
};

static void register_stats(struct timing *t)
{
    struct stats *s = t->st;
    size_t stride = sizeof(struct sm);
    uint32_t n = t->nsms;
    const struct sm_counters *c = &t->sms[0].c;
    stats_counter(s, "gpu_sim_cycle", "core cycles simulated (every launch)", &t->cycles, 1, 0);
    stats_counter(s, "gpu_tot_sim_cycle", "core cycles simulated over every kernel",
                  &t->cycles, 1, 0);
    stats_ratio(s, "gpu_ipc", "thread instructions per core cycle", "gpu_sim_insn",
                "gpu_sim_cycle", 1.0);
    stats_counter(s, "kernel_regs_configured",
                  "launches whose registers per thread were sm.regs_per_thread",
                  &t->regs_from[0], 1, 0);
    stats_counter(s, "kernel_regs_ptxas",
                  "launches whose registers per thread were ptxas's count (ws_module_set_regs)",
                  &t->regs_from[1], 1, 0);
    stats_counter(s, "kernel_regs_estimated",
                  "launches whose registers per thread were warpsim's estimate (no ptxas count)",
                  &t->regs_from[2], 1, 0);
    stats_counter(s, "sched_cycles", "scheduler-unit cycles (units x cycles x SMs)",
                  &c->sched_cycles, n, stride);
    stats_counter(s, "sched_issued", "scheduler cycles that issued", &c->sched_issued, n,
                  stride);
    stats_counter(s, "sched_idle_no_inst", "scheduler cycles with no valid instruction",
                  &c->sched_idle_no_inst, n, stride);
    stats_counter(s, "sched_not_ready",
                  "scheduler cycles with valid instructions, none ready (RAW, barrier)",
                  &c->sched_not_ready, n, stride);
    stats_counter(s, "sched_pipe_stall",
                  "scheduler cycles with a ready warp but its unit busy",
                  &c->sched_pipe_stall, n, stride);
    stats_counter(s, "sched_held_back", "scheduler cycles the policy issued nothing",
                  &c->sched_held_back, n, stride);
    stats_counter(s, "sched_all_stalled",
                  "scheduler cycles without an issue in which every live warp of the unit "
                  "waits on a long-latency load or at a barrier (Narasiman MICRO 2011)",
                  &c->sched_all_stalled, n, stride);
    stats_histogram(s, "sched_lane_activity",
                    "issued warp instructions by active lanes (DAWS Fig. 9)", c->lanes,
                    SM_LANE_BINS, lane_bins, n, stride);
    stats_counter(s, "ctas_completed", "CTAs completed on the timing model", &c->ctas_done, n,
                  stride);
    stats_counter(s, "cta_disparity_sum_ppm",
                  "sum over CTAs of (slowest-fastest warp finish)/CTA time x 1e6",
                  &c->cta_disparity_sum_ppm, n, stride);
    stats_ratio(s, "cta_disparity_avg",
                "average per-CTA warp execution-time disparity (CAWA Fig. 1)",
                "cta_disparity_sum_ppm", "ctas_completed", 1e-6);
    stats_counter(s, "cta_disparity_max_ppm",
                  "largest per-CTA warp execution-time disparity x 1e6", &t->disp_max_ppm, 1,
                  0);
    stats_counter(s, "ifetch_misses", "instruction fetches that missed the L1I",
                  &c->ifetch_miss, n, stride);
    stats_counter(s, "sched_issued_insn", "warp instructions (sub-warps under lwm) issued",
                  &c->warp_insn, n, stride);
    stats_counter(s, "sched_issued_lanes", "active lanes summed over the issued instructions",
                  &c->lanes_issued, n, stride);
    stats_ratio(s, "simd_utilisation", "active lanes per issued (sub-)warp / 32 (Narasiman "
                "MICRO 2011)", "sched_issued_lanes", "sched_issued_insn", 1.0 / 32.0);
    static const char *const load_name[4][2] = {
        {"load_cycles_idle", "SM cycles with nothing in flight (Phase-aware Fig. 10)"},
        {"load_cycles_alu_only", "SM cycles with ALU results but no memory instruction in flight"},
        {"load_cycles_mem_only", "SM cycles with memory instructions but no ALU result in flight"},
        {"load_cycles_alu_mem", "SM cycles with both ALU results and memory instructions in flight"},
    };
    for (int i = 0; i < 4; i++)
        stats_counter(s, load_name[i][0], load_name[i][1], &c->load_cycles[i], n, stride);
    if (strcmp(t->cfg->issue_model, "lwm") == 0) {
        stats_counter(s, "lwm_insn", "large-warp instructions completed (sm.issue_model=lwm)",
                      &c->lwm_insn, n, stride);
        stats_counter(s, "lwm_subwarps", "sub-warps issued for them (Narasiman MICRO 2011)",
                      &c->lwm_subwarps, n, stride);
        stats_ratio(s, "lwm_subwarps_per_insn", "sub-warps per large-warp instruction",
                    "lwm_subwarps", "lwm_insn", 1.0);
    }
    stats_timeline_column(s, "alu_inflight", &c->alu_inflight, n, stride);
    stats_timeline_column(s, "mem_inflight", &c->mem_inflight, n, stride);
    stats_timeline_column(s, "active_warps", &c->active_warps, n, stride);
    stats_counter(s, "sm_busy_cycles", "SM cycles with a CTA resident", &c->busy_cycles, n,
                  stride);
    phase_census_init(&t->census, s, t->cfg->timeline_phases);
}

int timing_new(const struct gpu_config *cfg, const struct dev_mem *mem, struct stats *st,
               struct timing **out, struct err *e)
{
    struct timing *t = xcalloc(1, sizeof *t);
    t->cfg = cfg;
    t->st = st;
    int rc = memsys_new(cfg, mem, st, &t->ms, e);
    if (rc != WS_OK) {
        free(t);
        return rc;
    }
    t->nsms = cfg->n_sms ? cfg->n_sms : 1;
    t->sms = xcalloc_lines(t->nsms, sizeof *t->sms);
    /* every (SM, unit) policy instance in one array, a fixed stride apart */
    struct param_set ps;
    rc = registry_sched(cfg->sched, &t->sched_ops, &ps, e);
    if (rc != WS_OK) {
        timing_free(t);
        return rc;
    }
    rc = registry_classify(cfg->classifier, &t->cls_ops, &ps, e);
    if (rc != WS_OK) {
        timing_free(t);
        return rc;
    }
    size_t align = _Alignof(max_align_t);
    t->priv_stride = (t->sched_ops->priv_size + align - 1) / align * align;
    if (!t->priv_stride)
        t->priv_stride = align;
    t->nunits = cfg->n_schedulers ? cfg->n_schedulers : 1;
    t->privs = xcalloc((size_t)t->nsms * t->nunits, t->priv_stride);
    t->cls_stride = (t->cls_ops->priv_size + align - 1) / align * align;
    if (!t->cls_stride)
        t->cls_stride = align;
    t->cls_privs = xcalloc(t->nsms, t->cls_stride);
    for (uint32_t i = 0; i < t->nsms; i++) {
        rc = sm_init(&t->sms[i], i, cfg, t->ms,
                     t->privs + (size_t)i * t->nunits * t->priv_stride, t->priv_stride,
                     t->cls_privs + (size_t)i * t->cls_stride, e);
        if (rc != WS_OK) {
            timing_free(t);
            return rc;
        }
    }
    if (st) {
        register_stats(t);
        energy_register(st, cfg);
        if (t->sched_ops->stats)
            t->sched_ops->stats(t->privs, st, t->nsms * t->nunits, t->priv_stride);
        if (t->cls_ops->stats)
            t->cls_ops->stats(t->cls_privs, st, t->nsms, t->cls_stride);
    }
    *out = t;
    return WS_OK;
}

void timing_free(struct timing *t)
{
    if (!t)
        return;
    if (t->sms)
        for (uint32_t i = 0; i < t->nsms; i++)
            sm_fini(&t->sms[i]);
    free(t->sms);
    par_free(t->pool);
    if (t->par_sms)
        for (uint32_t i = 0; i < t->nsms; i++)
            func_sink_free(&t->par_sms[i].sink);
    free(t->par_sms);
    if (t->written)
        func_written_free(t->written);
    free(t->written);
    free(t->par_threads);
    free(t->par_bits);
    phase_census_free(&t->census);
    free(t->privs);
    free(t->cls_privs);
    memsys_free(t->ms);
    free(t->report);
    free(t);
}

void timing_set_progress(struct timing *t, timing_progress_fn fn, void *ctx)
{
    t->progress = fn;
    t->progress_ctx = ctx;
}

void timing_set_interrupt(struct timing *t, const volatile sig_atomic_t *flag)
{
    t->interrupt = flag;
}

uint64_t timing_cycles(const struct timing *t)
{
    return t->cycles;
}

const char *timing_report(const struct timing *t)
{
    return t->report ? t->report : "";
}

uint32_t timing_regs_per_thread(const struct ptx_module *m, uint32_t func)
{
    const struct ptx_func *f = &m->funcs[func];
    uint32_t n = 0;
    for (uint32_t i = 0; i < f->nregs; i++) {
        enum ptx_type ty = (enum ptx_type)f->regs[i].type;
        if (ty == PTX_T_PRED)
            continue;
        unsigned sz = ptx_type_size(ty);
        n += sz > 4 ? (sz + 3) / 4 : 1;
    }
    return n > 63 ? 63 : n;
}

void timing_dump(const struct timing *t, FILE *out)
{
    for (uint32_t i = 0; i < t->nsms; i++)
        if (sm_busy(&t->sms[i]))
            sm_dump(&t->sms[i], out);
    memsys_dump(t->ms, out);
}

/* t->report: a heading line, then every resident warp and the memory system. */
static void make_report(struct timing *t, const char *heading)
{
    free(t->report);
    t->report = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&t->report, &len);
    if (f) {
        fputs(heading, f);
        timing_dump(t, f);
        fclose(f);
    }
}

/* Stopped by the interrupt flag: where every warp is, as for a deadlock. */
static int interrupted(struct timing *t, const struct timing_launch *L, uint64_t ctas_done,
                       uint64_t nctas, struct err *e)
{
    char nb[256];
    const char *name = demangle(L->m->funcs[L->k->func].name, nb, sizeof nb);
    char head[256];
    snprintf(head, sizeof head,
             "kernel '%s' interrupted at cycle %" PRIu64 " (%" PRIu64 " of %" PRIu64
             " CTAs dispatched); resident warps:\n",
             name, t->now, ctas_done, nctas);
    make_report(t, head);
    return err_set(e, WS_ERR_INTERRUPTED,
                   "kernel '%s' interrupted at cycle %" PRIu64 " (%" PRIu64 " of %" PRIu64
                   " CTAs dispatched; ws_deadlock_report has where every warp was)",
                   name, t->now, ctas_done, nctas);
}

static int deadlock(struct timing *t, const struct timing_launch *L, uint64_t idle,
                    struct err *e)
{
    make_report(t, "");
    char sum[ERR_MSG_MAX - 200];
    size_t n = 0;
    sum[0] = '\0';
    for (uint32_t i = 0; i < t->nsms; i++)
        if (sm_busy(&t->sms[i]))
            n = sm_summary(&t->sms[i], sum, n, sizeof sum);
    char nb[256];
    return err_set(e, WS_ERR_DEADLOCK,
                   "deadlock in kernel '%s' at cycle %" PRIu64 ": no progress for %" PRIu64
                   " cycles (deadlock_cycles %" PRIu64 ");%s (ws_deadlock_report has the "
                   "full report)",
                   demangle(L->m->funcs[L->k->func].name, nb, sizeof nb), t->now, idle,
                   t->cfg->deadlock_cycles, sum);
}

/* Warps of a CTA wait at a barrier while the CTA's other warps keep issuing
 * without ever reaching it (e.g. a spin loop on a flag only a waiting warp
 * would set): the deadlock watchdog never fires because something issues. */
static int livelock(struct timing *t, const struct timing_launch *L, uint32_t sm,
                    struct err *e)
{
    make_report(t, "");
    char sum[ERR_MSG_MAX - 300];
    sm_summary(&t->sms[sm], sum, 0, sizeof sum);
    char nb[256];
    return err_set(e, WS_ERR_DEADLOCK,
                   "livelock in kernel '%s' at cycle %" PRIu64 ": warps have waited at a "
                   "barrier for over %" PRIu64 " cycles while the other warps of their CTA run "
                   "without reaching a barrier or exiting (option livelock_cycles);%s "
                   "(ws_deadlock_report has the full report)",
                   demangle(L->m->funcs[L->k->func].name, nb, sizeof nb), t->now,
                   t->cfg->livelock_cycles, sum);
}

/* The SMs' functional counters into the launch's (before they are read). */
static void flush_sinks(struct timing *t, struct func_stats *st)
{
    if (t->par_sms)
        for (uint32_t i = 0; i < t->nsms; i++)
            func_sink_flush(&t->par_sms[i].sink, st);
}

/* Account the cycles the sleeping SMs skipped up to `now` (sm_catch_up). */
static void wake_all(struct timing *t, uint64_t now)
{
    for (uint32_t i = 0; i < t->nsms; i++)
        sm_catch_up(&t->sms[i], now);
}

static void sample_timeline(struct timing *t)
{
    uint64_t iv = t->cfg->timeline_interval;
    if (!iv || !t->st || t->cycles < t->next_sample)
        return;
    if (t->fstats) /* gpu_sim_insn is a column */
        flush_sinks(t, t->fstats);
    wake_all(t, t->now); /* their counters are columns */
    phase_census_take(&t->census, t->sms, t->nsms);
    while (t->cycles >= t->next_sample) {
        stats_timeline_sample(t->st, t->next_sample);
        t->next_sample += iv;
    }
}

static int launch_fits(const struct timing *t, const struct func_kernel *k, uint32_t regs,
                       uint32_t shared, struct err *e)
{
    const struct gpu_config *c = t->cfg;
    char nb[256];
    const char *name = demangle(k->m->funcs[k->func].name, nb, sizeof nb);
    if (k->threads_per_cta > c->max_threads_per_sm)
        return err_set(e, WS_ERR_LAUNCH,
                       "kernel '%s': a CTA of %u threads exceeds sm.threads = %u", name,
                       k->threads_per_cta, c->max_threads_per_sm);
    if (k->warps_per_cta > c->max_warps_per_sm)
        return err_set(e, WS_ERR_LAUNCH,
                       "kernel '%s': a CTA of %u warps exceeds sm.warps = %u", name,
                       k->warps_per_cta, c->max_warps_per_sm);
    if (c->max_ctas_per_sm == 0)
        return err_set(e, WS_ERR_LAUNCH, "kernel '%s': sm.ctas is 0", name);
    if (regs > c->regs_per_sm)
        return err_set(e, WS_ERR_LAUNCH,
                       "kernel '%s': a CTA needs %u registers, more than sm.registers = %u", name,
                       regs, c->regs_per_sm);
    if (shared > c->shared_per_sm)
        return err_set(e, WS_ERR_LAUNCH,
                       "kernel '%s': a CTA needs %u bytes of shared memory, more than "
                       "sm.shared = %u",
                       name, shared, c->shared_per_sm);
    return WS_OK;
}

/* gpu_sim_insn so far: `flushed` (the launch's counter) and what the sinks hold. */
static uint64_t sim_insn(const struct timing *t, uint64_t flushed)
{
    if (t->par_sms)
        for (uint32_t i = 0; i < t->nsms; i++)
            flushed += t->par_sms[i].sink.st.gpu_sim_insn;
    return flushed;
}

/* The dispatch points of timing_window, after a cycle's dispatch of ctas CTAs
 * so far (`cycle` cycles and *insn - insn0 instructions into the launch).
 * The instruction count is read only for a point kept: it sums the sinks,
 * whose counters the SMs' threads write every cycle. */
static void note_dispatch(struct timing *t, uint64_t cycle, uint64_t ctas, const uint64_t *insn,
                          uint64_t insn0, int no_room, uint64_t nctas)
{
    struct timing_point *pts = t->win.pts;
    for (uint32_t j = 0; j <= TIMING_BATCHES; j++) {
        int take = j == 0 ? no_room && !pts[0].ctas
                          : pts[0].ctas && !pts[j].ctas &&
                                ctas >= pts[0].ctas + (nctas - pts[0].ctas) * j / TIMING_BATCHES;
        if (take)
            pts[j] = (struct timing_point){cycle, sim_insn(t, *insn) - insn0, ctas};
    }
}

void timing_set_cta_limit(struct timing *t, uint64_t limit)
{
    t->cta_limit = limit;
}

void timing_skip(struct timing *t, const struct func_kernel *k)
{
    uint64_t nctas = (uint64_t)k->grid[0] * k->grid[1] * k->grid[2];
    uint32_t n = nctas < t->nsms ? (uint32_t)nctas : t->nsms;
    const struct ptx_func *f = &k->m->funcs[k->func];
    for (uint32_t i = 0; i < n; i++) /* instructions are 8 bytes apart (sm.c, fetch) */
        memsys_l1i_warm(t->ms, (t->dispatch_rr + i) % t->nsms, (uint64_t)f->first_pc * 8u,
                        (uint64_t)(f->first_pc + f->ninsts) * 8u);
    t->dispatch_rr = (uint32_t)((t->dispatch_rr + nctas) % t->nsms);
}

void timing_warm(struct timing *t, uint64_t cta, const struct func_trace *tr)
{
    if (!tr->is_mem || !tr->mask)
        return;
    const struct gpu_config *c = t->cfg;
    int generic = tr->space == PTX_SPACE_NONE;
    if (!generic && tr->space != PTX_SPACE_GLOBAL &&
        !(tr->space == PTX_SPACE_TEX && !c->tex_enabled))
        return;
    uint32_t sm = (uint32_t)((t->dispatch_rr + cta) % t->nsms);
    int write = tr->is_store || tr->is_atomic;
    /* the unit an access warms in the L2: its sector, or its line */
    uint32_t gran = c->l2_sector_bytes ? c->l2_sector_bytes : c->l2.line;
    uint32_t size = tr->size ? tr->size : 1;
    uint64_t last = UINT64_MAX, last1 = UINT64_MAX;
    for (uint32_t l = 0; l < FUNC_WARP_SIZE; l++) {
        if (!(tr->mask >> l & 1))
            continue;
        uint64_t a = tr->addr[l];
        if (generic && !mem_is_global(a))
            continue;
        for (uint64_t u = a / gran; u <= (a + size - 1) / gran; u++) {
            if (u == last)
                continue;
            last = u;
            uint64_t lo = u * gran > a ? u * gran : a, hi = (u + 1) * gran;
            if (hi > a + size)
                hi = a + size;
            memsys_l2_warm(t->ms, lo, (uint32_t)(hi - lo), write);
        }
        /* atomics execute at the L2 and leave the L1D alone */
        for (uint64_t u = a / c->l1d.line; !tr->is_atomic && u <= (a + size - 1) / c->l1d.line;
             u++) {
            if (u == last1)
                continue;
            last1 = u;
            memsys_l1d_warm(t->ms, sm, u * c->l1d.line, write);
        }
    }
}

const struct timing_window *timing_window(const struct timing *t)
{
    return &t->win;
}

/* ---- the parallel engine (docs/parallel.md) ---- */

/* Host threads for a launch of k: the configured count (0 = the machine's
 * cores), at most one per SM; 1 when the kernel must not defer its
 * device-memory effects (func_module_sinkable) or racecheck is on (its shadow
 * counts the launch's instructions and logs hazards launch-wide). */
static uint32_t launch_threads(const struct timing *t, const struct func_kernel *k)
{
    uint32_t n = t->cfg->threads ? t->cfg->threads : par_cores();
    if (n > t->nsms)
        n = t->nsms;
    if (n > 1 && (k->env->cfg.racecheck || !func_module_sinkable(k->m)))
        n = 1;
    return n;
}

/* Give every CTA slot of every SM its SM's sink (NULL: none). */
static void set_sinks(struct timing *t, int on)
{
    for (uint32_t i = 0; i < t->nsms; i++)
        for (uint32_t c = 0; c < t->sms[i].nctas; c++)
            t->sms[i].fctas[c].sink = on ? &t->par_sms[i].sink : NULL;
}

static void par_prepare(struct timing *t, uint32_t n)
{
    if (t->pool && par_threads(t->pool) != n) {
        par_free(t->pool);
        t->pool = NULL;
    }
    if (!t->pool) {
        t->pool = par_new(n);
        free(t->par_threads);
        free(t->par_bits);
        uint32_t nt = par_threads(t->pool);
        t->par_threads = xcalloc_lines(nt, sizeof *t->par_threads);
        t->par_words = (t->nsms + 63) / 64;
        t->par_stride = (t->par_words + 7) / 8 * 8; /* whole lines */
        t->par_bits = xcalloc_lines((size_t)nt * t->par_stride, sizeof *t->par_bits);
    }
    if (!t->par_sms)
        t->par_sms = xcalloc_lines(t->nsms, sizeof *t->par_sms);
    if (!t->written)
        t->written = xcalloc(1, sizeof *t->written);
}

static void tune_start(struct par_tune *u, int on, uint64_t len)
{
    u->on = on;
    u->left = u->len = len;
    u->t0 = par_clock_ns();
}

/* An epoch ended: after a serial one probe the parallel cycle; after a
 * parallel one keep it for a long epoch if it was faster (then refresh the
 * serial figure briefly), else go back to serial for longer and longer. */
static void tune_next(struct timing *t, struct par_tune *u)
{
    u->ns[u->on] = (par_clock_ns() - u->t0) / u->len;
    if (!u->on) {
        tune_start(u, 1, u->backoff > 1 ? TUNE_PROBE : u->ns[1] ? TUNE_LONG : TUNE_PROBE);
    } else if (u->ns[1] < u->ns[0]) {
        u->backoff = 1;
        tune_start(u, 0, TUNE_PROBE);
    } else {
        tune_start(u, 0, (uint64_t)TUNE_LONG * u->backoff);
        if (u->backoff < TUNE_BACKOFF)
            u->backoff *= 2;
    }
    set_sinks(t, u->on);
}

/* The parallel phase: SM i's cycle and its LD/ST unit's, run by thread th. */
static void sm_job(void *ctx, uint32_t i, uint32_t th)
{
    struct timing *t = ctx;
    struct par_thread *pt = &t->par_threads[th];
    uint64_t *bits = t->par_bits + (size_t)th * t->par_stride;
    if (pt->gen != t->par_gen) { /* the thread's first SM of this phase */
        pt->gen = t->par_gen;
        pt->warp_insn = 0;
        pt->progress = pt->busy = pt->failed = 0;
        memset(bits, 0, t->par_words * sizeof *bits);
    }
    struct par_sm *ps = &t->par_sms[i];
    struct func_sink *sk = &ps->sink;
    struct sm *sm = &t->sms[i];
    func_sink_restart(sk); /* the last merge took its steps (par_merge) */
    int rc = WS_OK;
    if (sm_awake(sm, t->par_now)) { /* as in the serial cycle */
        rc = sm_cycle(sm, t->par_now, &ps->err);
        if (rc == WS_OK && t->cfg->skip_idle_cycles)
            sm_sleep(sm, t->par_now);
    }
    if (rc != WS_OK) {
        ps->rc = rc;
        pt->failed = 1;
    } else {
        memsys_ldst_cycle(t->ms, i, t->par_now);
    }
    pt->warp_insn += sk->warp_insn;
    if (sk->nops || sk->nloads)
        bits[i / 64] |= 1ull << (i % 64);
    pt->progress |= sm->progressed;
    pt->busy |= sm_busy(sm) || sm->wheel_pending;
}

/* The warp slot of SM sm that runs functional warp w (a large warp's first row). */
static uint32_t slot_of(const struct sm *sm, const struct func_warp *w)
{
    for (uint32_t s = 0; s < sm->nslots; s++)
        if (sm->warps[s].valid && sm->warps[s].fw == w)
            return s;
    return 0;
}

/* The serial phase after the SMs' parallel cycle, in SM order: the
 * max_warp_insn limit where a serial run would have crossed it (after the
 * step that crossed it), the first SM's error, then each SM's deferred
 * device-memory writes, the loads that must see them, and its step count.
 * The threads' summaries say whether any SM failed or the launch may have
 * crossed the limit; only then is every SM's sink looked at in turn.
 * *progress and *busy: any SM's flags. */
static int par_merge(struct timing *t, const struct timing_launch *L, int *progress, int *busy,
                     struct err *e)
{
    struct func_kernel *k = L->k;
    uint64_t insn = 0, *bits = t->par_bits; /* thread 0's: the others' are added */
    int failed = 0;
    func_written_clear(t->written); /* the last merge's lines */
    if (t->par_threads[0].gen != t->par_gen)
        memset(bits, 0, t->par_words * sizeof *bits);
    for (uint32_t th = 0; th < par_threads(t->pool); th++) {
        const struct par_thread *pt = &t->par_threads[th];
        if (pt->gen != t->par_gen)
            continue; /* ran no SM this phase */
        insn += pt->warp_insn;
        failed |= pt->failed;
        *progress |= pt->progress;
        *busy |= pt->busy;
        if (th)
            for (uint32_t w = 0; w < t->par_words; w++)
                bits[w] |= t->par_bits[(size_t)th * t->par_stride + w];
    }
    uint64_t lim = L->max_warp_insn;
    if (failed || (lim && k->warp_insn + insn > lim)) {
        for (uint32_t i = 0; i < t->nsms; i++) {
            struct par_sm *ps = &t->par_sms[i];
            struct func_sink *sk = &ps->sink;
            uint64_t base = k->warp_insn;
            if (lim && base + sk->warp_insn > lim && lim - base < sk->nsteps) {
                const struct func_sink_step *st = &sk->steps[lim - base];
                k->warp_insn = lim + 1;
                return issue_limit_error(&t->sms[i], slot_of(&t->sms[i], st->w), st->pc, e);
            }
            if (ps->rc != WS_OK) {
                int rc = ps->rc;
                ps->rc = WS_OK;
                if (e)
                    *e = ps->err;
                return rc;
            }
            func_sink_apply(sk, t->written);
            k->warp_insn += sk->warp_insn;
        }
        return WS_OK;
    }
    k->warp_insn += insn;
    for (uint32_t w = 0; w < t->par_words; w++)
        for (uint64_t m = bits[w]; m; m &= m - 1)
            func_sink_apply(&t->par_sms[w * 64 + (uint32_t)__builtin_ctzll(m)].sink, t->written);
    return WS_OK;
}

int timing_run(struct timing *t, struct func_kernel *k, struct err *e)
{
    const struct ptx_module *m = k->m;
    if (t->broken)
        return err_set(e, WS_ERR_INVALID,
                       "the timing model stopped after an earlier error; create a new gpu");
    memset(&t->win, 0, sizeof t->win);
    /* registers per thread: the configured value, else the analysis'
     * pressure estimate, else the declared registers */
    uint32_t rpt = t->cfg->regs_per_thread          ? t->cfg->regs_per_thread
                   : m->funcs[k->func].ptxas_regs ? m->funcs[k->func].ptxas_regs
                   : k->an->func_regs && k->an->func_regs[k->func]
                       ? k->an->func_regs[k->func]
                       : timing_regs_per_thread(m, k->func);
    t->regs_from[t->cfg->regs_per_thread ? 0 : m->funcs[k->func].ptxas_regs ? 1 : 2]++;
    /* allocated as GPGPU-Sim 3.x allocates them: whole warps, sm.regs_round */
    uint32_t regs = config_regs_alloc(t->cfg, rpt) * k->warps_per_cta * FUNC_WARP_SIZE;
    uint32_t shared = (uint32_t)(m->funcs[k->func].shared_bytes + k->dyn_shared);
    int rc = launch_fits(t, k, regs, shared, e);
    if (rc != WS_OK)
        return rc;
    if (m->funcs[k->func].ninsts == 0) {
        /* a kernel with no instructions: every warp exits at once, so the
         * launch completes in no cycles (it is not a deadlock) */
        struct func_stats *fs = k->env->stats;
        uint64_t nctas = (uint64_t)k->grid[0] * k->grid[1] * k->grid[2];
        fs->kernels_launched++;
        fs->ctas_launched += nctas;
        fs->warps_launched += nctas * k->warps_per_cta;
        t->kernel_cycles = 0;
        return WS_OK;
    }
    struct timing_launch L;
    L.k = k;
    L.m = m;
    L.an = k->an;
    L.max_warp_insn = k->env->cfg.max_warp_insn;
    L.regs = xcalloc(m->ninsts ? m->ninsts : 1, sizeof *L.regs);
    uint32_t nregs = 1;
    for (uint32_t pc = 0; pc < m->ninsts; pc++)
        scoreboard_inst_regs(m, pc, &L.regs[pc]);
    for (uint32_t f = 0; f < m->nfuncs; f++)
        if (m->funcs[f].nregs > nregs)
            nregs = m->funcs[f].nregs;
    L.phase = xcalloc(m->ninsts ? m->ninsts : 1, sizeof *L.phase);
    phase_size(m, k->an, t->sms[0].cls_latency, t->cfg->issue_interval ? t->cfg->issue_interval : 1,
               L.phase, NULL);
    L.path = xcalloc(m->ninsts ? m->ninsts : 1, sizeof *L.path);
    for (uint32_t pc = 0; pc < m->ninsts; pc++)
        L.path[pc] = (uint8_t)load_path_of(t->cfg, &m->insts[pc], k->an->pc[pc].iclass);
    for (uint32_t i = 0; i < t->nsms; i++)
        sm_launch_begin(&t->sms[i], &L, nregs, t->now);
    k->env->stats->kernels_launched++;
    uint32_t nth = launch_threads(t, k);
    struct par_tune *tune = &t->tune;
    tune->adaptive = t->cfg->threads == 0;
    int par = nth > 1;
    if (par) {
        par_prepare(t, nth);
        t->fstats = k->env->stats;
        if (tune->adaptive && !t->tune_live) {
            tune->backoff = 1;
            tune_start(tune, 0, TUNE_PROBE);
            t->tune_live = 1;
        } else if (tune->adaptive) { /* the epoch goes on, timed from here */
            tune_start(tune, tune->on, tune->left);
        }
        set_sinks(t, !tune->adaptive || tune->on);
    }

    uint64_t nctas = (uint64_t)k->grid[0] * k->grid[1] * k->grid[2];
    if (t->cta_limit && t->cta_limit < nctas)
        nctas = t->cta_limit;
    uint64_t next_cta = 0, start = t->now, last_progress = t->now;
    const uint64_t *insn = &k->env->stats->gpu_sim_insn, insn0 = *insn;
    uint64_t next_report = t->cycles + TIMING_PROGRESS_EVERY, next_livelock = next_report;
    uint64_t dl = t->cfg->deadlock_cycles;
    for (;;) {
        uint64_t now = t->now;
        int progress = 0, no_room = 0;
        for (uint32_t i = 0; i < t->nsms && next_cta < nctas; i++) {
            uint32_t s = (t->dispatch_rr + i) % t->nsms;
            if (sm_cta_fits(&t->sms[s], k->threads_per_cta, k->warps_per_cta, regs, shared)) {
                sm_catch_up(&t->sms[s], now);
                sm_cta_launch(&t->sms[s], (uint32_t)next_cta++, regs, shared, now);
                t->dispatch_rr = (s + 1) % t->nsms;
                progress = 1;
            } else {
                no_room = 1;
            }
        }
        note_dispatch(t, now - start, next_cta, insn, insn0, no_room, nctas);
        int busy = 0;
        int par_cycle = par && (!tune->adaptive || tune->on);
        /* each SM's cycle, then its LD/ST unit's (memsys.h), SM by SM */
        uint64_t mem_now = memsys_cycle_begin(t->ms, now);
        ws_assert(mem_now == now); /* each cycle is stepped once */
        if (par_cycle) {
            t->par_now = now;
            t->par_gen++;
            if (memsys_pool_tight(t->ms)) /* the LD/ST units share one free list */
                for (uint32_t i = 0; i < t->nsms; i++)
                    sm_job(t, i, 0);
            else
                par_run(t->pool, sm_job, t, t->nsms);
            rc = par_merge(t, &L, &progress, &busy, e);
            if (rc != WS_OK)
                goto out;
        } else {
            for (uint32_t i = 0; i < t->nsms; i++) {
                struct sm *sm = &t->sms[i];
                if (sm_awake(sm, now)) { /* else asleep: a cycle without progress */
                    rc = sm_cycle(sm, now, e);
                    if (rc != WS_OK)
                        goto out;
                    if (t->cfg->skip_idle_cycles)
                        sm_sleep(sm, now);
                }
                memsys_ldst_cycle(t->ms, i, now);
                progress |= sm->progressed;
                busy |= sm_busy(sm) || sm->wheel_pending;
            }
        }
        memsys_cycle_end(t->ms);
        if (par && tune->adaptive && --tune->left == 0)
            tune_next(t, tune);
        t->now++;
        t->cycles++;
        sample_timeline(t);
        if (next_cta >= nctas && !busy)
            break;
        if (progress) {
            last_progress = t->now;
        } else {
            /* skip to the next cycle where anything can happen.  The search
             * stops at the first unit with something to do at t->now: then
             * nothing is skipped whatever the other units say, and the
             * deadlock test below needs no event anywhere. */
            uint64_t next = UINT64_MAX;
            int idle = 1;
            for (uint32_t i = 0; i < t->nsms && idle && next > t->now; i++) {
                int sidle;
                uint64_t n = sm_next_event(&t->sms[i], now, &sidle);
                idle &= sidle;
                if (n < next)
                    next = n;
            }
            if (idle && next > t->now) {
                uint64_t m = memsys_next_event(t->ms, t->now);
                if (m < next)
                    next = m;
            }
            if (next == UINT64_MAX && !memsys_busy(t->ms)) {
                rc = deadlock(t, &L, t->now - last_progress, e);
                goto out;
            }
            if (t->cfg->skip_idle_cycles && idle && next > t->now && next != UINT64_MAX) {
                uint64_t n = next - t->now;
                if (dl && t->now + n - last_progress > dl)
                    n = last_progress + dl + 1 > t->now ? last_progress + dl + 1 - t->now : 0;
                wake_all(t, t->now);
                for (uint32_t i = 0; i < t->nsms; i++)
                    sm_skip(&t->sms[i], n);
                t->now += n;
                t->cycles += n;
                sample_timeline(t);
            }
            if (dl && t->now - last_progress > dl) {
                rc = deadlock(t, &L, t->now - last_progress, e);
                goto out;
            }
        }
        if (t->interrupt && *t->interrupt) {
            rc = interrupted(t, &L, next_cta, nctas, e);
            goto out;
        }
        if (t->cfg->livelock_cycles && t->cycles >= next_livelock) {
            next_livelock = t->cycles + TIMING_PROGRESS_EVERY;
            for (uint32_t i = 0; i < t->nsms; i++)
                if (sm_livelocked(&t->sms[i], t->now, t->cfg->livelock_cycles) >= 0) {
                    rc = livelock(t, &L, i, e);
                    goto out;
                }
        }
        if (t->progress && t->cycles >= next_report) {
            next_report = t->cycles + TIMING_PROGRESS_EVERY;
            flush_sinks(t, k->env->stats);
            t->progress(t->progress_ctx, t->cycles, k->env->stats->gpu_sim_insn);
        }
    }
out:
    wake_all(t, t->now);
    if (par) {
        set_sinks(t, 0);
        flush_sinks(t, k->env->stats);
    }
    t->fstats = NULL;
    if (rc != WS_OK)
        t->broken = 1;
    else
        memsys_kernel_end(t->ms);
    t->kernel_cycles = t->now - start;
    t->win.done = (struct timing_point){t->kernel_cycles, *insn - insn0, next_cta};
    for (uint32_t i = 0; i < t->nsms; i++) {
        if (t->sms[i].c.cta_disparity_max_ppm > t->disp_max_ppm)
            t->disp_max_ppm = t->sms[i].c.cta_disparity_max_ppm;
        t->sms[i].L = NULL;
    }
    free(L.regs);
    free(L.phase);
    free(L.path);
    return rc;
}

void timing_memcpy(struct timing *t, uint64_t addr, uint64_t bytes)
{
    memsys_memcpy_fill(t->ms, addr, bytes);
}
