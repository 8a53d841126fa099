// api_basic.cu: exercises the CUDA runtime API surface warpsim implements
// (memory, copies of every kind, device queries, streams, events, attributes,
// occupancy, errors, managed memory, dynamic shared memory, device printf,
// __noinline__ device functions).  Prints PASS or FAIL.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

static int failures = 0;
#define CHECK(cond)                                                             \
    do {                                                                        \
        if (!(cond)) {                                                          \
            printf("check failed at line %d: %s\n", __LINE__, #cond);          \
            failures++;                                                         \
        }                                                                       \
    } while (0)
#define OK(call) CHECK((call) == cudaSuccess)

__device__ __noinline__ int twice(int v) { return 2 * v; }

__global__ void scale(int *a, int n, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = twice(a[i]) * k;
}

// dynamic shared memory: reverse each block's slice
__global__ void reverse_block(const int *in, int *out)
{
    extern __shared__ int buf[];
    int t = threadIdx.x, base = blockIdx.x * blockDim.x;
    buf[t] = in[base + t];
    __syncthreads();
    out[base + t] = buf[blockDim.x - 1 - t];
}

__global__ void hello(int tag)
{
    if (threadIdx.x == 0)
        printf("device printf: tag %d block %d\n", tag, blockIdx.x);
}

__global__ void inc_managed(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += 1.0f;
}

int main()
{
    int v = 0;
    OK(cudaDriverGetVersion(&v));
    CHECK(v >= 11000);
    OK(cudaRuntimeGetVersion(&v));
    CHECK(v >= 11000);
    int count = 0;
    OK(cudaGetDeviceCount(&count));
    CHECK(count == 1);
    OK(cudaSetDevice(0));
    OK(cudaSetDeviceFlags(0));
    int dev = -1;
    OK(cudaGetDevice(&dev));
    CHECK(dev == 0);
    cudaDeviceProp prop;
    OK(cudaGetDeviceProperties(&prop, 0));
    CHECK(prop.warpSize == 32);
    CHECK(prop.multiProcessorCount > 0);
    CHECK(prop.sharedMemPerBlock > 0);
    CHECK(prop.regsPerBlock > 0);
    CHECK(strlen(prop.name) > 0);
    int attr = 0;
    OK(cudaDeviceGetAttribute(&attr, cudaDevAttrWarpSize, 0));
    CHECK(attr == 32);
    OK(cudaDeviceGetAttribute(&attr, cudaDevAttrMultiProcessorCount, 0));
    CHECK(attr == prop.multiProcessorCount);
    OK(cudaDeviceGetAttribute(&attr, cudaDevAttrClockRate, 0));
    CHECK(attr > 0);
    size_t freeb = 0, total = 0;
    OK(cudaMemGetInfo(&freeb, &total));
    CHECK(total > 0 && freeb <= total);

    // memory and copies
    const int n = 1000;
    int h[n], r[n];
    for (int i = 0; i < n; i++)
        h[i] = i;
    int *d = nullptr, *d2 = nullptr;
    OK(cudaMalloc((void **)&d, n * sizeof(int)));
    OK(cudaMalloc((void **)&d2, n * sizeof(int)));
    OK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
    scale<<<(n + 127) / 128, 128>>>(d, n, 3);
    OK(cudaGetLastError());
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(d2, d, n * sizeof(int), cudaMemcpyDeviceToDevice));
    OK(cudaMemcpy(r, d2, n * sizeof(int), cudaMemcpyDeviceToHost));
    int good = 1;
    for (int i = 0; i < n; i++)
        good &= r[i] == 6 * i;
    CHECK(good);
    int hh[4] = {1, 2, 3, 4}, hh2[4] = {0, 0, 0, 0};
    OK(cudaMemcpy(hh2, hh, sizeof hh, cudaMemcpyHostToHost));
    CHECK(hh2[3] == 4);
    OK(cudaMemcpy(r, d, n * sizeof(int), cudaMemcpyDefault));
    CHECK(r[10] == 60);
    OK(cudaMemset(d, 0, n * sizeof(int)));
    OK(cudaMemcpy(r, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(r[0] == 0 && r[n - 1] == 0);

    // 2D copy: 4 rows of 3 ints into a pitched 8-int layout and back
    int src2[12], dst2[12];
    for (int i = 0; i < 12; i++)
        src2[i] = 100 + i;
    OK(cudaMemcpy2D(d, 8 * sizeof(int), src2, 3 * sizeof(int), 3 * sizeof(int), 4,
                    cudaMemcpyHostToDevice));
    OK(cudaMemcpy2D(dst2, 3 * sizeof(int), d, 8 * sizeof(int), 3 * sizeof(int), 4,
                    cudaMemcpyDeviceToHost));
    CHECK(memcmp(src2, dst2, sizeof src2) == 0);

    // pinned host memory
    int *pinned = nullptr, *pinned2 = nullptr;
    OK(cudaMallocHost((void **)&pinned, 64 * sizeof(int)));
    OK(cudaHostAlloc((void **)&pinned2, 64 * sizeof(int), cudaHostAllocDefault));
    for (int i = 0; i < 64; i++)
        pinned[i] = 7 * i;

    // streams, async copies and events
    cudaStream_t s;
    OK(cudaStreamCreate(&s));
    cudaEvent_t e0, e1;
    OK(cudaEventCreate(&e0));
    OK(cudaEventCreate(&e1));
    OK(cudaEventRecord(e0, s));
    OK(cudaMemcpyAsync(d, pinned, 64 * sizeof(int), cudaMemcpyHostToDevice, s));
    scale<<<1, 64, 0, s>>>(d, 64, 1);
    OK(cudaMemsetAsync(d2, 0, 64 * sizeof(int), s));
    OK(cudaMemcpyAsync(pinned2, d, 64 * sizeof(int), cudaMemcpyDeviceToHost, s));
    OK(cudaEventRecord(e1, s));
    OK(cudaStreamSynchronize(s));
    OK(cudaEventSynchronize(e1));
    OK(cudaEventQuery(e1));
    float ms = -1.0f;
    OK(cudaEventElapsedTime(&ms, e0, e1));
    CHECK(ms >= 0.0f);
    CHECK(pinned2[5] == 70);
    OK(cudaEventDestroy(e0));
    OK(cudaEventDestroy(e1));
    OK(cudaStreamDestroy(s));
    OK(cudaFreeHost(pinned));
    OK(cudaFreeHost(pinned2));

    // dynamic shared memory
    int in[256], out[256];
    for (int i = 0; i < 256; i++)
        in[i] = i;
    OK(cudaMemcpy(d, in, sizeof in, cudaMemcpyHostToDevice));
    reverse_block<<<2, 128, 128 * sizeof(int)>>>(d, d2);
    OK(cudaMemcpy(out, d2, sizeof out, cudaMemcpyDeviceToHost));
    CHECK(out[0] == 127 && out[127] == 0 && out[128] == 255 && out[255] == 128);

    // device printf
    hello<<<2, 32>>>(42);
    OK(cudaDeviceSynchronize());

    // managed memory
    float *m = nullptr;
    OK(cudaMallocManaged((void **)&m, 100 * sizeof(float), cudaMemAttachGlobal));
    for (int i = 0; i < 100; i++)
        m[i] = (float)i;
    inc_managed<<<1, 128>>>(m, 100);
    OK(cudaDeviceSynchronize());
    CHECK(m[0] == 1.0f && m[99] == 100.0f);
    OK(cudaFree(m));

    // kernel attributes and occupancy
    cudaFuncAttributes fa;
    OK(cudaFuncGetAttributes(&fa, scale));
    CHECK(fa.maxThreadsPerBlock > 0 && fa.numRegs > 0);
    OK(cudaFuncSetCacheConfig(scale, cudaFuncCachePreferL1));
    int blocks = 0;
    OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, scale, 128, 0));
    CHECK(blocks > 0);
    OK(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, reverse_block, 128,
                                                              512, cudaOccupancyDefault));
    CHECK(blocks > 0);

    // cudaLaunchKernel directly
    int *dk = d;
    int nk = 4, kk = 5;
    void *args[] = {&dk, &nk, &kk};
    int four[4] = {1, 1, 1, 1};
    OK(cudaMemcpy(d, four, sizeof four, cudaMemcpyHostToDevice));
    OK(cudaLaunchKernel((const void *)scale, dim3(1), dim3(4), args, 0, 0));
    OK(cudaMemcpy(four, d, sizeof four, cudaMemcpyDeviceToHost));
    CHECK(four[0] == 10 && four[3] == 10);

    // errors: a bad launch configuration, then last-error semantics
    scale<<<1, 0>>>(d, n, 1);
    CHECK(cudaPeekAtLastError() == cudaErrorInvalidConfiguration);
    CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration);
    CHECK(cudaGetLastError() == cudaSuccess);
    CHECK(strcmp(cudaGetErrorName(cudaErrorInvalidValue), "cudaErrorInvalidValue") == 0);
    CHECK(strlen(cudaGetErrorString(cudaErrorMemoryAllocation)) > 0);
    CHECK(cudaSetDevice(3) == cudaErrorInvalidDevice);
    (void)cudaGetLastError();

    OK(cudaFree(d));
    OK(cudaFree(d2));
    OK(cudaDeviceReset());
    printf("%s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
