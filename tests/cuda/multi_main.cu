// multi_main.cu: the translation unit without kernels of the multi-TU test;
// calls kernels and uses __constant__/__device__ variables defined in
// multi_a.cu and multi_b.cu through their host wrappers.  Prints PASS/FAIL.
#include <cstdio>
#include <cuda_runtime.h>

int run_a(int *failures);
int run_b(int *failures);

int main()
{
    int failures = 0;
    run_a(&failures);
    run_b(&failures);
    cudaDeviceSynchronize();
    printf("%s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
