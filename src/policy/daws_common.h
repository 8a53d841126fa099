/* daws_common.h: the part of Divergence-Aware Warp Scheduling (Rogers,
 * O'Connor, Aamodt, MICRO 2013, Sections 4-5; SPEC-policies 4.2-4.4, 4.6)
 * shared by Profiled-DAWS (sched/daws_profiled.c) and Detected-DAWS
 * (sched/daws_detected.c): the load classification table of the running
 * kernel, the per-warp cache-footprint prediction table with the inner-loop,
 * outside-loop, leave-loop and barrier rules, and the decision (inclusive
 * prefix sum of predictions in age order against EffCacheSize, gating only
 * global/local loads, on GTO order).  Everything lives in fixed-size arrays
 * inside the policy's priv block (no allocation). */
#ifndef WS_POLICY_DAWS_COMMON_H
#define WS_POLICY_DAWS_COMMON_H

#include <stdint.h>

#include "policy/sched/sched.h"

#define DAWS_MAX_LOADS 64   /* classification entries per kernel (paper: <= 26 used) */
#define DAWS_NONE UINT32_MAX

/* One static load in a loop (SPEC 4.2: PC_LoopBegin, IsDiv, RepID, PC_Load). */
struct daws_load {
    uint32_t pc;
    uint32_t loop;  /* analysis loop index (PC_LoopBegin = loops[loop].header_pc) */
    uint32_t repid; /* loads with equal (loop, repid) are counted once */
    uint8_t is_div;
};

struct daws_core {
    /* the running kernel (NULL an: no kernel known -> nothing is throttled) */
    const struct analysis *an;
    uint32_t ninsts; /* PCs of the module (length of an->pc) */
    uint32_t l1d_lines;
    double assoc_factor;
    struct daws_load loads[DAWS_MAX_LOADS];
    uint32_t nloads;
    /* cache footprint prediction table, one entry per warp slot */
    uint32_t pred[SCHED_MAX_WARPS];      /* predicted lines */
    uint32_t pred_loop[SCHED_MAX_WARPS]; /* loop of the prediction, DAWS_NONE if clear */
    uint32_t lanes[SCHED_MAX_WARPS];     /* active lanes of each slot's next instruction,
                                            from the last view (SCHED_EV_ISSUE may carry
                                            no lane count) */
    /* statistics */
    uint64_t st_predicted_lines; /* sum of every prediction made at a loop entry */
    uint64_t st_predictions;     /* predictions made */
    uint64_t st_gated_cycles;    /* picks in which a ready warp's load was held back */
    uint64_t st_loads_div, st_loads_conv; /* classification entries (by IsDiv) */
    uint64_t gauge_footprint;    /* total predicted footprint at the last pick */
    uint64_t gauge_allowed;      /* warps allowed to issue loads at the last pick */
};

/* Loop enabled for prediction? (Detected-DAWS: HasLocality > 0.) */
typedef int (*daws_loop_enabled_fn)(const void *ctx, uint32_t loop);

void daws_core_init(struct daws_core *c, double assoc_factor);
/* New kernel: forget loads and predictions (an may be NULL). */
void daws_core_kernel(struct daws_core *c, const struct analysis *an, uint32_t ninsts,
                      uint32_t l1d_lines);
void daws_clear_slot(struct daws_core *c, int32_t slot);

/* Footprint of one iteration of `loop` with `lanes` active lanes (SPEC 4.3 table). */
uint32_t daws_footprint(const struct daws_core *c, uint32_t loop, uint32_t lanes);

/* Loop whose header starts at pc (DAWS_NONE if pc begins no loop). */
uint32_t daws_loop_at_header(const struct daws_core *c, uint32_t pc);
/* Is loop `inner` nested (strictly) inside loop `outer`? */
int daws_loop_inside(const struct daws_core *c, uint32_t inner, uint32_t outer);

/* A warp issued the first instruction of `loop` with `lanes` active: update
 * its prediction (inner-loop rule included).  Returns the new prediction. */
uint32_t daws_on_loop_begin(struct daws_core *c, int32_t slot, uint32_t loop, uint32_t lanes,
                            daws_loop_enabled_fn en, const void *ctx);

/* Leaving rule: clear the entries of warps whose next PC left the outermost
 * loop enclosing the entry's loop. */
void daws_check_left(struct daws_core *c, const struct sched_view *v);

/* Common event handling: launch/exit/barrier clear, ISSUE of a loop header
 * predicts.  Policy-specific work is done by the caller. */
void daws_core_event(struct daws_core *c, const struct sched_event *ev, daws_loop_enabled_fn en,
                     const void *ctx);

/* Which valid slots may issue loads now (SPEC 4.4), from the prediction table
 * and the outside-loop rule. */
uint64_t daws_allowed(struct daws_core *c, const struct sched_view *v, daws_loop_enabled_fn en,
                      const void *ctx);

/* Pick: daws_check_left, daws_allowed, then GTO among ready warps whose next
 * instruction is not a held-back load. */
int daws_pick(struct daws_core *c, const struct sched_view *v, daws_loop_enabled_fn en,
              const void *ctx);

/* Register the statistics (names sched_daws_*); `core_off` is the offset of
 * the struct daws_core inside the policy's priv block. */
void daws_core_stats(void *priv, size_t core_off, struct stats *s, uint32_t instances,
                     size_t stride);

#endif
