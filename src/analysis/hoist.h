/* hoist.h: load hoisting, the instruction order of a scheduling compiler
 * (option ptx.hoist_loads).
 *
 * GPGPU-Sim 3.x papers ran PTX-plus, the GT200 code that ptxas had
 * scheduled: a global load sits well above its first use, with the address
 * arithmetic it needs, so a warp issues its loads and then computes while
 * they are in flight.  nvcc's PTX keeps each load next to its first use.  The
 * order matters to the schedulers: a warp that stalls right after its load
 * lets a greedy scheduler (GTO) move on, one that does not keeps it (the
 * Phase-aware paper's type B mechanism, SPEC-policies 5).
 *
 * The transformation, applied to a parsed module before its analysis:
 *  - A function body is cut into segments: a segment ends before every
 *    branch target and around every ordering instruction, which stays where
 *    it is (bra, call, ret, exit, trap, st, atom, red, bar, membar, fence,
 *    sust, nanosleep, pmevent, any instruction with .sync, .volatile or a
 *    memory-ordering scope, and reads of %clock, %clock64 and %globaltimer,
 *    so that a load timed between two clock reads stays between them).  So no instruction leaves its basic block and no
 *    load passes a store, an atomic, a barrier or a fence.
 *  - In a segment, instructions are scheduled by load level, as a list
 *    scheduler that favours long-latency instructions would: level 0 holds
 *    what needs no result of a movable load (ld/ldu of the global, local or
 *    generic space, tex, tld4, suld) of the segment, level k + 1 what needs a
 *    level-k load's result (dependences: register read-after-write,
 *    write-after-read and write-after-write, guards and the carry flag
 *    included).  Within a level the movable loads and every instruction they
 *    depend on come first, in their original order, then the others in
 *    theirs.  So the independent loads of a segment issue together before any
 *    address arithmetic that waits for one of them (the gathers of srad's
 *    neighbours go out in two rounds, indices then values, not four).
 *    [CHOICE] every load as early as its dependences allow; ptxas also weighs
 *    register pressure and latencies, which this does not.
 * Dependences are kept, so results are unchanged; only the issue order moves.
 * Instructions keep their source positions; PCs are the new positions. */
#ifndef WS_ANALYSIS_HOIST_H
#define WS_ANALYSIS_HOIST_H

#include <stdint.h>

#include "ptx/ir.h"

/* Reorder m's function bodies as above.  Returns the number of instructions
 * whose PC changed. */
uint32_t hoist_loads(struct ptx_module *m);

#endif
