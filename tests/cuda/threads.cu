// threads.cu: the runtime called from several host threads at once.  Four
// std::threads each allocate their own buffers and stream, launch kernels in
// a loop (<<<>>> and cudaLaunchKernel), copy back and check every element;
// one thread also provokes an invalid launch configuration and checks that
// the error is its own (cudaGetLastError is per thread, as in CUDA) while the
// others see none.  Prints PASS or FAIL.
#include <atomic>
#include <cstdio>
#include <cuda_runtime.h>
#include <thread>
#include <vector>

#define THREADS 4
#define ROUNDS 6
#define N 2000

__global__ void axpb(int *v, int n, int a, int b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = v[i] * a + b;
}

static std::atomic<int> failures(0);

static void fail(int t, const char *what, int detail)
{
    if (failures++ < 10)
        printf("thread %d: %s (%d)\n", t, what, detail);
}

static void worker(int t)
{
    std::vector<int> h(N), want(N);
    for (int i = 0; i < N; i++)
        h[i] = want[i] = i * (t + 1);
    int *d = nullptr;
    cudaStream_t s;
    if (cudaMalloc(&d, N * sizeof(int)) != cudaSuccess || cudaStreamCreate(&s) != cudaSuccess) {
        fail(t, "cudaMalloc/cudaStreamCreate failed", 0);
        return;
    }
    cudaMemcpyAsync(d, h.data(), N * sizeof(int), cudaMemcpyHostToDevice, s);
    for (int r = 0; r < ROUNDS; r++) {
        int a = (r % 3) + 1, b = t * 100 + r;
        if (r % 2 == 0) {
            axpb<<<(N + 127) / 128, 128, 0, s>>>(d, N, a, b);
        } else {
            int n = N;
            void *args[] = {&d, &n, &a, &b};
            if (cudaLaunchKernel((const void *)axpb, dim3((N + 127) / 128), dim3(128), args, 0,
                                 s) != cudaSuccess)
                fail(t, "cudaLaunchKernel failed", r);
        }
        for (int i = 0; i < N; i++)
            want[i] = want[i] * a + b;
        if (t == 0 && r == 2) {
            // an invalid configuration: this thread's error only
            axpb<<<1, 4096, 0, s>>>(d, N, 1, 0);
            cudaError_t e = cudaGetLastError();
            if (e != cudaErrorInvalidConfiguration)
                fail(t, "the bad launch gave the wrong error", (int)e);
            if (cudaGetLastError() != cudaSuccess)
                fail(t, "cudaGetLastError did not clear the error", 0);
        } else if (cudaGetLastError() != cudaSuccess) {
            fail(t, "another thread's error was seen", r);
        }
    }
    cudaMemcpyAsync(h.data(), d, N * sizeof(int), cudaMemcpyDeviceToHost, s);
    if (cudaStreamSynchronize(s) != cudaSuccess)
        fail(t, "cudaStreamSynchronize failed", 0);
    for (int i = 0; i < N; i++)
        if (h[i] != want[i]) {
            fail(t, "wrong element", i);
            break;
        }
    cudaStreamDestroy(s);
    cudaFree(d);
}

int main()
{
    std::vector<std::thread> ts;
    for (int t = 0; t < THREADS; t++)
        ts.emplace_back(worker, t);
    for (auto &th : ts)
        th.join();
    if (cudaDeviceSynchronize() != cudaSuccess)
        failures++;
    printf("%s\n", failures ? "FAIL" : "PASS");
    return failures != 0;
}
