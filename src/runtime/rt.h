/* rt.h: internals shared by the files of warpsim's replacement CUDA runtime
 * (libcudart.so.13).  The CUDA runtime API has no context argument, so the
 * runtime keeps one process-wide state (struct rt_state) — the one deliberate
 * exception to warpsim's no-global-state rule, confined to src/runtime.
 *
 * Lifetime: the simulated GPU is created at the first call that needs it,
 * configured from the WARPSIM_* environment variables, and written out
 * (statistics) and freed by the library destructor at process exit. */
#ifndef WS_RUNTIME_RT_H
#define WS_RUNTIME_RT_H

#include <stdint.h>

#include "runtime/cuda_types.h"
#include "warpsim.h"

#define RT_EXPORT __attribute__((visibility("default")))

/* Host threads: every exported entry point starts with RT_LOCK(), which holds
 * one process-wide recursive lock until the function returns (the simulated
 * device is shared by all threads and runs one call at a time; each thread
 * has its own last error and launch configurations, struct rt_thread).
 * tests/cuda/locks.sh checks that no entry point lacks it. */
void rt_lock(void);
void rt_unlock(int *guard);
#define RT_LOCK() __attribute__((cleanup(rt_unlock), unused)) int rt_guard_ = (rt_lock(), 0)

/* Record `code` as the last error; print "warpsim: fn: message" on stderr
 * when fmt is non-NULL.  Returns code. */
cudaError_t rt_error(cudaError_t code, const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The simulated GPU, created and configured on first use; NULL (and an error
 * recorded) when the configuration given through the environment is invalid,
 * or when an earlier kernel fault left the device unusable (sticky error). */
ws_gpu *rt_gpu(const char *fn);
/* What a call returns when rt_gpu gave NULL: the sticky error, else the
 * initialisation error. */
cudaError_t rt_gpu_status(void);

/* cudaSuccess for the default streams (0, cudaStreamLegacy,
 * cudaStreamPerThread) and for streams created and not yet destroyed;
 * otherwise records cudaErrorInvalidResourceHandle for fn and returns it.
 * The same for events (NULL is invalid). */
cudaError_t rt_check_stream(const void *stream, const char *fn);
cudaError_t rt_check_event(const void *event, const char *fn);

/* cudaMemPrefetchAsync / cudaMemAdvise: accepted (a hint; managed memory is
 * always where it is needed) when [ptr, ptr+count) lies in one managed
 * allocation or __managed__ variable and the stream is valid (NULL: none);
 * else cudaErrorInvalidValue / cudaErrorInvalidResourceHandle. */
cudaError_t rt_mem_hint(const void *ptr, size_t count, const void *stream, const char *fn);

/* Free every allocation (cudaDeviceReset). */
void rt_reset_memory(void);

/* What a synchronize call returns: the fault of the last failed kernel (once
 * reported it stays: as CUDA's illegal-address and launch-failure errors, it
 * is sticky until cudaDeviceReset), else cudaSuccess. */
cudaError_t rt_take_pending(void);

/* cudaGetDeviceProperties for CUDA 13 programs, and for CUDA 11/12 programs
 * (only the leading fields their layouts share are written). */
cudaError_t rt_props13(struct cudaDeviceProp *prop, int device);
cudaError_t rt_props_legacy(struct cudart_legacy_prop_head *prop, int device);

/* The error's name, as the exported cudaGetErrorName (cudart_device.c). */
const char *cudaGetErrorName(cudaError_t error);

/* Simulated time in milliseconds since the GPU was created. */
double rt_now_ms(void);

#endif
