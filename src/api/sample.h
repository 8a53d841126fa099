/* sample.h: sampled simulation (option group sample.*): which launches and
 * CTAs the timing model simulates in detail, and an estimate, with an error
 * bound, of the cycles of the launches and CTAs it skips.  Skipped work still
 * runs functionally, so results and instruction counts stay exact; only the
 * cycles are estimated.
 *
 * Kernel-level sampling (sample.kernels=1), after the published per-kernel
 * approaches (PKA, Sieve): launches are grouped by kernel, block shape,
 * dynamic shared memory and the power of two of their CTA count, and a group
 * is split into strata of launches whose thread instructions lie within a
 * factor 1.25 of each other.  A launch is forecast to do the work of the
 * group's previous launch; while that stratum has fewer than
 * sample.kernel_detail detailed launches the launch is simulated in detail,
 * and so are the group's launches number b, b^2, b^3, ... (b =
 * sample.kernel_resample, default 4: logarithmically many, so that a
 * program whose launches grow faster or slower over its run is measured late
 * as well as early).  Any other launch runs functionally and is estimated as
 * its thread instructions x the mean cycles per thread instruction (CPI) of
 * the sample.kernel_detail most recent detailed launches of its actual
 * stratum, with the 95 % confidence half-width of that mean (Student's t) as
 * its bound; when the forecast missed (no detailed launch in its actual
 * stratum), the nearest stratum's CPI, with a bound covering every stratum
 * of the group.  After a skipped launch the timing model is left as
 * simulating it most likely would have left it (timing_skip: the CTA
 * dispatch pointer and the SMs' instruction caches; with sample.warm, the
 * default, its global accesses warm the L2 and L1Ds, timing_warm).
 *
 * Intra-kernel sampling (sample.ctas=N): a launch with more than N CTAs has
 * CTAs 0 .. N-1 simulated in detail and the rest fast-forwarded functionally.
 * The steady window runs from the first cycle a CTA waited for room to the
 * dispatch of CTA N-1 (timing_window); the estimate is the detailed cycles
 * plus the remaining thread instructions at the window's CPI, the bound the
 * 95 % confidence half-width from the CPIs of the window's 8 batches (the
 * whole extrapolation when the sample never filled the GPU).
 *
 * The bounds are statistical: they do not cover what the sample cannot show
 * (data left out of the L2 by skipped launches, launches or CTAs that differ
 * at the same work); bench/sampling.sh measures the real error.
 *
 * Statistics: sample_detailed_launches, sample_skipped_launches,
 * sample_skipped_ctas, sample_est_cycles (simulated cycles plus the estimates)
 * and sample_est_error_cycles (the sum of the bounds). */
#ifndef WS_API_SAMPLE_H
#define WS_API_SAMPLE_H

#include <stdint.h>

#include "config/config.h"
#include "func/func.h"

struct stats;
struct timing_window;

struct sampler;

struct sampler *sampler_new(void);
void sampler_free(struct sampler *s);
void sampler_register(struct sampler *s, struct stats *st);

/* 1 if launch k is to be simulated in detail, 0 if it is to run functionally
 * (kernel-level sampling found its group's CPI). */
int sampler_detail(struct sampler *s, const struct gpu_config *c, const struct func_kernel *k);
/* A skipped launch ran functionally and executed insn thread instructions. */
void sampler_skipped(struct sampler *s, const struct func_kernel *k, uint64_t insn);
/* A detailed launch ended: its window (timing_window), its thread
 * instructions in all, its CTAs in all and how many were simulated. */
void sampler_detailed(struct sampler *s, const struct func_kernel *k,
                      const struct timing_window *w, uint64_t insn, uint64_t nctas,
                      uint64_t detailed_ctas);

#endif
