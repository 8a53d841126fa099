// refused_main.cu: what warpsim refuses is refused clearly.  A tensor-core
// kernel (refused_wmma.cu) and a cooperative-groups grid sync
// (refused_grid.cu) fail at launch with cudaErrorInvalidPtx and a message on
// stderr naming the instruction or feature; the program's other kernels still
// run and the device stays usable.  stderr is captured and checked.  Prints
// PASS or FAIL.
#include <cstdio>
#include <cstring>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <unistd.h>

void launch_tensor_core(const half *a, const half *b, float *c);
cudaError_t launch_grid_sync(int *out);

__global__ void add_one(int *v)
{
    v[threadIdx.x] += 1;
}

int main()
{
    int failures = 0;
    half *a;
    float *c;
    int *v;
    cudaMalloc(&a, 512 * sizeof(half));
    cudaMalloc(&c, 256 * sizeof(float));
    cudaMalloc(&v, 64 * sizeof(int));
    cudaMemset(v, 0, 64 * sizeof(int));

    fflush(stderr);
    int saved = dup(2);
    FILE *cap = tmpfile();
    if (saved < 0 || !cap || dup2(fileno(cap), 2) < 0) {
        printf("FAIL: cannot capture stderr\n");
        return 1;
    }
    launch_tensor_core(a, a, c);
    cudaError_t e1 = cudaGetLastError();
    cudaError_t e2 = launch_grid_sync(v);
    cudaError_t e3 = cudaGetLastError();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    static char text[8192];
    rewind(cap);
    size_t n = fread(text, 1, sizeof text - 1, cap);
    text[n] = '\0';
    fclose(cap);
    fputs(text, stderr); // still shown

    if (e1 != cudaErrorInvalidPtx) {
        printf("tensor-core launch: %s, want cudaErrorInvalidPtx\n", cudaGetErrorName(e1));
        failures++;
    }
    if (e2 != cudaErrorInvalidPtx || e3 != cudaErrorInvalidPtx) {
        printf("grid-sync launch: %s / %s, want cudaErrorInvalidPtx\n", cudaGetErrorName(e2),
               cudaGetErrorName(e3));
        failures++;
    }
    const char *want[] = {"warp-level matrix multiply-accumulate", "'wmma.", "not simulated",
                          "this_grid().sync()", "'%envreg"};
    for (const char *w : want)
        if (!strstr(text, w)) {
            printf("stderr lacks \"%s\"\n", w);
            failures++;
        }
    // the rest of the program is unaffected
    add_one<<<1, 64>>>(v);
    if (cudaDeviceSynchronize() != cudaSuccess) {
        printf("add_one failed\n");
        failures++;
    }
    int h[64];
    cudaMemcpy(h, v, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 64; i++)
        if (h[i] != 1) {
            printf("add_one: v[%d] = %d\n", i, h[i]);
            failures++;
            break;
        }
    printf("%s\n", failures ? "FAIL" : "PASS");
    return failures != 0;
}
