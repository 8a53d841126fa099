/* phase.h: program phases of the Phase-aware warp scheduler (Awatramani et
 * al.; SPEC-policies 5.1).
 *
 * Construction (phase_build, run by analysis_run): walk each function top to
 * bottom with a set of long-op registers, the destinations of long-latency
 * instructions (phase_is_long_latency).  Every basic block starts a new phase
 * and clears the set; so does the first instruction that reads a register of
 * the set.  Then the instruction's own long-op destinations join the set.
 *
 * Sizing (phase_size, per latency table): walking each phase backwards, an
 * instruction's phase distance is the sum of the costs from it to the end of
 * its phase (itself included) and the phase's length is the distance of its
 * first instruction.  An instruction costs its class's latency from the
 * table, a long-latency one its issue cost [CHOICE in SPEC 5.1].  The per-PC
 * values saturate at PHASE_SATURATE, as the paper's 9-bit opcode extension;
 * the per-phase lengths do not (the paper's Table II lists longer phases).
 *
 * Choices beyond the SPEC: long-latency = loads and stores of every space
 * except .param (parameters are operands in PTX-plus, not loads), atomics,
 * bra, bar and membar/fence; register reads are those of regs_refs() (guard,
 * sources, address bases, vector elements).  On nvcc's PTX, where loads sit
 * close to their uses, phases are shorter than on the scheduled PTX-plus the
 * paper used. */
#ifndef WS_ANALYSIS_PHASE_H
#define WS_ANALYSIS_PHASE_H

#include <stdint.h>

#include "analysis/analysis.h"
#include "ptx/ir.h"

#define PHASE_SATURATE 512u

/* Per PC, at one latency table (saturated at PHASE_SATURATE). */
struct pc_phase {
    uint16_t dist; /* cycles from this instruction to the end of its phase */
    uint16_t len;  /* length of the phase the instruction belongs to */
};

/* 1 for the classes that end a phase's long-op tracking (see above). */
int phase_is_long_latency(enum inst_class c);

/* Fill a->pc[].phase and a->phases for every function with a body; a's
 * blocks must be built. */
void phase_build(const struct ptx_module *m, struct analysis *a);

/* Size every phase of m: pc[m->ninsts] gets each PC's distance and length
 * (zero outside a body); len[a->nphases], when not NULL, each phase's
 * unsaturated length.  class_latency[ICLASS_COUNT] in cycles; issue_cost is
 * what a long-latency instruction counts. */
void phase_size(const struct ptx_module *m, const struct analysis *a,
                const uint32_t *class_latency, uint32_t issue_cost, struct pc_phase *pc,
                uint32_t *len);

#endif
