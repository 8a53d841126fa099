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
 * functional step (one dispatch, one retire).  "lwm" (issue_lwm.c) is the
 * Large Warp Microarchitecture (SPEC-policies 6.1): lwm.rows warps of a CTA
 * form one large warp kept by its first row's slot, and each pick issues one
 * sub-warp (one active thread per lane column, lowest row first) through the
 * same dispatch(); retire() runs after the instruction's last sub-warp. */
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

/* Hooks of the "lwm" model for sm.c (issue_lwm.c). */
/* Warp wi of the CTA just placed in `slot`: the first of every lwm.rows
 * warps leads a large warp of the next lwm.rows warps (fewer at the CTA's
 * end), the others are absorbed into it. */
void issue_lwm_group(struct sm *sm, uint32_t slot, uint32_t wi);
/* May the large warp at slot issue a sub-warp at cycle now (its threads'
 * busy bits, the hold after a conditional branch)? */
int issue_lwm_ready(const struct sm *sm, uint32_t slot, uint64_t now);
/* The data of one load sub-warp (of rows `rows`) of the large warp at slot
 * returned. */
void issue_lwm_load_done(struct sm *sm, uint32_t slot, uint32_t pc, uint32_t rows);
/* Has any row of the large warp at slot a long-latency load pending?  Does
 * every row with threads of the instruction at pc wait on one? */
int issue_lwm_has_long(const struct sm *sm, uint32_t slot);
int issue_lwm_waits_long(const struct sm *sm, uint32_t slot, uint32_t pc);

#endif
