/* func.h: functional SIMT execution of one kernel launch.
 *
 * A struct func_kernel holds one launch (kernel, grid, block, parameter
 * buffer).  A struct func_cta holds the state of one CTA (its warps, shared
 * memory and barriers).  func_warp_step() executes the instruction at a
 * warp's PC for its active lanes, updates the warp's SIMT stack (PDOM
 * reconvergence, SPEC-policies.md 1.2) and fills a struct func_trace that a
 * timing model can consume.  func_run_kernel() is the functional driver: it
 * runs every CTA to completion.  Warps wider than 32 lanes (rows of these
 * warps under one SIMT stack) are in func/wide.h.
 *
 * Ownership: the kernel borrows the module, analysis, device memory and
 * statistics from its caller (the API's gpu); a CTA owns its warps and shared
 * memory; a warp owns its SIMT stack, call frames, registers and local/param
 * memory.  CTA objects are reusable across CTAs (func_cta_init resets). */
#ifndef WS_FUNC_FUNC_H
#define WS_FUNC_FUNC_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "base/err.h"
#include "func/mem.h"
#include "ptx/ir.h"

#define FUNC_WARP_SIZE 32
#define FUNC_NUM_BARRIERS 16
#define FUNC_MAX_CALL_DEPTH 1024

enum func_order { FUNC_ORDER_SERIAL = 0, FUNC_ORDER_INTERLEAVED };

struct func_config {
    uint64_t local_memory_per_thread; /* bytes of local (stack) memory per thread */
    uint64_t max_warp_insn;           /* per launch; 0 = unlimited */
    uint32_t racecheck;               /* 1: report shared-memory hazards (racecheck.h) */
    uint32_t order;                   /* enum func_order: func_run_kernel's order */
    uint32_t window;                  /* interleaved order: CTAs run together */
    uint32_t oob_read_zero;           /* global reads outside allocations give 0 */
};

struct func_stats {
    uint64_t gpu_sim_insn;      /* thread instructions executed (guard true), as GPGPU-Sim */
    uint64_t simt_active_lanes; /* SIMT-active lanes per warp insn, guard-false included */
    uint64_t warp_insn;
    uint64_t kernels_launched, ctas_launched, warps_launched;
    uint64_t class_insn[ICLASS_COUNT]; /* warp instructions per enum inst_class */
    uint64_t racecheck_hazards; /* thread accesses in a shared-memory hazard (racecheck) */
    uint64_t oob_reads_zeroed;  /* thread reads oob_read_zero answered with 0 */
    /* events of the energy model (analysis/power.h), per warp instruction */
    uint64_t rf_reads, rf_writes, non_rf_operands; /* warp operands */
    uint64_t unit_acc[POWER_UNIT_COUNT];          /* GPUWattch SP/FPU/SFU_ACC */
};

struct func_kernel;
struct func_cta;
struct func_warp;
struct func_trace;

/* Optional observer of every warp instruction the functional driver
 * (func_run_kernel) executes, e.g. the DAWS load profiler (src/profile). */
typedef void (*func_trace_fn)(void *ctx, const struct func_kernel *k, const struct func_cta *c,
                              const struct func_warp *w, const struct func_trace *t);

/* Everything a launch borrows from the gpu. */
struct func_env {
    struct dev_mem *mem;
    FILE *out; /* the simulated program's printf output */
    struct func_config cfg;
    struct func_stats *stats;
    func_trace_fn trace_fn; /* NULL: none */
    void *trace_ctx;
    const volatile sig_atomic_t *interrupt; /* set (Ctrl-C): stop at the next check; NULL: none */
};

enum simt_type { SIMT_NORMAL = 0, SIMT_CALL = 1 };

struct simt_entry {
    uint32_t pc;   /* next PC; PC_EXIT = at the function's exit */
    uint32_t rpc;  /* reconvergence PC */
    uint32_t mask; /* active lanes */
    uint32_t type; /* enum simt_type */
};

struct call_frame {
    uint32_t func;     /* function index */
    uint32_t call_pc;  /* PC of the call instruction (callers only) */
    uint64_t reg_base; /* in uint64 units into warp->regs */
    uint64_t local_base, param_base; /* per-thread byte offsets */
    const uint32_t *slot; /* the function's register -> storage slot (analysis.h) */
};

enum func_warp_state {
    FUNC_WARP_READY = 0,
    FUNC_WARP_AT_BARRIER,
    FUNC_WARP_DONE,
};

struct func_warp {
    uint32_t id;        /* warp index in its CTA */
    uint32_t init_mask; /* lanes that exist (partial last warp) */
    uint32_t exited;    /* lanes that executed exit/ret from the kernel */
    uint32_t state;     /* enum func_warp_state */
    uint32_t carry;     /* per-lane carry flag (add.cc / addc) */
    uint64_t ninsn;     /* warp instructions executed (drives %clock) */

    struct simt_entry *stack;
    uint32_t depth, stack_cap;
    struct call_frame *frames;
    uint32_t nframes, frames_cap;

    uint64_t *regs; /* register frames: frame.reg_base + frame.slot[r] * 32 + lane */
    size_t regs_cap;
    uint64_t *cur_regs;       /* registers of the current frame */
    const uint32_t *cur_slot; /* and their slots (the current frame's slot) */
    uint32_t cur_func;        /* the current frame's function */

    uint8_t *local; /* per lane: local + lane * local_cap */
    uint64_t local_cap, local_top;
    uint8_t *param; /* per-thread param frames: param + lane * param_cap */
    uint64_t param_cap, param_top;

    uint32_t tid[3][FUNC_WARP_SIZE];

    /* barrier wait */
    uint32_t bar_id, bar_pc, bar_red_mask;
    uint32_t bar_red_dst; /* register of bar.red's result, PTX_NO_INDEX if none */
    uint8_t bar_red_op;   /* enum ptx_sub */
};

struct func_barrier {
    uint32_t arrived_warps;
    uint32_t arrived_threads;
    uint32_t expected; /* thread count given by the instruction, 0 = all live warps */
    uint32_t waiting;  /* warps waiting (those that arrived with a sync) */
    uint32_t red_popc, red_and, red_or;
};

struct func_kernel;
struct func_sink; /* func/sink.h */

struct func_cta {
    struct func_kernel *k;
    uint32_t ctaid[3];
    uint32_t linear;
    struct func_warp *warps;
    uint32_t nwarps, warps_cap;
    uint32_t live_warps; /* warps not DONE */
    uint8_t *shared;
    uint64_t shared_size, shared_cap;
    struct func_barrier bars[FUNC_NUM_BARRIERS];
    struct race_shadow *race; /* racecheck: the shadow of shared memory, else NULL */
    struct func_sink *sink; /* NULL: execute in place; else device-memory effects and step
                               counters are deferred to it (func/sink.h); kept by
                               func_cta_init */
};

struct func_kernel {
    const struct ptx_module *m;
    const struct analysis *an;
    uint32_t func; /* the .entry */
    uint32_t grid[3], block[3];
    uint32_t dyn_shared;
    uint32_t threads_per_cta, warps_per_cta;
    uint8_t *params; /* kernel parameter buffer (owned) */
    uint64_t param_size;
    struct func_env *env;
    uint64_t warp_insn; /* executed in this launch (for max_warp_insn) */
    struct race_log *races; /* racecheck: hazards found, NULL until the first */
};

/* What one warp instruction did, for the timing model. */
struct func_trace {
    uint32_t pc;
    uint32_t active;   /* SIMT active mask before the guard */
    uint32_t mask;     /* lanes that executed (after the guard) */
    uint8_t iclass;    /* enum inst_class */
    uint8_t space;     /* memory instructions: enum ptx_space as resolved (generic
                          accesses report PTX_SPACE_NONE) */
    uint8_t size;      /* bytes per lane of a memory access (vector: total) */
    uint8_t is_mem, is_store, is_atomic;
    uint8_t diverged;  /* branch split the warp */
    uint8_t barrier;   /* warp arrived at a barrier and waits */
    uint8_t exited;    /* every lane of the warp has finished */
    uint64_t addr[FUNC_WARP_SIZE]; /* memory: per-lane address (in its space) */
};

/* Build a launch: validates nothing about the configuration (the API does);
 * copies `params` (param_size bytes). */
void func_kernel_init(struct func_kernel *k, struct func_env *env, const struct ptx_module *m,
                      const struct analysis *an, uint32_t func, const uint32_t grid[3],
                      const uint32_t block[3], uint32_t dyn_shared, const uint8_t *params,
                      uint64_t param_size);
void func_kernel_fini(struct func_kernel *k);

/* (Re)initialise `c` as CTA number `linear` (x fastest) of launch k. */
void func_cta_init(struct func_cta *c, struct func_kernel *k, uint32_t linear);
void func_cta_fini(struct func_cta *c);

/* Execute one instruction of warp w (state must be READY).  Returns WS_OK or
 * an error (fault, unsupported instruction, ...). */
int func_warp_step(struct func_cta *c, struct func_warp *w, struct func_trace *t,
                   struct err *e);

/* Functional driver: run every CTA of k to completion.  Serial order (the
 * default): CTAs one after another, inside a CTA each warp runs until it
 * waits at a barrier or finishes, then the next.  Interleaved order
 * (func_config.order): cfg.window CTAs at a time, every ready warp of them
 * one instruction in turn (CTA order, then warp order), a finished CTA
 * replaced by the next. */
int func_run_kernel(struct func_kernel *k, struct err *e);
/* CTAs first and after of k in the serial order (counted as CTAs and warps
 * launched, not as a kernel launch): with first > 0 the functional
 * fast-forward of sampled simulation. */
int func_run_ctas(struct func_kernel *k, uint64_t first, struct err *e);

#endif
