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

/* Record `code` as the last error; print "warpsim: fn: message" on stderr
 * when fmt is non-NULL.  Returns code. */
cudaError_t rt_error(cudaError_t code, const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The simulated GPU, created and configured on first use; NULL (and an error
 * recorded) when the configuration given through the environment is invalid. */
ws_gpu *rt_gpu(const char *fn);

/* Free every allocation (cudaDeviceReset). */
void rt_reset_memory(void);

/* The fault of the last failed kernel not yet reported by a synchronize
 * call (cudaSuccess if none); clears it. */
cudaError_t rt_take_pending(void);

/* cudaGetDeviceProperties for CUDA 13 programs, and for CUDA 11/12 programs
 * (only the leading fields their layouts share are written). */
cudaError_t rt_props13(struct cudaDeviceProp *prop, int device);
cudaError_t rt_props_legacy(struct cudart_legacy_prop_head *prop, int device);

/* Simulated time in milliseconds since the GPU was created. */
double rt_now_ms(void);

#endif
