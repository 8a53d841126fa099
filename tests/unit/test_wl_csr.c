/* test_wl_csr.c: the SpMV workloads' matrix generator (workloads/wl_csr.c) is
 * deterministic, well-formed CSR with sorted distinct columns, row lengths
 * as documented (82 +- 16), and its reference product is right. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wl_csr.h"

static void test_same_seed_same_matrix(void **state)
{
    (void)state;
    struct wl_csr a, b;
    wl_csr_make(&a, WL_SMALL, 7);
    wl_csr_make(&b, WL_SMALL, 7);
    assert_int_equal(a.rows, b.rows);
    assert_int_equal(a.nnz, b.nnz);
    assert_memory_equal(a.row_ptr, b.row_ptr, ((size_t)a.rows + 1) * sizeof(uint32_t));
    assert_memory_equal(a.col, b.col, (size_t)a.nnz * sizeof(uint32_t));
    assert_memory_equal(a.val, b.val, (size_t)a.nnz * sizeof(float));
    assert_memory_equal(a.x, b.x, (size_t)a.rows * sizeof(float));
    wl_csr_free(&a);
    wl_csr_free(&b);
}

static void test_other_seed_other_matrix(void **state)
{
    (void)state;
    struct wl_csr a, b;
    wl_csr_make(&a, WL_SMALL, 1);
    wl_csr_make(&b, WL_SMALL, 2);
    int differs = a.nnz != b.nnz ||
                  memcmp(a.row_ptr, b.row_ptr, ((size_t)a.rows + 1) * sizeof(uint32_t)) != 0;
    assert_true(differs);
    wl_csr_free(&a);
    wl_csr_free(&b);
}

static void test_well_formed_and_varied(void **state)
{
    (void)state;
    struct wl_csr m;
    wl_csr_make(&m, WL_SMALL, 1);
    assert_int_equal(m.row_ptr[0], 0);
    assert_int_equal(m.row_ptr[m.rows], m.nnz);
    uint32_t longest = 0, shortest = UINT32_MAX;
    for (uint32_t r = 0; r < m.rows; r++) {
        assert_true(m.row_ptr[r] <= m.row_ptr[r + 1]);
        uint32_t len = m.row_ptr[r + 1] - m.row_ptr[r];
        if (len > longest)
            longest = len;
        if (len < shortest)
            shortest = len;
        for (uint32_t j = m.row_ptr[r] + 1; j < m.row_ptr[r + 1]; j++)
            assert_true(m.col[j] > m.col[j - 1]); /* sorted, distinct */
    }
    assert_int_equal(longest, m.max_len);
    /* lengths 82 +- 16: the whole range is used, the mean is near 82 */
    assert_int_equal(shortest, 66);
    assert_int_equal(longest, 98);
    assert_true(m.nnz > m.rows * 80u && m.nnz < m.rows * 84u);
    /* columns spread over the whole row: both halves are used */
    uint32_t low = 0;
    for (uint32_t j = 0; j < m.nnz; j++) {
        assert_true(m.col[j] < m.rows);
        low += m.col[j] < m.rows / 2;
        assert_true(m.val[j] >= -1.0f && m.val[j] < 1.0f);
    }
    assert_true(low > m.nnz * 2 / 5 && low < m.nnz * 3 / 5);
    wl_csr_free(&m);
}

static void test_reference_product(void **state)
{
    (void)state;
    struct wl_csr m;
    wl_csr_make(&m, WL_SMALL, 3);
    for (uint32_t r = 0; r < m.rows; r++) {
        float dot = 0.0f;
        for (uint32_t j = m.row_ptr[r]; j < m.row_ptr[r + 1]; j++)
            dot += m.val[j] * m.x[m.col[j]];
        assert_true(fabsf(dot - m.y_ref[r]) <= 1e-4f);
    }
    /* a product with one term dropped is caught by the workload check */
    float *y = malloc((size_t)m.rows * sizeof(float));
    assert_non_null(y);
    memcpy(y, m.y_ref, (size_t)m.rows * sizeof(float));
    char detail[256];
    assert_int_equal(wl_csr_check(&m, y, detail, sizeof detail), WS_OK);
    uint32_t r = 0;
    while (m.row_ptr[r + 1] == m.row_ptr[r])
        r++;
    uint32_t j = m.row_ptr[r];
    y[r] -= m.val[j] * m.x[m.col[j]];
    assert_int_equal(wl_csr_check(&m, y, detail, sizeof detail), WS_ERR_VERIFY);
    assert_non_null(strstr(detail, "y["));
    free(y);
    wl_csr_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_seed_same_matrix),
        cmocka_unit_test(test_other_seed_other_matrix),
        cmocka_unit_test(test_well_formed_and_varied),
        cmocka_unit_test(test_reference_product),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
