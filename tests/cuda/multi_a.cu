// multi_a.cu: kernels and a __constant__ table in their own translation unit.
#include <cstdio>
#include <cuda_runtime.h>

__constant__ int coeff[4];
__device__ int counter_a;

__global__ void poly(const int *x, int *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = coeff[0] + coeff[1] * x[i] + coeff[2] * x[i] * x[i];
    if (i == 0)
        counter_a = coeff[3];
}

int run_a(int *failures)
{
    const int n = 64;
    int hx[n], hy[n], c[4] = {1, 2, 3, 77};
    for (int i = 0; i < n; i++)
        hx[i] = i;
    int *x, *y;
    cudaMalloc((void **)&x, sizeof hx);
    cudaMalloc((void **)&y, sizeof hy);
    cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
    if (cudaMemcpyToSymbol(coeff, c, sizeof c) != cudaSuccess)
        (*failures)++;
    int back[4] = {0, 0, 0, 0};
    if (cudaMemcpyFromSymbol(back, coeff, sizeof back) != cudaSuccess || back[1] != 2)
        (*failures)++;
    poly<<<2, 32>>>(x, y, n);
    cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        if (hy[i] != 1 + 2 * i + 3 * i * i) {
            printf("poly[%d] = %d\n", i, hy[i]);
            (*failures)++;
            break;
        }
    int ca = 0;
    cudaMemcpyFromSymbol(&ca, counter_a, sizeof ca);
    if (ca != 77)
        (*failures)++;
    cudaFree(x);
    cudaFree(y);
    return 0;
}
