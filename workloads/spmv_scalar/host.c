/* host.c (spmv_scalar): CSR SpMV with one thread per row on a matrix whose
 * row lengths vary widely (wl_csr.h), checked against a CPU product. */
#include "workload.h"

#include <stdlib.h>

#include "base/alloc.h"
#include "wl_csr.h"

#define SPMV_SCALAR_BLOCK 128u

static int spmv_scalar_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a,
                           char *detail, size_t detail_len)
{
    struct wl_csr m;
    wl_csr_make(&m, a->size, a->seed);
    float *y = xmalloc((size_t)m.rows * sizeof(float));
    uint32_t blocks = (m.rows + SPMV_SCALAR_BLOCK - 1) / SPMV_SCALAR_BLOCK;
    int rc = wl_csr_run(gpu, mod, "spmv_scalar", &m, ws_dim(blocks, 1, 1),
                        ws_dim(SPMV_SCALAR_BLOCK, 1, 1), y, detail, detail_len);
    if (rc == WS_OK)
        rc = wl_csr_check(&m, y, detail, detail_len);
    free(y);
    wl_csr_free(&m);
    return rc;
}

const struct workload workload_spmv_scalar = {
    .name = "spmv_scalar",
    .desc = "CSR sparse matrix-vector product, one thread per row (divergent, DAWS ex. 1)",
    .run = spmv_scalar_run,
};
