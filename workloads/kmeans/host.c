/* host.c: the kmeans workload: Rodinia-style k-means, with the point-to-centroid
 * assignment on the device and the centroid update on the host, checked
 * membership for membership against a CPU assignment each iteration.  The
 * same host code drives the kmn workload, whose assignment kernel reads the
 * points in their original point-major layout (kmeans_host.h). */
#include "kmeans/kmeans_host.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

#define KMEANS_BLOCK 256u
#define KMEANS_MAX_ITERS 5u

struct kmeans_shape {
    uint32_t npoints, nfeatures, nclusters;
};

/* Points lie around nclusters random centres in [0, 1)^nfeatures, with noise of
 * up to 0.15 per feature; stored point-major as the input file would be. */
static float *kmeans_make_points(const struct kmeans_shape *s, uint64_t seed)
{
    struct rng rng;
    rng_seed(&rng, seed);
    float *centres = xmalloc((size_t)s->nclusters * s->nfeatures * sizeof *centres);
    for (size_t i = 0; i < (size_t)s->nclusters * s->nfeatures; i++)
        centres[i] = rng_float(&rng);
    float *points = xmalloc((size_t)s->npoints * s->nfeatures * sizeof *points);
    for (uint32_t p = 0; p < s->npoints; p++) {
        uint32_t c = rng_below(&rng, s->nclusters);
        for (uint32_t f = 0; f < s->nfeatures; f++)
            points[(size_t)p * s->nfeatures + f] =
                centres[(size_t)c * s->nfeatures + f] + 0.3f * (rng_float(&rng) - 0.5f);
    }
    free(centres);
    return points;
}

/* CPU reference of kmeans_assign: the same operations in the same order as the
 * kernel's PTX (the loop body compiles to sub.f32 then fma.rn.f32), so the
 * distances, and therefore the memberships, match bit for bit. */
static void kmeans_cpu_assign(const struct kmeans_shape *s, const float *points,
                              const float *clusters, int32_t *membership)
{
    for (uint32_t p = 0; p < s->npoints; p++) {
        int32_t index = -1;
        float min_dist = FLT_MAX;
        for (uint32_t i = 0; i < s->nclusters; i++) {
            float dist = 0.0f;
            for (uint32_t l = 0; l < s->nfeatures; l++) {
                float diff = points[(size_t)p * s->nfeatures + l] -
                             clusters[(size_t)i * s->nfeatures + l];
                dist = fmaf(diff, diff, dist);
            }
            if (dist < min_dist) {
                min_dist = dist;
                index = (int32_t)i;
            }
        }
        membership[p] = index;
    }
}

/* New centroids: the mean of each cluster's points (summed in double); a
 * cluster left empty keeps its centroid. */
static void kmeans_update(const struct kmeans_shape *s, const float *points,
                          const int32_t *membership, float *clusters)
{
    double *sum = xcalloc((size_t)s->nclusters * s->nfeatures, sizeof *sum);
    uint32_t *count = xcalloc(s->nclusters, sizeof *count);
    for (uint32_t p = 0; p < s->npoints; p++) {
        uint32_t c = (uint32_t)membership[p];
        count[c]++;
        for (uint32_t f = 0; f < s->nfeatures; f++)
            sum[(size_t)c * s->nfeatures + f] += points[(size_t)p * s->nfeatures + f];
    }
    for (uint32_t c = 0; c < s->nclusters; c++)
        if (count[c])
            for (uint32_t f = 0; f < s->nfeatures; f++)
                clusters[(size_t)c * s->nfeatures + f] =
                    (float)(sum[(size_t)c * s->nfeatures + f] / count[c]);
    free(count);
    free(sum);
}

int kmeans_run_layout(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                      size_t detail_len, int point_major)
{
    static const struct kmeans_shape shapes[] = {
        {2048, 8, 5},
        {16384, 16, 8},
        {262144, 16, 8},
    };
    /* Point-major (kmn): 34 features per point, as the papers' kdd_cup input
     * (Rodinia kmeans data: 34 attributes), so a point is 136 B and a warp's
     * 32 consecutive points span 4352 B = 34-35 lines: 0.6 x 256 / 34 = 4.5
     * warps fit a 32 KB L1D, the paper's Best-SWL of 4.  Enough points at
     * medium that every SM of the daws preset holds its full 32 warps. */
    static const struct kmeans_shape shapes_pm[] = {
        {4096, 34, 8},
        {65536, 34, 8},
        {262144, 34, 8},
    };
    const struct kmeans_shape *s = point_major ? &shapes_pm[a->size] : &shapes[a->size];
    size_t nvals = (size_t)s->npoints * s->nfeatures;
    float *points = kmeans_make_points(s, a->seed);
    float *flipped = xmalloc(nvals * sizeof *flipped);
    float *want_flipped = xmalloc(nvals * sizeof *want_flipped);
    float *clusters = xmalloc((size_t)s->nclusters * s->nfeatures * sizeof *clusters);
    int32_t *membership = xmalloc((size_t)s->npoints * sizeof *membership);
    int32_t *want = xmalloc((size_t)s->npoints * sizeof *want);
    int32_t *previous = xmalloc((size_t)s->npoints * sizeof *previous);
    /* As in Rodinia, the first nclusters points are the initial centroids. */
    memcpy(clusters, points, (size_t)s->nclusters * s->nfeatures * sizeof *clusters);
    for (uint32_t p = 0; p < s->npoints; p++)
        previous[p] = -1;

    ws_devptr d_points = 0, d_features = 0, d_clusters = 0, d_membership = 0;
    int32_t npoints = (int32_t)s->npoints, nfeatures = (int32_t)s->nfeatures,
            nclusters = (int32_t)s->nclusters;
    ws_dim3 grid = ws_dim((s->npoints + KMEANS_BLOCK - 1) / KMEANS_BLOCK, 1, 1);
    ws_dim3 block = ws_dim(KMEANS_BLOCK, 1, 1);
    char check[192];
    int rc;
    WL_TRY_OUT(ws_malloc(gpu, nvals * sizeof(float), &d_points));
    WL_TRY_OUT(ws_malloc(gpu, nvals * sizeof(float), &d_features));
    WL_TRY_OUT(ws_malloc(gpu, (size_t)s->nclusters * s->nfeatures * sizeof(float),
                         &d_clusters));
    WL_TRY_OUT(ws_malloc(gpu, (size_t)s->npoints * sizeof(int32_t), &d_membership));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_points, points, nvals * sizeof(float)));

    if (!point_major) {
        void *invert_args[] = {&d_points, &d_features, &npoints, &nfeatures};
        WL_TRY_OUT(ws_launch(mod, "invert_mapping", grid, block, 0, invert_args));
        WL_TRY_OUT(ws_memcpy_dtoh(gpu, flipped, d_features, nvals * sizeof(float)));
        for (uint32_t p = 0; p < s->npoints; p++)
            for (uint32_t f = 0; f < s->nfeatures; f++)
                want_flipped[(size_t)f * s->npoints + p] = points[(size_t)p * s->nfeatures + f];
        rc = wl_check_f32("features", want_flipped, flipped, nvals, 0.0f, 0.0f, check,
                          sizeof check);
        if (rc != WS_OK) {
            snprintf(detail, detail_len, "kmeans: invert_mapping: %s", check);
            goto out;
        }
    }

    ws_devptr *d_assign_in = point_major ? &d_points : &d_features;
    void *assign_args[] = {d_assign_in, &d_clusters, &d_membership,
                           &npoints,    &nclusters,  &nfeatures};
    uint32_t iter, changed = 0;
    for (iter = 1; iter <= KMEANS_MAX_ITERS; iter++) {
        WL_TRY_OUT(ws_memcpy_htod(gpu, d_clusters, clusters,
                                  (size_t)s->nclusters * s->nfeatures * sizeof(float)));
        WL_TRY_OUT(ws_launch(mod, "kmeans_assign", grid, block, 0, assign_args));
        WL_TRY_OUT(ws_memcpy_dtoh(gpu, membership, d_membership,
                                  (size_t)s->npoints * sizeof(int32_t)));
        kmeans_cpu_assign(s, points, clusters, want);
        rc = wl_check_i32("membership", want, membership, s->npoints, check, sizeof check);
        if (rc != WS_OK) {
            snprintf(detail, detail_len, "kmeans: iteration %u: %s", iter, check);
            goto out;
        }
        changed = 0;
        for (uint32_t p = 0; p < s->npoints; p++)
            changed += membership[p] != previous[p];
        if (changed == 0)
            break;
        memcpy(previous, membership, (size_t)s->npoints * sizeof *previous);
        kmeans_update(s, points, membership, clusters);
    }
    if (iter > KMEANS_MAX_ITERS)
        iter = KMEANS_MAX_ITERS;
    snprintf(detail, detail_len,
             "kmeans: %u points, %u features, %u clusters, %u iterations (%u changed in "
             "the last): %s",
             s->npoints, s->nfeatures, s->nclusters, iter, changed, check);

out:
    if (d_membership)
        ws_free(gpu, d_membership);
    if (d_clusters)
        ws_free(gpu, d_clusters);
    if (d_features)
        ws_free(gpu, d_features);
    if (d_points)
        ws_free(gpu, d_points);
    free(previous);
    free(want);
    free(membership);
    free(clusters);
    free(want_flipped);
    free(flipped);
    free(points);
    return rc;
}

static int kmeans_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                      size_t detail_len)
{
    return kmeans_run_layout(gpu, mod, a, detail, detail_len, 0);
}

const struct workload workload_kmeans = {
    .name = "kmeans",
    .desc = "k-means clustering (Rodinia-style): device assignment to the nearest "
            "centroid, host centroid update",
    .run = kmeans_run,
};
