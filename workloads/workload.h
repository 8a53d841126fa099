/* workload.h: built-in workloads that run on warpsim and check themselves.
 *
 * A workload is a folder workloads/<name>/ holding
 *   <name>.cu   the CUDA kernel(s), as a researcher would write them;
 *   <name>.ptx  what nvcc produced from it (scripts/gen-ptx.sh, committed);
 *   <name>.regs each kernel's registers per thread from ptxas (gen-ptx.sh,
 *               committed): the timing model's occupancy uses them;
 *   host.c      defines `const struct workload workload_<name>`: makes
 *               deterministic inputs from a size and a seed, runs the kernels
 *               through the public API (warpsim.h) and compares the results
 *               with a CPU reference.
 * The build embeds the PTX and lists every folder in workload_table[]
 * (cmake/workloads.cmake): no other file is edited to add a workload. */
#ifndef WS_WORKLOAD_H
#define WS_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "base/rng.h"
#include "warpsim.h"

enum wl_size { WL_SMALL, WL_MEDIUM, WL_LARGE };

struct wl_args {
    enum wl_size size;
    uint64_t seed;
};

struct workload {
    const char *name;
    const char *desc; /* one line for `warpsim list` */
    /* Run on `gpu` with the workload's module already loaded.  Returns WS_OK
     * when the results match the CPU reference, WS_ERR_VERIFY with a message in
     * `detail` (first mismatching index, expected and actual values) when they
     * do not, or the failing API call's status. */
    int (*run)(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
               size_t detail_len);
};

struct workload_entry {
    const struct workload *w;
    const char *ptx;  /* embedded PTX text */
    const char *regs; /* embedded <name>.regs: "<kernel> <registers per thread>"
                         lines from ptxas, '#' comments */
};

extern const struct workload_entry workload_table[];
extern const unsigned workload_count;

const struct workload_entry *workload_find(const char *name);
const char *wl_size_name(enum wl_size s);
int wl_size_parse(const char *s, enum wl_size *out);

/* Load the workload's PTX into gpu and run it (detail gets the error or the
 * verification message). */
int workload_run(ws_gpu *gpu, const struct workload_entry *we, const struct wl_args *a,
                 char *detail, size_t detail_len);

/* ---- helpers for host code ---- */

/* Inputs come from base/rng.h: rng_seed(&r, a->seed), then rng_next,
 * rng_below (uniform in [0, n)) and rng_float (uniform in [0, 1)). */

/* Compare arrays; on the first mismatch write "<what>[i]: expected X, got Y" to
 * detail and return WS_ERR_VERIFY.  Floats match within rel/abs tolerance. */
int wl_check_u32(const char *what, const uint32_t *want, const uint32_t *got, size_t n,
                 char *detail, size_t detail_len);
int wl_check_i32(const char *what, const int32_t *want, const int32_t *got, size_t n,
                 char *detail, size_t detail_len);
int wl_check_f32(const char *what, const float *want, const float *got, size_t n,
                 float rel_tol, float abs_tol, char *detail, size_t detail_len);

/* Run an API call; on failure copy ws_last_error into detail and return. */
#define WL_TRY(gpu, call, detail, detail_len)                                            \
    do {                                                                                 \
        int wl_rc_ = (call);                                                             \
        if (wl_rc_ != WS_OK) {                                                           \
            snprintf((detail), (detail_len), "%s", ws_last_error(gpu));                  \
            return wl_rc_;                                                               \
        }                                                                                \
    } while (0)

/* The same for host code that frees what it allocated: on failure the status
 * goes to the caller's `rc`, ws_last_error(gpu) into its `detail` (of
 * `detail_len` bytes), and control to its label `out`. */
#define WL_TRY_OUT(call)                                                                 \
    do {                                                                                 \
        rc = (call);                                                                     \
        if (rc != WS_OK) {                                                               \
            snprintf(detail, detail_len, "%s", ws_last_error(gpu));                      \
            goto out;                                                                    \
        }                                                                                \
    } while (0)

#endif
