// fwt.cu: the fast Walsh-Hadamard transform (natural order, not normalised) and
// the dyadic convolution built on it, in the structure of the CUDA SDK's
// fastWalshTransform sample (the FWT of Awatramani et al., PACT 2015):
//   fwt_radix4   one pass over global memory that does two stages at once
//                (strides 2q and q) on every vector of a batch;
//   fwt_shared   the last log2(n) <= 11 stages of each vector in shared memory,
//                radix-4 with a barrier between stages, one radix-2 stage at
//                the end when log2(n) is odd;
//   fwt_modulate the pointwise product of two transforms.
// The elements are integers.  They are unsigned so that sums and products wrap
// modulo 2^32 as defined behaviour; the host checks them modulo 2^32 as well.

// Walsh-Hadamard butterflies of strides 2q and q on the four elements
// v[0], v[q], v[2q], v[3q] of one group: stride 2q pairs (0, 2) and (1, 3),
// then stride q pairs (0, 1) and (2, 3) of the results.
#define FWT_BUTTERFLY4(x0, x1, x2, x3)                                                 \
    do {                                                                               \
        unsigned s02 = x0 + x2, d02 = x0 - x2, s13 = x1 + x3, d13 = x1 - x3;           \
        x0 = s02 + s13;                                                                \
        x1 = s02 - s13;                                                                \
        x2 = d02 + d13;                                                                \
        x3 = d02 - d13;                                                                \
    } while (0)

// Two stages of the transform of gridDim.y vectors of 4q elements each, in
// place; gridDim.x * blockDim.x == q.  Thread t of vector y owns the group
// t, t + q, t + 2q, t + 3q, so every load and store is coalesced.  After the
// pass each quarter of a vector is an independent vector of q elements for
// the remaining stages (strides below q), so the next pass runs on four times
// as many vectors of a quarter of the length.
extern "C" __global__ void fwt_radix4(unsigned *v, int q)
{
    unsigned *vec = v + (size_t)blockIdx.y * 4 * q;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x0 = vec[t], x1 = vec[t + q], x2 = vec[t + 2 * q], x3 = vec[t + 3 * q];
    FWT_BUTTERFLY4(x0, x1, x2, x3);
    vec[t] = x0;
    vec[t + q] = x1;
    vec[t + 2 * q] = x2;
    vec[t + 3 * q] = x3;
}

// The whole transform of vector blockIdx.x of n = 2^log2n elements (n / 4
// threads, n * 4 bytes of dynamic shared memory, 4 <= n <= 2048): load it
// into shared memory, run the radix-4 stages from the largest stride down,
// then the radix-2 stage of stride 1 if log2n is odd, and store it back.
extern "C" __global__ void fwt_shared(unsigned *v, int log2n)
{
    extern __shared__ unsigned s[];
    int n = 1 << log2n, m = n >> 2;
    unsigned *vec = v + (size_t)blockIdx.x * n;
    int t = threadIdx.x;
    s[t] = vec[t];
    s[t + m] = vec[t + m];
    s[t + 2 * m] = vec[t + 2 * m];
    s[t + 3 * m] = vec[t + 3 * m];
    for (int q = m; q > 0; q >>= 2) {
        __syncthreads();
        // thread t's group within the blocks of 4q elements: 4q * (t / q) + t % q
        int lo = t & (q - 1);
        int i = ((t - lo) << 2) + lo;
        unsigned x0 = s[i], x1 = s[i + q], x2 = s[i + 2 * q], x3 = s[i + 3 * q];
        FWT_BUTTERFLY4(x0, x1, x2, x3);
        s[i] = x0;
        s[i + q] = x1;
        s[i + 2 * q] = x2;
        s[i + 3 * q] = x3;
    }
    if (log2n & 1) {
        // stride 1: pairs (2p, 2p + 1) for p = t and p = t + m
        __syncthreads();
        unsigned a = s[2 * t], b = s[2 * t + 1];
        s[2 * t] = a + b;
        s[2 * t + 1] = a - b;
        a = s[2 * (t + m)];
        b = s[2 * (t + m) + 1];
        s[2 * (t + m)] = a + b;
        s[2 * (t + m) + 1] = a - b;
    }
    __syncthreads();
    vec[t] = s[t];
    vec[t + m] = s[t + m];
    vec[t + 2 * m] = s[t + 2 * m];
    vec[t + 3 * m] = s[t + 3 * m];
}

// a[i] *= b[i] for i < n, a grid-stride loop.  Transforms multiply pointwise
// under dyadic convolution; the inverse transform is the forward one divided
// by n, a factor the host leaves in the result (integer arithmetic).
extern "C" __global__ void fwt_modulate(unsigned *a, const unsigned *b, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        a[i] *= b[i];
}
