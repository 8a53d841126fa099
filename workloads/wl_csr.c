/* wl_csr.c: deterministic CSR matrix generation, upload and checking for the
 * SpMV workloads. */
#include "wl_csr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

/* Rows (= columns) of the matrix at each size.  Medium has twice the rows
 * of the DAWS paper's case-study matrix (8k) so that the scalar kernel, one
 * thread per row, fills the daws preset's 30 cores with 17 warps each
 * instead of 8 (docs/workloads.md). */
static uint32_t wl_csr_rows(enum wl_size s)
{
    switch (s) {
    case WL_SMALL:
        return 1024u;
    case WL_MEDIUM:
        return 16384u;
    case WL_LARGE:
        return 65536u;
    }
    return 0;
}

/* Row lengths: uniform in [MEAN - SPREAD, MEAN + SPREAD].  The DAWS paper's
 * matrix (SHOC's random generator, 1 % fill at 8k rows) has 82 non-zeros per
 * row on average with a standard deviation of about 9; this spread gives 9.5. */
#define WL_CSR_MEAN_LEN 82u
#define WL_CSR_SPREAD 16u

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* len (<= n) distinct sorted columns in [0, n): uniform draws, sorted, each
 * repeat moved to the next column up, and any pushed past n - 1 packed below
 * the top end. */
static void wl_csr_row_cols(struct rng *rng, uint32_t *col, uint32_t len, uint32_t n)
{
    for (uint32_t i = 0; i < len; i++)
        col[i] = rng_below(rng, n);
    qsort(col, len, sizeof *col, cmp_u32);
    for (uint32_t i = 1; i < len; i++)
        if (col[i] <= col[i - 1])
            col[i] = col[i - 1] + 1;
    /* columns pushed past n - 1 move down below the first one in use */
    for (uint32_t i = len, top = n; i-- > 0 && col[i] >= top;)
        col[i] = --top;
}

void wl_csr_make(struct wl_csr *m, enum wl_size size, uint64_t seed)
{
    struct rng rng;
    rng_seed(&rng, seed);
    memset(m, 0, sizeof *m);
    m->rows = wl_csr_rows(size);
    m->row_ptr = xmalloc(((size_t)m->rows + 1) * sizeof(uint32_t));
    m->col = xmalloc(((size_t)m->rows * (WL_CSR_MEAN_LEN + WL_CSR_SPREAD) + 1) *
                     sizeof(uint32_t));
    m->row_ptr[0] = 0;
    for (uint32_t r = 0; r < m->rows; r++) {
        uint32_t len = WL_CSR_MEAN_LEN - WL_CSR_SPREAD + rng_below(&rng, 2 * WL_CSR_SPREAD + 1);
        wl_csr_row_cols(&rng, m->col + m->row_ptr[r], len, m->rows);
        if (len > m->max_len)
            m->max_len = len;
        m->row_ptr[r + 1] = m->row_ptr[r] + len;
    }
    m->nnz = m->row_ptr[m->rows];
    m->val = xmalloc((size_t)m->nnz * sizeof(float) + 1);
    m->x = xmalloc((size_t)m->rows * sizeof(float));
    m->y_ref = xmalloc((size_t)m->rows * sizeof(float));
    for (uint32_t j = 0; j < m->nnz; j++)
        m->val[j] = rng_float(&rng) * 2.0f - 1.0f;
    for (uint32_t i = 0; i < m->rows; i++)
        m->x[i] = rng_float(&rng) * 2.0f - 1.0f;
    for (uint32_t r = 0; r < m->rows; r++) {
        double dot = 0.0;
        for (uint32_t j = m->row_ptr[r]; j < m->row_ptr[r + 1]; j++)
            dot += (double)m->val[j] * (double)m->x[m->col[j]];
        m->y_ref[r] = (float)dot;
    }
}

void wl_csr_free(struct wl_csr *m)
{
    free(m->row_ptr);
    free(m->col);
    free(m->val);
    free(m->x);
    free(m->y_ref);
    memset(m, 0, sizeof *m);
}

int wl_csr_run(ws_gpu *gpu, ws_module *mod, const char *kernel, const struct wl_csr *m,
               ws_dim3 grid, ws_dim3 block, float *y, char *detail, size_t detail_len)
{
    size_t ptr_bytes = ((size_t)m->rows + 1) * sizeof(uint32_t);
    /* at least one byte each, so an all-empty matrix still allocates */
    size_t nz_bytes = (size_t)m->nnz * 4 + 4;
    size_t vec_bytes = (size_t)m->rows * sizeof(float);
    ws_devptr d_ptr, d_col, d_val, d_x, d_y;
    WL_TRY(gpu, ws_malloc(gpu, ptr_bytes, &d_ptr), detail, detail_len);
    WL_TRY(gpu, ws_malloc(gpu, nz_bytes, &d_col), detail, detail_len);
    WL_TRY(gpu, ws_malloc(gpu, nz_bytes, &d_val), detail, detail_len);
    WL_TRY(gpu, ws_malloc(gpu, vec_bytes, &d_x), detail, detail_len);
    WL_TRY(gpu, ws_malloc(gpu, vec_bytes, &d_y), detail, detail_len);
    WL_TRY(gpu, ws_memcpy_htod(gpu, d_ptr, m->row_ptr, ptr_bytes), detail, detail_len);
    WL_TRY(gpu, ws_memcpy_htod(gpu, d_col, m->col, (size_t)m->nnz * 4), detail, detail_len);
    WL_TRY(gpu, ws_memcpy_htod(gpu, d_val, m->val, (size_t)m->nnz * 4), detail, detail_len);
    WL_TRY(gpu, ws_memcpy_htod(gpu, d_x, m->x, vec_bytes), detail, detail_len);
    WL_TRY(gpu, ws_memset(gpu, d_y, 0xff, vec_bytes), detail, detail_len); /* NaN if unwritten */
    uint32_t rows = m->rows;
    void *args[] = {&d_ptr, &d_col, &d_val, &d_x, &d_y, &rows};
    WL_TRY(gpu, ws_launch(mod, kernel, grid, block, 0, args), detail, detail_len);
    WL_TRY(gpu, ws_memcpy_dtoh(gpu, y, d_y, vec_bytes), detail, detail_len);
    WL_TRY(gpu, ws_free(gpu, d_ptr), detail, detail_len);
    WL_TRY(gpu, ws_free(gpu, d_col), detail, detail_len);
    WL_TRY(gpu, ws_free(gpu, d_val), detail, detail_len);
    WL_TRY(gpu, ws_free(gpu, d_x), detail, detail_len);
    WL_TRY(gpu, ws_free(gpu, d_y), detail, detail_len);
    return WS_OK;
}

int wl_csr_check(const struct wl_csr *m, const float *y, char *detail, size_t detail_len)
{
    /* Terms are below 1 in magnitude and rows hold < 128 of them, so float
     * rounding stays far below 1e-4 while a lost or doubled term (|term| is
     * 0.25 on average) does not. */
    int rc = wl_check_f32("y", m->y_ref, y, m->rows, 1e-4f, 1e-4f, detail, detail_len);
    if (rc == WS_OK)
        snprintf(detail, detail_len,
                 "%u rows of y match the CPU reference (nnz %u, longest row %u)", m->rows,
                 m->nnz, m->max_len);
    return rc;
}
