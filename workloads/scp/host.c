/* host.c: the scp workload: scalar products of many vector pairs (CUDA SDK
 * scalarProd's structure, MeDiC's SCP), each summed by one block in shared
 * memory, checked against CPU products summed in double. */
#include "workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/alloc.h"

#define SCP_BLOCKS 128u /* the sample's grid and block */
#define SCP_THREADS 256u

static int scp_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                   size_t detail_len)
{
    /* medium is the sample's 256 pairs of 4096 elements */
    static const int npairs[] = {32, 256, 2048}, lengths[] = {1024, 4096, 4096};
    int pairs = npairs[a->size], n = lengths[a->size];
    size_t total = (size_t)pairs * n, bytes = total * sizeof(float);
    float *va = xmalloc(bytes), *vb = xmalloc(bytes);
    float *want = xmalloc((size_t)pairs * sizeof(float));
    float *got = xmalloc((size_t)pairs * sizeof(float));
    struct rng rng;
    rng_seed(&rng, a->seed);
    /* as the sample: elements uniform in [0.1, 1) */
    for (size_t i = 0; i < total; i++) {
        va[i] = 0.1f + 0.9f * rng_float(&rng);
        vb[i] = 0.1f + 0.9f * rng_float(&rng);
    }
    for (int v = 0; v < pairs; v++)
        got[v] = NAN; /* a product never written fails the check */
    ws_devptr d_a = 0, d_b = 0, d_out = 0;
    int rc;
    WL_TRY_OUT(ws_malloc(gpu, bytes, &d_a));
    WL_TRY_OUT(ws_malloc(gpu, bytes, &d_b));
    WL_TRY_OUT(ws_malloc(gpu, (size_t)pairs * sizeof(float), &d_out));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_a, va, bytes));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_b, vb, bytes));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_out, got, (size_t)pairs * sizeof(float)));
    void *args[] = {&d_out, &d_a, &d_b, &pairs, &n};
    WL_TRY_OUT(ws_launch(mod, "scp_dot", ws_dim(SCP_BLOCKS, 1, 1), ws_dim(SCP_THREADS, 1, 1),
                         SCP_THREADS * sizeof(float), args));
    WL_TRY_OUT(ws_memcpy_dtoh(gpu, got, d_out, (size_t)pairs * sizeof(float)));
    for (int v = 0; v < pairs; v++) {
        double sum = 0;
        for (int i = 0; i < n; i++)
            sum += (double)va[(size_t)v * n + i] * vb[(size_t)v * n + i];
        want[v] = (float)sum;
    }
    char check[192];
    /* products are about 0.3 n: float sums of 16 terms per thread and an
     * 8-step tree differ from the double sum by far less than 1e-5 of it,
     * a lost or doubled element (>= 0.01) by far more */
    rc = wl_check_f32("product", want, got, (size_t)pairs, 1e-5f, 0, check, sizeof check);
    snprintf(detail, detail_len, "scp: %d pairs of %d elements on %u blocks of %u: %s", pairs,
             n, SCP_BLOCKS, SCP_THREADS, check);
#undef SCP_TRY
out:
    if (d_out)
        ws_free(gpu, d_out);
    if (d_b)
        ws_free(gpu, d_b);
    if (d_a)
        ws_free(gpu, d_a);
    free(got);
    free(want);
    free(vb);
    free(va);
    return rc;
}

const struct workload workload_scp = {
    .name = "scp",
    .desc = "scalar products of many vector pairs, one block per pair with a shared-memory "
            "tree sum (CUDA SDK scalarProd, MeDiC's SCP)",
    .run = scp_run,
};
