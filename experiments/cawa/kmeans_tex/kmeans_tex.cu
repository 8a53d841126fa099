// kmeans_tex.cu: k-means shaped as Rodinia's CUDA kmeans runs on GPGPU-Sim,
// for the CAWA experiment (experiments/cawa/README.md, "kmeans through the
// texture path").  Our own program; what it shares with Rodinia is the
// device-side data flow of the paper's kmeans:
//  - invert_mapping transposes the points from point-major to feature-major
//    once (every thread walks its own point: per-thread locality in the L1D);
//  - the assignment kernel reads the feature-major points through the texture
//    path (tex1Dfetch, here on a texture object: Rodinia's texture reference
//    was removed in CUDA 12) and the centroids from constant memory, so its
//    reuse (each point's features read once per centroid) is for the texture
//    cache, not the L1D;
//  - the host updates the centroids and repeats until no point changes its
//    cluster or the iteration limit is reached.
// Input: generated points around nclusters random centres (kdd_cup's 34
// features).  The final memberships are checked against a CPU assignment
// with the same float operations (exit status 1 on a mismatch).
//
//   kmeans_tex NPOINTS [NFEATURES=34] [NCLUSTERS=5] [MAX_ITERS=10] [SEED=1]
#include <cuda_runtime.h>
#include <float.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 256
#define MAX_CENTROID_VALUES 4096

__constant__ float c_centroids[MAX_CENTROID_VALUES];

__global__ void invert_mapping(const float *points, float *features, int npoints,
                               int nfeatures)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < npoints)
        for (int f = 0; f < nfeatures; f++)
            features[f * npoints + p] = points[p * nfeatures + f];
}

// Distances in explicit round-to-nearest operations (no contraction), so that
// the CPU check computes the same values.
__global__ void assign(cudaTextureObject_t features, int npoints, int nfeatures,
                       int nclusters, int *membership)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npoints)
        return;
    int best = 0;
    float best_dist = FLT_MAX;
    for (int c = 0; c < nclusters; c++) {
        float dist = 0.0f;
        for (int f = 0; f < nfeatures; f++) {
            float d = __fsub_rn(tex1Dfetch<float>(features, f * npoints + p),
                                c_centroids[c * nfeatures + f]);
            dist = __fadd_rn(dist, __fmul_rn(d, d));
        }
        if (dist < best_dist) {
            best_dist = dist;
            best = c;
        }
    }
    membership[p] = best;
}

static uint64_t rng_state;
static float rng_float(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (float)(rng_state >> 40) / (float)(1u << 24);
}

static void cpu_assign(const float *points, const float *centroids, int npoints,
                       int nfeatures, int nclusters, int *membership)
{
    for (int p = 0; p < npoints; p++) {
        int best = 0;
        float best_dist = FLT_MAX;
        for (int c = 0; c < nclusters; c++) {
            volatile float dist = 0.0f;
            for (int f = 0; f < nfeatures; f++) {
                volatile float d = points[(size_t)p * nfeatures + f] -
                                   centroids[c * nfeatures + f];
                volatile float sq = d * d;
                dist = dist + sq;
            }
            if (dist < best_dist) {
                best_dist = dist;
                best = c;
            }
        }
        membership[p] = best;
    }
}

#define CHECK(call)                                                                  \
    do {                                                                             \
        cudaError_t err_ = (call);                                                   \
        if (err_ != cudaSuccess) {                                                   \
            fprintf(stderr, "kmeans_tex: %s: %s\n", #call, cudaGetErrorString(err_)); \
            return 2;                                                                \
        }                                                                            \
    } while (0)

/* A whole decimal argument in [1, INT_MAX], else -1. */
static long long arg_count(const char *s)
{
    char *end;
    long long v = strtoll(s, &end, 10);
    return end != s && *end == '\0' && v >= 1 && v <= INT_MAX ? v : -1;
}

int main(int argc, char **argv)
{
    const char *names[] = {"NPOINTS", "NFEATURES", "NCLUSTERS", "MAX_ITERS", "SEED"};
    long long v[5] = {0, 34, 5, 10, 1};
    if (argc < 2 || argc > 6) {
        fprintf(stderr, "usage: kmeans_tex NPOINTS [NFEATURES=34] [NCLUSTERS=5] "
                        "[MAX_ITERS=10] [SEED=1]\n");
        return 2;
    }
    for (int i = 1; i < argc; i++)
        if ((v[i - 1] = arg_count(argv[i])) < 0) {
            fprintf(stderr, "kmeans_tex: %s must be a whole number from 1 to %d, got '%s'\n",
                    names[i - 1], INT_MAX, argv[i]);
            return 2;
        }
    int npoints = (int)v[0], nfeatures = (int)v[1], nclusters = (int)v[2];
    int max_iters = (int)v[3];
    rng_state = (uint64_t)v[4];
    /* the kernels index the points with int */
    if (npoints < nclusters || v[1] * v[2] > MAX_CENTROID_VALUES || v[0] * v[1] > INT_MAX) {
        fprintf(stderr, "kmeans_tex: bad sizes (need NPOINTS >= NCLUSTERS, NCLUSTERS x "
                        "NFEATURES <= %d, NPOINTS x NFEATURES <= %d)\n",
                MAX_CENTROID_VALUES, INT_MAX);
        return 2;
    }
    size_t nvals = (size_t)npoints * nfeatures;
    float *points = (float *)malloc(nvals * sizeof *points);
    float *centres = (float *)malloc((size_t)nclusters * nfeatures * sizeof *centres);
    float *centroids = (float *)malloc((size_t)nclusters * nfeatures * sizeof *centroids);
    double *sum = (double *)malloc((size_t)nclusters * nfeatures * sizeof *sum);
    int *count = (int *)malloc(nclusters * sizeof *count);
    int *membership = (int *)malloc(npoints * sizeof *membership);
    int *previous = (int *)malloc(npoints * sizeof *previous);
    int *want = (int *)malloc(npoints * sizeof *want);
    if (!points || !centres || !centroids || !sum || !count || !membership || !previous ||
        !want) {
        fprintf(stderr, "kmeans_tex: out of host memory for %d points\n", npoints);
        return 2;
    }
    for (int i = 0; i < nclusters * nfeatures; i++)
        centres[i] = rng_float();
    for (int p = 0; p < npoints; p++) {
        int c = (int)(rng_float() * nclusters) % nclusters;
        for (int f = 0; f < nfeatures; f++)
            points[(size_t)p * nfeatures + f] =
                centres[c * nfeatures + f] + 1.5f * (rng_float() - 0.5f);
        previous[p] = -1;
    }
    // the first nclusters points are the first centroids, as in Rodinia
    memcpy(centroids, points, (size_t)nclusters * nfeatures * sizeof *centroids);

    float *d_points, *d_features;
    int *d_membership;
    CHECK(cudaMalloc(&d_points, nvals * sizeof(float)));
    CHECK(cudaMalloc(&d_features, nvals * sizeof(float)));
    CHECK(cudaMalloc(&d_membership, npoints * sizeof(int)));
    CHECK(cudaMemcpy(d_points, points, nvals * sizeof(float), cudaMemcpyHostToDevice));
    int blocks = (npoints + BLOCK - 1) / BLOCK;
    invert_mapping<<<blocks, BLOCK>>>(d_points, d_features, npoints, nfeatures);
    CHECK(cudaGetLastError());

    cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = d_features;
    res.res.linear.desc = cudaCreateChannelDesc<float>();
    res.res.linear.sizeInBytes = nvals * sizeof(float);
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t tex;
    CHECK(cudaCreateTextureObject(&tex, &res, &td, NULL));

    int iters = 0, changed = npoints;
    while (changed > 0 && iters < max_iters) {
        CHECK(cudaMemcpyToSymbol(c_centroids, centroids,
                                 (size_t)nclusters * nfeatures * sizeof(float)));
        assign<<<blocks, BLOCK>>>(tex, npoints, nfeatures, nclusters, d_membership);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(membership, d_membership, npoints * sizeof(int),
                         cudaMemcpyDeviceToHost));
        iters++;
        cpu_assign(points, centroids, npoints, nfeatures, nclusters, want);
        for (int p = 0; p < npoints; p++)
            if (membership[p] != want[p]) {
                fprintf(stderr, "kmeans_tex: iteration %d: point %d in cluster %d, "
                                "CPU says %d\n", iters, p, membership[p], want[p]);
                return 1;
            }
        changed = 0;
        memset(sum, 0, (size_t)nclusters * nfeatures * sizeof *sum);
        memset(count, 0, nclusters * sizeof *count);
        for (int p = 0; p < npoints; p++) {
            changed += membership[p] != previous[p];
            previous[p] = membership[p];
            count[membership[p]]++;
            for (int f = 0; f < nfeatures; f++)
                sum[membership[p] * nfeatures + f] += points[(size_t)p * nfeatures + f];
        }
        for (int c = 0; c < nclusters; c++)
            if (count[c])
                for (int f = 0; f < nfeatures; f++)
                    centroids[c * nfeatures + f] =
                        (float)(sum[c * nfeatures + f] / count[c]);
    }
    printf("kmeans_tex: %d points, %d features, %d clusters: %d iterations, %d points "
           "changed in the last; memberships match the CPU's\n",
           npoints, nfeatures, nclusters, iters, changed);
    CHECK(cudaDestroyTextureObject(tex));
    CHECK(cudaFree(d_points));
    CHECK(cudaFree(d_features));
    CHECK(cudaFree(d_membership));
    return 0;
}
