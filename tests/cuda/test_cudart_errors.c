/* test_cudart_errors.c: error semantics of the replacement CUDA runtime
 * (linked against build/lib/libcudart.so.13), as CUDA defines them:
 * - a kernel fault (illegal address) is sticky: the synchronize after it and
 *   every later device call fail with it until cudaDeviceReset (issue 16
 *   item 9), and the fault's message names the kernel;
 * - stream and event handles are checked: a made-up or destroyed handle gives
 *   cudaErrorInvalidResourceHandle, the default streams are accepted.
 * The kernel comes from the committed fatbinary fixture of tests/cuda/api_basic.cu
 * (scale(int *a, int n, int k): a[i] = 2 * a[i] * k). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "runtime/cuda_types.h"

cudaError_t cudaMalloc(void **devPtr, size_t size);
cudaError_t cudaFree(void *devPtr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, int kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, int kind,
                            cudaStream_t stream);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaGetLastError(void);
cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
                             size_t shmem, cudaStream_t stream);
cudaError_t cudaStreamCreate(cudaStream_t *s);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaEventCreate(cudaEvent_t *e);
cudaError_t cudaEventDestroy(cudaEvent_t e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s);
void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, void *tid, void *bid,
                            void *bDim, void *gDim, int *wSize);

static char scale_stub; /* the "host function" the kernel is registered under */
static uint8_t *fatbin_data;
static struct {
    uint32_t magic, version;
    const void *data, *filename;
} wrapper;

static int setup(void **state)
{
    (void)state;
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/cuda/fixtures/api_basic.fatbin", WS_SOURCE_DIR);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fatbin_data = malloc(1 << 16);
    size_t n = fread(fatbin_data, 1, 1 << 16, f);
    fclose(f);
    assert_true(n > 16);
    /* the section starts with the (empty) device-link container: skip it */
    uint64_t body;
    memcpy(&body, fatbin_data + 8, sizeof body);
    size_t first = (size_t)(16 + body + 7) / 8 * 8;
    assert_true(first < n);
    wrapper.magic = 0x466243b1u;
    wrapper.version = 1;
    wrapper.data = fatbin_data + first;
    void **h = __cudaRegisterFatBinary(&wrapper);
    __cudaRegisterFunction(h, &scale_stub, "_Z5scalePiii", "_Z5scalePiii", -1, NULL, NULL, NULL,
                           NULL, NULL);
    __cudaRegisterFatBinaryEnd(h);
    return 0;
}

static cudaError_t scale(int *a, int n, int k, cudaStream_t stream)
{
    void *args[] = {&a, &n, &k};
    dim3 grid = {1, 1, 1}, block = {64, 1, 1};
    return cudaLaunchKernel(&scale_stub, grid, block, args, 0, stream);
}

static void test_kernel_runs(void **state)
{
    (void)state;
    int h[64], *d;
    for (int i = 0; i < 64; i++)
        h[i] = i;
    assert_int_equal(cudaMalloc((void **)&d, sizeof h), cudaSuccess);
    assert_int_equal(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice), cudaSuccess);
    assert_int_equal(scale(d, 64, 3, 0), cudaSuccess);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    assert_int_equal(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < 64; i++)
        assert_int_equal(h[i], 6 * i);
    assert_int_equal(cudaFree(d), cudaSuccess);
}

static void test_handles(void **state)
{
    (void)state;
    int *d;
    assert_int_equal(cudaMalloc((void **)&d, 256), cudaSuccess);
    cudaStream_t s;
    cudaEvent_t e;
    assert_int_equal(cudaStreamCreate(&s), cudaSuccess);
    assert_int_equal(cudaEventCreate(&e), cudaSuccess);
    assert_int_equal(scale(d, 64, 1, s), cudaSuccess);
    assert_int_equal(scale(d, 64, 1, (cudaStream_t)0x1), cudaSuccess); /* cudaStreamLegacy */
    assert_int_equal(scale(d, 64, 1, (cudaStream_t)0x2), cudaSuccess); /* cudaStreamPerThread */
    assert_int_equal(cudaEventRecord(e, s), cudaSuccess);
    cudaStream_t bogus = (cudaStream_t)(uintptr_t)0xdead0;
    assert_int_equal(scale(d, 64, 1, bogus), cudaErrorInvalidResourceHandle);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidResourceHandle);
    int h[4] = {0};
    assert_int_equal(cudaMemcpyAsync(d, h, sizeof h, cudaMemcpyHostToDevice, bogus),
                     cudaErrorInvalidResourceHandle);
    assert_int_equal(cudaStreamSynchronize(bogus), cudaErrorInvalidResourceHandle);
    assert_int_equal(cudaEventRecord((cudaEvent_t)(uintptr_t)0xbeef0, s),
                     cudaErrorInvalidResourceHandle);
    /* destroyed handles are no longer valid */
    assert_int_equal(cudaStreamDestroy(s), cudaSuccess);
    assert_int_equal(cudaStreamSynchronize(s), cudaErrorInvalidResourceHandle);
    assert_int_equal(cudaStreamDestroy(s), cudaErrorInvalidResourceHandle);
    assert_int_equal(cudaEventDestroy(e), cudaSuccess);
    assert_int_equal(cudaEventRecord(e, 0), cudaErrorInvalidResourceHandle);
    assert_int_equal(cudaFree(d), cudaSuccess);
    cudaGetLastError();
}

static void test_fault_is_sticky(void **state)
{
    (void)state;
    /* a[i] at device address 0x10: not allocated */
    assert_int_equal(scale((int *)0x10, 64, 2, 0), cudaErrorIllegalAddress);
    assert_int_equal(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    assert_int_equal(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    void *p = NULL;
    assert_int_equal(cudaMalloc(&p, 64), cudaErrorIllegalAddress);
    assert_null(p);
    int h[64] = {0};
    assert_int_equal(scale(h, 64, 2, 0), cudaErrorIllegalAddress);
    /* a new context: usable again */
    assert_int_equal(cudaDeviceReset(), cudaSuccess);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    assert_int_equal(cudaMalloc(&p, 64), cudaSuccess);
    assert_int_equal(cudaFree(p), cudaSuccess);
    cudaGetLastError();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernel_runs),
        cmocka_unit_test(test_handles),
        cmocka_unit_test(test_fault_is_sticky),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
