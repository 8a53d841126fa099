/* wl_csr.h: the sparse matrix shared by the spmv_scalar and spmv_vector
 * workloads.  Both build the same CSR matrix from (size, seed), run their
 * kernel with the same parameter list and compare y with the same CPU
 * reference, so their results agree with each other within float tolerance. */
#ifndef WS_WL_CSR_H
#define WS_WL_CSR_H

#include "workload.h"

struct wl_csr {
    uint32_t rows;     /* square matrix: rows == columns == length of x */
    uint32_t nnz;
    uint32_t max_len;  /* longest row */
    uint32_t *row_ptr; /* rows + 1 offsets into col/val */
    uint32_t *col;     /* nnz column indices */
    float *val;        /* nnz values in [-1, 1) */
    float *x;          /* rows values in [-1, 1) */
    float *y_ref;      /* rows results, accumulated in double on the CPU */
};

/* The DAWS paper's kind of matrix (SHOC's random sparse matrix): row lengths
 * 82 +- 16, uniform; each row's columns a random sorted set. */
void wl_csr_make(struct wl_csr *m, enum wl_size size, uint64_t seed);
void wl_csr_free(struct wl_csr *m);

/* Upload the matrix and x, launch `kernel(row_ptr, col, val, x, y, rows)` on
 * grid x block, and copy y (rows floats) back. */
int wl_csr_run(ws_gpu *gpu, ws_module *mod, const char *kernel, const struct wl_csr *m,
               ws_dim3 grid, ws_dim3 block, float *y, char *detail, size_t detail_len);

/* Compare y with y_ref; detail also names nnz and the longest row. */
int wl_csr_check(const struct wl_csr *m, const float *y, char *detail, size_t detail_len);

#endif
