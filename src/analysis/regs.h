/* regs.h: registers-per-thread estimate from liveness of PTX virtual registers.
 *
 * PTX declares virtual registers (".reg .b32 %r<67>;"), far more than a real
 * GPU allocates.  regs_estimate() runs a backward liveness analysis over the
 * CFG built by analysis.c and takes, per function, the peak number of live
 * registers weighted in 32-bit units:
 *   pred 0 (predicates live in a separate predicate file),
 *   8/16/32-bit types 1, 64-bit types (b64 u64 s64 f64) 2, b128 4.
 * A register counts at a program point only when it is live there and some
 * path from the function entry may already have defined it (so registers
 * read before any write, or defined only under a guard, do not inflate the
 * peak).  Program points are the points before each instruction and, just
 * after each instruction, its live-out set plus its own destinations (a
 * dead result still occupies a register when it is written).
 *
 * Liveness: uses are the guard, register sources, address base registers
 * and vector elements; destinations kill, except under a guard (@p), where
 * the old value may survive.
 *
 * The occupancy estimate of a function f (for an .entry, the kernel) is
 *   own peak of f + max own peak over the functions f calls, transitively
 *   (each function counted once, so recursion cycles are cut; extern
 *   functions such as vprintf count 0) + REGS_OVERHEAD,
 * clamped to [REGS_MIN, REGS_MAX]. */
#ifndef WS_ANALYSIS_REGS_H
#define WS_ANALYSIS_REGS_H

#include <stdint.h>

#include "analysis/analysis.h"
#include "ptx/ir.h"

/* Fixed registers added to every estimate: stack pointer and return
 * address / ABI scratch that PTX does not show. */
#define REGS_OVERHEAD 2u
#define REGS_MIN 1u
#define REGS_MAX 255u

/* Register operands of one instruction (bounded by 255 operands of at most
 * 4 vector elements each, plus the guard). */
#define REGS_MAX_REFS (255 * 4 + 1)

struct regs_refs {
    uint32_t use[REGS_MAX_REFS]; /* guard, register sources, address bases, vector elements */
    uint32_t nuse;
    uint32_t def[REGS_MAX_REFS]; /* destinations */
    uint32_t ndef;
    int guarded;                 /* @p: the destinations may keep their old value */
};

/* The register uses and definitions of the instruction at pc of m, as the
 * liveness model above counts them; indexes at or above nregs (the
 * function's register count) are left out. */
void regs_refs(const struct ptx_module *m, uint32_t pc, uint32_t nregs, struct regs_refs *R);

/* Weight of a register of type t in 32-bit register units. */
uint32_t regs_type_weight(enum ptx_type t);

/* Fill max_live[m->nfuncs] with each function's own peak (0 for functions
 * without a body) and est[m->nfuncs] with the clamped estimate described
 * above (0 for functions without a body).  `a` must be the finished analysis
 * of m (blocks and successor lists).  Register operands with an index outside
 * the function's register table are ignored. */
void regs_estimate(const struct ptx_module *m, const struct analysis *a, uint32_t *max_live,
                   uint32_t *est);

/* Storage slots of function fi's registers (slot[r] for each of its
 * f->nregs registers; returns the number of slots).  Two registers share a
 * slot only when their intervals do not meet: a register's interval runs
 * from the first to the last position (PC order) at which it is live into
 * or out of a block or is an operand, so no program point sees both live
 * and no instruction both reads one and writes the other.  Each lane of a
 * warp follows one path of the CFG, so sharing cannot change what it reads.
 * A register read before any write (live at the entry) keeps a slot no
 * other register wrote before that read.  Registers that no instruction
 * names share one extra slot.  The functional core stores a warp's
 * registers by slot: nvcc's PTX declares several times more virtual
 * registers than are live at once. */
uint32_t regs_slots(const struct ptx_module *m, const struct analysis *a, uint32_t fi,
                    uint32_t *slot);

#endif
