/* cudart_device.c: the device, version, stream, event and error-string parts
 * of warpsim's replacement CUDA runtime.  The simulated GPU is device 0, the
 * only device; streams run in order and synchronously; events record the
 * simulated time. */
#include "runtime/rt.h"
#include "runtime/cudart_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/gpu.h"
#include "base/alloc.h"

#define RT_CC_MAJOR 7
#define RT_CC_MINOR 5
#define RT_VERSION 13000 /* CUDA 13.0 */

/* ---- errors ---------------------------------------------------------------- */

static const struct {
    cudaError_t code;
    const char *name, *text;
} rt_errors[] = {
    {0, "cudaSuccess", "no error"},
    {1, "cudaErrorInvalidValue", "invalid argument"},
    {2, "cudaErrorMemoryAllocation", "out of memory"},
    {3, "cudaErrorInitializationError", "initialization error"},
    {4, "cudaErrorCudartUnloading", "driver shutting down"},
    {9, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {12, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {13, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {16, "cudaErrorInvalidHostPointer", "invalid host pointer"},
    {17, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {18, "cudaErrorInvalidTexture", "invalid texture reference"},
    {20, "cudaErrorInvalidChannelDescriptor", "invalid channel descriptor"},
    {21, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {52, "cudaErrorMissingConfiguration", "__global__ function call is not configured"},
    {98, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {100, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {101, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {200, "cudaErrorInvalidKernelImage", "device kernel image is invalid"},
    {209, "cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on the device"},
    {218, "cudaErrorInvalidPtx", "a PTX JIT compilation failed"},
    {400, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {500, "cudaErrorSymbolNotFound", "named symbol not found"},
    {600, "cudaErrorNotReady", "device not ready"},
    {700, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {701, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {702, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {716, "cudaErrorMisalignedAddress", "misaligned address"},
    {719, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {801, "cudaErrorNotSupported", "operation not supported"},
    {999, "cudaErrorUnknown", "unknown error"},
};

RT_EXPORT const char *cudaGetErrorString(cudaError_t error)
{
    RT_LOCK();
    for (size_t i = 0; i < sizeof rt_errors / sizeof rt_errors[0]; i++)
        if (rt_errors[i].code == error)
            return rt_errors[i].text;
    return "unrecognized error code";
}

RT_EXPORT const char *cudaGetErrorName(cudaError_t error)
{
    RT_LOCK();
    for (size_t i = 0; i < sizeof rt_errors / sizeof rt_errors[0]; i++)
        if (rt_errors[i].code == error)
            return rt_errors[i].name;
    return "cudaErrorUnknown";
}

/* ---- versions and devices ---------------------------------------------------- */

RT_EXPORT cudaError_t cudaDriverGetVersion(int *driverVersion)
{
    RT_LOCK();
    if (!driverVersion)
        return rt_error(cudaErrorInvalidValue, "cudaDriverGetVersion", "argument is NULL");
    *driverVersion = RT_VERSION;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
    RT_LOCK();
    if (!runtimeVersion)
        return rt_error(cudaErrorInvalidValue, "cudaRuntimeGetVersion", "argument is NULL");
    *runtimeVersion = RT_VERSION;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaGetDeviceCount(int *count)
{
    RT_LOCK();
    if (!count)
        return rt_error(cudaErrorInvalidValue, "cudaGetDeviceCount", "count is NULL");
    *count = 1;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaSetDevice(int device)
{
    RT_LOCK();
    if (device != 0)
        return rt_error(cudaErrorInvalidDevice, "cudaSetDevice",
                        "device %d does not exist (warpsim simulates device 0 only)", device);
    return rt_gpu("cudaSetDevice") ? cudaSuccess : rt_gpu_status();
}

RT_EXPORT cudaError_t cudaGetDevice(int *device)
{
    RT_LOCK();
    if (!device)
        return rt_error(cudaErrorInvalidValue, "cudaGetDevice", "device is NULL");
    *device = 0;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaSetDeviceFlags(unsigned flags)
{
    RT_LOCK();
    (void)flags;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaGetDeviceFlags(unsigned *flags)
{
    RT_LOCK();
    if (!flags)
        return rt_error(cudaErrorInvalidValue, "cudaGetDeviceFlags", "flags is NULL");
    *flags = 0;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaChooseDevice(int *device, const void *prop)
{
    RT_LOCK();
    (void)prop;
    if (!device)
        return rt_error(cudaErrorInvalidValue, "cudaChooseDevice", "device is NULL");
    *device = 0;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaDeviceSynchronize(void)
{
    RT_LOCK();
    if (!rt_g.sticky && !rt_gpu("cudaDeviceSynchronize"))
        return rt_gpu_status();
    return rt_take_pending();
}

RT_EXPORT cudaError_t cudaThreadSynchronize(void)
{
    RT_LOCK();
    return cudaDeviceSynchronize();
}

RT_EXPORT cudaError_t cudaDeviceReset(void)
{
    RT_LOCK();
    rt_reset_memory();
    rt_array_reset();
    rt_texture_reset();
    rt_g.pending = rt_g.sticky = cudaSuccess; /* a new context */
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaThreadExit(void)
{
    RT_LOCK();
    return cudaDeviceReset();
}

RT_EXPORT cudaError_t cudaDeviceSetCacheConfig(int cacheConfig)
{
    RT_LOCK();
    (void)cacheConfig;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaDeviceSetLimit(int limit, size_t value)
{
    RT_LOCK();
    (void)limit, (void)value;
    return cudaSuccess;
}

static uint64_t l2_bytes(const struct gpu_config *c)
{
    if (!c->l2_enabled)
        return 0;
    return (uint64_t)c->l2.sets * c->l2.line * c->l2.assoc * c->n_channels *
           (c->subparts_per_channel ? c->subparts_per_channel : 1);
}

static int shared_per_block(const struct gpu_config *c)
{
    return (int)(c->shared_per_sm < 49152 ? c->shared_per_sm : 49152);
}

RT_EXPORT cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device)
{
    RT_LOCK();
    const char *fn = "cudaDeviceGetAttribute";
    if (!value)
        return rt_error(cudaErrorInvalidValue, fn, "value is NULL");
    if (device != 0)
        return rt_error(cudaErrorInvalidDevice, fn, "device %d does not exist", device);
    ws_gpu *gpu = rt_gpu(fn);
    if (!gpu)
        return rt_gpu_status();
    const struct gpu_config *c = &gpu->config;
    int v;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: v = 1024; break;
    case cudaDevAttrMaxBlockDimX: v = 1024; break;
    case cudaDevAttrMaxBlockDimY: v = 1024; break;
    case cudaDevAttrMaxBlockDimZ: v = 64; break;
    case cudaDevAttrMaxGridDimX: v = 2147483647; break;
    case cudaDevAttrMaxGridDimY: v = 65535; break;
    case cudaDevAttrMaxGridDimZ: v = 65535; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: v = shared_per_block(c); break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: v = (int)c->shared_per_sm; break;
    case cudaDevAttrTotalConstantMemory: v = 65536; break;
    case cudaDevAttrWarpSize: v = 32; break;
    case cudaDevAttrMaxPitch: v = 2147483647; break;
    case cudaDevAttrMaxRegistersPerBlock: v = (int)c->regs_per_sm; break;
    case cudaDevAttrClockRate: v = (int)(c->core_mhz * 1000.0); break;
    case cudaDevAttrTextureAlignment: v = 512; break;
    case cudaDevAttrGpuOverlap: v = 0; break;
    case cudaDevAttrMultiProcessorCount: v = (int)c->n_sms; break;
    case cudaDevAttrKernelExecTimeout: v = 0; break;
    case cudaDevAttrIntegrated: v = 0; break;
    case cudaDevAttrCanMapHostMemory: v = 0; break;
    case cudaDevAttrComputeMode: v = 0; break;
    case cudaDevAttrConcurrentKernels: v = 0; break;
    case cudaDevAttrEccEnabled: v = 0; break;
    case cudaDevAttrPciBusId: v = 0; break;
    case cudaDevAttrPciDeviceId: v = 0; break;
    case cudaDevAttrMemoryClockRate: v = (int)(c->dram_mhz * 1000.0); break;
    case cudaDevAttrGlobalMemoryBusWidth: v = (int)(c->n_channels * 64); break;
    case cudaDevAttrL2CacheSize: v = (int)l2_bytes(c); break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: v = (int)c->max_threads_per_sm; break;
    case cudaDevAttrAsyncEngineCount: v = 0; break;
    case cudaDevAttrUnifiedAddressing: v = 1; break;
    case cudaDevAttrComputeCapabilityMajor: v = RT_CC_MAJOR; break;
    case cudaDevAttrComputeCapabilityMinor: v = RT_CC_MINOR; break;
    case cudaDevAttrGlobalL1CacheSupported: v = (int)c->l1d_enabled; break;
    case cudaDevAttrLocalL1CacheSupported: v = 1; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: v = (int)c->shared_per_sm; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: v = (int)c->regs_per_sm; break;
    case cudaDevAttrManagedMemory: v = 1; break;
    case cudaDevAttrConcurrentManagedAccess: v = 0; break;
    case cudaDevAttrCooperativeLaunch: v = 0; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: v = (int)c->max_ctas_per_sm; break;
    default:
        return rt_error(cudaErrorInvalidValue, fn,
                        "device attribute %d is not supported by warpsim", attr);
    }
    *value = v;
    return cudaSuccess;
}

static void fill_head(ws_gpu *gpu, char *name, size_t *total, size_t *smem_block,
                      int *regs_block, int *warp, size_t *pitch, int *max_threads, int *tdim,
                      int *gdim)
{
    const struct gpu_config *c = &gpu->config;
    snprintf(name, 256, "warpsim simulated GPU (%u SMs)", c->n_sms);
    *total = (size_t)gpu->mem.limit;
    *smem_block = (size_t)shared_per_block(c);
    *regs_block = (int)c->regs_per_sm;
    *warp = 32;
    *pitch = 2147483647;
    *max_threads = 1024;
    tdim[0] = 1024, tdim[1] = 1024, tdim[2] = 64;
    gdim[0] = 2147483647, gdim[1] = 65535, gdim[2] = 65535;
}

/* The argument checks both cudaGetDeviceProperties layouts share. */
static cudaError_t props_check(const void *prop, int device, ws_gpu **gpu)
{
    const char *fn = "cudaGetDeviceProperties";
    if (!prop)
        return rt_error(cudaErrorInvalidValue, fn, "prop is NULL");
    if (device != 0)
        return rt_error(cudaErrorInvalidDevice, fn, "device %d does not exist", device);
    *gpu = rt_gpu(fn);
    return *gpu ? cudaSuccess : rt_gpu_status();
}

cudaError_t rt_props13(struct cudaDeviceProp *prop, int device)
{
    ws_gpu *gpu = NULL;
    cudaError_t rc = props_check(prop, device, &gpu);
    if (rc != cudaSuccess)
        return rc;
    const struct gpu_config *c = &gpu->config;
    memset(prop, 0, sizeof *prop);
    fill_head(gpu, prop->name, &prop->totalGlobalMem, &prop->sharedMemPerBlock,
              &prop->regsPerBlock, &prop->warpSize, &prop->memPitch, &prop->maxThreadsPerBlock,
              prop->maxThreadsDim, prop->maxGridSize);
    memcpy(prop->uuid.bytes, "warpsim-device-0", 16);
    prop->totalConstMem = 65536;
    prop->major = RT_CC_MAJOR;
    prop->minor = RT_CC_MINOR;
    prop->textureAlignment = 512;
    prop->texturePitchAlignment = 32;
    prop->multiProcessorCount = (int)c->n_sms;
    prop->memoryBusWidth = (int)(c->n_channels * 64);
    prop->l2CacheSize = (int)l2_bytes(c);
    prop->maxThreadsPerMultiProcessor = (int)c->max_threads_per_sm;
    prop->globalL1CacheSupported = (int)c->l1d_enabled;
    prop->localL1CacheSupported = 1;
    prop->sharedMemPerMultiprocessor = c->shared_per_sm;
    prop->regsPerMultiprocessor = (int)c->regs_per_sm;
    prop->managedMemory = 1;
    prop->unifiedAddressing = 1;
    prop->sharedMemPerBlockOptin = c->shared_per_sm;
    prop->maxBlocksPerMultiProcessor = (int)c->max_ctas_per_sm;
    return cudaSuccess;
}

cudaError_t rt_props_legacy(struct cudart_legacy_prop_head *prop, int device)
{
    ws_gpu *gpu = NULL;
    cudaError_t rc = props_check(prop, device, &gpu);
    if (rc != cudaSuccess)
        return rc;
    memset(prop, 0, sizeof *prop);
    fill_head(gpu, prop->name, &prop->totalGlobalMem, &prop->sharedMemPerBlock,
              &prop->regsPerBlock, &prop->warpSize, &prop->memPitch, &prop->maxThreadsPerBlock,
              prop->maxThreadsDim, prop->maxGridSize);
    prop->clockRate = (int)(gpu->config.core_mhz * 1000.0);
    prop->totalConstMem = 65536;
    prop->major = RT_CC_MAJOR;
    prop->minor = RT_CC_MINOR;
    prop->textureAlignment = 512;
    prop->texturePitchAlignment = 32;
    prop->multiProcessorCount = (int)gpu->config.n_sms;
    return cudaSuccess;
}

/* ---- handles ------------------------------------------------------------------- */

/* Streams and events are checked against the handles created and not yet
 * destroyed, so a stale or made-up handle is an error, as in CUDA, rather
 * than a pointer the runtime would follow. */
static size_t handle_find(void *const *set, size_t n, const void *h)
{
    for (size_t i = 0; i < n; i++)
        if (set[i] == h)
            return i;
    return n;
}

static void handle_drop(void **set, size_t *n, size_t i)
{
    set[i] = set[--*n];
}

#define RT_STREAM_LEGACY ((const void *)0x1)     /* cudaStreamLegacy */
#define RT_STREAM_PER_THREAD ((const void *)0x2) /* cudaStreamPerThread */

cudaError_t rt_check_stream(const void *stream, const char *fn)
{
    if (!stream || stream == RT_STREAM_LEGACY || stream == RT_STREAM_PER_THREAD ||
        handle_find(rt_g.streams, rt_g.nstreams, stream) < rt_g.nstreams)
        return cudaSuccess;
    return rt_error(cudaErrorInvalidResourceHandle, fn,
                    "stream %p was not created by cudaStreamCreate or was destroyed", stream);
}

cudaError_t rt_check_event(const void *event, const char *fn)
{
    if (event && handle_find(rt_g.events, rt_g.nevents, event) < rt_g.nevents)
        return cudaSuccess;
    return rt_error(cudaErrorInvalidResourceHandle, fn,
                    "event %p was not created by cudaEventCreate or was destroyed", event);
}

/* ---- streams ------------------------------------------------------------------- */

struct cudart_stream {
    unsigned flags;
    int priority;
};

RT_EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned flags,
                                                   int priority)
{
    RT_LOCK();
    if (!pStream)
        return rt_error(cudaErrorInvalidValue, "cudaStreamCreate", "pStream is NULL");
    struct cudart_stream *s = xcalloc(1, sizeof *s);
    s->flags = flags;
    s->priority = priority;
    *ARRAY_PUSH(rt_g.streams, rt_g.nstreams, rt_g.streams_cap) = s;
    *pStream = s;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned flags)
{
    RT_LOCK();
    return cudaStreamCreateWithPriority(pStream, flags, 0);
}

RT_EXPORT cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
    RT_LOCK();
    return cudaStreamCreateWithPriority(pStream, 0, 0);
}

RT_EXPORT cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    RT_LOCK();
    size_t i = handle_find(rt_g.streams, rt_g.nstreams, stream);
    if (i == rt_g.nstreams)
        return rt_error(cudaErrorInvalidResourceHandle, "cudaStreamDestroy",
                        "stream %p was not created by cudaStreamCreate or was destroyed",
                        (void *)stream);
    handle_drop(rt_g.streams, &rt_g.nstreams, i);
    free(stream);
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    RT_LOCK();
    cudaError_t rc = rt_check_stream(stream, "cudaStreamSynchronize");
    return rc != cudaSuccess ? rc : rt_take_pending();
}

RT_EXPORT cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream)
{
    RT_LOCK();
    return cudaStreamSynchronize(stream);
}

RT_EXPORT cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    RT_LOCK();
    return rt_check_stream(stream, "cudaStreamQuery");
}

RT_EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                          unsigned flags)
{
    RT_LOCK();
    (void)flags;
    cudaError_t rc = rt_check_stream(stream, "cudaStreamWaitEvent");
    return rc != cudaSuccess ? rc : rt_check_event(event, "cudaStreamWaitEvent");
}

/* ---- events -------------------------------------------------------------------- */

struct cudart_event {
    int recorded;
    double ms;
};

RT_EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned flags)
{
    RT_LOCK();
    (void)flags;
    if (!event)
        return rt_error(cudaErrorInvalidValue, "cudaEventCreate", "event is NULL");
    *event = xcalloc(1, sizeof **event);
    *ARRAY_PUSH(rt_g.events, rt_g.nevents, rt_g.events_cap) = *event;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    RT_LOCK();
    return cudaEventCreateWithFlags(event, 0);
}

RT_EXPORT cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    RT_LOCK();
    cudaError_t rc = rt_check_event(event, "cudaEventDestroy");
    if (rc != cudaSuccess)
        return rc;
    handle_drop(rt_g.events, &rt_g.nevents, handle_find(rt_g.events, rt_g.nevents, event));
    free(event);
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    RT_LOCK();
    cudaError_t rc = rt_check_event(event, "cudaEventRecord");
    if (rc == cudaSuccess)
        rc = rt_check_stream(stream, "cudaEventRecord");
    if (rc != cudaSuccess)
        return rc;
    event->recorded = 1;
    event->ms = rt_now_ms();
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream)
{
    RT_LOCK();
    return cudaEventRecord(event, stream);
}

RT_EXPORT cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
                                               unsigned flags)
{
    RT_LOCK();
    (void)flags;
    return cudaEventRecord(event, stream);
}

RT_EXPORT cudaError_t cudaEventQuery(cudaEvent_t event)
{
    RT_LOCK();
    return rt_check_event(event, "cudaEventQuery");
}

RT_EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    RT_LOCK();
    return rt_check_event(event, "cudaEventSynchronize");
}

RT_EXPORT cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    RT_LOCK();
    const char *fn = "cudaEventElapsedTime";
    if (!ms)
        return rt_error(cudaErrorInvalidValue, fn, "ms is NULL");
    cudaError_t rc = rt_check_event(start, fn);
    if (rc == cudaSuccess)
        rc = rt_check_event(end, fn);
    if (rc != cudaSuccess)
        return rc;
    if (!start->recorded || !end->recorded)
        return rt_error(cudaErrorInvalidResourceHandle, fn, "event was not recorded");
    *ms = (float)(end->ms - start->ms);
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaEventElapsedTime_v2(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    RT_LOCK();
    return cudaEventElapsedTime(ms, start, end);
}

/* ---- harmless extras: hints, limits, callbacks, profiler -------------------- */

RT_EXPORT cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned *flags)
{
    RT_LOCK();
    if (!flags)
        return rt_error(cudaErrorInvalidValue, "cudaStreamGetFlags", "flags is NULL");
    *flags = stream ? stream->flags : 0;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaStreamGetPriority(cudaStream_t stream, int *priority)
{
    RT_LOCK();
    if (!priority)
        return rt_error(cudaErrorInvalidValue, "cudaStreamGetPriority", "priority is NULL");
    *priority = stream ? stream->priority : 0;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
    RT_LOCK();
    if (least)
        *least = 0;
    if (greatest)
        *greatest = 0;
    return cudaSuccess;
}

typedef void (*rt_host_fn)(void *);
typedef void (*rt_stream_cb)(cudaStream_t, cudaError_t, void *);

RT_EXPORT cudaError_t cudaLaunchHostFunc(cudaStream_t stream, rt_host_fn fn, void *userData)
{
    RT_LOCK();
    (void)stream;
    if (!fn)
        return rt_error(cudaErrorInvalidValue, "cudaLaunchHostFunc", "fn is NULL");
    fn(userData); /* streams run in order and synchronously */
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaStreamAddCallback(cudaStream_t stream, rt_stream_cb cb, void *userData,
                                            unsigned flags)
{
    RT_LOCK();
    (void)flags;
    if (!cb)
        return rt_error(cudaErrorInvalidValue, "cudaStreamAddCallback", "callback is NULL");
    cb(stream, cudaSuccess, userData);
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaDeviceGetLimit(size_t *pValue, int limit)
{
    RT_LOCK();
    if (!pValue)
        return rt_error(cudaErrorInvalidValue, "cudaDeviceGetLimit", "pValue is NULL");
    switch (limit) {
    case 0: *pValue = 1024; break;          /* stack size */
    case 1: *pValue = 1048576; break;       /* printf FIFO */
    case 2: *pValue = 8388608; break;       /* malloc heap */
    default: *pValue = 0; break;
    }
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaThreadSetLimit(int limit, size_t value)
{
    RT_LOCK();
    return cudaDeviceSetLimit(limit, value);
}

RT_EXPORT cudaError_t cudaDeviceGetCacheConfig(int *pCacheConfig)
{
    RT_LOCK();
    if (!pCacheConfig)
        return rt_error(cudaErrorInvalidValue, "cudaDeviceGetCacheConfig", "argument is NULL");
    *pCacheConfig = 0;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaInitDevice(int device, unsigned deviceFlags, unsigned flags)
{
    RT_LOCK();
    (void)deviceFlags, (void)flags;
    return cudaSetDevice(device);
}

RT_EXPORT cudaError_t cudaProfilerStart(void)
{
    RT_LOCK();
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaProfilerStop(void)
{
    RT_LOCK();
    return cudaSuccess;
}
