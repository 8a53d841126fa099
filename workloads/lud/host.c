/* host.c: the lud workload: Rodinia's blocked LU decomposition of a
 * diagonally dominant matrix, one lud_diagonal / lud_perimeter / lud_internal
 * round per 16-wide block column, checked against a CPU LU (computed in
 * double) and by multiplying the device's L and U back together. */
#include "workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

#define LUD_BLOCK 16u

/* Off-diagonal entries uniform in [-1, 1); each diagonal entry exceeds the
 * sum of its row's magnitudes by 1 to 2, so no pivoting is needed and the
 * factors are well conditioned. */
static float *lud_make(uint32_t n, uint64_t seed)
{
    struct rng rng;
    rng_seed(&rng, seed);
    float *a = xmalloc((size_t)n * n * sizeof *a);
    for (uint32_t i = 0; i < n; i++) {
        double off = 0.0;
        for (uint32_t j = 0; j < n; j++) {
            float v = 2.0f * rng_float(&rng) - 1.0f;
            a[(size_t)i * n + j] = v;
            if (j != i)
                off += fabs(v);
        }
        a[(size_t)i * n + i] = (float)(off + 1.0 + rng_float(&rng));
    }
    return a;
}

/* Doolittle LU in place, in double: below the diagonal L (unit diagonal
 * implied), on and above it U. */
static void lud_cpu(uint32_t n, double *a)
{
    for (uint32_t k = 0; k < n; k++) {
        double pivot = a[(size_t)k * n + k];
        for (uint32_t i = k + 1; i < n; i++) {
            double l = a[(size_t)i * n + k] / pivot;
            a[(size_t)i * n + k] = l;
            for (uint32_t j = k + 1; j < n; j++)
                a[(size_t)i * n + j] -= l * a[(size_t)k * n + j];
        }
    }
}

/* The largest |(L U)_ij - A_ij| / |A_ii| over the matrix, L and U taken from
 * the in-place factors f. */
static double lud_residual(uint32_t n, const float *a, const float *f)
{
    double worst = 0.0;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++) {
            uint32_t kmax = i < j ? i : j;
            double sum = 0.0;
            for (uint32_t k = 0; k < kmax; k++)
                sum += (double)f[(size_t)i * n + k] * f[(size_t)k * n + j];
            /* k = min(i, j): L_ii = 1 on and above the diagonal, U_jj below. */
            double fij = f[(size_t)i * n + j];
            sum += i <= j ? fij : fij * f[(size_t)j * n + j];
            double r = fabs(sum - a[(size_t)i * n + j]) / fabs(a[(size_t)i * n + i]);
            if (r > worst)
                worst = r;
        }
    return worst;
}

/* Float rounding leaves residuals of 2e-7 (small) to 9e-7 (large) of the
 * diagonal; the element-wise comparison with the CPU factors is the finer
 * check, this one makes sure the device's factors really reproduce the
 * matrix. */
#define LUD_MAX_RESIDUAL 1e-5

static int lud_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                   size_t detail_len)
{
    static const uint32_t dims[] = {96, 320, 1024};
    uint32_t n = dims[a->size];
    size_t nn = (size_t)n * n;
    float *mat = lud_make(n, a->seed);
    float *got = xmalloc(nn * sizeof *got);
    double *ref = xmalloc(nn * sizeof *ref);
    float *want = xmalloc(nn * sizeof *want);
    float *scaled = xmalloc(nn * sizeof *scaled);

    ws_devptr d_m = 0;
    int32_t matrix_dim = (int32_t)n;
    char check[192];
    int rc;
    WL_TRY_OUT(ws_malloc(gpu, nn * sizeof(float), &d_m));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_m, mat, nn * sizeof(float)));
    int32_t offset = 0;
    void *args[] = {&d_m, &matrix_dim, &offset};
    for (uint32_t off = 0; off < n - LUD_BLOCK; off += LUD_BLOCK) {
        offset = (int32_t)off;
        uint32_t rest = (n - off) / LUD_BLOCK - 1; /* blocks right of / below it */
        WL_TRY_OUT(ws_launch(mod, "lud_diagonal", ws_dim(1, 1, 1), ws_dim(LUD_BLOCK, 1, 1), 0,
                             args));
        WL_TRY_OUT(ws_launch(mod, "lud_perimeter", ws_dim(rest, 1, 1),
                             ws_dim(2 * LUD_BLOCK, 1, 1), 0, args));
        WL_TRY_OUT(ws_launch(mod, "lud_internal", ws_dim(rest, rest, 1),
                             ws_dim(LUD_BLOCK, LUD_BLOCK, 1), 0, args));
    }
    offset = (int32_t)(n - LUD_BLOCK);
    WL_TRY_OUT(ws_launch(mod, "lud_diagonal", ws_dim(1, 1, 1), ws_dim(LUD_BLOCK, 1, 1), 0, args));
    WL_TRY_OUT(ws_memcpy_dtoh(gpu, got, d_m, nn * sizeof(float)));

    for (size_t i = 0; i < nn; i++)
        ref[i] = mat[i];
    lud_cpu(n, ref);
    /* U's off-diagonal entries are about 1 and its diagonal about n / 2, but
     * L's entries are about 2 / n: compare L_ij * U_jj (about 1) instead, so
     * that one tolerance fits both and a lost update term (L_ik * U_kj, at
     * least about 2 / n) is far outside it. */
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++) {
            size_t k = (size_t)i * n + j;
            double scale = i > j ? ref[(size_t)j * n + j] : 1.0;
            want[k] = (float)(ref[k] * scale);
            scaled[k] = (float)(got[k] * scale);
        }
    rc = wl_check_f32("lu", want, scaled, nn, 1e-4f, 1e-5f, check, sizeof check);
    if (rc != WS_OK) {
        snprintf(detail, detail_len, "lud: %ux%u: %s", n, n, check);
        goto out;
    }
    double residual = lud_residual(n, mat, got);
    if (!(residual <= LUD_MAX_RESIDUAL)) {
        rc = WS_ERR_VERIFY;
        snprintf(detail, detail_len,
                 "lud: %ux%u: L*U differs from the matrix by %.3g of a diagonal entry "
                 "(limit %.0e)",
                 n, n, residual, LUD_MAX_RESIDUAL);
        goto out;
    }
    snprintf(detail, detail_len,
             "lud: %ux%u in %u block steps: %s; max |L*U - A| = %.2g of the diagonal", n, n,
             n / LUD_BLOCK, check, residual);

out:
    if (d_m)
        ws_free(gpu, d_m);
    free(scaled);
    free(want);
    free(ref);
    free(got);
    free(mat);
    return rc;
}

const struct workload workload_lud = {
    .name = "lud",
    .desc = "LU decomposition (Rodinia lud): blocked diagonal, perimeter and internal "
            "kernels on 16x16 shared-memory blocks",
    .run = lud_run,
};
