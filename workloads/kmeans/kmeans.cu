// kmeans.cu: the k-means kernels of Rodinia's CUDA kmeans, without textures.
// invert_mapping transposes the points from point-major [npoints][nfeatures]
// to feature-major [nfeatures][npoints] so that the assignment kernel's loads
// are coalesced; kmeans_assign gives each point the index of its nearest
// centroid (squared Euclidean distance, lowest index on a tie).

#include <float.h>

extern "C" __global__ void invert_mapping(const float *input, float *output,
                                          int npoints, int nfeatures)
{
    int point_id = blockIdx.x * blockDim.x + threadIdx.x;
    if (point_id < npoints) {
        for (int i = 0; i < nfeatures; i++)
            output[point_id + npoints * i] = input[point_id * nfeatures + i];
    }
}

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
            float diff = features[l * npoints + point_id] - clusters[i * nfeatures + l];
            dist += diff * diff;
        }
        if (dist < min_dist) {
            min_dist = dist;
            index = i;
        }
    }
    membership[point_id] = index;
}
