/* host.c (spmv_vector): CSR SpMV with one warp per row and a shuffle
 * reduction, on the same matrix as spmv_scalar (wl_csr.h) and checked against
 * the same CPU product. */
#include "workload.h"

#include <stdlib.h>

#include "base/alloc.h"
#include "wl_csr.h"

#define SPMV_VECTOR_BLOCK 128u /* four warps, so four rows per block */
#define SPMV_VECTOR_WARP 32u

static int spmv_vector_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a,
                           char *detail, size_t detail_len)
{
    struct wl_csr m;
    wl_csr_make(&m, a->size, a->seed);
    float *y = xmalloc((size_t)m.rows * sizeof(float));
    uint32_t rows_per_block = SPMV_VECTOR_BLOCK / SPMV_VECTOR_WARP;
    uint32_t blocks = (m.rows + rows_per_block - 1) / rows_per_block;
    int rc = wl_csr_run(gpu, mod, "spmv_vector", &m, ws_dim(blocks, 1, 1),
                        ws_dim(SPMV_VECTOR_BLOCK, 1, 1), y, detail, detail_len);
    if (rc == WS_OK)
        rc = wl_csr_check(&m, y, detail, detail_len);
    free(y);
    wl_csr_free(&m);
    return rc;
}

const struct workload workload_spmv_vector = {
    .name = "spmv_vector",
    .desc = "CSR sparse matrix-vector product, one warp per row + shuffle sum (DAWS ex. 2)",
    .run = spmv_vector_run,
};
