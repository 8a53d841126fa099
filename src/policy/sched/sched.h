/* sched.h: the warp-scheduler contract.  The SM decides who CAN issue; the
 * policy decides who DOES.
 *
 * One scheduler instance per (SM, scheduler unit).  Each cycle in which the
 * unit may issue, the SM fills a struct sched_view (read-only, structure of
 * arrays indexed by the unit's warp slots) and calls pick() once.  pick()
 * returns a slot whose `ready` bit is set, or -1 to issue nothing (either
 * nothing is ready, or the policy holds ready warps back: the SM counts such
 * cycles as "held back by the policy").  A policy must never return a slot
 * that is not ready (the conformance test checks this) and must be
 * deterministic.
 *
 * Mechanisms that need to observe the machine (last issued warp, loads,
 * cache hits and evictions, barriers, warp exit) get struct sched_event
 * through on_event(); they keep all their state in their own priv block,
 * which the SM allocates (priv_size bytes, zeroed) — no malloc inside a
 * policy.  A policy file includes only this header, params.h and base/.
 *
 * Add a policy: create src/policy/sched/NAME.c ending with
 *     SCHED_POLICY(NAME, .desc = "...", .priv_size = ..., .pick = ...);
 * The build collects every file in this folder; `--sched NAME` then works. */
#ifndef WS_POLICY_SCHED_H
#define WS_POLICY_SCHED_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "policy/params.h"

#define SCHED_MAX_WARPS 64 /* slots per scheduler unit; bitsets are one word */

struct pc_info; /* analysis/analysis.h: static per-PC facts */
struct pc_phase; /* analysis/phase.h: phase distance and length per PC */
struct analysis;
struct ptx_module;
struct stats;

struct sched_view {
    uint32_t nslots;          /* warp slots of this unit (<= SCHED_MAX_WARPS) */
    uint64_t valid;           /* bit i: slot i holds a live warp */
    uint64_t ready;           /* bit i: its next instruction can issue now */
    uint64_t next_is_load;    /* bit i: next instruction is a global/local load */
    uint64_t next_is_mem;     /* bit i: next instruction is any memory instruction */
    uint64_t long_op_pending; /* bit i: waits on a long-latency (global/local) load */
    uint64_t next_waits_long; /* bit i: its next instruction reads (or rewrites) a register
                                 a long-latency load has not yet written */
    uint64_t at_barrier;      /* bit i: waits at a CTA barrier */
    const uint64_t *age;      /* [nslots] dynamic warp id: smaller = older */
    const uint32_t *pc;       /* [nslots] next PC */
    const uint32_t *active;   /* [nslots] active lane count of the next instruction */
    const uint32_t *cta;      /* [nslots] CTA slot on the SM */
    const struct pc_info *pcinfo; /* static facts of the running module, by PC */
    const uint32_t *warp_tag; /* [nslots] tag the SM's classifier published for the warp
                                 (policy/classify/classify.h; 0 with classifier none) */
    const int64_t *warp_score;/* [nslots] score it published (e.g. CAWA criticality; 0
                                 with classifier none) */
    int32_t last_issued;      /* slot issued most recently by this unit, -1 if none */
    uint64_t now;             /* core cycle */
};

enum sched_event_kind {
    SCHED_EV_WARP_LAUNCH,  /* slot, age, cta, cta_id, warp_in_cta: a new warp occupies
                              the slot */
    SCHED_EV_WARP_EXIT,    /* slot: the warp finished */
    SCHED_EV_ISSUE,        /* slot, pc, next_pc, taken: an instruction issued */
    SCHED_EV_BARRIER,      /* slot, pc: the warp arrived at a barrier */
    SCHED_EV_BARRIER_RELEASE, /* cta: every warp of the CTA passed the barrier */
    SCHED_EV_LOAD_DONE,    /* slot, pc: a long-latency load wrote back */
    SCHED_EV_L1D_ACCESS,   /* slot, pc, addr (line), hit, is_write, own_line, merged: an
                              L1D access by this unit's warp (hit: the line was valid;
                              merged: the line was pending in an MSHR, GPGPU-Sim's
                              HIT_RESERVED: a read merged into it, or a store to it;
                              reservation failures send no event) */
    SCHED_EV_L1D_EVICT,    /* slot (of the warp that allocated the line; -1 if that warp
                              is not on this unit), addr (line): eviction at miss time */
    SCHED_EV_MEM_ISSUE,    /* slot, pc, lanes, accesses, is_write, space: a global/local
                              memory instruction entered the LD/ST unit; accesses = the
                              number the coalescer produced (memory divergence) */
    SCHED_EV_STORE,        /* addr (line): a global store reached the L1D (every unit of
                              the SM sees it, slot may be another unit's) */
    SCHED_EV_KERNEL_START, /* kernel: static facts of the kernel being launched */
    SCHED_EV_L2_ACCESS,    /* slot, pc, age, addr (L2 line), hit, is_write: the L2 tag
                              lookup of a request this unit's warp sent (reads, writes and
                              atomics; hit: the line was valid, a merge into a pending
                              miss is hit = 0).  The L2 runs in its own clock domain:
                              `now` is the core cycle whose memsys_cycle() stepped the L2
                              tick that did the lookup.  The warp may have left the slot
                              meanwhile (compare age).  Requests that bypass the L2 have
                              no lookup and send no event. */
};

/* The bit of an event kind in a policy's `events` mask. */
#define SCHED_EV_BIT(kind) (1u << (kind))

/* What a policy may know about the launched kernel (read-only, valid while
 * the kernel runs), and its per-kernel scratch area: when the policy has a
 * kernel_scratch op, the core allocates that many bytes (zeroed, max_align_t
 * aligned) for this instance before the event; scratch is NULL when the size
 * is 0.  The area is the policy's to write until the next kernel starts. */
/* Where a PC's loads are read from at the running configuration. */
enum load_path {
    LOAD_PATH_NONE = 0, /* not a global or local load */
    LOAD_PATH_L1D,      /* global and local loads, surface loads */
    LOAD_PATH_TEX,      /* texture fetches; ld.global.nc when tex.nc sends them there */
};

struct sched_kernel {
    const char *name;                /* kernel (entry) name */
    uint32_t func;                   /* index of the entry in the module */
    const struct ptx_module *m;      /* src/ptx/ir.h */
    const struct analysis *an;       /* src/analysis/analysis.h: loops, pc_info (phase id,
                                        basic-block length), phases */
    uint32_t l1d_lines;              /* L1D capacity in lines (sets x ways) */
    const uint32_t *class_latency;   /* [ICLASS_COUNT] the SM's issue-to-writeback latency
                                        of each enum inst_class (memory classes: the SP
                                        pipeline's; their real latency is the memory's) */
    const struct pc_phase *phase;    /* [m->ninsts] phase distance and length of every PC
                                        at class_latency (src/analysis/phase.h) */
    const uint8_t *path;             /* [m->ninsts] enum load_path of every PC: policies
                                        that model the L1D's footprint count LOAD_PATH_L1D */
    void *scratch;                   /* this instance's scratch, or NULL */
    size_t scratch_size;             /* bytes */
};

struct sched_event {
    uint32_t kind;  /* enum sched_event_kind */
    int32_t slot;   /* warp slot of this unit, -1 if not applicable */
    uint32_t pc;
    uint32_t cta;
    uint64_t age;
    uint64_t addr;
    uint8_t hit;
    uint8_t is_write;
    uint8_t own_line;  /* L1D hit on a line allocated by the same warp */
    uint8_t merged;    /* SCHED_EV_L1D_ACCESS: the line was pending in an MSHR */
    uint8_t space;     /* enum ptx_space of a memory instruction (resolved) */
    uint32_t lanes;    /* active lanes of the instruction */
    uint32_t accesses; /* coalesced accesses of a memory instruction */
    const struct sched_kernel *kernel; /* SCHED_EV_KERNEL_START */
    uint32_t next_pc;  /* SCHED_EV_ISSUE: the warp's next PC (PC_EXIT when it finished;
                          after a diverged branch, the path that runs first) */
    uint8_t taken;     /* SCHED_EV_ISSUE: a bra whose next_pc is not pc + 1 */
    uint8_t cont;      /* SCHED_EV_ISSUE: a later sub-warp of a large-warp instruction
                          (sm.issue_model=lwm), not the instruction's first issue */
    uint64_t cta_id;   /* SCHED_EV_WARP_LAUNCH: the CTA's linear index in the grid */
    uint32_t warp_in_cta; /* SCHED_EV_WARP_LAUNCH: the warp's index within its CTA */
    uint64_t now;
};

struct sched_init {
    uint32_t nslots;   /* warp slots of this unit */
    uint32_t sm;       /* SM index */
    uint32_t unit;     /* scheduler unit within the SM */
    uint32_t n_units;  /* scheduler units per SM */
};

struct sched_ops {
    const char *name;
    const char *desc;                 /* one line; cites the paper */
    size_t priv_size;
    const struct param_desc *params;  /* NULL-terminated, or NULL */
    int (*init)(void *priv, const struct param_set *p, const struct sched_init *in,
                struct err *e);                                  /* optional */
    int (*pick)(void *priv, const struct sched_view *v);        /* required */
    void (*on_event)(void *priv, const struct sched_event *ev); /* optional */
    /* the kinds on_event reads (SCHED_EV_BIT of each; required with it): the
     * core delivers no other kind, and builds no event nobody reads */
    uint32_t events;
    /* optional: bytes of per-kernel scratch this instance needs for kernel k
     * (e.g. from k->m->ninsts or k->an->nphases); called before its
     * SCHED_EV_KERNEL_START, which carries the area in ev->kernel->scratch. */
    size_t (*kernel_scratch)(const void *priv, const struct sched_kernel *k);
    /* optional: register the policy's own counters (names prefixed "sched_")
     * and timeline columns.  Called once, with the first instance's priv; the
     * instances of every SM and unit lie `stride` bytes apart in one array,
     * so pass count = instances and stride to stats_counter() to sum them. */
    void (*stats)(void *priv, struct stats *s, uint32_t instances, size_t stride);
};

#define SCHED_POLICY(id, ...) const struct sched_ops sched_policy_##id = {.name = #id, __VA_ARGS__}

/* Helpers shared by policies (src/policy/sched_util.c). */
/* Oldest (smallest age) slot among the bits of `set`, or -1. */
int sched_oldest(const struct sched_view *v, uint64_t set);
/* First slot in `set` at or after `start` in round-robin order, or -1. */
int sched_round_robin(uint64_t set, uint32_t nslots, uint32_t start);

#endif
