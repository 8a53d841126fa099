/* cudart.c: warpsim's replacement CUDA runtime: process-wide state, the
 * registration entry points nvcc's host code calls (__cudaRegister*,
 * __cudaPushCallConfiguration, __cudaGetKernel, __cudaLaunchKernel), kernel
 * launch, symbols, memory management and error reporting, all on top of the
 * public warpsim API.  Device and stream/event calls are in cudart_device.c,
 * unsupported entry points in cudart_stubs.c. */
#include "runtime/rt.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "api/gpu.h"
#include "base/alloc.h"
#include "runtime/fatbin.h"

/* ---- state ---------------------------------------------------------------- */

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
    const void *host_var;
    char *name;
    struct rt_fatbin *fb;
    size_t size;
    int constant;
};

struct rt_managed {
    uint64_t base;        /* the device allocation (addr rounded down) */
    uint64_t addr;
    size_t size, map_size;
};

struct rt_launch_cfg {
    dim3 grid, block;
    size_t shmem;
    void *stream;
};

#define RT_CFG_MAX 32

struct rt_state {
    int inited;
    ws_gpu *gpu;
    cudaError_t init_rc;
    cudaError_t last_error;
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
    struct rt_launch_cfg cfg[RT_CFG_MAX];
    size_t ncfg;
    cudaError_t pending;  /* kernel fault, reported by the next synchronize */
    char *stats_json;
    int stats_print;
};

static struct rt_state rt;

/* ---- errors --------------------------------------------------------------- */

cudaError_t rt_error(cudaError_t code, const char *fn, const char *fmt, ...)
{
    if (code != cudaSuccess)
        rt.last_error = code;
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "warpsim: %s: ", fn);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
    }
    return code;
}

static cudaError_t from_ws(int st)
{
    switch (st) {
    case WS_OK: return cudaSuccess;
    case WS_ERR_INVALID: return cudaErrorInvalidValue;
    case WS_ERR_PARSE: return cudaErrorInvalidPtx;
    case WS_ERR_UNSUPPORTED: return cudaErrorNotSupported;
    case WS_ERR_NOT_FOUND: return cudaErrorInvalidDeviceFunction;
    case WS_ERR_NOMEM: return cudaErrorMemoryAllocation;
    case WS_ERR_FAULT: return cudaErrorIllegalAddress;
    case WS_ERR_LAUNCH: return cudaErrorInvalidConfiguration;
    case WS_ERR_DEADLOCK: return cudaErrorLaunchTimeout;
    default: return cudaErrorLaunchFailure;
    }
}

/* ---- initialisation and teardown ------------------------------------------ */

static int apply_set_list(ws_gpu *gpu, const char *list)
{
    char *copy = xstrdup(list);
    int rc = WS_OK;
    for (char *save = NULL, *tok = strtok_r(copy, ";", &save); tok;
         tok = strtok_r(NULL, ";", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq || eq == tok) {
            fprintf(stderr, "warpsim: WARPSIM_SET: expected key=value, got '%s'\n", tok);
            rc = WS_ERR_INVALID;
            break;
        }
        *eq = '\0';
        if ((rc = ws_gpu_set(gpu, tok, eq + 1)) != WS_OK) {
            fprintf(stderr, "warpsim: WARPSIM_SET %s=%s: %s\n", tok, eq + 1, ws_last_error(gpu));
            break;
        }
    }
    free(copy);
    return rc;
}

static int configure(ws_gpu *gpu)
{
    const char *v;
    if ((v = getenv("WARPSIM_CONFIG")) && *v && ws_gpu_load_config(gpu, v) != WS_OK) {
        fprintf(stderr, "warpsim: WARPSIM_CONFIG=%s: %s\n", v, ws_last_error(gpu));
        return WS_ERR_INVALID;
    }
    if ((v = getenv("WARPSIM_MODE")) && *v && ws_gpu_set(gpu, "mode", v) != WS_OK) {
        fprintf(stderr, "warpsim: WARPSIM_MODE=%s: %s\n", v, ws_last_error(gpu));
        return WS_ERR_INVALID;
    }
    if ((v = getenv("WARPSIM_SCHED")) && *v && ws_gpu_set(gpu, "sm.sched", v) != WS_OK) {
        fprintf(stderr, "warpsim: WARPSIM_SCHED=%s: %s\n", v, ws_last_error(gpu));
        return WS_ERR_INVALID;
    }
    if ((v = getenv("WARPSIM_SET")) && *v && apply_set_list(gpu, v) != WS_OK)
        return WS_ERR_INVALID;
    return WS_OK;
}

ws_gpu *rt_gpu(const char *fn)
{
    if (!rt.inited) {
        rt.inited = 1;
        const char *v = getenv("WARPSIM_STATS_JSON");
        if (v && *v)
            rt.stats_json = xstrdup(v);
        v = getenv("WARPSIM_STATS");
        rt.stats_print = v && *v && strcmp(v, "0") != 0;
        if (ws_gpu_new(&rt.gpu) != WS_OK) {
            rt.gpu = NULL;
            rt.init_rc = cudaErrorInitializationError;
        } else if (configure(rt.gpu) != WS_OK) {
            ws_gpu_free(rt.gpu);
            rt.gpu = NULL;
            rt.init_rc = cudaErrorInitializationError;
        }
    }
    if (!rt.gpu) {
        rt_error(rt.init_rc, fn, "the simulated GPU could not be initialised (see above)");
        return NULL;
    }
    return rt.gpu;
}

__attribute__((destructor)) static void rt_fini(void)
{
    if (rt.gpu) {
        fflush(stdout);
        if (rt.stats_json) {
            FILE *f = fopen(rt.stats_json, "w");
            if (!f) {
                fprintf(stderr, "warpsim: cannot write statistics to %s\n", rt.stats_json);
            } else {
                if (ws_stats_write_json(rt.gpu, f) != WS_OK)
                    fprintf(stderr, "warpsim: writing %s: %s\n", rt.stats_json,
                            ws_last_error(rt.gpu));
                fclose(f);
            }
        }
        if (rt.stats_print)
            ws_stats_print(rt.gpu, stderr);
        for (size_t i = 0; i < rt.nmanaged; i++)
            munmap((void *)(uintptr_t)rt.managed[i].addr, rt.managed[i].map_size);
        ws_gpu_free(rt.gpu);
        rt.gpu = NULL;
    }
    for (size_t i = 0; i < rt.nfuncs; i++) {
        free(rt.funcs[i]->name);
        free(rt.funcs[i]);
    }
    for (size_t i = 0; i < rt.nvars; i++) {
        free(rt.vars[i]->name);
        free(rt.vars[i]);
    }
    for (size_t i = 0; i < rt.nfbs; i++)
        free(rt.fbs[i]);
    free(rt.funcs);
    free(rt.vars);
    free(rt.fbs);
    free(rt.managed);
    free(rt.allocs);
    free(rt.stats_json);
    memset(&rt, 0, sizeof rt);
}

double rt_now_ms(void)
{
    ws_gpu *gpu = rt.gpu;
    if (!gpu)
        return 0.0;
    uint64_t cycles = 0;
    if (ws_stat(gpu, "gpu_sim_cycle", &cycles) != WS_OK || cycles == 0) {
        /* functional mode: one warp instruction per SM per cycle */
        uint64_t insn = 0;
        ws_stat(gpu, "warp_insn", &insn);
        uint32_t sms = gpu->config.n_sms ? gpu->config.n_sms : 1;
        cycles = insn / sms;
    }
    double mhz = gpu->config.core_mhz > 0 ? gpu->config.core_mhz : 1000.0;
    return (double)cycles / (mhz * 1000.0);
}

/* ---- module loading ------------------------------------------------------- */

static cudaError_t load_fatbin(struct rt_fatbin *fb, const char *fn)
{
    if (fb->tried)
        return fb->load_rc;
    ws_gpu *gpu = rt_gpu(fn);
    if (!gpu)
        return rt.init_rc;
    fb->tried = 1;
    struct err e;
    err_clear(&e);
    const uint8_t *data;
    size_t len;
    struct fatbin f;
    if (fatbin_from_wrapper(fb->wrapper, &data, &len, &e) != WS_OK ||
        fatbin_parse(data, len, &f, &e) != WS_OK) {
        fb->load_rc = cudaErrorInvalidKernelImage;
        rt_error(fb->load_rc, fn, "device code of translation unit %u: %s", fb->index, e.msg);
        return fb->load_rc;
    }
    size_t idx[64];
    size_t n = fatbin_ptx_order(&f, idx, 64);
    if (n == 0) {
        fatbin_best_ptx(&f, NULL, NULL, NULL, &e); /* builds the message */
        fb->load_rc = cudaErrorNoKernelImageForDevice;
        rt_error(fb->load_rc, fn, "translation unit %u: %s", fb->index, e.msg);
        fatbin_free(&f);
        return fb->load_rc;
    }
    fb->load_rc = cudaErrorInvalidPtx;
    for (size_t k = 0; k < n; k++) {
        char *ptx;
        size_t plen;
        const struct fatbin_entry *en = &f.entries[idx[k]];
        if (fatbin_entry_data(en, &ptx, &plen, &e) != WS_OK) {
            fb->load_rc = cudaErrorInvalidKernelImage;
            continue;
        }
        char name[64];
        snprintf(name, sizeof name, "tu%u.compute_%u.ptx", fb->index, en->arch);
        int st = ws_module_load_string(gpu, ptx, name, &fb->mod);
        free(ptx);
        if (st == WS_OK) {
            fb->load_rc = cudaSuccess;
            break;
        }
        snprintf(e.msg, sizeof e.msg, "%s", ws_last_error(gpu));
        fb->load_rc = from_ws(st) == cudaErrorNotSupported ? cudaErrorInvalidPtx : from_ws(st);
    }
    fatbin_free(&f);
    if (fb->load_rc != cudaSuccess)
        rt_error(fb->load_rc, fn, "cannot load the PTX of translation unit %u: %s", fb->index,
                 e.msg);
    return fb->load_rc;
}

/* ---- registration ------------------------------------------------------- */

RT_EXPORT void **__cudaRegisterFatBinary(void *fatCubin)
{
    struct rt_fatbin *fb = xcalloc(1, sizeof *fb);
    fb->wrapper = fatCubin;
    fb->index = (unsigned)rt.nfbs;
    *ARRAY_PUSH(rt.fbs, rt.nfbs, rt.fbs_cap) = fb;
    return (void **)fb;
}

RT_EXPORT void __cudaRegisterFatBinaryEnd(void **fatCubinHandle)
{
    (void)fatCubinHandle;
}

RT_EXPORT void __cudaUnregisterFatBinary(void **fatCubinHandle)
{
    (void)fatCubinHandle; /* modules live until the library destructor */
}

RT_EXPORT char __cudaInitModule(void **fatCubinHandle)
{
    (void)fatCubinHandle;
    return 1;
}

RT_EXPORT void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun,
                                      char *deviceFun, const char *deviceName, int thread_limit,
                                      void *tid, void *bid, void *bDim, void *gDim, int *wSize)
{
    (void)deviceFun, (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim,
        (void)wSize;
    struct rt_func *f = xcalloc(1, sizeof *f);
    f->host_fun = hostFun;
    f->name = xstrdup(deviceName);
    f->fb = (struct rt_fatbin *)fatCubinHandle;
    *ARRAY_PUSH(rt.funcs, rt.nfuncs, rt.funcs_cap) = f;
}

RT_EXPORT void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress,
                                 const char *deviceName, int ext, size_t size, int constant,
                                 int global)
{
    (void)deviceAddress, (void)ext, (void)global;
    struct rt_var *v = xcalloc(1, sizeof *v);
    v->host_var = hostVar;
    v->name = xstrdup(deviceName);
    v->fb = (struct rt_fatbin *)fatCubinHandle;
    v->size = size;
    v->constant = constant;
    *ARRAY_PUSH(rt.vars, rt.nvars, rt.vars_cap) = v;
}

RT_EXPORT void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress,
                                        char *deviceAddress, const char *deviceName, int ext,
                                        size_t size, int constant, int global)
{
    (void)fatCubinHandle, (void)hostVarPtrAddress, (void)deviceAddress, (void)ext,
        (void)size, (void)constant, (void)global;
    rt_error(cudaErrorNotSupported, "__cudaRegisterManagedVar",
             "__managed__ variable '%s' is not supported by warpsim", deviceName);
}

RT_EXPORT void __cudaRegisterTexture(void **h, const void *hostVar, const void **deviceAddress,
                                     const char *deviceName, int dim, int norm, int ext)
{
    (void)h, (void)hostVar, (void)deviceAddress, (void)dim, (void)norm, (void)ext;
    rt_error(cudaErrorNotSupported, "__cudaRegisterTexture",
             "texture reference '%s' is not supported by warpsim", deviceName);
}

RT_EXPORT void __cudaRegisterSurface(void **h, const void *hostVar, const void **deviceAddress,
                                     const char *deviceName, int dim, int ext)
{
    (void)h, (void)hostVar, (void)deviceAddress, (void)dim, (void)ext;
    rt_error(cudaErrorNotSupported, "__cudaRegisterSurface",
             "surface reference '%s' is not supported by warpsim", deviceName);
}

static struct rt_func *find_func(const void *host_fun)
{
    for (size_t i = 0; i < rt.nfuncs; i++)
        if (rt.funcs[i]->host_fun == host_fun)
            return rt.funcs[i];
    return NULL;
}

static struct rt_var *find_var(const void *host_var)
{
    for (size_t i = 0; i < rt.nvars; i++)
        if (rt.vars[i]->host_var == host_var)
            return rt.vars[i];
    return NULL;
}

/* ---- managed memory: host view authoritative outside device operations ---- */

static int is_managed(uint64_t addr)
{
    for (size_t i = 0; i < rt.nmanaged; i++)
        if (addr >= rt.managed[i].addr && addr < rt.managed[i].addr + rt.managed[i].size)
            return 1;
    return 0;
}

static void managed_push(ws_gpu *gpu)
{
    for (size_t i = 0; i < rt.nmanaged; i++)
        ws_memcpy_htod(gpu, rt.managed[i].addr, (const void *)(uintptr_t)rt.managed[i].addr,
                       rt.managed[i].size);
}

static void managed_pull(ws_gpu *gpu)
{
    for (size_t i = 0; i < rt.nmanaged; i++)
        ws_memcpy_dtoh(gpu, (void *)(uintptr_t)rt.managed[i].addr, rt.managed[i].addr,
                       rt.managed[i].size);
}

/* A device pointer: inside a device allocation and not managed (whose host
 * mapping is the one to use outside kernels). */
static int is_device(ws_gpu *gpu, const void *p)
{
    uint64_t a = (uint64_t)(uintptr_t)p;
    return mem_lookup(&gpu->mem, a, 1) != NULL && !is_managed(a);
}

/* ---- launch ---------------------------------------------------------------- */

RT_EXPORT unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                               void *stream)
{
    if (rt.ncfg == RT_CFG_MAX) {
        rt_error(cudaErrorInvalidConfiguration, "__cudaPushCallConfiguration",
                 "too many nested launch configurations");
        return 1;
    }
    struct rt_launch_cfg *c = &rt.cfg[rt.ncfg++];
    c->grid = gridDim;
    c->block = blockDim;
    c->shmem = sharedMem;
    c->stream = stream;
    return 0;
}

RT_EXPORT cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
                                                 size_t *sharedMem, void *stream)
{
    if (rt.ncfg == 0)
        return rt_error(cudaErrorMissingConfiguration, "__cudaPopCallConfiguration",
                        "no launch configuration to pop");
    struct rt_launch_cfg *c = &rt.cfg[--rt.ncfg];
    *gridDim = c->grid;
    *blockDim = c->block;
    *sharedMem = c->shmem;
    if (stream)
        memcpy(stream, &c->stream, sizeof c->stream);
    return cudaSuccess;
}

static cudaError_t launch(struct rt_func *f, dim3 grid, dim3 block, void **args, size_t shmem,
                          const char *fn)
{
    cudaError_t rc = load_fatbin(f->fb, fn);
    if (rc != cudaSuccess)
        return rt_error(rc, fn, NULL);
    ws_gpu *gpu = rt.gpu;
    if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 ||
        block.z == 0)
        return rt_error(cudaErrorInvalidConfiguration, fn,
                        "kernel %s: grid (%u,%u,%u) / block (%u,%u,%u) has a zero dimension",
                        f->name, grid.x, grid.y, grid.z, block.x, block.y, block.z);
    if (shmem > UINT32_MAX)
        return rt_error(cudaErrorInvalidValue, fn, "kernel %s: dynamic shared memory %zu too large",
                        f->name, shmem);
    managed_push(gpu);
    int st = ws_launch(f->fb->mod, f->name, ws_dim(grid.x, grid.y, grid.z),
                       ws_dim(block.x, block.y, block.z), (uint32_t)shmem, args);
    managed_pull(gpu);
    if (st != WS_OK) {
        cudaError_t rc2 = from_ws(st);
        if (st == WS_ERR_FAULT || st == WS_ERR_DEADLOCK)
            rt.pending = rc2;
        return rt_error(rc2, fn, "kernel %s: %s", f->name, ws_last_error(gpu));
    }
    return cudaSuccess;
}

cudaError_t rt_take_pending(void)
{
    cudaError_t e = rt.pending;
    rt.pending = cudaSuccess;
    return e;
}

RT_EXPORT cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *func)
{
    struct rt_func *f = find_func(func);
    if (!f)
        return rt_error(cudaErrorInvalidDeviceFunction, "__cudaGetKernel",
                        "no kernel registered for host function %p", func);
    *kernel = f;
    return cudaSuccess;
}

RT_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                         void **args, size_t sharedMem, cudaStream_t stream)
{
    (void)stream;
    if (!kernel)
        return rt_error(cudaErrorInvalidDeviceFunction, "__cudaLaunchKernel",
                        "launch of an unregistered kernel");
    return launch(kernel, gridDim, blockDim, args, sharedMem, "cudaLaunchKernel");
}

RT_EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                              void **args, size_t sharedMem, cudaStream_t stream)
{
    return __cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem, stream);
}

RT_EXPORT cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                       void **args, size_t sharedMem, cudaStream_t stream)
{
    (void)stream;
    struct rt_func *f = find_func(func);
    if (!f)
        return rt_error(cudaErrorInvalidDeviceFunction, "cudaLaunchKernel",
                        "no kernel registered for host function %p", func);
    return launch(f, gridDim, blockDim, args, sharedMem, "cudaLaunchKernel");
}

RT_EXPORT cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
                                            void **args, size_t sharedMem, cudaStream_t stream)
{
    return cudaLaunchKernel(func, gridDim, blockDim, args, sharedMem, stream);
}

/* ---- kernel attributes and occupancy --------------------------------------- */

static cudaError_t func_info(const void *func, const char *fn, struct rt_func **fo,
                             uint32_t *regs, uint64_t *local, uint64_t *shared,
                             unsigned *ptxver)
{
    struct rt_func *f = find_func(func);
    if (!f)
        return rt_error(cudaErrorInvalidDeviceFunction, fn,
                        "no kernel registered for host function %p", func);
    cudaError_t rc = load_fatbin(f->fb, fn);
    if (rc != cudaSuccess)
        return rc;
    const struct ptx_module *m = gpu_module_ptx(f->fb->mod);
    const struct analysis *an = gpu_module_analysis(f->fb->mod);
    uint32_t i = ptx_find_func(m, f->name);
    if (i == PTX_NO_INDEX)
        return rt_error(cudaErrorInvalidDeviceFunction, fn, "kernel %s is not in its PTX",
                        f->name);
    *fo = f;
    *regs = an->func_regs ? an->func_regs[i] : 32;
    *local = m->funcs[i].local_bytes;
    *shared = m->shared_static_size;
    *ptxver = m->version_major * 10 + m->version_minor;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    struct rt_func *f;
    uint32_t regs;
    uint64_t local, shared;
    unsigned ptxver;
    if (!attr)
        return rt_error(cudaErrorInvalidValue, "cudaFuncGetAttributes", "attr is NULL");
    cudaError_t rc = func_info(func, "cudaFuncGetAttributes", &f, &regs, &local, &shared,
                               &ptxver);
    if (rc != cudaSuccess)
        return rc;
    const struct gpu_config *c = &rt.gpu->config;
    memset(attr, 0, sizeof *attr);
    attr->sharedSizeBytes = shared;
    attr->localSizeBytes = local;
    attr->numRegs = (int)regs;
    uint32_t by_regs = regs ? c->regs_per_sm / regs : 1024;
    uint32_t maxt = by_regs / 32 * 32;
    if (maxt > 1024)
        maxt = 1024;
    if (maxt > c->max_threads_per_sm)
        maxt = c->max_threads_per_sm;
    attr->maxThreadsPerBlock = (int)maxt;
    attr->ptxVersion = (int)ptxver;
    attr->binaryVersion = (int)ptxver;
    uint64_t dyn = c->shared_per_sm > shared ? c->shared_per_sm - shared : 0;
    attr->maxDynamicSharedSizeBytes = (int)(dyn < 49152 ? dyn : 49152);
    attr->preferredShmemCarveout = -1;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize, unsigned flags)
{
    (void)flags;
    const char *fn = "cudaOccupancyMaxActiveBlocksPerMultiprocessor";
    struct rt_func *f;
    uint32_t regs;
    uint64_t local, shared;
    unsigned ptxver;
    if (!numBlocks || blockSize <= 0)
        return rt_error(cudaErrorInvalidValue, fn, "numBlocks is NULL or blockSize <= 0");
    cudaError_t rc = func_info(func, fn, &f, &regs, &local, &shared, &ptxver);
    if (rc != cudaSuccess)
        return rc;
    const struct gpu_config *c = &rt.gpu->config;
    uint64_t threads = ((uint64_t)blockSize + 31) / 32 * 32;
    uint64_t n = c->max_ctas_per_sm;
    if (threads > 0 && c->max_threads_per_sm / threads < n)
        n = c->max_threads_per_sm / threads;
    if (regs && c->regs_per_sm / (regs * threads) < n)
        n = c->regs_per_sm / (regs * threads);
    uint64_t smem = shared + dynamicSMemSize;
    if (smem && c->shared_per_sm / smem < n)
        n = c->shared_per_sm / smem;
    *numBlocks = (int)n;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks,
                                                                    const void *func,
                                                                    int blockSize,
                                                                    size_t dynamicSMemSize)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize,
                                                                  dynamicSMemSize, 0);
}

RT_EXPORT cudaError_t cudaFuncSetCacheConfig(const void *func, int cacheConfig)
{
    (void)cacheConfig;
    if (!find_func(func))
        return rt_error(cudaErrorInvalidDeviceFunction, "cudaFuncSetCacheConfig",
                        "no kernel registered for host function %p", func);
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value)
{
    (void)attr, (void)value;
    if (!find_func(func))
        return rt_error(cudaErrorInvalidDeviceFunction, "cudaFuncSetAttribute",
                        "no kernel registered for host function %p", func);
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaFuncSetSharedMemConfig(const void *func, int config)
{
    (void)func, (void)config;
    return cudaSuccess;
}

/* ---- memory ---------------------------------------------------------------- */

RT_EXPORT cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    ws_gpu *gpu = rt_gpu("cudaMalloc");
    if (!gpu)
        return rt.init_rc;
    if (!devPtr)
        return rt_error(cudaErrorInvalidValue, "cudaMalloc", "devPtr is NULL");
    ws_devptr p;
    int st = ws_malloc(gpu, size ? size : 1, &p);
    if (st != WS_OK)
        return rt_error(cudaErrorMemoryAllocation, "cudaMalloc", "%s", ws_last_error(gpu));
    *ARRAY_PUSH(rt.allocs, rt.nallocs, rt.allocs_cap) = p;
    *devPtr = (void *)(uintptr_t)p;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    if (!pitch)
        return rt_error(cudaErrorInvalidValue, "cudaMallocPitch", "pitch is NULL");
    size_t p = (width + 255) / 256 * 256;
    *pitch = p;
    return cudaMalloc(devPtr, p * (height ? height : 1));
}

static void forget_alloc(uint64_t a)
{
    for (size_t i = 0; i < rt.nallocs; i++)
        if (rt.allocs[i] == a) {
            rt.allocs[i] = rt.allocs[--rt.nallocs];
            return;
        }
}

RT_EXPORT cudaError_t cudaFree(void *devPtr)
{
    if (!devPtr)
        return cudaSuccess;
    ws_gpu *gpu = rt_gpu("cudaFree");
    if (!gpu)
        return rt.init_rc;
    uint64_t a = (uint64_t)(uintptr_t)devPtr;
    for (size_t i = 0; i < rt.nmanaged; i++)
        if (rt.managed[i].addr == a) {
            munmap(devPtr, rt.managed[i].map_size);
            a = rt.managed[i].base;
            rt.managed[i] = rt.managed[--rt.nmanaged];
            break;
        }
    if (ws_free(gpu, a) != WS_OK)
        return rt_error(cudaErrorInvalidDevicePointer, "cudaFree", "%s", ws_last_error(gpu));
    forget_alloc(a);
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned flags)
{
    (void)flags;
    ws_gpu *gpu = rt_gpu("cudaMallocManaged");
    if (!gpu)
        return rt.init_rc;
    if (!devPtr)
        return rt_error(cudaErrorInvalidValue, "cudaMallocManaged", "devPtr is NULL");
    if (size == 0)
        size = 1;
    long page = sysconf(_SC_PAGESIZE);
    size_t ps = page > 0 ? (size_t)page : 4096;
    ws_devptr base;
    /* over-allocate so a page-aligned address inside the allocation can be
     * mapped on the host at the same address */
    if (ws_malloc(gpu, size + ps, &base) != WS_OK)
        return rt_error(cudaErrorMemoryAllocation, "cudaMallocManaged", "%s",
                        ws_last_error(gpu));
    uint64_t p = (base + ps - 1) / ps * ps;
    size_t map = (size + ps - 1) / ps * ps;
    void *h = mmap((void *)(uintptr_t)p, map, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (h == MAP_FAILED || h != (void *)(uintptr_t)p) {
        if (h != MAP_FAILED)
            munmap(h, map);
        ws_free(gpu, base);
        return rt_error(cudaErrorMemoryAllocation, "cudaMallocManaged",
                        "cannot map host memory at device address 0x%llx",
                        (unsigned long long)p);
    }
    struct rt_managed *m = ARRAY_PUSH(rt.managed, rt.nmanaged, rt.managed_cap);
    m->base = base;
    m->addr = p;
    m->size = size;
    m->map_size = map;
    *ARRAY_PUSH(rt.allocs, rt.nallocs, rt.allocs_cap) = base;
    *devPtr = h;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    if (!ptr)
        return rt_error(cudaErrorInvalidValue, "cudaMallocHost", "ptr is NULL");
    void *p = NULL;
    if (posix_memalign(&p, 4096, size ? size : 1) != 0)
        return rt_error(cudaErrorMemoryAllocation, "cudaMallocHost",
                        "cannot allocate %zu bytes of host memory", size);
    *ptr = p;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned flags)
{
    (void)flags;
    return cudaMallocHost(pHost, size);
}

RT_EXPORT cudaError_t cudaFreeHost(void *ptr)
{
    free(ptr);
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned flags)
{
    (void)ptr, (void)size, (void)flags;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaHostUnregister(void *ptr)
{
    (void)ptr;
    return cudaSuccess;
}

/* Copy n bytes between any two of host/device memory, deciding by address. */
static cudaError_t copy_any(ws_gpu *gpu, void *dst, const void *src, size_t n, const char *fn)
{
    if (n == 0)
        return cudaSuccess;
    if (!dst || !src)
        return rt_error(cudaErrorInvalidValue, fn, "NULL pointer");
    int dd = is_device(gpu, dst), sd = is_device(gpu, src);
    uint64_t da = (uint64_t)(uintptr_t)dst, sa = (uint64_t)(uintptr_t)src;
    int st = WS_OK;
    if (dd && sd)
        st = ws_memcpy_dtod(gpu, da, sa, n);
    else if (dd)
        st = ws_memcpy_htod(gpu, da, src, n);
    else if (sd)
        st = ws_memcpy_dtoh(gpu, dst, sa, n);
    else
        memmove(dst, src, n);
    if (st != WS_OK)
        return rt_error(cudaErrorInvalidValue, fn, "%s", ws_last_error(gpu));
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, int kind)
{
    ws_gpu *gpu = rt_gpu("cudaMemcpy");
    if (!gpu)
        return rt.init_rc;
    if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
        return rt_error(cudaErrorInvalidMemcpyDirection, "cudaMemcpy", "invalid kind %d", kind);
    return copy_any(gpu, dst, src, count, "cudaMemcpy");
}

RT_EXPORT cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count, int kind)
{
    return cudaMemcpy(dst, src, count, kind);
}

RT_EXPORT cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, int kind,
                                      cudaStream_t stream)
{
    (void)stream;
    return cudaMemcpy(dst, src, count, kind);
}

RT_EXPORT cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count, int kind,
                                           cudaStream_t stream)
{
    return cudaMemcpyAsync(dst, src, count, kind, stream);
}

RT_EXPORT cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                                   size_t width, size_t height, int kind)
{
    ws_gpu *gpu = rt_gpu("cudaMemcpy2D");
    if (!gpu)
        return rt.init_rc;
    if (width > dpitch || width > spitch)
        return rt_error(cudaErrorInvalidPitchValue, "cudaMemcpy2D",
                        "width %zu exceeds a pitch (dst %zu, src %zu)", width, dpitch, spitch);
    if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
        return rt_error(cudaErrorInvalidMemcpyDirection, "cudaMemcpy2D", "invalid kind %d",
                        kind);
    for (size_t r = 0; r < height; r++) {
        cudaError_t rc = copy_any(gpu, (char *)dst + r * dpitch, (const char *)src + r * spitch,
                                  width, "cudaMemcpy2D");
        if (rc != cudaSuccess)
            return rc;
    }
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
                                        size_t spitch, size_t width, size_t height, int kind,
                                        cudaStream_t stream)
{
    (void)stream;
    return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

RT_EXPORT cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    ws_gpu *gpu = rt_gpu("cudaMemset");
    if (!gpu)
        return rt.init_rc;
    if (count == 0)
        return cudaSuccess;
    if (!is_device(gpu, devPtr)) {
        if (is_managed((uint64_t)(uintptr_t)devPtr)) {
            memset(devPtr, value, count);
            return cudaSuccess;
        }
        return rt_error(cudaErrorInvalidValue, "cudaMemset", "%p is not device memory",
                        devPtr);
    }
    if (ws_memset(gpu, (uint64_t)(uintptr_t)devPtr, value, count) != WS_OK)
        return rt_error(cudaErrorInvalidValue, "cudaMemset", "%s", ws_last_error(gpu));
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count)
{
    return cudaMemset(devPtr, value, count);
}

RT_EXPORT cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
                                      cudaStream_t stream)
{
    (void)stream;
    return cudaMemset(devPtr, value, count);
}

RT_EXPORT cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count,
                                           cudaStream_t stream)
{
    (void)stream;
    return cudaMemset(devPtr, value, count);
}

RT_EXPORT cudaError_t cudaMemGetInfo(size_t *freeMem, size_t *totalMem)
{
    ws_gpu *gpu = rt_gpu("cudaMemGetInfo");
    if (!gpu)
        return rt.init_rc;
    uint64_t total = gpu->mem.limit, used = gpu->mem.used;
    if (freeMem)
        *freeMem = (size_t)(total > used ? total - used : 0);
    if (totalMem)
        *totalMem = (size_t)total;
    return cudaSuccess;
}

void rt_reset_memory(void)
{
    if (!rt.gpu)
        return;
    for (size_t i = 0; i < rt.nmanaged; i++)
        munmap((void *)(uintptr_t)rt.managed[i].addr, rt.managed[i].map_size);
    rt.nmanaged = 0;
    for (size_t i = 0; i < rt.nallocs; i++)
        ws_free(rt.gpu, rt.allocs[i]);
    rt.nallocs = 0;
    rt.ncfg = 0;
}

/* ---- symbols ----------------------------------------------------------------- */

static cudaError_t symbol_addr(const void *symbol, const char *fn, uint64_t *addr, size_t *size)
{
    struct rt_var *v = find_var(symbol);
    if (!v)
        return rt_error(cudaErrorInvalidSymbol, fn,
                        "%p is not a registered __device__ or __constant__ variable", symbol);
    cudaError_t rc = load_fatbin(v->fb, fn);
    if (rc != cudaSuccess)
        return rc;
    ws_devptr a;
    size_t sz;
    if (ws_module_symbol(v->fb->mod, v->name, &a, &sz) != WS_OK)
        return rt_error(cudaErrorInvalidSymbol, fn, "variable %s: %s", v->name,
                        ws_last_error(rt.gpu));
    *addr = a;
    *size = sz;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
    uint64_t a;
    size_t sz;
    cudaError_t rc = symbol_addr(symbol, "cudaGetSymbolAddress", &a, &sz);
    if (rc != cudaSuccess)
        return rc;
    if (!devPtr)
        return rt_error(cudaErrorInvalidValue, "cudaGetSymbolAddress", "devPtr is NULL");
    *devPtr = (void *)(uintptr_t)a;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    uint64_t a;
    size_t sz;
    cudaError_t rc = symbol_addr(symbol, "cudaGetSymbolSize", &a, &sz);
    if (rc != cudaSuccess)
        return rc;
    if (!size)
        return rt_error(cudaErrorInvalidValue, "cudaGetSymbolSize", "size is NULL");
    *size = sz;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                                         size_t offset, int kind)
{
    const char *fn = "cudaMemcpyToSymbol";
    uint64_t a;
    size_t sz;
    cudaError_t rc = symbol_addr(symbol, fn, &a, &sz);
    if (rc != cudaSuccess)
        return rc;
    if (offset > sz || count > sz - offset)
        return rt_error(cudaErrorInvalidValue, fn,
                        "%zu bytes at offset %zu exceed the %zu-byte variable", count, offset,
                        sz);
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault)
        return rt_error(cudaErrorInvalidMemcpyDirection, fn, "invalid kind %d", kind);
    return copy_any(rt.gpu, (void *)(uintptr_t)(a + offset), src, count, fn);
}

RT_EXPORT cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count,
                                              size_t offset, int kind)
{
    return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}

RT_EXPORT cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                              size_t offset, int kind, cudaStream_t stream)
{
    (void)stream;
    return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}

RT_EXPORT cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
                                           size_t offset, int kind)
{
    const char *fn = "cudaMemcpyFromSymbol";
    uint64_t a;
    size_t sz;
    cudaError_t rc = symbol_addr(symbol, fn, &a, &sz);
    if (rc != cudaSuccess)
        return rc;
    if (offset > sz || count > sz - offset)
        return rt_error(cudaErrorInvalidValue, fn,
                        "%zu bytes at offset %zu exceed the %zu-byte variable", count, offset,
                        sz);
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault)
        return rt_error(cudaErrorInvalidMemcpyDirection, fn, "invalid kind %d", kind);
    return copy_any(rt.gpu, dst, (const void *)(uintptr_t)(a + offset), count, fn);
}

RT_EXPORT cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count,
                                                size_t offset, int kind)
{
    return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}

RT_EXPORT cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count,
                                                size_t offset, int kind, cudaStream_t stream)
{
    (void)stream;
    return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}

/* ---- last error ------------------------------------------------------------ */

RT_EXPORT cudaError_t cudaGetLastError(void)
{
    cudaError_t e = rt.last_error;
    rt.last_error = cudaSuccess;
    return e;
}

RT_EXPORT cudaError_t cudaPeekAtLastError(void)
{
    return rt.last_error;
}

/* ---- a few more launch and memory entry points ------------------------------- */

RT_EXPORT cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                                  void **args, size_t sharedMem,
                                                  cudaStream_t stream)
{
    return cudaLaunchKernel(func, gridDim, blockDim, args, sharedMem, stream);
}

RT_EXPORT cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width,
                                   size_t height)
{
    if (width > pitch)
        return rt_error(cudaErrorInvalidPitchValue, "cudaMemset2D", "width %zu > pitch %zu",
                        width, pitch);
    for (size_t r = 0; r < height; r++) {
        cudaError_t rc = cudaMemset((char *)devPtr + r * pitch, value, width);
        if (rc != cudaSuccess)
            return rc;
    }
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width,
                                        size_t height, cudaStream_t stream)
{
    (void)stream;
    return cudaMemset2D(devPtr, pitch, value, width, height);
}

/* cudaPointerAttributes as CUDA 11+ lays it out. */
struct rt_pointer_attributes {
    int type;         /* 0 unregistered, 1 host, 2 device, 3 managed */
    int device;
    void *devicePointer;
    void *hostPointer;
    long reserved[8];
};

RT_EXPORT cudaError_t cudaPointerGetAttributes(struct rt_pointer_attributes *attr,
                                               const void *ptr)
{
    if (!attr)
        return rt_error(cudaErrorInvalidValue, "cudaPointerGetAttributes", "attr is NULL");
    ws_gpu *gpu = rt_gpu("cudaPointerGetAttributes");
    if (!gpu)
        return rt.init_rc;
    uint64_t a = (uint64_t)(uintptr_t)ptr;
    /* only the fields CUDA 11-13 share: CUDA 13 added reserved[8] */
    attr->type = 0;
    attr->device = 0;
    attr->devicePointer = attr->hostPointer = NULL;
    if (is_managed(a)) {
        attr->type = 3;
        attr->devicePointer = attr->hostPointer = (void *)ptr;
    } else if (is_device(gpu, ptr)) {
        attr->type = 2;
        attr->devicePointer = (void *)ptr;
    }
    return cudaSuccess;
}
