/* host.c: the fwt workload: the dyadic convolution of a data vector with a
 * short kernel through fast Walsh-Hadamard transforms, in the structure of the
 * CUDA SDK's fastWalshTransform sample (the FWT of Awatramani et al., PACT
 * 2015): transform the data, transform the kernel padded to the data's length,
 * multiply them pointwise, transform the product.  Integer arithmetic modulo
 * 2^32 on both sides, so the check is exact. */
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/alloc.h"

#define FWT_SHARED_LOG2 11    /* the sample's: vectors of <= 2048 elements in shared memory */
#define FWT_RADIX4_THREADS 256u
#define FWT_KERNEL_LEN 128u   /* the sample's kernel length */
#define FWT_MOD_BLOCKS 128u   /* the sample's modulation grid */
#define FWT_MOD_THREADS 256u
#define FWT_VALUES 16u        /* data and kernel elements uniform in [0, 16) */

/* The transform of the vector of 2^log2n elements at d, in place: radix-4
 * passes over global memory while the vectors are longer than 2^11 elements
 * (each pass leaves four times as many vectors of a quarter of the length),
 * then one block per vector in shared memory.  log2n >= 2. */
static int fwt_gpu(ws_gpu *gpu, ws_module *mod, ws_devptr d, int log2n, char *detail,
                   size_t detail_len)
{
    unsigned batch = 1;
    int rc = WS_OK;
    for (; log2n > FWT_SHARED_LOG2; log2n -= 2, batch <<= 2) {
        int q = 1 << (log2n - 2);
        void *args[] = {&d, &q};
        WL_TRY_OUT(ws_launch(mod, "fwt_radix4", ws_dim((unsigned)q / FWT_RADIX4_THREADS, batch, 1),
                             ws_dim(FWT_RADIX4_THREADS, 1, 1), 0, args));
    }
    unsigned n = 1u << log2n;
    void *args[] = {&d, &log2n};
    WL_TRY_OUT(ws_launch(mod, "fwt_shared", ws_dim(batch, 1, 1), ws_dim(n / 4, 1, 1),
                         n * sizeof(uint32_t), args));
out:
    return rc;
}

/* The CPU transform: every stage of stride h pairs (i, i + h) for i with bit h
 * clear into (sum, difference). */
static void fwt_cpu(uint32_t *v, uint32_t n)
{
    for (uint32_t h = 1; h < n; h <<= 1)
        for (uint32_t i = 0; i < n; i++)
            if (!(i & h)) {
                uint32_t a = v[i], b = v[i + h];
                v[i] = a + b;
                v[i + h] = a - b;
            }
}

static int fwt_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                   size_t detail_len)
{
    /* the sample's default is 2^23 (large); the others are scaled down */
    static const int log2sizes[] = {17, 21, 23};
    int log2n = log2sizes[a->size];
    uint32_t n = 1u << log2n;
    size_t bytes = (size_t)n * sizeof(uint32_t);
    uint32_t *data = xmalloc(bytes), *kern = xcalloc(n, sizeof(uint32_t));
    uint32_t *got = xmalloc(bytes), *want = xmalloc(bytes);
    struct rng rng;
    rng_seed(&rng, a->seed);
    for (uint32_t i = 0; i < n; i++)
        data[i] = rng_below(&rng, FWT_VALUES);
    for (uint32_t j = 0; j < FWT_KERNEL_LEN; j++)
        kern[j] = rng_below(&rng, FWT_VALUES);

    ws_devptr d_data = 0, d_kern = 0;
    int nn = (int)n;
    char check[192] = "";
    int rc;
    WL_TRY_OUT(ws_malloc(gpu, bytes, &d_data));
    WL_TRY_OUT(ws_malloc(gpu, bytes, &d_kern));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_data, data, bytes));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_kern, kern, bytes)); /* zero-padded to n */
    WL_TRY_OUT(fwt_gpu(gpu, mod, d_data, log2n, detail, detail_len));
    WL_TRY_OUT(fwt_gpu(gpu, mod, d_kern, log2n, detail, detail_len));
    void *args[] = {&d_data, &d_kern, &nn};
    WL_TRY_OUT(ws_launch(mod, "fwt_modulate", ws_dim(FWT_MOD_BLOCKS, 1, 1),
                         ws_dim(FWT_MOD_THREADS, 1, 1), 0, args));
    WL_TRY_OUT(fwt_gpu(gpu, mod, d_data, log2n, detail, detail_len));

    /* 1. the kernel's transform, against the CPU's stage by stage transform */
    WL_TRY_OUT(ws_memcpy_dtoh(gpu, got, d_kern, bytes));
    for (uint32_t i = 0; i < n; i++)
        want[i] = kern[i];
    fwt_cpu(want, n);
    rc = wl_check_u32("transformed kernel", want, got, n, check, sizeof check);
    if (rc != WS_OK)
        goto report;
    /* 2. the result, against the dyadic convolution computed directly:
     * r[i] = sum over j of data[i ^ j] kern[j].  The inverse transform is the
     * forward one divided by n, so the GPU's result is n r[i], modulo 2^32. */
    WL_TRY_OUT(ws_memcpy_dtoh(gpu, got, d_data, bytes));
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r = 0;
        for (uint32_t j = 0; j < FWT_KERNEL_LEN; j++)
            r += data[i ^ j] * kern[j];
        want[i] = r * n;
    }
    rc = wl_check_u32("n x convolution", want, got, n, check, sizeof check);
report:
    snprintf(detail, detail_len,
             "fwt: dyadic convolution of 2^%d elements with a %u-element kernel: %s", log2n,
             FWT_KERNEL_LEN, check);
out:
    if (d_kern)
        ws_free(gpu, d_kern);
    if (d_data)
        ws_free(gpu, d_data);
    free(want);
    free(got);
    free(kern);
    free(data);
    return rc;
}

const struct workload workload_fwt = {
    .name = "fwt",
    .desc = "dyadic convolution by fast Walsh-Hadamard transforms: radix-4 passes over "
            "global memory, the last 11 stages in shared memory (CUDA SDK fastWalshTransform)",
    .run = fwt_run,
};
