// kmn.cu: the k-means assignment kernel reading each point's features in the
// input's point-major layout [npoints][nfeatures]: every thread walks its own
// point, so a warp's loads touch one line per lane and the same lines again
// for every centroid (high intra-warp locality: the cache-sensitive KMN of
// the CCWS and DAWS papers).  Same result as kmeans' kmeans_assign: the index
// of the nearest centroid, lowest index on a tie.

#include <float.h>

extern "C" __global__ void kmeans_assign(const float *features, const float *clusters,
                                         int *membership, int npoints, int nclusters,
                                         int nfeatures)
{
    int point_id = blockIdx.x * blockDim.x + threadIdx.x;
    if (point_id >= npoints)
        return;
    int index = -1;
    float min_dist = FLT_MAX;
    for (int i = 0; i < nclusters; i++) {
        float dist = 0.0f;
        for (int l = 0; l < nfeatures; l++) {
            float diff = features[point_id * nfeatures + l] - clusters[i * nfeatures + l];
            dist += diff * diff;
        }
        if (dist < min_dist) {
            min_dist = dist;
            index = i;
        }
    }
    membership[point_id] = index;
}
