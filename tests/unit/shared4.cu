// shared4.cu: four kernels of one module, each using 16 KB of shared memory,
// for test_shared_per_kernel.c.  nvcc declares a kernel's own __shared__
// array inside its .entry body ("demoted"), a file-scope __shared__ array and
// a device function's __shared__ array at module scope.
__shared__ float file_scope[4096];

__device__ __noinline__ float neighbour(int i)
{
    __shared__ float ring[64];
    ring[i & 63] = (float)i;
    __syncthreads();
    return ring[(i + 1) & 63];
}

extern "C" __global__ void own_a(float *o)
{
    __shared__ float s[4096];
    for (int i = threadIdx.x; i < 4096; i += blockDim.x)
        s[i] = (float)i;
    __syncthreads();
    o[threadIdx.x] = s[4095 - threadIdx.x];
}

extern "C" __global__ void own_b(float *o)
{
    __shared__ float s[4096];
    for (int i = threadIdx.x; i < 4096; i += blockDim.x)
        s[i] = 2.0f * i;
    __syncthreads();
    o[threadIdx.x] = s[4095 - threadIdx.x];
}

extern "C" __global__ void module_scope(float *o)
{
    for (int i = threadIdx.x; i < 4096; i += blockDim.x)
        file_scope[i] = 3.0f * i;
    __syncthreads();
    o[threadIdx.x] = file_scope[4095 - threadIdx.x];
}

extern "C" __global__ void with_call(float *o)
{
    __shared__ float s[4096];
    for (int i = threadIdx.x; i < 4096; i += blockDim.x)
        s[i] = 4.0f * i;
    __syncthreads();
    o[threadIdx.x] = s[4095 - threadIdx.x] + neighbour(threadIdx.x);
}
