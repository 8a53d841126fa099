/* cudart_abi.c: the entry points whose ABI differs between CUDA major
 * versions; compiled once per library with WS_CUDART_ABI = 13, 12 or 11.
 * CUDA 12 programs call cudaGetDeviceProperties_v2 and CUDA 11 programs
 * cudaGetDeviceProperties, both with the pre-13 cudaDeviceProp layout.
 * CUDA 13 passes a struct cudaMemLocation (and flags) to cudaMemPrefetchAsync
 * and cudaMemAdvise where CUDA 11/12 pass a device number; CUDA 12.2+ has the
 * location forms as cudaMemPrefetchAsync_v2 / cudaMemAdvise_v2. */
#include "runtime/rt.h"

#ifndef WS_CUDART_ABI
#define WS_CUDART_ABI 13
#endif

#if WS_CUDART_ABI >= 13
RT_EXPORT cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    RT_LOCK();
    return rt_props13(prop, device);
}

RT_EXPORT cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
                                           struct cudaMemLocation location, unsigned flags,
                                           cudaStream_t stream)
{
    RT_LOCK();
    (void)location, (void)flags;
    return rt_mem_hint(devPtr, count, stream, "cudaMemPrefetchAsync");
}

RT_EXPORT cudaError_t cudaMemAdvise(const void *devPtr, size_t count, int advice,
                                    struct cudaMemLocation location)
{
    RT_LOCK();
    (void)advice, (void)location;
    return rt_mem_hint(devPtr, count, NULL, "cudaMemAdvise");
}
#else
RT_EXPORT cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice,
                                           cudaStream_t stream)
{
    RT_LOCK();
    (void)dstDevice;
    return rt_mem_hint(devPtr, count, stream, "cudaMemPrefetchAsync");
}

RT_EXPORT cudaError_t cudaMemAdvise(const void *devPtr, size_t count, int advice, int device)
{
    RT_LOCK();
    (void)advice, (void)device;
    return rt_mem_hint(devPtr, count, NULL, "cudaMemAdvise");
}

RT_EXPORT cudaError_t cudaMemPrefetchAsync_v2(const void *devPtr, size_t count,
                                              struct cudaMemLocation location, unsigned flags,
                                              cudaStream_t stream)
{
    RT_LOCK();
    (void)location, (void)flags;
    return rt_mem_hint(devPtr, count, stream, "cudaMemPrefetchAsync_v2");
}

RT_EXPORT cudaError_t cudaMemAdvise_v2(const void *devPtr, size_t count, int advice,
                                       struct cudaMemLocation location)
{
    RT_LOCK();
    (void)advice, (void)location;
    return rt_mem_hint(devPtr, count, NULL, "cudaMemAdvise_v2");
}

RT_EXPORT cudaError_t cudaGetDeviceProperties(struct cudart_legacy_prop_head *prop, int device)
{
    RT_LOCK();
    return rt_props_legacy(prop, device);
}

RT_EXPORT cudaError_t cudaGetDeviceProperties_v2(struct cudart_legacy_prop_head *prop,
                                                 int device)
{
    RT_LOCK();
    return rt_props_legacy(prop, device);
}
#endif
