/* issue_int.h: the steps the issue models of timing/issue.h share
 * (issue.c), and the large-warp model's hooks (issue_lwm.c). */
#ifndef WS_TIMING_ISSUE_INT_H
#define WS_TIMING_ISSUE_INT_H

#include <stdint.h>

#include "base/err.h"
#include "func/func.h"

struct sm;
struct gpu_config;
struct ptx_inst;

/* enum load_path (policy/sched/sched.h) of instruction `in` of class
 * `iclass` at configuration cfg: the one place that decides which loads
 * read through the texture cache. */
unsigned load_path_of(const struct gpu_config *cfg, const struct ptx_inst *in, unsigned iclass);

/* A writeback-wheel entry for slot at cycle `at` (enum sm_wb_kind). */
void issue_wheel_add(struct sm *sm, uint64_t at, uint32_t slot, uint32_t pc, uint8_t kind);
/* WS_ERR_DEADLOCK once the launch has run more warp instructions than
 * max_warp_insn allows (checked after every functional step of a CTA
 * without a sink; with one, the engine's merge checks). */
int issue_check_limit(const struct sm *sm, uint32_t slot, uint32_t pc, struct err *e);
/* That error, for warp slot at pc. */
int issue_limit_error(const struct sm *sm, uint32_t slot, uint32_t pc, struct err *e);
/* Send one issued (sub-)warp, described by its functional trace, to its
 * execution unit or the LD/ST unit, reserve its destinations and tell the
 * policy (SCHED_EV_ISSUE).  lwm: a large warp's sub-warp (issue_lwm.c):
 * results that are not loads reserve nothing (the per-thread busy rule
 * orders them), loads reserve through a per-instruction count. */
void issue_dispatch(struct sm *sm, uint32_t slot, const struct func_trace *tr, uint64_t now,
                    int lwm);
/* The instruction `tr` (its last sub-warp's trace) has left the warp:
 * advance the instruction buffer, record an exit or a barrier arrival,
 * recompute the slot's ready bits, free the slot if it is finished. */
void issue_retire(struct sm *sm, uint32_t slot, const struct func_trace *tr, uint64_t now);

/* The "lwm" model (issue_lwm.c). */
int issue_lwm(struct sm *sm, uint32_t slot, uint64_t now, struct err *e);
/* A load sub-warp of the large warp at slot reserves its destinations. */
void issue_lwm_load_issued(struct sm *sm, uint32_t slot, uint32_t pc, int is_long);

#endif
