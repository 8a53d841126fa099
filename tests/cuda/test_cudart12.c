/* test_cudart12.c: a CUDA 12 program as the host code of nvcc 12 would drive
 * build/lib/libcudart.so.12, without nvcc: the fatbinary is made here in the
 * CUDA 11/12 layout with LZ4-compressed PTX (entry flag 0x2000), kernels are
 * launched the CUDA 12 way (__cudaPushCallConfiguration, then
 * __cudaPopCallConfiguration and cudaLaunchKernel in the stub), the device
 * properties come from cudaGetDeviceProperties_v2 (the pre-13 layout), a
 * __managed__ variable is registered and reached through the host pointer
 * __cudaInitModule fills, and two host threads launch at once, each with its
 * own last error. */
#include <lz4.h>
#include <pthread.h>
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
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaGetLastError(void);
cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
                             size_t shmem, cudaStream_t stream);
cudaError_t cudaGetDeviceProperties_v2(struct cudart_legacy_prop_head *prop, int device);
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shmem, void *stream);
cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shmem, void *stream);
void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, void *tid, void *bid,
                            void *bDim, void *gDim, int *wSize);
void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant,
                              int global);
char __cudaInitModule(void **handle);

/* axpb: v[i] = v[i] * a + b for i < n; bump: mcount += 1 per thread */
static const char ptx[] =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    ".global .attribute(.managed) .align 4 .u32 mcount = 7;\n"
    ".visible .entry axpb(.param .u64 p, .param .u32 n, .param .u32 a, .param .u32 b)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .u32 %r<8>;\n  .reg .u64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n  ld.param.u32 %r1, [n];\n"
    "  ld.param.u32 %r2, [a];\n  ld.param.u32 %r3, [b];\n"
    "  mov.u32 %r4, %ctaid.x;\n  mov.u32 %r5, %ntid.x;\n  mov.u32 %r6, %tid.x;\n"
    "  mad.lo.u32 %r4, %r4, %r5, %r6;\n  setp.ge.u32 %p1, %r4, %r1;\n  @%p1 bra DONE;\n"
    "  mul.wide.u32 %rd2, %r4, 4;\n  add.u64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r7, [%rd3];\n  mad.lo.u32 %r7, %r7, %r2, %r3;\n"
    "  st.global.u32 [%rd3], %r7;\nDONE:\n  ret;\n}\n"
    ".visible .entry bump()\n{\n  .reg .u32 %r<2>;\n"
    "  atom.global.add.u32 %r1, [mcount], 1;\n  ret;\n}\n";

static char axpb_stub, bump_stub; /* the "host functions" the kernels are registered under */
static unsigned *mcount;          /* what nvcc's host code reads the variable through */

struct wrapper {
    uint32_t magic, version;
    const void *data, *filename;
};

/* A fatbinary container with one PTX entry for compute_75, LZ4-compressed
 * (corrupt: the compressed bytes damaged).  Entry header as nvcc writes it:
 * kind, header size, padded payload size, stored size at 0x10, PTX version at
 * 0x18, arch at 0x1c, flags at 0x28, uncompressed size at 0x38. */
static uint8_t *make_fatbin(int corrupt)
{
    int src = (int)sizeof ptx; /* with its NUL, as nvcc stores PTX */
    int cap = LZ4_compressBound(src);
    uint8_t *z = malloc((size_t)cap);
    int zn = LZ4_compress_default(ptx, (char *)z, src, cap);
    assert_true(zn > 0);
    if (corrupt)
        memset(z, 0xff, (size_t)zn / 2);
    uint64_t padded = ((uint64_t)zn + 7) / 8 * 8;
    uint8_t *f = calloc(1, 16 + 64 + padded);
    uint32_t u32;
    uint16_t u16;
    uint64_t u64;
    u32 = 0xba55ed50u, memcpy(f, &u32, 4);
    u16 = 1, memcpy(f + 4, &u16, 2);
    u16 = 16, memcpy(f + 6, &u16, 2);
    u64 = 64 + padded, memcpy(f + 8, &u64, 8);
    uint8_t *h = f + 16;
    u16 = 1, memcpy(h, &u16, 2); /* PTX */
    u16 = 0x0101, memcpy(h + 2, &u16, 2);
    u32 = 64, memcpy(h + 4, &u32, 4);
    memcpy(h + 8, &padded, 8);
    u32 = (uint32_t)zn, memcpy(h + 0x10, &u32, 4);
    u16 = 5, memcpy(h + 0x18, &u16, 2);
    u16 = 7, memcpy(h + 0x1a, &u16, 2);
    u32 = 75, memcpy(h + 0x1c, &u32, 4);
    u64 = 0x2011, memcpy(h + 0x28, &u64, 8); /* LZ4, as nvcc --compress-mode=speed */
    u64 = (uint64_t)src, memcpy(h + 0x38, &u64, 8);
    memcpy(h + 64, z, (size_t)zn);
    free(z);
    return f;
}

static struct wrapper good, bad;
static char bad_stub;

static int setup(void **state)
{
    (void)state;
    good = (struct wrapper){0x466243b1u, 1, make_fatbin(0), NULL};
    void **h = __cudaRegisterFatBinary(&good);
    __cudaRegisterFunction(h, &axpb_stub, "axpb", "axpb", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFunction(h, &bump_stub, "bump", "bump", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterManagedVar(h, (void **)&mcount, NULL, "mcount", 0, 4, 0, 0);
    __cudaRegisterFatBinaryEnd(h);
    bad = (struct wrapper){0x466243b1u, 1, make_fatbin(1), NULL};
    h = __cudaRegisterFatBinary(&bad);
    __cudaRegisterFunction(h, &bad_stub, "axpb", "axpb", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFatBinaryEnd(h);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    free((void *)good.data);
    free((void *)bad.data);
    return 0;
}

/* What the CUDA 12 host stub of axpb<<<grid, block>>>(v, n, a, b) does. */
static cudaError_t launch12(const char *stub, int *v, unsigned n, unsigned a, unsigned b,
                            unsigned grid, unsigned block)
{
    if (__cudaPushCallConfiguration((dim3){grid, 1, 1}, (dim3){block, 1, 1}, 0, NULL) != 0)
        return cudaErrorInvalidConfiguration;
    dim3 g, bl;
    size_t shm;
    cudaStream_t s;
    cudaError_t rc = __cudaPopCallConfiguration(&g, &bl, &shm, &s);
    if (rc != cudaSuccess)
        return rc;
    void *args[] = {&v, &n, &a, &b};
    return cudaLaunchKernel(stub, g, bl, args, shm, s);
}

static void test_launch_lz4(void **state)
{
    (void)state;
    int h[1000], *d;
    for (int i = 0; i < 1000; i++)
        h[i] = i;
    assert_int_equal(cudaMalloc((void **)&d, sizeof h), cudaSuccess);
    assert_int_equal(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice), cudaSuccess);
    assert_int_equal(launch12(&axpb_stub, d, 1000, 3, 5, 8, 128), cudaSuccess);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    assert_int_equal(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(h[i], 3 * i + 5);
    assert_int_equal(cudaFree(d), cudaSuccess);
}

/* A damaged LZ4 block: the launch fails with cudaErrorInvalidKernelImage. */
static void test_corrupt_lz4(void **state)
{
    (void)state;
    int *d;
    assert_int_equal(cudaMalloc((void **)&d, 64), cudaSuccess);
    assert_int_equal(launch12(&bad_stub, d, 16, 1, 1, 1, 16), cudaErrorInvalidKernelImage);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidKernelImage);
    assert_int_equal(cudaFree(d), cudaSuccess);
}

static void test_props_v2(void **state)
{
    (void)state;
    struct {
        struct cudart_legacy_prop_head head;
        unsigned char after[64];
    } p;
    memset(&p, 0xab, sizeof p);
    assert_int_equal(cudaGetDeviceProperties_v2(&p.head, 0), cudaSuccess);
    assert_true(p.head.name[0] != '\0' && memchr(p.head.name, 0, sizeof p.head.name));
    assert_int_equal(p.head.major, 7);
    assert_int_equal(p.head.minor, 5);
    assert_int_equal(p.head.warpSize, 32);
    assert_true(p.head.multiProcessorCount > 0);
    for (size_t i = 0; i < sizeof p.after; i++) /* nothing past the shared fields */
        assert_int_equal(p.after[i], 0xab);
}

static void test_managed_var(void **state)
{
    (void)state;
    /* nvcc's host code calls __cudaInitModule before its first access (the
     * module is loaded already by the launches of the earlier tests) */
    assert_true(__cudaInitModule((void **)NULL) == 0);
    assert_non_null(mcount);
    assert_int_equal(*mcount, 7);
    assert_int_equal(launch12(&bump_stub, NULL, 0, 0, 0, 2, 32), cudaSuccess);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    assert_int_equal(*mcount, 7 + 64);
    *mcount = 1000; /* the host's write is what the next kernel sees */
    assert_int_equal(launch12(&bump_stub, NULL, 0, 0, 0, 1, 10), cudaSuccess);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    assert_int_equal(*mcount, 1010);
}

struct job {
    int id, ok;
    cudaError_t own_error;
};

/* Each thread: 10 launches on its own buffer; thread 1 also a launch with a
 * zero block dimension, whose error only it sees. */
static void *worker(void *arg)
{
    struct job *j = arg;
    enum { N = 300 };
    int h[N], want[N], *d;
    for (int i = 0; i < N; i++)
        h[i] = want[i] = i + j->id * 1000;
    j->ok = cudaMalloc((void **)&d, sizeof h) == cudaSuccess &&
            cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice) == cudaSuccess;
    for (unsigned r = 0; r < 10 && j->ok; r++) {
        j->ok &= launch12(&axpb_stub, d, N, 2, r + (unsigned)j->id, 3, 128) == cudaSuccess;
        for (int i = 0; i < N; i++)
            want[i] = want[i] * 2 + (int)r + j->id;
        if (j->id == 1 && r == 4)
            launch12(&axpb_stub, d, N, 1, 0, 1, 0); /* invalid: block 0 */
        if (r == 5)
            j->own_error = cudaGetLastError();
    }
    j->ok &= cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess;
    for (int i = 0; i < N; i++)
        j->ok &= h[i] == want[i];
    cudaFree(d);
    return NULL;
}

static void test_two_threads(void **state)
{
    (void)state;
    struct job jobs[2] = {{0, 0, cudaSuccess}, {1, 0, cudaSuccess}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&t[i], NULL, worker, &jobs[i]), 0);
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    assert_true(jobs[0].ok);
    assert_true(jobs[1].ok);
    assert_int_equal(jobs[0].own_error, cudaSuccess);
    assert_int_equal(jobs[1].own_error, cudaErrorInvalidConfiguration);
    assert_int_equal(cudaGetLastError(), cudaSuccess); /* the main thread's own */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_launch_lz4),
        cmocka_unit_test(test_corrupt_lz4),
        cmocka_unit_test(test_props_v2),
        cmocka_unit_test(test_managed_var),
        cmocka_unit_test(test_two_threads),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
