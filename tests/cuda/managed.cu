// managed.cu: unified memory on warpsim: cudaMallocManaged and __managed__
// variables (scalar with an initializer, array, struct) read and written by
// the host before and after kernels, cudaMemPrefetchAsync / cudaMemAdvise
// accepted, symbol calls on a __managed__ variable, cudaPointerGetAttributes.
// Every value is checked on the host; prints PASS or FAIL.
#include <cstdio>
#include <cuda_runtime.h>

#define N 1000

struct stats {
    int calls;
    float last;
};

__managed__ int counter = 5;
__managed__ unsigned ticks; // zero-initialised
__managed__ float table[N];
__managed__ stats st = {1, -1.0f};

static int failures = 0;
#define CHECK(cond)                                                                     \
    do {                                                                                \
        if (!(cond) && failures++ < 10)                                                 \
            printf("check failed at line %d: %s\n", __LINE__, #cond);                  \
    } while (0)
#define OK(call) CHECK((call) == cudaSuccess)

// table[i] = 2 * table[i] + counter; buf[i] += table[i]; ticks += 1 per block
__global__ void step(float *buf, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        table[i] = 2.0f * table[i] + (float)counter;
        buf[i] += table[i];
    }
    if (threadIdx.x == 0)
        atomicAdd(&ticks, 1u);
    if (i == n - 1) {
        st.calls++;
        st.last = table[i];
    }
}

int main()
{
    // the initializer is visible on the host before any kernel
    CHECK(counter == 5 && ticks == 0);
    CHECK(st.calls == 1 && st.last == -1.0f);
    for (int i = 0; i < N; i++)
        table[i] = (float)i;

    float *buf;
    OK(cudaMallocManaged(&buf, N * sizeof(float)));
    for (int i = 0; i < N; i++)
        buf[i] = 0.5f;
    cudaMemLocation dev0 = {cudaMemLocationTypeDevice, 0};
    OK(cudaMemAdvise(buf, N * sizeof(float), cudaMemAdviseSetPreferredLocation, dev0));
    OK(cudaMemPrefetchAsync(buf, N * sizeof(float), dev0, 0, 0));
    OK(cudaMemPrefetchAsync(table, sizeof table, dev0, 0, 0));
    // a hint on memory that is not managed is refused, as CUDA does
    float *plain;
    OK(cudaMalloc(&plain, 64));
    CHECK(cudaMemPrefetchAsync(plain, 64, dev0, 0, 0) == cudaErrorInvalidValue);
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
    OK(cudaFree(plain));

    const int blocks = (N + 255) / 256;
    step<<<blocks, 256>>>(buf, N);
    OK(cudaDeviceSynchronize());
    for (int i = 0; i < N; i++) {
        CHECK(table[i] == 2.0f * i + 5.0f);
        CHECK(buf[i] == 0.5f + 2.0f * i + 5.0f);
    }
    CHECK(counter == 5 && ticks == blocks);
    CHECK(st.calls == 2 && st.last == 2.0f * (N - 1) + 5.0f);

    // the host changes the variables between kernels; the device sees it
    counter = 100;
    table[7] = -3.0f;
    step<<<blocks, 256>>>(buf, N);
    OK(cudaDeviceSynchronize());
    CHECK(table[7] == -6.0f + 100.0f);
    CHECK(table[8] == 2.0f * (2.0f * 8 + 5.0f) + 100.0f);
    CHECK(counter == 100 && ticks == 2 * blocks);
    CHECK(st.calls == 3);

    // symbol calls name the variable as the program sees it
    int c = 0;
    OK(cudaMemcpyFromSymbol(&c, counter, sizeof c));
    CHECK(c == 100);
    int v = 42;
    OK(cudaMemcpyToSymbol(counter, &v, sizeof v));
    CHECK(counter == 42);
    size_t sz = 0;
    OK(cudaGetSymbolSize(&sz, table));
    CHECK(sz == sizeof table);
    void *dp = nullptr;
    OK(cudaGetSymbolAddress(&dp, table));
    CHECK(dp == (void *)table);

    // a kernel reading through a pointer to the variable
    float *dev_table = (float *)dp;
    OK(cudaMemcpy(buf, dev_table, N * sizeof(float), cudaMemcpyDefault));
    CHECK(buf[7] == table[7]);

    cudaPointerAttributes attr;
    OK(cudaPointerGetAttributes(&attr, buf));
    CHECK(attr.type == cudaMemoryTypeManaged);
    OK(cudaPointerGetAttributes(&attr, &counter));
    CHECK(attr.type == cudaMemoryTypeManaged);

    // a __managed__ variable is not an allocation
    CHECK(cudaFree(&counter) == cudaErrorInvalidDevicePointer);
    CHECK(cudaGetLastError() == cudaErrorInvalidDevicePointer);
    CHECK(counter == 42);
    OK(cudaFree(buf));
    printf("%s\n", failures ? "FAIL" : "PASS");
    return failures != 0;
}
