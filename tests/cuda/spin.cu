// spin.cu: a kernel that loops n times (a linear congruential generator per
// thread).  Without arguments n is small and the result is checked against
// the CPU ("PASS"); with an argument it loops practically forever, for the
// Ctrl-C test (tests/cuda/sigint.sh).
#include <cstdio>

__global__ void spin(unsigned long long n, unsigned *out)
{
    unsigned acc = threadIdx.x;
    for (unsigned long long i = 0; i < n; i++)
        acc = acc * 1664525u + 1013904223u;
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

int main(int argc, char **argv)
{
    (void)argv;
    unsigned long long n = argc > 1 ? (1ull << 40) : 100;
    unsigned *d, h[64];
    if (cudaMalloc(&d, sizeof h) != cudaSuccess)
        return 1;
    spin<<<2, 32>>>(n, d);
    if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess)
        return 1;
    int ok = 1;
    for (int t = 0; t < 64; t++) {
        unsigned acc = (unsigned)(t % 32);
        for (unsigned long long i = 0; i < n; i++)
            acc = acc * 1664525u + 1013904223u;
        ok &= h[t] == acc;
    }
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
