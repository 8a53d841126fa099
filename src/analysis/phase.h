/* phase.h: program phases of the Phase-aware warp scheduler (Awatramani et
 * al.; SPEC-policies 5.1).
 *
 * Construction (phase_build, run by analysis_run): walk each function top to
 * bottom with a set of long-op registers, the destinations of long-latency
 * instructions (phase_is_long_latency).  Every basic block starts a new phase
 * and clears the set; so does the first instruction that reads a register of
 * the set.  Then the instruction's own long-op destinations join the set
 * (unless hoisted, below).
 *
 * Sizing (phase_size, per latency table): walking each phase backwards, an
 * instruction's phase distance is the sum of the costs from it to the end of
 * its phase (itself included) and the phase's length is the distance of its
 * first instruction.  An instruction costs its class's latency from the
 * table, a long-latency one its issue cost [CHOICE in SPEC 5.1].  The per-PC
 * values saturate at PHASE_SATURATE, as the paper's 9-bit opcode extension;
 * the per-phase lengths do not (the paper's Table II lists longer phases).
 *
 * Raw PTX versus PTX-plus [CHOICE].  The paper built phases on PTX-plus
 * (GT200 code after the compiler's scheduling) because nvcc's PTX puts each
 * load next to its first use, which cuts a block into many short phases.
 * warpsim builds phases on PTX with two rules that recover PTX-plus's shape:
 *  - Operands, not loads: .param, .shared and .const reads are operands of
 *    the consuming instruction in PTX-plus, so ld.param/ld.shared/ld.const
 *    are not long-latency (they never start a phase; they cost their class
 *    latency).  Long-latency = global/local loads and stores, shared stores,
 *    atomics, bra, bar and membar/fence.
 *  - Hoisting: a global/local load in a phase other than the first of its
 *    block counts as issued before that phase's start (as a scheduling
 *    compiler would place it), so its readers do not start a new phase, when
 *    it could legally move there: none of its operands is written earlier in
 *    the phase or is a long-op register of the previous phase (or of a load
 *    hoisted before), none of its destinations is read or written earlier in
 *    the phase, and no store, atomic, barrier or fence precedes it in the
 *    phase.  Its destinations join the previous phase's long-op set.
 * On the built-in workloads this turns 4-128 phases per kernel into 4-89;
 * what remains above the paper's 3-45 comes from basic blocks (nvcc's PTX of
 * gc_mark_frontier has 50 blocks); docs/phases.md has the table.
 * Register reads are those of regs_refs() (guard, sources, address bases,
 * vector elements). */
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
