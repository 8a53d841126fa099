/* profile.h: the load profile of Profiled-DAWS (Rogers et al., MICRO 2013,
 * Section 5.1; SPEC-policies 4.2).  The paper classifies every global/local
 * load inside a loop offline, from an earlier run on a different input.
 * Here a struct profiler watches a functional run (func_env.trace_fn) and
 * records, per kernel and per load PC inside a loop, how often the load ran
 * with > 2 active lanes and how often those samples touched > 2 distinct
 * 128-byte lines (Fermi coalescing, SPEC 1.3); RepID comes statically from
 * the address operand (same base, displacements within one 128 B line).
 * Locality: per load PC, how many executions re-touched a line the same
 * warp's loads touched on this or the previous trip of the load's innermost
 * loop (Accessed-This-Trip / Accessed-Last-Trip, DAWS Sec. 4.1, Fig. 4);
 * profile_loop_has_locality() decides from those counts which loops
 * Profiled-DAWS predicts for (Sec. 5.1).
 *
 * The result is a text file (format in docs/daws.md and in its own header
 * comment) that struct load_profile reads back into fixed-size storage, so a
 * scheduler can keep it in its priv block without allocating. */
#ifndef WS_PROFILE_PROFILE_H
#define WS_PROFILE_PROFILE_H

#include <stdint.h>
#include <stdio.h>

#include "base/err.h"

#define PROFILE_MAX_KERNELS 32
#define PROFILE_NAME_MAX 128
#define PROFILE_MAX_LOADS 256
#define PROFILE_LINE_BYTES 128 /* coalescing segment / L1D line (SPEC 1.3, Fermi) */
/* IsDiv: a load is converged only when it is consistently converged: it ran
 * at least once with > 2 lanes and at most PROFILE_DIV_PERCENT percent of
 * those samples produced > 2 accesses.  Otherwise diverged. */
#define PROFILE_DIV_PERCENT 5
/* Dynamic RepID: two loads of a loop share a RepID when, in at least this
 * percentage of the iterations that ran both, every common lane's two
 * addresses were within one line (PROFILE_LINE_BYTES). */
#define PROFILE_REP_PERCENT 90

struct profile_load {
    uint32_t kernel;     /* index into kernels[] */
    uint32_t pc;         /* instruction index in the module */
    uint32_t src_line;   /* PTX source line (for people) */
    uint32_t loop_begin; /* header PC of the innermost loop */
    uint32_t loop_end;   /* last PC of that loop */
    uint64_t samples;    /* executions with > 2 active lanes */
    uint64_t div_samples;/* of those, coalesced into > 2 lines */
    uint32_t repid;      /* repetition group (per kernel) */
    uint8_t is_div;
    uint64_t execs;      /* executions (any active lane) */
    uint64_t reuse;      /* of those, executions with intra-warp locality: some lane's
                            line was touched by the same warp's loads on this or the
                            previous trip of the load's loop (DAWS Fig. 4) */
};

struct load_profile {
    uint32_t nkernels;
    char kernels[PROFILE_MAX_KERNELS][PROFILE_NAME_MAX];
    uint32_t nloads;
    struct profile_load loads[PROFILE_MAX_LOADS];
};

/* IsDiv from the counts (PROFILE_DIV_PERCENT rule). */
int profile_is_div(uint64_t samples, uint64_t div_samples);

/* Does a loop have intra-warp locality?  [CHOICE] the same sign rule as
 * Detected-DAWS's HasLocality counter (Sec. 5.2.1: +1 per load with
 * intra-warp locality, -1 per load without, positive = locality), applied to
 * the profiled counts of the loop's loads: sum(reuse) > sum(execs - reuse). */
int profile_loop_has_locality(uint64_t execs, uint64_t reuse);

/* Kernel index by name, or -1. */
int profile_find_kernel(const struct load_profile *p, const char *name);

/* Write p as text; `source` (may be NULL) goes into a comment line. */
int profile_write(FILE *out, const struct load_profile *p, const char *source);
int profile_write_file(const char *path, const struct load_profile *p, const char *source,
                       struct err *e);

/* Read a profile file; errors name path:line. */
int profile_read(const char *path, struct load_profile *p, struct err *e);

/* ---- the profiler -------------------------------------------------------- */

struct profiler;
struct func_kernel;
struct func_cta;
struct func_warp;
struct func_trace;

struct profiler *profiler_new(void);
void profiler_free(struct profiler *pr);
/* The func_env.trace_fn callback (ctx = the profiler). */
void profiler_trace(void *ctx, const struct func_kernel *k, const struct func_cta *c,
                    const struct func_warp *w, const struct func_trace *t);
/* Build the profile of everything traced so far (error when it does not fit).
 * The profiler refers to the traced modules: call it before they are freed. */
int profiler_finish(const struct profiler *pr, struct load_profile *out, struct err *e);

#endif
