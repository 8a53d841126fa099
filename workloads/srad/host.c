/* host.c: the srad workload: Rodinia's srad_v2 speckle-reducing anisotropic
 * diffusion, a few iterations of (host: ROI statistics; device: diffusion
 * coefficients, then the image update), every iteration checked against a
 * CPU implementation of both kernels started from the same image. */
#include "workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

#define SRAD_BLOCK 16u
#define SRAD_LAMBDA 0.5f

struct srad_shape {
    uint32_t rows, cols, iterations;
};

/* q0^2 = var / mean^2 over the region of interest, here the top-left
 * quarter of the image (Rodinia takes a fixed 128x128 corner). */
static float srad_q0sqr(const struct srad_shape *s, const float *J, double *mean_out)
{
    uint32_t r2 = s->rows / 2, c2 = s->cols / 2;
    double sum = 0.0, sum2 = 0.0;
    for (uint32_t r = 0; r < r2; r++)
        for (uint32_t c = 0; c < c2; c++) {
            double v = J[(size_t)r * s->cols + c];
            sum += v;
            sum2 += v * v;
        }
    double size = (double)r2 * c2;
    double mean = sum / size;
    double var = sum2 / size - mean * mean;
    *mean_out = mean;
    return (float)(var / (mean * mean));
}

/* Both kernels on the CPU with the operations of their PTX (the same fma.rn
 * contractions, IEEE divisions), so the results agree to the bit. */
static void srad_cpu_iteration(const struct srad_shape *s, float q0sqr, const float *J,
                               float *C, float *out)
{
    uint32_t rows = s->rows, cols = s->cols;
    size_t npix = (size_t)rows * cols;
    float *dn = xmalloc(npix * sizeof *dn), *ds = xmalloc(npix * sizeof *ds);
    float *dw = xmalloc(npix * sizeof *dw), *de = xmalloc(npix * sizeof *de);
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t c = 0; c < cols; c++) {
            size_t i = (size_t)r * cols + c;
            float jc = J[i];
            float n = J[(size_t)(r > 0 ? r - 1 : r) * cols + c] - jc;
            float so = J[(size_t)(r + 1 < rows ? r + 1 : r) * cols + c] - jc;
            float w = J[(size_t)r * cols + (c > 0 ? c - 1 : c)] - jc;
            float e = J[(size_t)r * cols + (c + 1 < cols ? c + 1 : c)] - jc;
            float g2 = fmaf(e, e, fmaf(w, w, fmaf(n, n, so * so))) / (jc * jc);
            float l = (((n + so) + w) + e) / jc;
            float num = fmaf(g2, 0.5f, (l * l) * -0.0625f);
            float den = fmaf(l, 0.25f, 1.0f);
            float qsqr = num / (den * den);
            den = (qsqr - q0sqr) / ((q0sqr + 1.0f) * q0sqr);
            float coeff = 1.0f / (den + 1.0f);
            C[i] = coeff < 0.0f ? 0.0f : coeff > 1.0f ? 1.0f : coeff;
            dn[i] = n;
            ds[i] = so;
            dw[i] = w;
            de[i] = e;
        }
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t c = 0; c < cols; c++) {
            size_t i = (size_t)r * cols + c;
            float cn = C[i];
            float cs = C[(size_t)(r + 1 < rows ? r + 1 : r) * cols + c];
            float ce = C[(size_t)r * cols + (c + 1 < cols ? c + 1 : c)];
            float d = fmaf(ce, de[i], fmaf(cn, dw[i], fmaf(cn, dn[i], cs * ds[i])));
            out[i] = fmaf(SRAD_LAMBDA * 0.25f, d, J[i]);
        }
    free(de);
    free(dw);
    free(ds);
    free(dn);
}

static int srad_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                    size_t detail_len)
{
    static const struct srad_shape shapes[] = {
        {64, 96, 3},
        {384, 512, 3},
        {2048, 2048, 2},
    };
    const struct srad_shape *s = &shapes[a->size];
    size_t npix = (size_t)s->rows * s->cols;
    size_t bytes = npix * sizeof(float);

    /* As in Rodinia: pixels exp(u), u uniform in [0, 1). */
    struct rng rng;
    rng_seed(&rng, a->seed);
    float *J = xmalloc(bytes);
    float *C = xmalloc(bytes);
    float *want_J = xmalloc(bytes);
    float *want_C = xmalloc(bytes);
    for (size_t i = 0; i < npix; i++)
        J[i] = expf(rng_float(&rng));

    ws_devptr d_J = 0, d_C = 0, d_dir[4] = {0, 0, 0, 0};
    int32_t cols = (int32_t)s->cols, rows = (int32_t)s->rows;
    float lambda = SRAD_LAMBDA;
    ws_dim3 grid = ws_dim(s->cols / SRAD_BLOCK, s->rows / SRAD_BLOCK, 1);
    ws_dim3 block = ws_dim(SRAD_BLOCK, SRAD_BLOCK, 1);
    double mean0 = 0.0, mean = 0.0;
    float q0sqr_first = 0.0f, q0sqr = 0.0f;
    char check[192];
    int rc;
    WL_TRY_OUT(ws_malloc(gpu, bytes, &d_J));
    WL_TRY_OUT(ws_malloc(gpu, bytes, &d_C));
    for (int k = 0; k < 4; k++)
        WL_TRY_OUT(ws_malloc(gpu, bytes, &d_dir[k]));

    void *args1[] = {&d_J, &d_C, &d_dir[0], &d_dir[1], &d_dir[2], &d_dir[3],
                     &cols, &rows, &q0sqr};
    void *args2[] = {&d_J, &d_C, &d_dir[0], &d_dir[1], &d_dir[2], &d_dir[3],
                     &cols, &rows, &lambda};
    for (uint32_t it = 1; it <= s->iterations; it++) {
        /* Rodinia's loop: statistics on the host, image to the device, both
         * kernels, image back. */
        q0sqr = srad_q0sqr(s, J, &mean);
        if (it == 1) {
            q0sqr_first = q0sqr;
            mean0 = mean;
        }
        WL_TRY_OUT(ws_memcpy_htod(gpu, d_J, J, bytes));
        /* All-ones bytes are a NaN: an unwritten coefficient fails the check. */
        WL_TRY_OUT(ws_memset(gpu, d_C, 0xff, bytes));
        WL_TRY_OUT(ws_launch(mod, "srad_kernel1", grid, block, 0, args1));
        WL_TRY_OUT(ws_launch(mod, "srad_kernel2", grid, block, 0, args2));
        WL_TRY_OUT(ws_memcpy_dtoh(gpu, C, d_C, bytes));
        srad_cpu_iteration(s, q0sqr, J, want_C, want_J);
        WL_TRY_OUT(ws_memcpy_dtoh(gpu, J, d_J, bytes));
        rc = wl_check_f32("coefficient", want_C, C, npix, 1e-6f, 1e-7f, check, sizeof check);
        if (rc == WS_OK)
            rc = wl_check_f32("image", want_J, J, npix, 1e-6f, 1e-7f, check, sizeof check);
        if (rc != WS_OK) {
            snprintf(detail, detail_len, "srad: iteration %u: %s", it, check);
            goto out;
        }
    }
    q0sqr = srad_q0sqr(s, J, &mean);
    snprintf(detail, detail_len,
             "srad: %ux%u image, %u iterations (speckle q0^2 %.4f -> %.4f, ROI mean %.4f -> "
             "%.4f): every iteration's %zu coefficients and pixels match the CPU reference",
             s->rows, s->cols, s->iterations, (double)q0sqr_first, (double)q0sqr, mean0, mean,
             npix);

out:
    for (int k = 3; k >= 0; k--)
        if (d_dir[k])
            ws_free(gpu, d_dir[k]);
    if (d_C)
        ws_free(gpu, d_C);
    if (d_J)
        ws_free(gpu, d_J);
    free(want_C);
    free(want_J);
    free(C);
    free(J);
    return rc;
}

const struct workload workload_srad = {
    .name = "srad",
    .desc = "speckle-reducing anisotropic diffusion (Rodinia srad_v2): shared-memory "
            "coefficient and update kernels",
    .run = srad_run,
};
