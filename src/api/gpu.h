/* gpu.h: the internals behind the public handles of include/warpsim.h, for
 * other simulator modules (the timing model, the CUDA runtime): a ws_module
 * gives access to its parsed PTX and its static analysis; a ws_gpu to its
 * device memory, options, statistics and timing model.
 *
 * Ownership: the gpu owns its modules (freed by ws_gpu_free), each module
 * owns its ptx_module and analysis; device memory belongs to the gpu. */
#ifndef WS_API_GPU_H
#define WS_API_GPU_H

#include <stdio.h>

#include "analysis/analysis.h"
#include "base/err.h"
#include "config/config.h"
#include "func/func.h"
#include "func/mem.h"
#include "ptx/ir.h"
#include "warpsim.h"

#define GPU_MODE_MAX 32

struct ws_module {
    struct ws_gpu *gpu;
    struct ptx_module *ptx;
    struct analysis *an;
};

struct ws_gpu {
    struct err err;        /* last failure */
    struct dev_mem mem;
    FILE *out;             /* printf output of simulated programs */
    char mode[GPU_MODE_MAX];
    uint64_t device_memory;
    struct func_config cfg;
    struct func_stats stats;
    struct ws_module **mods;
    size_t nmods, mods_cap;
    /* timing model (added with the cycle-level timing model) */
    struct gpu_config config;  /* every option; mode/cfg/device_memory mirror it */
    struct stats *st;          /* statistics registry (functional counters too) */
    struct timing *timing;     /* built at the first timing launch */
    struct sampler *sampler;   /* sampled simulation, built with the timing model */
    char *report;              /* last deadlock report of the timing model */
    ws_progress_fn progress;
    void *progress_ctx;
    func_trace_fn trace_fn;    /* functional mode: observer of every warp instruction */
    void *trace_ctx;
    uint32_t launches;
    const volatile sig_atomic_t *interrupt; /* ws_gpu_set_interrupt */
};

/* Accessors for modules that only hold a handle. */
static inline const struct ptx_module *gpu_module_ptx(const ws_module *m)
{
    return m->ptx;
}

static inline const struct analysis *gpu_module_analysis(const ws_module *m)
{
    return m->an;
}

#endif
