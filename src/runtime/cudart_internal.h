/* cudart_internal.h: private to cudart.c, cudart_launch.c and cudart_memory.c:
 * the runtime's process-wide state (see rt.h) and the helpers they share. */
#ifndef WS_RUNTIME_CUDART_INTERNAL_H
#define WS_RUNTIME_CUDART_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "base/progress.h"
#include "runtime/cuda_types.h"
#include "runtime/rt.h"
#include "warpsim.h"

struct rt_fatbin {
    const void *wrapper;
    unsigned index;       /* registration order, for messages */
    ws_module *mod;
    int tried;            /* load attempted */
    cudaError_t load_rc;
};

struct rt_func {
    const void *host_fun;
    char *name;
    struct rt_fatbin *fb;
};

struct rt_var {
    const void *host_var; /* __managed__: the host pointer variable (void **) */
    char *name;
    struct rt_fatbin *fb;
    size_t size;
    int constant;
    int managed;          /* __managed__: mapped at its device address when loaded */
};

struct rt_managed {
    uint64_t base;        /* the device allocation (addr rounded down); 0 for a
                             __managed__ variable, which lives as long as its module */
    uint64_t addr;
    size_t size, map_size;
};

struct rt_launch_cfg {
    dim3 grid, block;
    size_t shmem;
    void *stream;
};

#define RT_CFG_MAX 32

/* Launches of one kernel that failed in the simulator, or were refused by a
 * sticky error (cudart_report.c). */
struct rt_kernel_fails {
    char *name;           /* mangled */
    uint64_t failed, refused;
    cudaError_t code;     /* of its first failure */
};

struct rt_state {
    int inited;
    ws_gpu *gpu;
    cudaError_t init_rc;
    struct rt_fatbin **fbs;
    size_t nfbs, fbs_cap;
    struct rt_func **funcs;
    size_t nfuncs, funcs_cap;
    struct rt_var **vars;
    size_t nvars, vars_cap;
    struct rt_managed *managed;
    size_t nmanaged, managed_cap;
    uint64_t *allocs;     /* cudaMalloc'd device addresses, for cudaDeviceReset */
    size_t nallocs, allocs_cap;
    cudaError_t pending;  /* kernel fault, reported by the next synchronize */
    cudaError_t sticky;   /* that fault: every later device call fails with it */
    void **streams, **events; /* created and not destroyed */
    size_t nstreams, streams_cap, nevents, events_cap;
    char *stats_json;     /* WARPSIM_STATS_JSON: written at exit */
    char *timeline;       /* WARPSIM_TIMELINE: the timeline CSV, written at exit */
    char *failure;        /* first failed launch's message: stats status "failed" */
    cudaError_t failure_code;
    uint64_t failure_launch; /* its number, counting every launch from 1 */
    uint64_t nlaunches;   /* launches attempted */
    uint64_t nfailed;     /* launches that failed in the simulator */
    uint64_t nrefused;    /* calls refused by a sticky error */
    struct rt_kernel_fails *kfails;
    size_t nkfails, kfails_cap;
    int interrupted;      /* Ctrl-C stopped a kernel: stats status "partial" */
    int stats_print;
    struct progress_line progress; /* shown while kernels run (WARPSIM_PROGRESS) */
};

/* The one process-wide runtime state (cudart.c), used under rt_lock. */
extern struct rt_state rt_g;

/* What is per host thread, as in CUDA: the last error and the launch
 * configurations pushed by <<<>>> and not yet popped. */
struct rt_thread {
    cudaError_t last_error;
    struct rt_launch_cfg cfg[RT_CFG_MAX];
    size_t ncfg;
};
extern __thread struct rt_thread rt_t;

/* cudart.c */
/* The cudaError_t for a warpsim status code. */
cudaError_t rt_from_ws(int st);
/* Load fatbinary fb into the GPU on first use; fn names the API call for messages. */
cudaError_t rt_load_fatbin(struct rt_fatbin *fb, const char *fn);
/* The registration of a kernel / a variable by its host-side address; NULL if none. */
struct rt_func *rt_find_func(const void *host_fun);
struct rt_var *rt_find_var(const void *host_var);

/* cudart_report.c */
/* A launch of kernel (mangled name) failed with code; msg is the simulator's
 * message.  The first failure prints one line naming fn. */
void rt_report_failed_launch(const char *kernel, cudaError_t code, const char *fn,
                             const char *msg);
/* A launch refused because an earlier fault left the device unusable. */
void rt_report_refused_launch(const char *kernel);
/* At exit: the warning about zeroed reads, the failure summary, the count of
 * failed launches on WARPSIM_STATUS_FD; frees the bookkeeping. */
void rt_report_at_exit(void);
/* The name the messages give the PTX of fb for arch: tuN.compute_XX.ptx,
 * inside the dump directory when there is one. */
void rt_ptx_name(const struct rt_fatbin *fb, unsigned arch, char *out, size_t len);
/* Write one PTX text under that name (nothing without a dump directory). */
void rt_ptx_dump(const struct rt_fatbin *fb, const char *ptx, size_t len, unsigned arch);
/* Write the PTX of every translation unit that was never loaded. */
void rt_ptx_dump_unloaded(void);

/* cudart_ptxas.c */
/* ptx.ptxas_regs: run ptxas -v on one translation unit's PTX (its own target,
 * sm_arch) and give each kernel ptxas's register count (ws_module_set_regs).
 * 0, or -1 with msg (ptxas missing or failing, a count missing). */
int rt_ptxas_regs(ws_module *mod, const char *ptx, size_t len, unsigned arch, const char *name,
                  char *msg, size_t msglen);

/* cudart_memory.c */
/* Copy managed memory host -> device before a kernel, device -> host after. */
void rt_managed_push(ws_gpu *gpu);
void rt_managed_pull(ws_gpu *gpu);
/* Map the __managed__ variables of a just-loaded fatbinary on the host at
 * their device addresses (initial values copied) and fill the host pointers
 * nvcc's code reads them through. */
cudaError_t rt_managed_vars_map(struct rt_fatbin *fb, const char *fn);

/* Copy n bytes as cudaMemcpyKind `kind` says, every pointer checked against
 * the kind (cudaErrorInvalidValue with a message naming fn otherwise). */
cudaError_t rt_copy_kind(ws_gpu *gpu, void *dst, const void *src, size_t n, int kind,
                         const char *fn);

/* The exported allocation calls, used for arrays and object descriptors. */
cudaError_t cudaMalloc(void **devPtr, size_t size);
cudaError_t cudaFree(void *devPtr);

/* cudart_array.c: a CUDA array is a device allocation, row-major: rows of
 * width * elem bytes, height rows per slice, depth slices (the layers of a
 * layered array are its slices). */
struct cudaArray {
    struct cudaChannelFormatDesc desc;
    size_t width, height, depth; /* elements; 0 where the array has no such dimension */
    unsigned flags;              /* cudaArrayLayered, cudaArraySurfaceLoadStore, ... */
    unsigned elem;               /* bytes per element */
    uint64_t dev;                /* device address of element (0, 0, 0) */
    size_t pitch, slice;         /* bytes per row, per slice */
};

/* The live array a points to, or NULL (an error recorded for fn). */
struct cudaArray *rt_array_find(const void *a, const char *fn);
/* Forget every array / texture and surface object (cudaDeviceReset, after
 * the device memory was freed). */
void rt_array_reset(void);
void rt_texture_reset(void);
/* Bytes per element of a channel description: 0 (an error recorded for fn)
 * when the description is one warpsim does not support. */
unsigned rt_channel_bytes(const struct cudaChannelFormatDesc *d, const char *fn);

#endif
