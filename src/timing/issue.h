/* issue.h: the issue path of an SM: how the instruction of a warp that a
 * scheduler unit picked becomes one or more issued (sub-)warps.
 *
 * Data flow: sm.c's scheduler unit picks a ready slot and calls the SM's
 * issue model (config key sm.issue_model) ->
 *   the model runs the functional step(s) of the instruction (func/func.h,
 *   or a subset of a wide warp's threads per step, func/wide.h) ->
 *   issue_dispatch() once per issued (sub-)warp: lane statistics, execution
 *   unit pipeline or LD/ST unit (memsys_issue), scoreboard reservation,
 *   writeback wheel, SCHED_EV_ISSUE to the policy ->
 *   issue_retire() once the instruction has left the warp: instruction
 *   buffer, warp exit, barrier arrival, ready bits, slot release.
 *
 * The default model, "warp", issues the whole 32-lane warp as one
 * functional step (one dispatch, one retire).  A model that splits an
 * instruction into sub-warps over several cycles (the Large Warp
 * Microarchitecture, SPEC-policies 6.1: one active thread per lane column,
 * lowest row first) is one more entry in issue.c's table: it keeps the
 * large warp's state next to its slot, issues one sub-warp a cycle through
 * issue_dispatch and calls issue_retire after the last one, holding the
 * slot out of its scheduler's ready set in between. */
#ifndef WS_TIMING_ISSUE_H
#define WS_TIMING_ISSUE_H

#include <stdint.h>

#include "base/err.h"
#include "func/func.h"

struct sm;

struct issue_model {
    const char *name;
    const char *desc;
    /* Issue the instruction at the buffered PC of SM slot `slot`, which a
     * scheduler picked as ready at cycle `now`.  WS_OK or an error (fault,
     * instruction limit). */
    int (*issue)(struct sm *sm, uint32_t slot, uint64_t now, struct err *e);
};

/* The model named `name`, or NULL. */
const struct issue_model *issue_model_find(const char *name);

/* Send one issued (sub-)warp, described by its functional trace, to its
 * execution unit or the LD/ST unit, reserve its destinations and tell the
 * policy (SCHED_EV_ISSUE). */
void issue_dispatch(struct sm *sm, uint32_t slot, const struct func_trace *tr, uint64_t now);

/* The instruction `tr` (its last sub-warp's trace) has left the warp:
 * advance the instruction buffer, record an exit or a barrier arrival,
 * recompute the slot's ready bits, free the slot if it is finished. */
void issue_retire(struct sm *sm, uint32_t slot, const struct func_trace *tr, uint64_t now);

/* WS_ERR_DEADLOCK once the launch has run more warp instructions than
 * max_warp_insn allows (checked after every functional step). */
int issue_check_limit(const struct sm *sm, uint32_t slot, uint32_t pc, struct err *e);

#endif
