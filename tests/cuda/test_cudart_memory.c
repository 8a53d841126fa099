/* test_cudart_memory.c: copies and sets of the replacement CUDA runtime
 * (linked against build/lib/libcudart.so.13) with pointers that do not match
 * their cudaMemcpyKind: unmapped, read-only or device addresses where host
 * memory is needed and host addresses where device memory is needed give
 * cudaErrorInvalidValue, never SIGSEGV (issue 16, crash 1). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "runtime/cuda_types.h"

cudaError_t cudaMalloc(void **devPtr, size_t size);
cudaError_t cudaFree(void *devPtr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, int kind);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                         size_t width, size_t height, int kind);
cudaError_t cudaMemset(void *devPtr, int value, size_t count);
cudaError_t cudaGetLastError(void);

#define BAD ((void *)0x1234)

static void *dev(size_t n)
{
    void *d = NULL;
    assert_int_equal(cudaMalloc(&d, n), cudaSuccess);
    return d;
}

static void test_valid_round_trip(void **state)
{
    (void)state;
    unsigned char h[64], back[64];
    for (int i = 0; i < 64; i++)
        h[i] = (unsigned char)(i * 7);
    void *d = dev(64);
    assert_int_equal(cudaMemcpy(d, h, 64, cudaMemcpyHostToDevice), cudaSuccess);
    assert_int_equal(cudaMemcpy(back, d, 64, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_memory_equal(h, back, 64);
    memset(back, 0, sizeof back);
    assert_int_equal(cudaMemcpy(back, d, 64, cudaMemcpyDefault), cudaSuccess);
    assert_memory_equal(h, back, 64);
    assert_int_equal(cudaFree(d), cudaSuccess);
}

/* The reproducer: a source that is neither device nor host memory. */
static void test_bad_device_source(void **state)
{
    (void)state;
    unsigned char h[16];
    assert_int_equal(cudaMemcpy(h, BAD, 16, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    assert_int_equal(cudaMemcpy(h, BAD, 16, cudaMemcpyDefault), cudaErrorInvalidValue);
    assert_int_equal(cudaMemcpy(BAD, h, 16, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    assert_int_equal(cudaMemcpy(BAD, h, 16, cudaMemcpyHostToHost), cudaErrorInvalidValue);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidValue);
}

static void test_bad_host_side(void **state)
{
    (void)state;
    void *d = dev(64);
    /* unmapped host source / destination with a valid device side */
    assert_int_equal(cudaMemcpy(d, BAD, 16, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    assert_int_equal(cudaMemcpy(BAD, d, 16, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    /* a read-only page cannot be a destination, a PROT_NONE page no source */
    long ps = sysconf(_SC_PAGESIZE);
    unsigned char *ro = mmap(NULL, (size_t)ps, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(ro != MAP_FAILED);
    assert_int_equal(cudaMemcpy(ro, d, 16, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    assert_int_equal(cudaMemcpy(d, ro, 16, cudaMemcpyHostToDevice), cudaSuccess);
    assert_int_equal(mprotect(ro, (size_t)ps, PROT_NONE), 0);
    assert_int_equal(cudaMemcpy(d, ro, 16, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    munmap(ro, (size_t)ps);
    /* a host range that runs into an unmapped page */
    unsigned char *two = mmap(NULL, 2 * (size_t)ps, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(two != MAP_FAILED);
    munmap(two + ps, (size_t)ps);
    assert_int_equal(cudaMemcpy(d, two + ps - 8, 16, cudaMemcpyHostToDevice),
                     cudaErrorInvalidValue);
    assert_int_equal(cudaMemcpy(d, two + ps - 16, 16, cudaMemcpyHostToDevice), cudaSuccess);
    munmap(two, (size_t)ps);
    assert_int_equal(cudaFree(d), cudaSuccess);
}

/* kind is honoured: a device pointer where the kind says host and a host
 * pointer where it says device are rejected, as CUDA does. */
static void test_kind_mismatch(void **state)
{
    (void)state;
    unsigned char h[16] = {0};
    void *d = dev(16), *d2 = dev(16);
    assert_int_equal(cudaMemcpy(h, d, 16, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    assert_int_equal(cudaMemcpy(d, h, 16, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    assert_int_equal(cudaMemcpy(d, h, 16, cudaMemcpyDeviceToDevice), cudaErrorInvalidValue);
    assert_int_equal(cudaMemcpy(d, d2, 16, cudaMemcpyHostToHost), cudaErrorInvalidValue);
    assert_int_equal(cudaMemcpy(d, d2, 16, cudaMemcpyDeviceToDevice), cudaSuccess);
    assert_int_equal(cudaMemcpy(d, h, 16, 7), cudaErrorInvalidMemcpyDirection);
    cudaFree(d);
    cudaFree(d2);
}

/* device ranges must lie inside one allocation */
static void test_device_range(void **state)
{
    (void)state;
    static unsigned char big[4096];
    void *d = dev(16);
    assert_int_equal(cudaMemcpy(big, d, sizeof big, cudaMemcpyDeviceToHost),
                     cudaErrorInvalidValue);
    assert_int_equal(cudaMemcpy((char *)d + 8, big, 16, cudaMemcpyHostToDevice),
                     cudaErrorInvalidValue);
    assert_int_equal(cudaMemcpy2D(big, 64, BAD, 64, 16, 2, cudaMemcpyDeviceToHost),
                     cudaErrorInvalidValue);
    assert_int_equal(cudaMemcpy2D(BAD, 64, big, 64, 16, 2, cudaMemcpyDefault),
                     cudaErrorInvalidValue);
    cudaFree(d);
}

static void test_memset(void **state)
{
    (void)state;
    unsigned char h[16];
    void *d = dev(16);
    assert_int_equal(cudaMemset(BAD, 0, 16), cudaErrorInvalidValue);
    assert_int_equal(cudaMemset(h, 0, 16), cudaErrorInvalidValue);
    assert_int_equal(cudaMemset(d, 0, 1 << 20), cudaErrorInvalidValue);
    assert_int_equal(cudaMemset(d, 0xab, 16), cudaSuccess);
    assert_int_equal(cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(h[15], 0xab);
    cudaFree(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_round_trip), cmocka_unit_test(test_bad_device_source),
        cmocka_unit_test(test_bad_host_side),    cmocka_unit_test(test_kind_mismatch),
        cmocka_unit_test(test_device_range),     cmocka_unit_test(test_memset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
