// tpacf.cu: the two-point angular correlation function of points on the
// celestial sphere, in the manner of the Parboil suite's tpacf (the "tpacf"
// workload of CAWA, ISCA 2015).  There is one data set D and nrand random sets
// R_1 .. R_nrand, each of n unit vectors (x, y, z), stored one after the other
// in three arrays (set s's point i at s * n + i).  For each pair of points
// the angular separation picks a bin; the kernel fills 2 nrand + 1 histograms:
//   h = 0:                 DD,    the pairs i < j within D;
//   h = 1 .. nrand:        DR_h,  every pair of D x R_h;
//   h = nrand + 1 .. 2 nrand: RR_(h - nrand), the pairs i < j within that set.
// The bins are logarithmic in angle.  Their TPACF_EDGES edges are held as the
// cosines of the edge angles, in __constant__ memory, in descending order (the
// angles ascend); a pair's bin is the number of edges whose cosine exceeds
// the pair's dot product, found by binary search: bin 0 is closer than the
// first edge, bin TPACF_EDGES farther than the last.
//
// One launch: blockIdx.y is the histogram, blockIdx.x a pair of tiles of
// TPACF_BLOCK points, (chunk, tile) = (blockIdx.x / ntiles, blockIdx.x %
// ntiles).  The block stages the tile's points of the second set in shared
// memory; each thread takes one point of the chunk of the first set and
// walks the tile: dot product, binary search, and an increment of its warp's
// histogram in shared memory (shared atomicAdd: the lanes of a warp collide).
// For DD and RR only the upper triangle is counted: blocks with chunk > tile
// leave at once, and on the diagonal thread t pairs with tile points t + 1
// onwards.  At the end the block sums its warps' histograms and adds them to
// the global counts with one 64-bit atomicAdd per non-empty bin.
//
// The dot product is fmaf(ax, bx, fmaf(ay, by, az * bz)) with the product
// rounded on its own (__fmul_rn, so no compiler contracts it); the CPU
// reference in host.c computes the same and so puts every pair, including
// those whose dot product equals an edge, in the same bin.

#define TPACF_BLOCK 128
#define TPACF_WARPS (TPACF_BLOCK / 32)
#define TPACF_EDGES 21
#define TPACF_BINS (TPACF_EDGES + 1)

__constant__ float tpacf_edges[TPACF_EDGES];

extern "C" __global__ void tpacf_hist(const float *x, const float *y, const float *z, int n,
                                      int nrand, unsigned long long *hist)
{
    __shared__ float tx[TPACF_BLOCK], ty[TPACF_BLOCK], tz[TPACF_BLOCK];
    __shared__ unsigned int whist[TPACF_WARPS][TPACF_BINS];

    int h = blockIdx.y;
    int self = h == 0 || h > nrand;
    int sa = h > nrand ? h - nrand : 0;           // the set of the threads' points
    int sb = h > nrand ? h - nrand : h;           // the set of the tile's points
    int ntiles = (n + TPACF_BLOCK - 1) / TPACF_BLOCK;
    int chunk = blockIdx.x / ntiles, tile = blockIdx.x % ntiles;
    if (self && chunk > tile)
        return; // the lower triangle: counted by the block (tile, chunk)

    for (int b = threadIdx.x; b < TPACF_WARPS * TPACF_BINS; b += TPACF_BLOCK)
        whist[b / TPACF_BINS][b % TPACF_BINS] = 0;
    int j0 = tile * TPACF_BLOCK;
    int tn = min(TPACF_BLOCK, n - j0);
    if (threadIdx.x < tn) {
        int q = sb * n + j0 + threadIdx.x;
        tx[threadIdx.x] = x[q];
        ty[threadIdx.x] = y[q];
        tz[threadIdx.x] = z[q];
    }
    __syncthreads();

    int i = chunk * TPACF_BLOCK + threadIdx.x;
    if (i < n) {
        int p = sa * n + i;
        float ax = x[p], ay = y[p], az = z[p];
        unsigned int *mine = whist[threadIdx.x / 32];
        int start = self && chunk == tile ? threadIdx.x + 1 : 0;
        for (int j = start; j < tn; j++) {
            float d = fmaf(ax, tx[j], fmaf(ay, ty[j], __fmul_rn(az, tz[j])));
            int lo = 0, hi = TPACF_EDGES; // the bin is in [lo, hi]
            while (lo < hi) {
                int mid = (lo + hi) >> 1;
                if (d < tpacf_edges[mid])
                    lo = mid + 1;
                else
                    hi = mid;
            }
            atomicAdd(&mine[lo], 1u);
        }
    }
    __syncthreads();

    if (threadIdx.x < TPACF_BINS) {
        unsigned int s = 0;
        for (int w = 0; w < TPACF_WARPS; w++)
            s += whist[w][threadIdx.x];
        if (s != 0)
            atomicAdd(&hist[h * TPACF_BINS + threadIdx.x], (unsigned long long)s);
    }
}
