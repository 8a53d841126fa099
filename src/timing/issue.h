/* issue.h: the issue path of an SM: how the instruction of a warp that a
 * scheduler unit picked becomes one or more issued (sub-)warps.
 *
 * Data flow: sm.c's scheduler unit picks a ready slot and calls the SM's
 * issue model (config key sm.issue_model) ->
 *   the model runs the functional step(s) of the instruction (func/func.h,
 *   or a subset of a wide warp's threads per step, func/wide.h) ->
 *   dispatch() once per issued (sub-)warp: lane statistics, execution unit
 *   pipeline or LD/ST unit (memsys_issue), scoreboard reservation,
 *   writeback wheel, SCHED_EV_ISSUE to the policy ->
 *   retire() once the instruction has left the warp: instruction buffer,
 *   warp exit, barrier arrival, ready bits, slot release.
 *
 * The default model, "warp", issues the whole 32-lane warp as one
 * functional step (one dispatch, one retire).  A model that splits an
 * instruction into sub-warps over several cycles (the Large Warp
 * Microarchitecture, SPEC-policies 6.1: one active thread per lane column,
 * lowest row first) is one more entry in issue.c's table, built from the
 * same steps: it keeps the large warp's state next to its slot, issues one
 * sub-warp a cycle through dispatch() and calls retire() after the last one,
 * holding the slot out of its scheduler's ready set in between. */
#ifndef WS_TIMING_ISSUE_H
#define WS_TIMING_ISSUE_H

#include <stdint.h>

#include "base/err.h"
#include "func/func.h"

struct sm;

struct issue_model {
    const char *name; /* the value of sm.issue_model */
    /* Issue the instruction at the buffered PC of SM slot `slot`, which a
     * scheduler picked as ready at cycle `now`.  WS_OK or an error (fault,
     * instruction limit). */
    int (*issue)(struct sm *sm, uint32_t slot, uint64_t now, struct err *e);
};

/* The model named `name`, or NULL. */
const struct issue_model *issue_model_find(const char *name);

#endif
