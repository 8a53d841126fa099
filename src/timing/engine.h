/* engine.h: the timing model's top level: the SMs, the memory system, the
 * CTA dispatcher and the cycle loop that runs one kernel launch.
 *
 * Data flow per core cycle: dispatch (at most one CTA per SM, round robin
 * over SMs, within the occupancy limits) -> sm_cycle() of every SM ->
 * memsys_cycle().  The SMs' cycles may run on several host threads with
 * identical results (docs/parallel.md).  Cycles in which nothing can happen are skipped to the
 * next writeback, fetch or memory event.  A watchdog stops a run that makes
 * no progress for deadlock_cycles with WS_ERR_DEADLOCK and a per-warp report.
 *
 * A struct timing is built once per gpu from its configuration (the first
 * timing launch) and reused by later launches; its counters accumulate. */
#ifndef WS_TIMING_ENGINE_H
#define WS_TIMING_ENGINE_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "base/err.h"
#include "config/config.h"
#include "func/func.h"
#include "timing/scoreboard.h"

struct stats;
struct dev_mem;
struct pc_phase;
struct timing;

/* State of the launch being simulated, shared by the SMs. */
struct timing_launch {
    struct func_kernel *k;
    const struct ptx_module *m;
    const struct analysis *an;
    struct sb_inst_regs *regs; /* [m->ninsts] */
    struct pc_phase *phase;    /* [m->ninsts] phase distance and length at the SMs' class
                                  latencies (analysis/phase.h) */
    uint8_t *path;             /* [m->ninsts] enum load_path of every PC at this config */
    uint64_t max_warp_insn;
};

/* Called about every 2^16 simulated cycles during a launch. */
typedef void (*timing_progress_fn)(void *ctx, uint64_t cycle, uint64_t insn);

/* Build from cfg (borrowed for the lifetime of the timing object). */
int timing_new(const struct gpu_config *cfg, const struct dev_mem *mem, struct stats *st,
               struct timing **out, struct err *e);
void timing_free(struct timing *t);
void timing_set_progress(struct timing *t, timing_progress_fn fn, void *ctx);
/* While *flag is nonzero a launch stops with WS_ERR_INTERRUPTED and a
 * report of every resident warp (timing_report); NULL disables it. */
void timing_set_interrupt(struct timing *t, const volatile sig_atomic_t *flag);

/* Fallback registers per thread for occupancy when the analysis has no
 * estimate (analysis.func_regs): the kernel's declared registers in 32-bit
 * units (predicates excluded), capped at 63. */
uint32_t timing_regs_per_thread(const struct ptx_module *m, uint32_t func);

/* Run launch k to completion on the timing model: every CTA, or after
 * timing_set_cta_limit(limit) only CTAs 0 .. limit - 1 (sampled simulation:
 * the caller runs the others functionally). */
int timing_run(struct timing *t, struct func_kernel *k, struct err *e);
/* CTAs the next launches simulate (0 = all). */
void timing_set_cta_limit(struct timing *t, uint64_t limit);
/* Launch k ran functionally instead (kernel-level sampling): leave what
 * simulating it would most likely have left.  The CTA dispatch pointer moves
 * past its CTAs (exact when they fit in one wave on empty SMs) and the
 * instruction caches of the SMs that would have run them hold the kernel's
 * code.  (The data caches hold what its global accesses left there with
 * sample.warm, timing_warm; without, what the last simulated launch left.) */
void timing_skip(struct timing *t, const struct func_kernel *k);
/* Functional warming: the global-memory lines of warp instruction tr of CTA
 * number `cta` of a launch, which ran functionally (a skipped launch or
 * fast-forwarded CTAs of sampled simulation), left in the L2
 * (memsys_l2_warm, one call per L2 line or sector) and in the L1D of the SM
 * the CTA would have run on (memsys_l1d_warm; the dispatch's round robin, as
 * timing_skip assumes) as if it had run long ago, in lane order.  Shared,
 * local, constant, parameter and texture-cache accesses are not warmed. */
void timing_warm(struct timing *t, uint64_t cta, const struct func_trace *tr);

/* Points of the last launch's CTA dispatch, each as (cycles since the
 * launch began, thread instructions of the launch so far, CTAs dispatched).
 * pts[0] is the first cycle a waiting CTA found an SM without room, pts[j]
 * the first cycle j / TIMING_BATCHES of the CTAs after pts[0] had been
 * dispatched, pts[TIMING_BATCHES] the dispatch of the last CTA: between them
 * the GPU runs at its steady rate, in TIMING_BATCHES batches.  `done` is the
 * launch's end.  A point not reached has ctas 0. */
#define TIMING_BATCHES 8
struct timing_point {
    uint64_t cycle, insn, ctas;
};
struct timing_window {
    struct timing_point pts[TIMING_BATCHES + 1], done;
};
const struct timing_window *timing_window(const struct timing *t);

/* A host-to-device copy (memsys_memcpy_fill). */
void timing_memcpy(struct timing *t, uint64_t addr, uint64_t bytes);

/* Cycles simulated over every launch. */
uint64_t timing_cycles(const struct timing *t);

/* Text of the last deadlock report ("" if none). */
const char *timing_report(const struct timing *t);

/* Deadlock report: every SM's resident warps, then the memory system. */
void timing_dump(const struct timing *t, FILE *out);

#endif
