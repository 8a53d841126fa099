/* host.c (mco): Monte Carlo prices of European call options (mco.cu), one
 * 256-thread block per option over one shared set of normal samples, as the
 * CUDA SDK's MonteCarlo prices them.  Each option's mean payoff and mean
 * squared payoff are checked against the same sums taken in double on the
 * CPU from the same samples. */
#include "workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/alloc.h"

#define MCO_BLOCK 256u
#define MCO_R 0.06 /* riskless rate (the SDK sample's) */
#define MCO_V 0.10 /* volatility (the SDK sample's) */

/* options (blocks) and paths per option */
static void mco_shape(enum wl_size s, uint32_t *options, uint32_t *paths)
{
    switch (s) {
    case WL_SMALL:
        *options = 256, *paths = 2048;
        return;
    case WL_MEDIUM:
        *options = 2048, *paths = 4096; /* 2048 blocks: the paper's Table II grid */
        return;
    case WL_LARGE:
        *options = 2048, *paths = 65536;
        return;
    }
}

static int mco_device(ws_gpu *gpu, ws_module *mod, const float *samples, const float *opt,
                      float *sums, uint32_t options, uint32_t paths, char *detail,
                      size_t detail_len)
{
    ws_devptr d_samples, d_opt, d_sums;
    WL_TRY(gpu, ws_malloc(gpu, (size_t)paths * 4, &d_samples), detail, detail_len);
    WL_TRY(gpu, ws_malloc(gpu, (size_t)options * 16, &d_opt), detail, detail_len);
    WL_TRY(gpu, ws_malloc(gpu, (size_t)options * 8, &d_sums), detail, detail_len);
    WL_TRY(gpu, ws_memcpy_htod(gpu, d_samples, samples, (size_t)paths * 4), detail,
           detail_len);
    WL_TRY(gpu, ws_memcpy_htod(gpu, d_opt, opt, (size_t)options * 16), detail, detail_len);
    WL_TRY(gpu, ws_memcpy_htod(gpu, d_sums, sums, (size_t)options * 8), detail, detail_len);
    void *args[] = {&d_samples, &d_opt, &d_sums, &paths};
    WL_TRY(gpu,
           ws_launch(mod, "mco", ws_dim(options, 1, 1), ws_dim(MCO_BLOCK, 1, 1), 0, args),
           detail, detail_len);
    WL_TRY(gpu, ws_memcpy_dtoh(gpu, sums, d_sums, (size_t)options * 8), detail, detail_len);
    WL_TRY(gpu, ws_free(gpu, d_samples), detail, detail_len);
    WL_TRY(gpu, ws_free(gpu, d_opt), detail, detail_len);
    WL_TRY(gpu, ws_free(gpu, d_sums), detail, detail_len);
    return WS_OK;
}

static int mco_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                   size_t detail_len)
{
    uint32_t options = 0, paths = 0;
    mco_shape(a->size, &options, &paths);
    float *samples = xmalloc((size_t)paths * sizeof(float));
    float *opt = xmalloc((size_t)options * 4 * sizeof(float));
    float *sums = xmalloc((size_t)options * 2 * sizeof(float));
    float *got = xmalloc((size_t)options * 2 * sizeof(float));
    float *want = xmalloc((size_t)options * 2 * sizeof(float));
    struct rng rng;
    rng_seed(&rng, a->seed);
    /* standard normal samples by Box-Muller; u1 in (0, 1] keeps the log finite */
    for (uint32_t i = 0; i < paths; i++) {
        double u1 = 1.0 - rng_float(&rng), u2 = rng_float(&rng);
        samples[i] = (float)(sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
    }
    /* the SDK sample's ranges: S in [5, 50), X in [10, 25), T in [1, 5) years */
    for (uint32_t k = 0; k < options; k++) {
        double s = 5.0 + 45.0 * rng_float(&rng), x = 10.0 + 15.0 * rng_float(&rng);
        double t = 1.0 + 4.0 * rng_float(&rng);
        float *o = &opt[4 * k];
        o[0] = (float)s;
        o[1] = (float)x;
        o[2] = (float)((MCO_R - 0.5 * MCO_V * MCO_V) * t);
        o[3] = (float)(MCO_V * sqrt(t));
        /* the CPU's sums from the same float inputs, in double */
        double sum = 0.0, sum2 = 0.0;
        for (uint32_t i = 0; i < paths; i++) {
            double pay = o[0] * exp((double)o[2] + (double)o[3] * samples[i]) - o[1];
            if (pay > 0.0) {
                sum += pay;
                sum2 += pay * pay;
            }
        }
        want[k] = (float)(sum / paths);
        want[options + k] = (float)(sum2 / paths);
        sums[2 * k] = sums[2 * k + 1] = NAN; /* an unwritten option fails */
    }
    int rc = mco_device(gpu, mod, samples, opt, sums, options, paths, detail, detail_len);
    for (uint32_t k = 0; k < options; k++) {
        got[k] = sums[2 * k] / (float)paths;
        got[options + k] = sums[2 * k + 1] / (float)paths;
    }
    /* float sums of up to 256 payoffs a thread, then a 256-way tree: a few ulps
     * of the largest partial; means of a few dollars, second moments of tens */
    if (rc == WS_OK)
        rc = wl_check_f32("mean payoff", want, got, options, 1e-4f, 1e-4f, detail,
                          detail_len);
    if (rc == WS_OK)
        rc = wl_check_f32("mean squared payoff", want + options, got + options, options,
                          1e-4f, 1e-3f, detail, detail_len);
    if (rc == WS_OK)
        snprintf(detail, detail_len, "%u options x %u paths: means and second moments match",
                 options, paths);
    free(samples);
    free(opt);
    free(sums);
    free(got);
    free(want);
    return rc;
}

const struct workload workload_mco = {
    .name = "mco",
    .desc = "Monte Carlo European call prices, one block per option over shared normal "
            "samples, a shared-memory tree (the CUDA SDK's MonteCarlo; the Phase-aware "
            "paper's MCO)",
    .run = mco_run,
};
