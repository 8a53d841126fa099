/* phase_census.h: warps per program phase over time, the top plots of the
 * Phase-aware paper's Figs. 6 and 7 (Awatramani et al., PACT 2015;
 * SPEC-policies 5.5): at every timeline sample, how many resident warps have
 * their next instruction in each phase of the running kernel.
 *
 * With timeline_phases = N > 0 the timeline gets the columns phase_warps_0 ..
 * phase_warps_<N-1>.  Column i counts the warps whose next PC lies in the
 * kernel's i-th phase (src/analysis/phase.h; phases numbered from the kernel
 * function's first, in program order); the last column also counts every
 * later phase and the warps inside a called .func.
 * [CHOICE] Summed over all SMs, as the other timeline gauges (active_warps);
 * the paper plots one core, and with every SM running the same kernel the
 * sum has the same shape.  Warps that finished (or a large warp's absorbed
 * rows, issue model lwm) are not counted.
 * The counts are taken when a sample is written, not in the cycle loop, so
 * the census costs nothing between samples. */
#ifndef WS_TIMING_PHASE_CENSUS_H
#define WS_TIMING_PHASE_CENSUS_H

#include <stdint.h>

struct stats;
struct sm;

struct phase_census {
    uint64_t *warps; /* [ncols] the gauges the timeline columns read */
    uint32_t ncols;  /* 0: off */
};

/* Register ncols columns (none when ncols is 0). */
void phase_census_init(struct phase_census *pc, struct stats *s, uint32_t ncols);
/* Recount from the SMs' resident warps (before a timeline sample). */
void phase_census_take(struct phase_census *pc, const struct sm *sms, uint32_t nsms);
void phase_census_free(struct phase_census *pc);

#endif
