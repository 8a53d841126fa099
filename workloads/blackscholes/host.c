/* host.c (blackscholes): call and put prices of random European options
 * (blackscholes.cu), checked against the same formula evaluated in double
 * on the CPU. */
#include "workload.h"

#include <math.h>
#include <stdlib.h>

#include "base/alloc.h"

#define BS_BLOCK 256u
#define BS_R 0.02f /* riskless rate */
#define BS_V 0.30f /* volatility */

static uint32_t bs_options(enum wl_size s)
{
    switch (s) {
    case WL_SMALL:
        return 16384;
    case WL_MEDIUM:
        return 131072;
    case WL_LARGE:
        return 524288; /* the slides' input: 512K options */
    }
    return 0;
}

static double bs_cnd(double d)
{
    double k = 1.0 / (1.0 + 0.2316419 * fabs(d));
    double poly =
        k * (0.319381530 +
             k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))));
    double c = 0.398942280 * exp(-0.5 * d * d) * poly;
    return d > 0.0 ? 1.0 - c : c;
}

static int bs_device(ws_gpu *gpu, ws_module *mod, float *const in[3], float *out[2],
                     uint32_t n, char *detail, size_t detail_len)
{
    size_t bytes = (size_t)n * 4;
    ws_devptr d[5];
    for (int i = 0; i < 5; i++) {
        WL_TRY(gpu, ws_malloc(gpu, bytes, &d[i]), detail, detail_len);
        WL_TRY(gpu, ws_memcpy_htod(gpu, d[i], i < 3 ? in[i] : out[i - 3], bytes), detail,
               detail_len);
    }
    float r = BS_R, v = BS_V;
    void *args[] = {&d[0], &d[1], &d[2], &d[3], &d[4], &r, &v, &n};
    WL_TRY(gpu,
           ws_launch(mod, "blackscholes", ws_dim((n + BS_BLOCK - 1) / BS_BLOCK, 1, 1),
                     ws_dim(BS_BLOCK, 1, 1), 0, args),
           detail, detail_len);
    for (int i = 0; i < 2; i++)
        WL_TRY(gpu, ws_memcpy_dtoh(gpu, out[i], d[3 + i], bytes), detail, detail_len);
    for (int i = 0; i < 5; i++)
        WL_TRY(gpu, ws_free(gpu, d[i]), detail, detail_len);
    return WS_OK;
}

static int bs_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                  size_t detail_len)
{
    uint32_t n = bs_options(a->size);
    float *s = xmalloc((size_t)n * 4), *x = xmalloc((size_t)n * 4), *t = xmalloc((size_t)n * 4);
    float *call = xmalloc((size_t)n * 4), *put = xmalloc((size_t)n * 4);
    float *wcall = xmalloc((size_t)n * 4), *wput = xmalloc((size_t)n * 4);
    struct rng rng;
    rng_seed(&rng, a->seed);
    for (uint32_t i = 0; i < n; i++) {
        s[i] = 5.0f + 25.0f * (float)rng_float(&rng);  /* stock price 5..30 */
        x[i] = 1.0f + 99.0f * (float)rng_float(&rng);  /* strike 1..100 */
        t[i] = 0.25f + 9.75f * (float)rng_float(&rng); /* years 0.25..10 */
        call[i] = put[i] = NAN;                       /* an unwritten price fails */
        double sq = sqrt((double)t[i]);
        double d1 = (log((double)s[i] / x[i]) + (BS_R + 0.5 * BS_V * BS_V) * t[i]) /
                    (BS_V * sq);
        double d2 = d1 - BS_V * sq, c1 = bs_cnd(d1), c2 = bs_cnd(d2);
        double disc = x[i] * exp(-(double)BS_R * t[i]);
        wcall[i] = (float)(s[i] * c1 - disc * c2);
        wput[i] = (float)(disc * (1.0 - c2) - s[i] * (1.0 - c1));
    }
    float *in[3] = {s, x, t}, *out[2] = {call, put};
    int rc = bs_device(gpu, mod, in, out, n, detail, detail_len);
    /* float evaluation of prices up to ~100: a few ulps of the inputs' size */
    if (rc == WS_OK)
        rc = wl_check_f32("call", wcall, call, n, 1e-4f, 1e-3f, detail, detail_len);
    if (rc == WS_OK)
        rc = wl_check_f32("put", wput, put, n, 1e-4f, 1e-3f, detail, detail_len);
    free(s);
    free(x);
    free(t);
    free(call);
    free(put);
    free(wcall);
    free(wput);
    return rc;
}

const struct workload workload_blackscholes = {
    .name = "blackscholes",
    .desc = "Black-Scholes call and put prices, one option per thread, a branch in the "
            "normal CDF (the large-warp slides' blackscholes)",
    .run = bs_run,
};
