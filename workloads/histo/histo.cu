// histo.cu: a 256-bin byte histogram that exercises atomics and warp
// intrinsics.  Each block counts into its own shared-memory bins with
// atomicAdd and merges them into the global histogram with one global
// atomicAdd per bin.  On the side, every thread sums the values it saw, the
// warp reduces those sums with __shfl_down_sync and lane 0 adds the result to
// a global total, and the warp counts the values at or above a threshold with
// __ballot_sync and __popc.

#define NUM_BINS 256
#define FULL_MASK 0xffffffffu

extern "C" __global__ void histo_kernel(const unsigned char *data, unsigned int n,
                                        unsigned int threshold, unsigned int *bins,
                                        unsigned int *total, unsigned int *above)
{
    __shared__ unsigned int s_bins[NUM_BINS];
    for (unsigned int b = threadIdx.x; b < NUM_BINS; b += blockDim.x)
        s_bins[b] = 0;
    __syncthreads();

    unsigned int lane = threadIdx.x % warpSize;
    unsigned int sum = 0;
    unsigned int count = 0;
    unsigned int stride = gridDim.x * blockDim.x;
    // base is the same for the whole block, so every lane of a warp runs the
    // same number of iterations and the ballot always has all 32 lanes.
    for (unsigned int base = blockIdx.x * blockDim.x; base < n; base += stride) {
        unsigned int i = base + threadIdx.x;
        bool hit = false;
        if (i < n) {
            unsigned int v = data[i];
            atomicAdd(&s_bins[v], 1u);
            sum += v;
            hit = v >= threshold;
        }
        unsigned int votes = __ballot_sync(FULL_MASK, hit);
        if (lane == 0)
            count += __popc(votes);
    }

    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        sum += __shfl_down_sync(FULL_MASK, sum, offset);
    if (lane == 0) {
        atomicAdd(total, sum);
        atomicAdd(above, count);
    }

    __syncthreads();
    for (unsigned int b = threadIdx.x; b < NUM_BINS; b += blockDim.x) {
        unsigned int c = s_bins[b];
        if (c != 0)
            atomicAdd(&bins[b], c);
    }
}
