/* memsys.h: the memory system as the SM core sees it.
 *
 * Data flow of one warp memory instruction issued at SM s:
 *   memsys_issue() -> LD/ST unit of s: coalescer (global/local), bank-conflict
 *   model (shared), constant cache (const/param) -> L1D (reserve-on-miss,
 *   MSHR merge, miss queue) -> interconnect request network -> L2 sub-
 *   partition (per-bank queues, banks, ports) -> DRAM channel (FR-FCFS or
 *   another dram policy, banks, row buffers, GDDR timing) -> reply network ->
 *   L1D fill -> the instruction's data is complete -> memsys_pop_done().
 * The SM owns warps, scoreboards and issue; everything from the LD/ST unit's
 * input register onwards is owned here.  The memory system never sees
 * register values: functional execution has already happened at issue.
 *
 * Clock domains: memsys_cycle() is called once per core cycle and advances
 * the interconnect, L2 and DRAM clocks by their frequency ratios
 * (gpu_config *_mhz), so their latencies are in their own cycles. */
#ifndef WS_TIMING_MEMSYS_H
#define WS_TIMING_MEMSYS_H

#include <stdint.h>

#include "base/err.h"
#include "config/config.h"
#include "policy/sched/sched.h" /* struct sched_event: memory events for policies */

struct stats;
struct dev_mem;
struct mem_system;

/* One warp-level memory instruction, filled by the SM at issue. */
struct mem_inst {
    uint32_t sm;
    uint32_t slot;       /* warp slot on the SM */
    uint64_t age;        /* dynamic warp id */
    uint32_t cta;        /* CTA slot on the SM */
    uint32_t pc;
    uint8_t space;       /* enum ptx_space as written (PTX_SPACE_NONE = generic:
                            the memory system resolves it per lane by address) */
    uint8_t is_store;
    uint8_t is_atomic;
    uint8_t size;        /* bytes accessed per lane (vector: total) */
    uint32_t mask;       /* lanes that access memory */
    uint64_t addr[32];   /* per-lane address in its space (func_trace.addr) */
    uint32_t token;      /* returned by memsys_pop_done() when complete */
    uint32_t policy_tag; /* carried by every request (MeDiC warp type, CAWA ...) */
};

typedef void (*memsys_listener)(void *ctx, const struct sched_event *ev);

/* Build from the configuration; policies resolved by name from
 * cfg->l1d.policy, cfg->l2.policy, cfg->dram_sched (errors name the key).
 * `mem` resolves generic addresses to spaces.  Counters are registered in s. */
int memsys_new(const struct gpu_config *cfg, const struct dev_mem *mem, struct stats *s,
               struct mem_system **out, struct err *e);
void memsys_free(struct mem_system *ms);

/* Events (L1D access with hit/miss, L1D eviction naming the warp slot that
 * allocated the line, ...) of the kinds in `kinds` (SCHED_EV_BIT of each) for
 * the policies of SM sm; ev->slot is the SM warp slot.  Other kinds are not
 * built. */
void memsys_set_listener(struct mem_system *ms, uint32_t sm, memsys_listener fn, void *ctx,
                         uint32_t kinds);

/* Can SM sm's LD/ST unit accept an instruction this cycle? */
int memsys_can_issue(const struct mem_system *ms, uint32_t sm);
/* Hand over an issued memory instruction (copied). */
void memsys_issue(struct mem_system *ms, const struct mem_inst *mi, uint64_t now);
/* Next completed instruction of SM sm: loads/atomics when all their data has
 * returned (the SM then releases the scoreboard), stores when they have left
 * the LD/ST unit.  Returns 1 and sets *token, or 0 if none. */
int memsys_pop_done(struct mem_system *ms, uint32_t sm, uint32_t *token);
/* sm.store_ack: a warp slot whose stores are all acknowledged now (the SM may
 * free the warp, a fence may pass); and whether a slot has stores pending. */
int memsys_pop_acked(struct mem_system *ms, uint32_t sm, uint32_t *slot);
int memsys_stores_pending(const struct mem_system *ms, uint32_t sm, uint32_t slot);
/* 1 while memsys_pop_done or memsys_pop_acked has something for SM sm. */
int memsys_has_completions(const struct mem_system *ms, uint32_t sm);

/* Instruction fetch of the line holding `addr` for SM sm: returns 1 on an
 * L1I hit; on a miss returns 0 and sets *ready_at to the core cycle the line
 * will be available (the SM retries then). */
int memsys_ifetch(struct mem_system *ms, uint32_t sm, uint64_t addr, uint64_t now,
                  uint64_t *ready_at);
/* Lines [lo, hi) of the instruction address space present in SM sm's
 * instruction cache as if fetched long ago (nothing counted): what a launch
 * that ran functionally would have left there (timing_skip). */
void memsys_l1i_warm(struct mem_system *ms, uint32_t sm, uint64_t lo, uint64_t hi);
/* An access of `bytes` at addr (within one L2 line; a write when is_write)
 * by work that ran functionally, left in the L2 as if it had run long ago
 * (functional warming of sampled simulation; nothing counted, no traffic):
 * a present line is promoted as by a hit, a missing one allocated (the L2
 * policy choosing the victim, as for a miss; a bypassing policy is not
 * asked), a write leaves it dirty. */
void memsys_l2_warm(struct mem_system *ms, uint64_t addr, uint32_t bytes, int is_write);
/* The same for SM sm's L1D and a global access at addr: a read's line is
 * promoted or allocated (unless the policy bypasses it), a write invalidates
 * a present line (evict on write). */
void memsys_l1d_warm(struct mem_system *ms, uint32_t sm, uint64_t addr, int is_write);

/* Advance one core cycle (and the other domains by their ratio): the three
 * steps below, with every SM's LD/ST unit in SM order. */
void memsys_cycle(struct mem_system *ms, uint64_t now);
/* The same in steps, for the engine, which steps an SM's LD/ST unit right
 * after the SM, on the SM's thread (docs/parallel.md):
 * - memsys_cycle_begin: the clocks catch up over skipped cycles; returns the
 *   core cycle to step (now, or the next one if now was stepped already);
 * - memsys_ldst_cycle for SM s: its LD/ST unit takes one reply from the
 *   reply network (L1 fill or direct completion), advances the current
 *   instruction by one access and completes data whose latency has elapsed;
 *   it touches that unit alone (its own counters and request free list);
 * - memsys_cycle_end: the interconnect, the L2 slices and DRAM step, then
 *   the units' free lists are refilled or drained (in SM order). */
uint64_t memsys_cycle_begin(struct mem_system *ms, uint64_t now);
void memsys_ldst_cycle(struct mem_system *ms, uint32_t s, uint64_t now);
void memsys_cycle_end(struct mem_system *ms);
/* 1 when the LD/ST units must step one after another in SM order in the
 * next cycle: the request pool is nearly exhausted and they share its one
 * free list (memsys.c).  Otherwise each unit allocates from a list of its
 * own, and they may step at once. */
int memsys_pool_tight(const struct mem_system *ms);

/* 1 if any request is anywhere in flight. */
int memsys_busy(const struct mem_system *ms);
/* Earliest core cycle >= now at which memsys_cycle can change anything
 * observable (for skipping idle cycles); `now` when unknown; UINT64_MAX when
 * nothing is in flight.  Completions produced by memsys_cycle(t) are meant to
 * be popped by the SM at t + 1 (SM step, then memsys_cycle, each cycle).
 * The caller may skip calls for cycles before this one: memsys_cycle(now)
 * then fast-forwards the other clock domains. */
uint64_t memsys_next_event(const struct mem_system *ms, uint64_t now);

/* Deadlock report: print what is waiting where (queues, MSHRs). */
void memsys_dump(const struct mem_system *ms, FILE *out);

/* A kernel ended: with l1d.flush every L1D and constant cache is
 * invalidated, with l2.flush every L2 slice (no write-back traffic is timed;
 * device memory is functional and already current).  The lines dropped are
 * counted in l1d_flushed / l2_flushed. */
void memsys_kernel_end(struct mem_system *ms);

/* A host-to-device copy of [addr, addr + bytes): with l2.memcpy_fill its
 * lines are placed in their L2 slices as clean valid lines (no timing; a
 * line that finds every way of its set pending is skipped), counted in
 * l2_memcpy_fills. */
void memsys_memcpy_fill(struct mem_system *ms, uint64_t addr, uint64_t bytes);

#endif
