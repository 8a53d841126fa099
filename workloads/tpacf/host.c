/* host.c: the tpacf workload: the two-point angular correlation function of a
 * clustered data set of points on the sky against random sets of the same
 * size, in the manner of the Parboil suite's tpacf (CAWA's tpacf, data set
 * 487 x 100).  One kernel fills the DD, DR_i and RR_i histograms of angular
 * separations in logarithmic bins; checked exactly, every count of every
 * histogram, against a CPU reference that computes the same float dot
 * products and the same binary search. */
#include "workload.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

#define TPACF_BLOCK 128u /* tpacf.cu's block size and tile */
#define TPACF_EDGES 21u  /* bin edges 10^(k / 5) arcminutes, k = 0 .. 20 */
#define TPACF_BINS (TPACF_EDGES + 1u)
#define TPACF_POINTS 487u   /* points per set, as Parboil's data set */
#define TPACF_CLUSTERS 16u  /* cluster centres of the data set */

static const double tpacf_arcmin = 3.14159265358979323846 / (180.0 * 60.0);

/* uniform in [0, 1) with 53 bits */
static double tpacf_unif(struct rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1p-53;
}

/* a point uniform on the sphere: right ascension uniform in [0, 2 pi),
 * sin(declination) uniform in [-1, 1) */
static void tpacf_sky(struct rng *r, double *ra, double *dec)
{
    *ra = 2.0 * 3.14159265358979323846 * tpacf_unif(r);
    *dec = asin(2.0 * tpacf_unif(r) - 1.0);
}

static void tpacf_store(float *x, float *y, float *z, uint32_t q, double px, double py,
                        double pz)
{
    x[q] = (float)px;
    y[q] = (float)py;
    z[q] = (float)pz;
}

/* Set 0, the "observed" data set: each point is, with probability 1/2, near
 * one of TPACF_CLUSTERS random centres (at an angle log-uniform in [1, 1000]
 * arcminutes, in a uniform direction), otherwise uniform on the sphere, so DD
 * has an excess of close pairs.  Sets 1 .. nrand: uniform on the sphere. */
static void tpacf_make_points(float *x, float *y, float *z, uint32_t n, uint32_t nrand,
                              struct rng *r)
{
    double cra[TPACF_CLUSTERS], cdec[TPACF_CLUSTERS];
    for (uint32_t c = 0; c < TPACF_CLUSTERS; c++)
        tpacf_sky(r, &cra[c], &cdec[c]);
    for (uint32_t i = 0; i < n; i++) {
        double ra, dec;
        tpacf_sky(r, &ra, &dec);
        if (rng_below(r, 2) == 0) {
            uint32_t c = rng_below(r, TPACF_CLUSTERS);
            double ang = pow(10.0, 3.0 * tpacf_unif(r)) * tpacf_arcmin;
            double phi = 2.0 * 3.14159265358979323846 * tpacf_unif(r);
            /* the centre, and east and north unit vectors there */
            double cx = cos(cdec[c]) * cos(cra[c]), cy = cos(cdec[c]) * sin(cra[c]);
            double cz = sin(cdec[c]);
            double ex = -sin(cra[c]), ey = cos(cra[c]);
            double nx = -sin(cdec[c]) * cos(cra[c]), ny = -sin(cdec[c]) * sin(cra[c]);
            double nz = cos(cdec[c]);
            double ca = cos(ang), sa = sin(ang), cp = cos(phi), sp = sin(phi);
            tpacf_store(x, y, z, i, ca * cx + sa * (cp * ex + sp * nx),
                        ca * cy + sa * (cp * ey + sp * ny), ca * cz + sa * sp * nz);
        } else {
            tpacf_store(x, y, z, i, cos(dec) * cos(ra), cos(dec) * sin(ra), sin(dec));
        }
    }
    for (uint32_t q = n; q < (nrand + 1) * n; q++) {
        double ra, dec;
        tpacf_sky(r, &ra, &dec);
        tpacf_store(x, y, z, q, cos(dec) * cos(ra), cos(dec) * sin(ra), sin(dec));
    }
}

/* ---- CPU reference: tpacf.cu's arithmetic and search ---- */

static uint32_t tpacf_bin(const float *edges, float d)
{
    uint32_t lo = 0, hi = TPACF_EDGES;
    while (lo < hi) {
        uint32_t mid = (lo + hi) >> 1;
        if (d < edges[mid])
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void tpacf_pairs(const float *x, const float *y, const float *z, uint32_t a,
                        uint32_t b, uint32_t n, const float *edges, uint64_t *hist)
{
    for (uint32_t i = 0; i < n; i++) {
        float ax = x[a + i], ay = y[a + i], az = z[a + i];
        for (uint32_t j = a == b ? i + 1 : 0; j < n; j++) {
            /* the product is a separate statement: rounded on its own */
            float zz = az * z[b + j];
            float d = fmaf(ax, x[b + j], fmaf(ay, y[b + j], zz));
            hist[tpacf_bin(edges, d)]++;
        }
    }
}

static int tpacf_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                     size_t detail_len)
{
    static const uint32_t rand_sets[] = {2, 16, 100};
    uint32_t n = TPACF_POINTS, nrand = rand_sets[a->size], nhist = 2 * nrand + 1;
    uint32_t npts = (nrand + 1) * n;
    struct rng rng;
    rng_seed(&rng, a->seed);
    float *x = xmalloc((size_t)npts * sizeof *x), *y = xmalloc((size_t)npts * sizeof *y);
    float *z = xmalloc((size_t)npts * sizeof *z);
    tpacf_make_points(x, y, z, n, nrand, &rng);
    float edges[TPACF_EDGES];
    for (uint32_t k = 0; k < TPACF_EDGES; k++)
        edges[k] = (float)cos(pow(10.0, k / 5.0) * tpacf_arcmin);
    size_t hb = (size_t)nhist * TPACF_BINS * sizeof(uint64_t);
    uint64_t *got = xmalloc(hb), *want = xcalloc((size_t)nhist * TPACF_BINS, sizeof *want);
    ws_devptr d_x = 0, d_y = 0, d_z = 0, d_hist = 0, d_edges;
    size_t esize = 0, pb = (size_t)npts * sizeof(float);
    int rc;
    int32_t n_arg = (int32_t)n, nrand_arg = (int32_t)nrand;
    WL_TRY_OUT(ws_module_symbol(mod, "tpacf_edges", &d_edges, &esize));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_edges, edges, sizeof edges));
    WL_TRY_OUT(ws_malloc(gpu, pb, &d_x));
    WL_TRY_OUT(ws_malloc(gpu, pb, &d_y));
    WL_TRY_OUT(ws_malloc(gpu, pb, &d_z));
    WL_TRY_OUT(ws_malloc(gpu, hb, &d_hist));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_x, x, pb));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_y, y, pb));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_z, z, pb));
    WL_TRY_OUT(ws_memset(gpu, d_hist, 0, hb));
    uint32_t ntiles = (n + TPACF_BLOCK - 1) / TPACF_BLOCK;
    void *args[] = {&d_x, &d_y, &d_z, &n_arg, &nrand_arg, &d_hist};
    WL_TRY_OUT(ws_launch(mod, "tpacf_hist", ws_dim(ntiles * ntiles, nhist, 1),
                         ws_dim(TPACF_BLOCK, 1, 1), 0, args));
    WL_TRY_OUT(ws_memcpy_dtoh(gpu, got, d_hist, hb));

    for (uint32_t h = 0; h < nhist; h++) {
        uint32_t sa = h > nrand ? h - nrand : 0, sb = h > nrand ? h - nrand : h;
        tpacf_pairs(x, y, z, sa * n, sb * n, n, edges, want + (size_t)h * TPACF_BINS);
    }
    rc = WS_OK;
    for (size_t k = 0; k < (size_t)nhist * TPACF_BINS; k++)
        if (got[k] != want[k]) {
            uint32_t h = (uint32_t)(k / TPACF_BINS);
            snprintf(detail, detail_len,
                     "tpacf: %u points, %u random sets: histogram %u (%s) bin %u: expected "
                     "%" PRIu64 ", got %" PRIu64,
                     n, nrand, h, h == 0 ? "DD" : h <= nrand ? "DR" : "RR",
                     (unsigned)(k % TPACF_BINS), want[k], got[k]);
            rc = WS_ERR_VERIFY;
            goto out;
        }
    /* the pairs closer than 100 arcminutes (bins 0 .. 10): DD against the
     * mean of the RR_i, the data set's excess of close pairs */
    uint64_t dd_close = 0, rr_close = 0, pairs = 0;
    for (uint32_t h = 0; h < nhist; h++)
        for (uint32_t k = 0; k < TPACF_BINS; k++) {
            uint64_t c = want[(size_t)h * TPACF_BINS + k];
            pairs += c;
            if (k <= 10 && h == 0)
                dd_close += c;
            if (k <= 10 && h > nrand)
                rr_close += c;
        }
    snprintf(detail, detail_len,
             "tpacf: %u points, %u random sets: %u histograms of %u bins (%" PRIu64
             " pairs) match the CPU reference; pairs closer than 100': DD %" PRIu64
             ", RR mean %.1f",
             n, nrand, nhist, TPACF_BINS, pairs, dd_close, (double)rr_close / nrand);
out:
    if (d_hist)
        ws_free(gpu, d_hist);
    if (d_z)
        ws_free(gpu, d_z);
    if (d_y)
        ws_free(gpu, d_y);
    if (d_x)
        ws_free(gpu, d_x);
    free(want);
    free(got);
    free(z);
    free(y);
    free(x);
    return rc;
}

const struct workload workload_tpacf = {
    .name = "tpacf",
    .desc = "two-point angular correlation: DD, DR and RR histograms of angular separations "
            "in log bins of a clustered data set and random sets (Parboil-style)",
    .run = tpacf_run,
};
