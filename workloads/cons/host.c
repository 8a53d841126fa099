/* host.c: the cons workload: separable convolution (CUDA SDK
 * convolutionSeparable's structure, MeDiC's CONS): a 17-tap filter along the
 * rows, then along the columns, checked against a CPU convolution with the
 * same zero border. */
#include "workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/alloc.h"

#define CONS_R 8
#define CONS_TAPS (2 * CONS_R + 1)

/* One pass of the CPU reference: out[y][x] = sum_k f[R - k] * in[y][x + k]
 * (dx = 1) or in[y + k][x] (dx = 0), zero outside the image; summed in
 * double, as the GPU's float sums differ from it only in rounding. */
static void cons_cpu_pass(float *out, const float *in, const float *f, int w, int h, int dx)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double sum = 0;
            for (int k = -CONS_R; k <= CONS_R; k++) {
                int xx = x + (dx ? k : 0), yy = y + (dx ? 0 : k);
                if (xx >= 0 && xx < w && yy >= 0 && yy < h)
                    sum += (double)f[CONS_R - k] * in[(size_t)yy * w + xx];
            }
            out[(size_t)y * w + x] = (float)sum;
        }
}

static int cons_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                    size_t detail_len)
{
    /* width a multiple of 128 (row pass), height of 64 (column pass); large is
     * the SDK sample's 3072 x 3072 */
    static const int widths[] = {256, 1024, 3072}, heights[] = {128, 512, 3072};
    int w = widths[a->size], h = heights[a->size];
    size_t n = (size_t)w * h, bytes = n * sizeof(float);
    float *img = xmalloc(bytes), *tmp = xmalloc(bytes), *want = xmalloc(bytes);
    float *got = xmalloc(bytes), filter[CONS_TAPS];
    struct rng rng;
    rng_seed(&rng, a->seed);
    /* as the sample: image values and filter taps uniform, taps normalised */
    for (size_t i = 0; i < n; i++)
        img[i] = 16.0f * rng_float(&rng);
    float fsum = 0;
    for (int k = 0; k < CONS_TAPS; k++)
        fsum += filter[k] = rng_float(&rng);
    for (int k = 0; k < CONS_TAPS; k++)
        filter[k] /= fsum;
    for (size_t i = 0; i < n; i++)
        got[i] = NAN; /* an output never written fails the check */
    ws_devptr d_img = 0, d_tmp = 0, d_out = 0, d_filter;
    size_t fsize = 0;
    int rc;
    WL_TRY_OUT(ws_module_symbol(mod, "cons_filter", &d_filter, &fsize));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_filter, filter, sizeof filter));
    WL_TRY_OUT(ws_malloc(gpu, bytes, &d_img));
    WL_TRY_OUT(ws_malloc(gpu, bytes, &d_tmp));
    WL_TRY_OUT(ws_malloc(gpu, bytes, &d_out));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_img, img, bytes));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_out, got, bytes));
    void *row_args[] = {&d_tmp, &d_img, &w, &h};
    void *col_args[] = {&d_out, &d_tmp, &w, &h};
    WL_TRY_OUT(ws_launch(mod, "cons_rows", ws_dim((unsigned)w / 128, (unsigned)h / 4, 1),
                         ws_dim(16, 4, 1), 0, row_args));
    WL_TRY_OUT(ws_launch(mod, "cons_cols", ws_dim((unsigned)w / 16, (unsigned)h / 64, 1),
                         ws_dim(16, 8, 1), 0, col_args));
    WL_TRY_OUT(ws_memcpy_dtoh(gpu, got, d_out, bytes));
    cons_cpu_pass(tmp, img, filter, w, h, 1);
    cons_cpu_pass(want, tmp, filter, w, h, 0);
    char check[192];
    /* outputs are weighted means of values in [0, 16): 1e-4 absolute is far
     * above float rounding of 17 + 17 terms and far below a lost tap */
    rc = wl_check_f32("out", want, got, n, 1e-5f, 1e-4f, check, sizeof check);
    snprintf(detail, detail_len, "cons: %dx%d image, %d-tap filter on rows then columns: %s",
             w, h, CONS_TAPS, check);
#undef CONS_TRY
out:
    if (d_out)
        ws_free(gpu, d_out);
    if (d_tmp)
        ws_free(gpu, d_tmp);
    if (d_img)
        ws_free(gpu, d_img);
    free(got);
    free(want);
    free(tmp);
    free(img);
    return rc;
}

const struct workload workload_cons = {
    .name = "cons",
    .desc = "separable convolution: a 17-tap filter along rows then columns through "
            "shared-memory strips (CUDA SDK convolutionSeparable, MeDiC's CONS)",
    .run = cons_run,
};
