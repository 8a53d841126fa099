/* sm.h: one streaming multiprocessor of the timing model.
 *
 * Data flow inside an SM, per core cycle (sm_cycle):
 *   memory completions (memsys_pop_done) and the writeback wheel release the
 *   scoreboard -> warps whose state changed recompute their ready bits ->
 *   each scheduler unit (slot i -> unit i % n) classifies the cycle, asks its
 *   policy's pick() and hands the picked slot to the SM's issue model
 *   (timing/issue.h: the instruction executes functionally, reserves its
 *   destinations and goes to an execution unit, SP/SFU/DP/INT with writeback
 *   after the unit's latency, or to the LD/ST unit, memsys_issue) -> one
 *   instruction fetch for a warp whose instruction buffer has room
 *   (memsys_ifetch, address = PC * 8).
 * The SM owns its warp slots, CTA slots, scoreboard, units and in-flight
 * memory instruction table; the engine (engine.h) owns the SMs, dispatches
 * CTAs and advances the memory system. */
#ifndef WS_TIMING_SM_H
#define WS_TIMING_SM_H

#include <stdint.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "base/alloc.h"
#include "base/bits.h"
#include "base/err.h"
#include "config/config.h"
#include "func/func.h"
#include "func/wide.h"
#include "policy/classify/classify.h"
#include "policy/sched/sched.h"
#include "timing/memsys.h"
#include "timing/scoreboard.h"

enum sm_unit {
    SM_UNIT_SP,
    SM_UNIT_SFU,
    SM_UNIT_DP,
    SM_UNIT_INT,
    SM_UNIT_MEM,
    SM_UNIT_COUNT
};

#define SM_LANE_BINS 8 /* W0-4, W5-8, ..., W29-32 */

/* Per-SM counters, registered with stride sizeof(struct sm) (summed over SMs). */
struct sm_counters {
    uint64_t sched_cycles; /* scheduler-unit cycles (units x cycles) */
    uint64_t sched_issued, sched_idle_no_inst, sched_not_ready, sched_pipe_stall,
        sched_held_back;
    uint64_t sched_all_stalled; /* of the cycles not issued: every live warp of the
                                   unit waits on a long-latency load or at a barrier */
    uint64_t lanes[SM_LANE_BINS];
    uint64_t warp_insn;      /* warp instructions issued */
    uint64_t lanes_issued;   /* active lanes summed over them */
    uint64_t alu_inflight;   /* gauge: ALU results in flight */
    uint64_t mem_inflight;   /* gauge: memory instructions in flight */
    uint64_t active_warps;   /* gauge: resident warps */
    uint64_t ctas_done;
    uint64_t cta_disparity_sum_ppm; /* per CTA (slowest-fastest)/slowest x 1e6, summed */
    uint64_t cta_disparity_max_ppm;
    uint64_t ifetch_miss;
    uint64_t load_cycles[4]; /* cycles by what is in flight: none, ALU only, memory only,
                                both (Phase-aware Fig. 10) */
    uint64_t lwm_insn;       /* issue model lwm: large-warp instructions completed */
    uint64_t lwm_subwarps;   /* issue model lwm: sub-warps issued for them */
    uint64_t busy_cycles;    /* cycles with a CTA resident (closed when the SM empties) */
};

/* A large warp of the issue model lwm (timing/issue.h), kept by the slot of
 * its first row. */
struct sm_lwm_load {
    uint32_t pc;                        /* a load instruction in flight */
    uint32_t left[FUNC_WIDE_MAX_ROWS];  /* per row: its sub-warps whose data is not back */
};
struct sm_lwm {
    struct func_wide_warp ww;
    uint32_t row_slot[FUNC_WIDE_MAX_ROWS]; /* the slot of each row (its scoreboard) */
    uint32_t started;  /* rows that issued threads of the instruction in flight */
    uint32_t cur_rows; /* rows of the sub-warp being dispatched */
    uint8_t first;     /* the sub-warp being dispatched is its instruction's first */
    uint64_t free_at[FUNC_WIDE_MAX_ROWS][32]; /* cycle each thread's last sub-warp completes */
    uint64_t hold_until; /* after a conditional branch: its last sub-warp's completion */
    struct sm_lwm_load *loads;
    size_t nloads, cap;
};

struct sm_warp {
    struct func_cta *cta;
    struct func_warp *fw;
    uint32_t cta_slot;
    uint64_t age;
    uint8_t valid;     /* slot holds a warp */
    uint8_t done;      /* every lane finished (slot frees when drained) */
    uint8_t at_bar;    /* waiting at a CTA barrier */
    uint8_t fetch_wait;/* instruction fetch missed; retry at fetch_ready_at */
    uint32_t ib_pc, ib_n;  /* instruction buffer: ib_n instructions from ib_pc */
    uint64_t ib_ready_at;  /* cycle the buffered instructions become valid */
    uint64_t fetch_ready_at;
    uint32_t pend_wb;      /* ALU results in flight */
    uint32_t pend_mem;     /* memory instructions in flight */
    uint32_t pend_stores;
    uint64_t issued_cycle; /* cycle of the last issue and how many that cycle */
    uint32_t issued_n;
    uint64_t finish;       /* cycle its last lane finished */
    struct sm_lwm *lw;     /* issue model lwm: the large warp this slot leads, else NULL */
    uint8_t absorbed;      /* issue model lwm: a row of another slot's large warp */
    uint32_t fpc, fact;    /* the functional warp's next PC (PC_EXIT when finished) and
                              active lanes, copied by sm_warp_sync after every step so
                              that the ready-bit refresh reads no functional state */
    const struct simt_entry *ftop; /* by sm_warp_sync too: the top of the functional */
    const uint64_t *fregs;         /* warp's SIMT stack and its registers (register r */
    const uint32_t *fslot;         /* at slot fslot[r]), prefetched when the warp */
                                   /* becomes ready (sm_warp_refresh) */
};

struct sm_cta {
    uint8_t used;
    uint32_t linear;       /* the CTA's number in the grid */
    uint32_t warps_left;   /* slots not yet freed */
    uint32_t nwarps, threads, regs, shared;
    uint64_t start, first_finish, last_finish;
    uint64_t bar_event;    /* last barrier arrival, release or warp exit (livelock watchdog) */
};

struct sm_pipe {
    uint32_t n, latency, ii;
    uint64_t *free_at; /* [n] cycle each pipeline register accepts again */
};

struct sm_sched_unit {
    const struct sched_ops *ops;
    void *priv;
    struct sched_view view;
    uint64_t age[SCHED_MAX_WARPS];
    uint32_t pc[SCHED_MAX_WARPS], active[SCHED_MAX_WARPS], cta[SCHED_MAX_WARPS];
    uint64_t has_inst;              /* valid instruction in the buffer */
    uint64_t can_issue;             /* hazards clear (unit not yet considered) */
    uint64_t unit_mask[SM_UNIT_COUNT]; /* slots whose next instruction needs this unit */
    uint64_t next_issue;            /* issue_interval */
    int last_class;                 /* class of the last cycle (for skipped cycles) */
    struct sched_kernel kinfo;      /* the kernel's facts with this unit's scratch */
};

enum sm_wb_kind {
    SM_WB_RELEASE, /* writeback: release the destinations, one result less in flight */
    SM_WB_COUNT,   /* issue model lwm: one result less in flight, nothing reserved */
    SM_WB_WAKE,    /* issue model lwm: a sub-warp left the pipeline: recompute ready bits */
};
struct sm_wb {
    uint32_t slot, pc;
    uint8_t kind; /* enum sm_wb_kind */
};

struct sm_wheel_bucket {
    struct sm_wb *e;
    size_t n, cap;
};

struct sm_memtok {
    uint32_t slot, pc;
    uint8_t used, is_store, is_long;
    uint8_t lwm;   /* a large warp's load sub-warp (counted release per row, issue.h) */
    uint16_t rows; /* its rows */
    uint32_t next_free;
};

struct timing_launch; /* engine.h: per-launch shared state */
struct issue_model;   /* issue.h */

/* Aligned to a cache line: in the parallel engine neighbouring SMs of the
 * array run on different threads. */
struct sm {
    _Alignas(CACHE_LINE) uint32_t id;
    const struct gpu_config *cfg;
    struct mem_system *ms;
    struct timing_launch *L; /* current launch, NULL between launches */
    struct sched_kernel kinfo; /* what the policies know of the current launch */
    const struct classify_ops *cls_ops; /* the request classifier (sm.classifier) */
    void *cls_priv;
    uint32_t ev_kinds; /* SCHED_EV_BIT of the kinds any of the SM's policies reads */
    struct sched_kernel cls_kinfo;      /* kinfo with the classifier's scratch */
    struct classify_board board;        /* per-warp tag and score, read by the units */
    char *scratch;                      /* the policies' per-kernel scratch areas */
    size_t scratch_cap;

    struct sm_warp *warps;
    uint32_t nslots;
    struct sm_cta *ctas;
    struct func_cta *fctas;
    uint32_t nctas;

    struct scoreboard sb;
    struct sm_sched_unit *units;
    uint32_t nunits;
    uint8_t *slot_unit, *slot_index; /* [nslots] slot % nunits, slot / nunits */
    uint8_t asleep, sleep_ldst;      /* sm_sleep: skipped cycles from sleep_from, */
    uint64_t sleep_from, sleep_until; /* the next internal event at sleep_until */
    const struct issue_model *issue; /* sm.issue_model */
    struct sm_lwm *lwm;              /* [nslots] large-warp state (issue model lwm), or NULL */
    uint64_t now;                    /* cycle of the current sm_cycle() */
    struct sm_pipe pipes[SM_UNIT_COUNT]; /* MEM unused (memsys) */
    uint8_t unit_map[ICLASS_COUNT];      /* iclass -> enum sm_unit after fallback */
    uint32_t cls_latency[ICLASS_COUNT];  /* latency and initiation interval of the */
    uint32_t cls_ii[ICLASS_COUNT];       /* class's own unit, even on a fallback unit */

    struct sm_wheel_bucket *wheel;
    uint32_t wheel_size; /* power of two > every latency */

    struct sm_memtok *tok;
    uint32_t ntok, tok_free;

    uint64_t *dirty;     /* bitset over slots: ready bits must be recomputed */
    uint32_t dirty_words;
    uint64_t *want_fetch; /* bitset over slots: instruction buffer has room */
    uint64_t *fetch_waiting; /* bitset over slots: sm_warp.fetch_wait (next-event scan) */
    uint32_t fetch_rr;
    uint64_t busy_since; /* cycle the first of the resident CTAs arrived */
    uint64_t next_age;
    uint32_t unit_rr;
    uint32_t ldst_used;  /* memory instructions accepted this cycle */
    struct mem_inst mi;  /* scratch for memsys_issue */

    uint8_t progressed; /* issued, fetched, completed something this cycle */
    uint64_t wheel_pending;
    /* What the dispatch reads every cycle, in a line of its own that the SM
     * writes only when a CTA starts or ends (and sm_cta_launch): in the
     * parallel engine the dispatch runs on another thread than the SM. */
    _Alignas(CACHE_LINE) uint32_t used_threads, used_warps, used_regs, used_shared, used_ctas;
    uint32_t *starting;   /* [nctas] CTA slots sm_cta_launch placed, warps not built yet */
    uint32_t nstarting;

    _Alignas(CACHE_LINE) struct sm_counters c;
};

/* Build SM `id` (policies resolved from cfg->sched and cfg->classifier).
 * The policy priv blocks of its units lie at priv + u * priv_stride, the
 * classifier's at cls_priv (zeroed, owned by the caller: the engine allocates
 * every SM's in one array per kind so that a policy's stats hook can sum over
 * all instances). */
int sm_init(struct sm *sm, uint32_t id, const struct gpu_config *cfg, struct mem_system *ms,
            char *priv, size_t priv_stride, void *cls_priv, struct err *e);
void sm_fini(struct sm *sm);

/* The issue-to-writeback latency of every enum inst_class on an SM of cfg,
 * lat[ICLASS_COUNT] (memory classes: the SP pipeline's; their real latency
 * is the memory system's).  Policies see it as sched_kernel.class_latency. */
void sm_class_latency(const struct gpu_config *cfg, uint32_t *lat);

/* Prepare for a launch (scoreboard sized for nregs registers). */
void sm_launch_begin(struct sm *sm, struct timing_launch *L, uint32_t nregs, uint64_t now);

/* Can CTA of the launch fit now?  (threads, warps, CTAs, regs, shared) */
int sm_cta_fits(const struct sm *sm, uint32_t threads, uint32_t warps, uint32_t regs,
                uint32_t shared);
/* Place CTA number `linear` of the launch on the SM: its resources are taken
 * now, its warps are built at the start of the SM's next sm_cycle (the same
 * cycle: the engine dispatches before the SMs' cycles).  That work touches
 * the SM alone, so in the parallel engine it runs on the SM's thread, which
 * then finds the CTA's registers in its own cache. */
void sm_cta_launch(struct sm *sm, uint32_t linear, uint32_t regs, uint32_t shared,
                   uint64_t now);

/* One core cycle. Returns WS_OK or an error (fault, instruction limit). */
int sm_cycle(struct sm *sm, uint64_t now, struct err *e);

/* Earliest cycle > now at which something internal can happen if no memory
 * event arrives (UINT64_MAX: nothing pending); *idle says the SM has no warp
 * ready to issue or fetch (so cycles may be skipped). */
uint64_t sm_next_event(const struct sm *sm, uint64_t now, int *idle);
/* Account `n` skipped cycles to the scheduler breakdown. */
void sm_skip(struct sm *sm, uint64_t n);

/* An SM asleep (serial and parallel engine): after sm_cycle(now) made no progress,
 * sm_sleep lets the SM skip its cycles until its next internal event
 * (sm_next_event's) or until something from outside changes what its cycle
 * would find: a CTA placed on it, a memory completion or store
 * acknowledgement, or, when a warp waits for the LD/ST unit, the unit
 * accepting.  Until then each of its cycles would classify its scheduler
 * units as the cycle before and change nothing else, so the engine does not
 * run them and sm_catch_up accounts them at once (sm_skip) when the SM
 * wakes or before anything reads its counters.  sm_awake(now): 1 when
 * sm_cycle(now) must run (the skipped cycles are then accounted). */
void sm_sleep(struct sm *sm, uint64_t now);
int sm_awake(struct sm *sm, uint64_t now);
void sm_catch_up(struct sm *sm, uint64_t now);

/* 1 while any CTA is resident. */
int sm_busy(const struct sm *sm);

/* ---- for the issue path (timing/issue.c) ---- */

/* Does any of the SM's policies read events of this kind?  Events of other
 * kinds are dropped, so a caller may skip building them. */
static inline int sm_wants(const struct sm *sm, uint32_t kind)
{
    return (int)(sm->ev_kinds >> kind & 1);
}
/* A policy event about SM slot `slot` (every unit when slot < 0). */
void sm_slot_event(struct sm *sm, int32_t slot, uint32_t kind, uint32_t pc, uint64_t now);
/* The same with a filled-in event (kind, pc, now and kind-specific fields):
 * to the classifier, then to the slot's scheduler unit. */
void sm_warp_event(struct sm *sm, int32_t slot, struct sched_event *ev);
/* PC of the warp's next instruction and its SIMT-active lane count
 * (PC_EXIT when it has finished). */
static inline uint32_t sm_lwm_next_pc(const struct sm_warp *w, uint32_t *active)
{
    const struct func_wide_warp *ww = &w->lw->ww;
    *active = 0;
    if (w->done || ww->depth == 0)
        return PC_EXIT;
    const uint32_t *m = ww->in_flight ? ww->pending : ww->stack[ww->depth - 1].mask;
    for (uint32_t r = 0; r < ww->rows; r++)
        *active += ws_popc32(m[r]);
    return ww->in_flight ? ww->pc : ww->stack[ww->depth - 1].pc;
}
/* Copy the functional warp's next PC and active lanes into the slot (after
 * its placement and after every functional step; not for large warps). */
static inline void sm_warp_sync(struct sm_warp *w)
{
    const struct func_warp *fw = w->fw;
    if (fw->state == FUNC_WARP_DONE || fw->depth == 0) {
        w->fpc = PC_EXIT;
        w->fact = 0;
        return;
    }
    const struct simt_entry *top = &fw->stack[fw->depth - 1];
    w->fpc = top->pc;
    w->fact = ws_popc32(top->mask);
    w->ftop = top;
    w->fregs = fw->cur_regs;
    w->fslot = fw->cur_slot;
}
static inline uint32_t sm_warp_next_pc(const struct sm_warp *w, uint32_t *active)
{
    if (w->lw)
        return sm_lwm_next_pc(w, active);
    if (w->absorbed || w->done || w->fpc == PC_EXIT) {
        *active = 0;
        return PC_EXIT;
    }
    *active = w->fact;
    return w->fpc;
}
/* Set or clear the slot's fetch_wait flag (and its bit in fetch_waiting). */
static inline void sm_set_fetch_wait(struct sm *sm, uint32_t slot, uint8_t v)
{
    sm->warps[slot].fetch_wait = v;
    if (v)
        sm->fetch_waiting[slot / 64] |= 1ull << (slot % 64);
    else
        sm->fetch_waiting[slot / 64] &= ~(1ull << (slot % 64));
}
/* Recompute the ready bits of one slot from its state. */
void sm_warp_refresh(struct sm *sm, uint32_t slot);
/* sm_warp_try_free of a valid slot whose warp is done. */
void sm_warp_free_finished(struct sm *sm, uint32_t slot, uint64_t now);
/* Free the slot when the warp finished and nothing of it is in flight. */
static inline void sm_warp_try_free(struct sm *sm, uint32_t slot, uint64_t now)
{
    const struct sm_warp *w = &sm->warps[slot];
    if (w->valid && w->done)
        sm_warp_free_finished(sm, slot, now);
}
/* After warp activity in CTA slot cta_slot, wake warps released from a barrier. */
void sm_barrier_scan(struct sm *sm, uint32_t cta_slot, uint64_t now);

/* A pipeline register of p free at cycle now, or -1. */
static inline int sm_pipe_free(const struct sm_pipe *p, uint64_t now)
{
    for (uint32_t j = 0; j < p->n; j++)
        if (p->free_at[j] <= now)
            return (int)j;
    return -1;
}

/* Deadlock report lines for every resident warp. */
void sm_dump(const struct sm *sm, FILE *out);
/* One-line summary of the resident warps ("CTA (x,y,z): warp 0 waits at
 * barrier 0 (PC 5, line 20); ...") appended to buf; returns the new length. */
size_t sm_summary(const struct sm *sm, char *buf, size_t len, size_t cap);
/* A CTA slot with warps waiting at a barrier and no barrier arrival, release
 * or warp exit for more than `limit` cycles before `now`, or -1. */
int32_t sm_livelocked(const struct sm *sm, uint64_t now, uint64_t limit);

#endif
