// atomic_ext.cu: atomicAdd on double, __half2 and __half (global and shared
// memory), with every thread of several blocks adding to the same words.
// The values added are exactly representable so the sums are exact in any
// order; checked against the CPU. Prints PASS or FAIL.
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define BLOCK 128
#define GRID 4

// d[0] += 0.5 per thread; d[1 + t % 4] += t (per-slot sums)
// h2[0] += (1, 0.25) per thread of block 0..GRID-1 (fits exactly in half: 512, 128)
// h[0] += 0.125 per thread (64.0)
// sd: the same double sum through shared memory, one word per block
__global__ void adds(double *d, __half2 *h2, __half *h, double *sd)
{
    __shared__ double s;
    __shared__ __half2 sh2;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) {
        s = 0.0;
        sh2 = __halves2half2(__float2half(0.0f), __float2half(0.0f));
    }
    __syncthreads();
    atomicAdd(&d[0], 0.5);
    atomicAdd(&d[1 + t % 4], (double)t);
    atomicAdd(&h2[0], __halves2half2(__float2half(1.0f), __float2half(0.25f)));
    atomicAdd(&h[0], __float2half(0.125f));
    atomicAdd(&s, 0.25);
    atomicAdd(&sh2, __halves2half2(__float2half(2.0f), __float2half(-1.0f)));
    __syncthreads();
    if (threadIdx.x == 0) {
        sd[2 * blockIdx.x] = s;
        sd[2 * blockIdx.x + 1] = (double)__low2float(sh2) * 1000.0 + (double)__high2float(sh2);
    }
}

// the old value atomicAdd returns: each thread's return is distinct
__global__ void returns(double *acc, double *old)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    old[t] = atomicAdd(acc, 1.0);
}

int main()
{
    const int n = BLOCK * GRID;
    double *d, *sd, *acc, *old;
    __half2 *h2;
    __half *h;
    cudaMalloc(&d, 5 * sizeof(double));
    cudaMalloc(&sd, 2 * GRID * sizeof(double));
    cudaMalloc(&h2, sizeof(__half2));
    cudaMalloc(&h, sizeof(__half));
    cudaMalloc(&acc, sizeof(double));
    cudaMalloc(&old, n * sizeof(double));
    cudaMemset(d, 0, 5 * sizeof(double));
    cudaMemset(h2, 0, sizeof(__half2));
    cudaMemset(h, 0, sizeof(__half));
    cudaMemset(acc, 0, sizeof(double));
    adds<<<GRID, BLOCK>>>(d, h2, h, sd);
    returns<<<GRID, BLOCK>>>(acc, old);
    int failures = 0;
    if (cudaDeviceSynchronize() != cudaSuccess) {
        printf("FAIL: %s\n", cudaGetErrorString(cudaGetLastError()));
        return 1;
    }
    double hd[5], hsd[2 * GRID], hold[BLOCK * GRID], hacc;
    __half2 hh2;
    __half hh;
    cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost);
    cudaMemcpy(hsd, sd, sizeof hsd, cudaMemcpyDeviceToHost);
    cudaMemcpy(&hh2, h2, sizeof hh2, cudaMemcpyDeviceToHost);
    cudaMemcpy(&hh, h, sizeof hh, cudaMemcpyDeviceToHost);
    cudaMemcpy(hold, old, sizeof hold, cudaMemcpyDeviceToHost);
    cudaMemcpy(&hacc, acc, sizeof hacc, cudaMemcpyDeviceToHost);
    if (hd[0] != 0.5 * n && failures++ < 10)
        printf("double sum %g, want %g\n", hd[0], 0.5 * n);
    for (int k = 0; k < 4; k++) {
        double want = 0;
        for (int t = 0; t < n; t++)
            if (t % 4 == k)
                want += t;
        if (hd[1 + k] != want && failures++ < 10)
            printf("double slot %d sum %g, want %g\n", k, hd[1 + k], want);
    }
    float lo = __low2float(hh2), hi = __high2float(hh2);
    if ((lo != (float)n || hi != 0.25f * n) && failures++ < 10)
        printf("half2 sum (%g, %g), want (%g, %g)\n", lo, hi, (double)n, 0.25 * n);
    if (__half2float(hh) != 0.125f * n && failures++ < 10)
        printf("half sum %g, want %g\n", __half2float(hh), 0.125 * n);
    for (int b = 0; b < GRID; b++) {
        if (hsd[2 * b] != 0.25 * BLOCK && failures++ < 10)
            printf("shared double sum of block %d: %g, want %g\n", b, hsd[2 * b], 0.25 * BLOCK);
        double want = 2.0 * BLOCK * 1000.0 - BLOCK;
        if (hsd[2 * b + 1] != want && failures++ < 10)
            printf("shared half2 sum of block %d: %g, want %g\n", b, hsd[2 * b + 1], want);
    }
    if (hacc != (double)n && failures++ < 10)
        printf("return test total %g, want %d\n", hacc, n);
    static int seen[BLOCK * GRID];
    for (int t = 0; t < n; t++) {
        int v = (int)hold[t];
        if (v < 0 || v >= n || hold[t] != v || seen[v]++) {
            if (failures++ < 10)
                printf("atomicAdd returned %g to thread %d (duplicate or out of range)\n",
                       hold[t], t);
        }
    }
    printf("%s\n", failures ? "FAIL" : "PASS");
    return failures != 0;
}
