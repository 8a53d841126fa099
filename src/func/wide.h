/* wide.h: a warp wider than 32 lanes (a large warp, SPEC-policies 6.1) with
 * one SIMT stack, executed one subset of its active threads at a time.
 *
 * A wide warp is R rows of 32 lanes; row r is warp first + r of its CTA (a
 * struct func_warp: its registers, local and parameter memory, thread ids
 * and barrier state are used as they are), so the threads of a row are the
 * threads of that 32-wide warp and give the same results.  The rows' own
 * SIMT stacks are not used: the wide warp's stack holds R-word masks.
 *
 * An instruction executes as one or more sub-steps: func_wide_pending()
 * returns the active threads that have not yet executed the instruction at
 * the PC, func_wide_step() executes it for a subset of them, at most one
 * thread per lane column (so a sub-step's trace is 32 lanes wide, lane l
 * holding the thread of column l).  When the last pending thread has
 * executed, the stack is updated once (branch divergence, reconvergence,
 * exits) from the outcomes of every sub-step.  Each sub-step counts as one
 * warp instruction in struct func_stats (an issued sub-warp), its threads
 * in gpu_sim_insn and simt_active_lanes; %clock of a row counts instructions.
 *
 * Warp-level instructions (shfl, vote, match, redux, activemask) and CTA
 * barriers act per row, as the row's 32-wide warp would: a sub-step must
 * take all or none of a row's active threads for them (otherwise
 * WS_ERR_INVALID).  bar.warp.sync is a no-op as in a 32-wide warp.
 * Function calls (other than extern calls such as vprintf) are not supported
 * in a wide warp (WS_ERR_UNSUPPORTED): they would need call frames pushed in
 * step on every row. */
#ifndef WS_FUNC_WIDE_H
#define WS_FUNC_WIDE_H

#include <stdint.h>

#include "base/err.h"
#include "func/func.h"

#define FUNC_WIDE_MAX_ROWS 16 /* 512 threads */

struct func_wide_entry {
    uint32_t pc, rpc; /* next PC, reconvergence PC */
    uint32_t mask[FUNC_WIDE_MAX_ROWS];
};

struct func_wide_warp {
    struct func_cta *c;
    struct func_warp *row[FUNC_WIDE_MAX_ROWS];
    uint32_t rows;
    struct func_wide_entry *stack;
    uint32_t depth, stack_cap;
    /* the instruction in flight: begun by func_wide_pending, finished by
     * the func_wide_step that executes its last pending thread */
    uint8_t in_flight;
    uint32_t pc;
    uint32_t pending[FUNC_WIDE_MAX_ROWS]; /* active threads still to execute */
    uint32_t active[FUNC_WIDE_MAX_ROWS];  /* active threads when it began */
    uint32_t taken[FUNC_WIDE_MAX_ROWS];   /* threads that took the branch */
    uint32_t exit[FUNC_WIDE_MAX_ROWS];    /* threads that left the kernel */
    uint32_t tpc, reconv;
    uint8_t diverged; /* the last finished instruction split the warp */
};

/* Make rows warps first .. first + rows - 1 of c (freshly initialised by
 * func_cta_init, none stepped yet) one wide warp.  rows: 1..16. */
int func_wide_init(struct func_wide_warp *ww, struct func_cta *c, uint32_t first,
                   uint32_t rows, struct err *e);
void func_wide_fini(struct func_wide_warp *ww);

/* enum func_warp_state of the wide warp: DONE when its stack is empty,
 * AT_BARRIER while any row waits at a CTA barrier, READY otherwise. */
uint32_t func_wide_state(const struct func_wide_warp *ww);

/* The threads of the instruction at the PC still to execute (one mask per
 * row, rows words written); begins the next instruction when none is in
 * flight.  Returns the PC, or PC_EXIT when the warp is not READY. */
uint32_t func_wide_pending(struct func_wide_warp *ww, uint32_t pending[]);

/* Execute the instruction in flight for threads `sub` (per row, a subset of
 * the pending threads, at most one per lane column, not empty).  t describes
 * the sub-step in lanes = columns (t->active: the columns taken, t->mask:
 * those whose guard held); t->diverged and t->exited are set by the
 * sub-step that finishes the instruction. */
int func_wide_step(struct func_wide_warp *ww, const uint32_t sub[], struct func_trace *t,
                   struct err *e);

#endif
