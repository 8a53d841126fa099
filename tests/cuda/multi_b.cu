// multi_b.cu: a second translation unit with its own kernel, a __device__
// array written by the host through cudaGetSymbolAddress, and device printf.
#include <cstdio>
#include <cuda_runtime.h>

__device__ float table[32];
__device__ int hits;

__global__ void accumulate(float k)
{
    int t = threadIdx.x;
    table[t] = table[t] * k;
    atomicAdd(&hits, 1);
    if (t == 0)
        printf("multi_b: block %d scaled by %.1f\n", blockIdx.x, k);
}

int run_b(int *failures)
{
    float h[32];
    for (int i = 0; i < 32; i++)
        h[i] = (float)i;
    void *p = nullptr;
    if (cudaGetSymbolAddress(&p, table) != cudaSuccess || !p)
        (*failures)++;
    cudaMemcpy(p, h, sizeof h, cudaMemcpyHostToDevice);
    int zero = 0;
    cudaMemcpyToSymbol(hits, &zero, sizeof zero);
    accumulate<<<1, 32>>>(0.5f);
    cudaDeviceSynchronize();
    cudaMemcpyFromSymbol(h, table, sizeof h);
    for (int i = 0; i < 32; i++)
        if (h[i] != 0.5f * i)
            (*failures)++;
    int nh = 0;
    cudaMemcpyFromSymbol(&nh, hits, sizeof nh);
    if (nh != 32)
        (*failures)++;
    return 0;
}
