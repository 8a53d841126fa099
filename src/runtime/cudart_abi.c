/* cudart_abi.c: the entry points whose ABI differs between CUDA major
 * versions; compiled once per library with WS_CUDART_ABI = 13, 12 or 11.
 * CUDA 12 programs call cudaGetDeviceProperties_v2 and CUDA 11 programs
 * cudaGetDeviceProperties, both with the pre-13 cudaDeviceProp layout. */
#include "runtime/rt.h"

#ifndef WS_CUDART_ABI
#define WS_CUDART_ABI 13
#endif

#if WS_CUDART_ABI >= 13
RT_EXPORT cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    return rt_props13(prop, device);
}
#else
RT_EXPORT cudaError_t cudaGetDeviceProperties(struct cudart_legacy_prop_head *prop, int device)
{
    return rt_props_legacy(prop, device);
}

RT_EXPORT cudaError_t cudaGetDeviceProperties_v2(struct cudart_legacy_prop_head *prop,
                                                 int device)
{
    return rt_props_legacy(prop, device);
}
#endif
