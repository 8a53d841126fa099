/* warpsim.h: the public C API of the warpsim GPU simulator.
 *
 * A host program creates a simulated GPU, loads PTX modules into it,
 * allocates and fills device memory, launches kernels and reads statistics,
 * much as it would with the CUDA driver API:
 *
 *     ws_gpu *gpu;
 *     ws_gpu_new(&gpu);
 *     ws_module *mod;
 *     if (ws_module_load_file(gpu, "vecadd.ptx", &mod) != WS_OK)
 *         fprintf(stderr, "%s\n", ws_last_error(gpu));
 *     ws_devptr a;
 *     ws_malloc(gpu, n * sizeof(float), &a);
 *     ws_memcpy_htod(gpu, a, host_a, n * sizeof(float));
 *     void *args[] = { &a, &n };
 *     ws_launch(mod, "vecadd", ws_dim(blocks, 1, 1), ws_dim(256, 1, 1), 0, args);
 *
 * Every function that can fail returns an enum ws_status; on failure the
 * message is available from ws_last_error().  The library never calls exit()
 * and never prints except for the simulated program's own printf output.
 *
 * Ownership: the gpu owns its modules and its device memory; ws_gpu_free()
 * releases everything. */
#ifndef WARPSIM_H
#define WARPSIM_H

#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

enum ws_status {
    WS_OK = 0,
    WS_ERR_INVALID,     /* bad argument or option (names the option/argument) */
    WS_ERR_PARSE,       /* malformed PTX: file:line:column and the token */
    WS_ERR_UNSUPPORTED, /* valid PTX that warpsim does not implement (names it) */
    WS_ERR_NOT_FOUND,   /* unknown kernel, symbol or workload */
    WS_ERR_NOMEM,       /* simulated device memory exhausted */
    WS_ERR_FAULT,       /* kernel fault: kernel, PC, thread and address */
    WS_ERR_LAUNCH,      /* launch configuration rejected (names the limit) */
    WS_ERR_DEADLOCK,    /* a barrier or the watchdog found no progress */
    WS_ERR_IO,          /* a file could not be read or written */
    WS_ERR_VERIFY,      /* a workload's result differs from its CPU reference */
    WS_ERR_INTERRUPTED, /* stopped by the interrupt flag (ws_gpu_set_interrupt) */
    WS_ERR_MISALIGNED,  /* kernel fault: an access not aligned to its size (as WS_ERR_FAULT) */
};

typedef struct ws_gpu ws_gpu;
typedef struct ws_module ws_module;
typedef uint64_t ws_devptr; /* a device address (generic address space) */

typedef struct ws_dim3 {
    uint32_t x, y, z;
} ws_dim3;

static inline ws_dim3 ws_dim(uint32_t x, uint32_t y, uint32_t z)
{
    ws_dim3 d = {x, y, z};
    return d;
}

/* ---- GPU ------------------------------------------------------------------ */

int ws_gpu_new(ws_gpu **out);
void ws_gpu_free(ws_gpu *gpu);

/* Set a named configuration option before the first launch, e.g.
 * ws_gpu_set(gpu, "mode", "functional").  Unknown keys and invalid values are
 * rejected with WS_ERR_INVALID and a message naming the key and the allowed
 * values.  ws_gpu_options() lists the keys with their documentation. */
int ws_gpu_set(ws_gpu *gpu, const char *key, const char *value);
void ws_gpu_options(FILE *out);

/* Load a configuration: a preset name (gtx480, daws, paws, lwm, medic, cawa),
 * a file of "key = value" lines, or a GPGPU-Sim gpgpusim.config (the
 * options of which warpsim models nothing are named on stderr as warnings). */
int ws_gpu_load_config(ws_gpu *gpu, const char *preset_or_path);

/* Check the whole configuration now, as the first launch would: cross-key
 * rules (sm.threads a multiple of 32, cache geometry, ...) and, in timing
 * mode, building the timing model once with every policy and its parameters
 * (scheduler limits, load profile files).  Front ends call it after the
 * options so that a bad one is reported before any run starts.  Changes
 * nothing: the first launch still builds its own timing model. */
int ws_gpu_check(ws_gpu *gpu);

/* Print the effective configuration as "key = value" lines: every key in
 * timing mode; in functional mode only the keys functional execution reads
 * (mode, device_memory, local_memory_per_thread, max_warp_insn).  The stats
 * JSON (ws_stats_write_json) always records every key. */
void ws_gpu_print_config(const ws_gpu *gpu, FILE *out);

/* Progress callback of timing-mode launches: called every few tens of
 * thousands of simulated cycles with the cycles and thread instructions so
 * far (over every launch) and the launch number (1-based). */
typedef void (*ws_progress_fn)(void *ctx, uint64_t cycles, uint64_t insn, uint32_t launch);
void ws_gpu_set_progress(ws_gpu *gpu, ws_progress_fn fn, void *ctx);

/* Interrupt flag: while *flag is nonzero, a running timing-mode launch stops
 * at the next cycle with WS_ERR_INTERRUPTED; ws_deadlock_report() then says
 * where every resident warp was (SM, warp, PC, source line) and the
 * statistics so far stay readable.  Meant for a SIGINT handler that sets
 * the flag; NULL (the default) disables it. */
void ws_gpu_set_interrupt(ws_gpu *gpu, const volatile sig_atomic_t *flag);

/* Where the simulated program's printf output goes (default stdout). */
void ws_gpu_set_output(ws_gpu *gpu, FILE *out);

/* Message of the last failed call on this gpu ("" if none). */
const char *ws_last_error(const ws_gpu *gpu);
const char *ws_status_name(int status);

/* ---- Modules -------------------------------------------------------------- */

/* Parse and analyse PTX.  `name` is used in error messages (file:line:col). */
int ws_module_load_file(ws_gpu *gpu, const char *path, ws_module **out);
int ws_module_load_string(ws_gpu *gpu, const char *ptx, const char *name, ws_module **out);

/* Registers per thread that ptxas reports for a kernel ("Used N registers"),
 * as GPGPU-Sim reads them: the timing model's occupancy uses it unless
 * sm.regs_per_thread is set; without it, warpsim estimates from the PTX.
 * Statistics kernel_regs_{configured,ptxas,estimated} count which was used. */
int ws_module_set_regs(ws_module *mod, const char *kernel, unsigned regs);

/* Module-level `.global .attribute(.managed)` variables (CUDA __managed__)
 * are placed at multiples of WS_MANAGED_ALIGN, alone in the WS_MANAGED_ALIGN
 * pages their size rounds up to, so that a runtime can map them at the same
 * address in the host process (any host page size up to 64 KiB). */
#define WS_MANAGED_ALIGN 65536u

/* Device address and size of a module-level .global/.const variable. */
int ws_module_symbol(ws_module *mod, const char *name, ws_devptr *addr, size_t *size);

/* ---- Memory --------------------------------------------------------------- */

int ws_malloc(ws_gpu *gpu, size_t bytes, ws_devptr *out);
int ws_free(ws_gpu *gpu, ws_devptr ptr);
int ws_memcpy_htod(ws_gpu *gpu, ws_devptr dst, const void *src, size_t bytes);
int ws_memcpy_dtoh(ws_gpu *gpu, void *dst, ws_devptr src, size_t bytes);
int ws_memcpy_dtod(ws_gpu *gpu, ws_devptr dst, ws_devptr src, size_t bytes);
int ws_memset(ws_gpu *gpu, ws_devptr dst, int value, size_t bytes);

/* ---- Launch --------------------------------------------------------------- */

/* Launch `kernel` and run it to completion.  args[i] points at the value of
 * parameter i (as with cudaLaunchKernel); sizes come from the kernel's PTX
 * signature.  Returns WS_ERR_FAULT (with kernel, PC, thread, address) if the
 * kernel performs an invalid access. */
int ws_launch(ws_module *mod, const char *kernel, ws_dim3 grid, ws_dim3 block,
              uint32_t dynamic_shared_bytes, void **args);

/* Wait for all launched work (launches are synchronous today). */
int ws_synchronize(ws_gpu *gpu);

/* ---- Statistics ----------------------------------------------------------- */

/* Read a counter by name (e.g. "gpu_sim_insn", "warp_insn", "simt_active_lanes",
 * "kernels_launched", and in timing mode "gpu_sim_cycle", "sched_issued" or
 * any other registered statistic; ratios are truncated), accumulated over
 * every launch on this gpu. */
int ws_stat(const ws_gpu *gpu, const char *name, uint64_t *value);
/* Same for any statistic, ratios included (e.g. "gpu_ipc"). */
int ws_stat_double(const ws_gpu *gpu, const char *name, double *value);

/* One JSON object: {"status": ..., "config": {...}, "totals": {...},
 * "kernels": [...]}.  ws_stats_write_json writes status "complete". */
int ws_stats_write_json(const ws_gpu *gpu, FILE *out);
/* The same with the caller's status: "complete" (every launch finished),
 * "partial" (interrupted: the statistics so far) or "failed" (a launch
 * stopped with an error); `reason` (may be NULL) says why, written as
 * "status_reason". */
int ws_stats_write_json_status(const ws_gpu *gpu, FILE *out, const char *status,
                               const char *reason);
/* The timeline (one row per timeline_interval cycles) as CSV. */
int ws_timeline_write_csv(const ws_gpu *gpu, FILE *out);

/* Per-warp report of the last WS_ERR_DEADLOCK in timing mode ("" if none). */
const char *ws_deadlock_report(const ws_gpu *gpu);

/* Print every counter as "name = value" lines. */
void ws_stats_print(const ws_gpu *gpu, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
