/* cudart_launch.c: kernel launch in warpsim's replacement CUDA runtime: the
 * launch configuration stack (__cudaPushCallConfiguration), __cudaGetKernel,
 * cudaLaunchKernel and variants, kernel attributes and occupancy. */
#include "runtime/cudart_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/gpu.h"
#include "base/alloc.h"

/* ---- launch ---------------------------------------------------------------- */

RT_EXPORT unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                               void *stream)
{
    RT_LOCK();
    if (rt_t.ncfg == RT_CFG_MAX) {
        rt_error(cudaErrorInvalidConfiguration, "__cudaPushCallConfiguration",
                 "too many nested launch configurations");
        return 1;
    }
    struct rt_launch_cfg *c = &rt_t.cfg[rt_t.ncfg++];
    c->grid = gridDim;
    c->block = blockDim;
    c->shmem = sharedMem;
    c->stream = stream;
    return 0;
}

RT_EXPORT cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
                                                 size_t *sharedMem, void *stream)
{
    RT_LOCK();
    if (rt_t.ncfg == 0)
        return rt_error(cudaErrorMissingConfiguration, "__cudaPopCallConfiguration",
                        "no launch configuration to pop");
    struct rt_launch_cfg *c = &rt_t.cfg[--rt_t.ncfg];
    *gridDim = c->grid;
    *blockDim = c->block;
    *sharedMem = c->shmem;
    if (stream)
        memcpy(stream, &c->stream, sizeof c->stream);
    return cudaSuccess;
}

static cudaError_t launch(struct rt_func *f, dim3 grid, dim3 block, void **args, size_t shmem,
                          cudaStream_t stream, const char *fn)
{
    cudaError_t rc = rt_check_stream(stream, fn);
    if (rc != cudaSuccess)
        return rc;
    rt_g.nlaunches++;
    if (!rt_gpu(fn)) {
        if (rt_g.sticky)
            rt_report_refused_launch(f->name);
        return rt_gpu_status();
    }
    rc = rt_load_fatbin(f->fb, fn);
    if (rc != cudaSuccess)
        return rt_error(rc, fn, NULL);
    ws_gpu *gpu = rt_g.gpu;
    if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 ||
        block.z == 0)
        return rt_error(cudaErrorInvalidConfiguration, fn,
                        "kernel %s: grid (%u,%u,%u) / block (%u,%u,%u) has a zero dimension",
                        f->name, grid.x, grid.y, grid.z, block.x, block.y, block.z);
    if (shmem > UINT32_MAX)
        return rt_error(cudaErrorInvalidValue, fn, "kernel %s: dynamic shared memory %zu too large",
                        f->name, shmem);
    rt_managed_push(gpu);
    int st = ws_launch(f->fb->mod, f->name, ws_dim(grid.x, grid.y, grid.z),
                       ws_dim(block.x, block.y, block.z), (uint32_t)shmem, args);
    progress_line_end(&rt_g.progress); /* the program's own output may follow */
    rt_managed_pull(gpu);
    if (st == WS_ERR_INTERRUPTED) {
        fprintf(stderr, "warpsim: interrupted: %s\n%s\n", ws_last_error(gpu),
                ws_deadlock_report(gpu));
        rt_g.interrupted = 1;
        free(rt_g.failure);
        rt_g.failure = xstrdup(ws_last_error(gpu));
        exit(130); /* as the default SIGINT action would, but with the statistics */
    }
    if (st != WS_OK) {
        cudaError_t rc2 = rt_from_ws(st);
        if (st == WS_ERR_FAULT || st == WS_ERR_MISALIGNED || st == WS_ERR_DEADLOCK)
            rt_g.pending = rt_g.sticky = rc2;
        /* the message names the kernel; printed in full by the summary at exit */
        rt_report_failed_launch(f->name, rc2, fn, ws_last_error(gpu));
        return rt_error(rc2, fn, NULL);
    }
    return cudaSuccess;
}

cudaError_t rt_take_pending(void)
{
    rt_g.pending = cudaSuccess;
    return rt_g.sticky;
}

RT_EXPORT cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *func)
{
    RT_LOCK();
    struct rt_func *f = rt_find_func(func);
    if (!f)
        return rt_error(cudaErrorInvalidDeviceFunction, "__cudaGetKernel",
                        "no kernel registered for host function %p", func);
    *kernel = f;
    return cudaSuccess;
}

RT_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                         void **args, size_t sharedMem, cudaStream_t stream)
{
    RT_LOCK();
    if (!kernel)
        return rt_error(cudaErrorInvalidDeviceFunction, "__cudaLaunchKernel",
                        "launch of an unregistered kernel");
    return launch(kernel, gridDim, blockDim, args, sharedMem, stream, "cudaLaunchKernel");
}

RT_EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                              void **args, size_t sharedMem, cudaStream_t stream)
{
    RT_LOCK();
    return __cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem, stream);
}

RT_EXPORT cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                       void **args, size_t sharedMem, cudaStream_t stream)
{
    RT_LOCK();
    struct rt_func *f = rt_find_func(func);
    if (!f)
        return rt_error(cudaErrorInvalidDeviceFunction, "cudaLaunchKernel",
                        "no kernel registered for host function %p", func);
    return launch(f, gridDim, blockDim, args, sharedMem, stream, "cudaLaunchKernel");
}

RT_EXPORT cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
                                            void **args, size_t sharedMem, cudaStream_t stream)
{
    RT_LOCK();
    return cudaLaunchKernel(func, gridDim, blockDim, args, sharedMem, stream);
}

/* ---- kernel attributes and occupancy --------------------------------------- */

static cudaError_t func_info(const void *func, const char *fn, struct rt_func **fo,
                             uint32_t *regs, uint64_t *local, uint64_t *shared,
                             unsigned *ptxver)
{
    struct rt_func *f = rt_find_func(func);
    if (!f)
        return rt_error(cudaErrorInvalidDeviceFunction, fn,
                        "no kernel registered for host function %p", func);
    cudaError_t rc = rt_load_fatbin(f->fb, fn);
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
    *shared = m->funcs[i].shared_bytes;
    *ptxver = m->version_major * 10 + m->version_minor;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    RT_LOCK();
    struct rt_func *f;
    uint32_t regs = 0;
    uint64_t local = 0, shared = 0;
    unsigned ptxver = 0;
    if (!attr)
        return rt_error(cudaErrorInvalidValue, "cudaFuncGetAttributes", "attr is NULL");
    cudaError_t rc = func_info(func, "cudaFuncGetAttributes", &f, &regs, &local, &shared,
                               &ptxver);
    if (rc != cudaSuccess)
        return rc;
    const struct gpu_config *c = &rt_g.gpu->config;
    memset(attr, 0, sizeof *attr);
    attr->sharedSizeBytes = shared;
    attr->localSizeBytes = local;
    attr->numRegs = (int)regs;
    uint32_t by_regs = regs ? c->regs_per_sm / config_regs_alloc(c, regs) : 1024;
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
    RT_LOCK();
    (void)flags;
    const char *fn = "cudaOccupancyMaxActiveBlocksPerMultiprocessor";
    struct rt_func *f;
    uint32_t regs = 0;
    uint64_t local = 0, shared = 0;
    unsigned ptxver = 0;
    if (!numBlocks || blockSize <= 0)
        return rt_error(cudaErrorInvalidValue, fn, "numBlocks is NULL or blockSize <= 0");
    cudaError_t rc = func_info(func, fn, &f, &regs, &local, &shared, &ptxver);
    if (rc != cudaSuccess)
        return rc;
    const struct gpu_config *c = &rt_g.gpu->config;
    uint64_t threads = ((uint64_t)blockSize + 31) / 32 * 32;
    uint64_t n = c->max_ctas_per_sm;
    if (threads > 0 && c->max_threads_per_sm / threads < n)
        n = c->max_threads_per_sm / threads;
    uint64_t cta_regs = (uint64_t)config_regs_alloc(c, regs) * threads; /* as timing_run */
    if (regs && c->regs_per_sm / cta_regs < n)
        n = c->regs_per_sm / cta_regs;
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
    RT_LOCK();
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize,
                                                                  dynamicSMemSize, 0);
}

RT_EXPORT cudaError_t cudaFuncSetCacheConfig(const void *func, int cacheConfig)
{
    RT_LOCK();
    (void)cacheConfig;
    if (!rt_find_func(func))
        return rt_error(cudaErrorInvalidDeviceFunction, "cudaFuncSetCacheConfig",
                        "no kernel registered for host function %p", func);
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value)
{
    RT_LOCK();
    (void)attr, (void)value;
    if (!rt_find_func(func))
        return rt_error(cudaErrorInvalidDeviceFunction, "cudaFuncSetAttribute",
                        "no kernel registered for host function %p", func);
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaFuncSetSharedMemConfig(const void *func, int config)
{
    RT_LOCK();
    (void)func, (void)config;
    return cudaSuccess;
}

/* ---- a few more launch and memory entry points ------------------------------- */

RT_EXPORT cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                                  void **args, size_t sharedMem,
                                                  cudaStream_t stream)
{
    RT_LOCK();
    return cudaLaunchKernel(func, gridDim, blockDim, args, sharedMem, stream);
}

