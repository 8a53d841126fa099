// sort.cu: bitonic sort of independent 512-key segments, one block of 256
// threads per segment in shared memory (the "sort" of the large-warp
// slides, Narasiman et al. MICRO 2011).  Every step, thread t compares the
// pair (pos, pos + stride) and swaps it when it is out of the order its
// sub-sequence needs: a data-dependent branch, so the threads of a warp
// diverge differently in every warp.  A partial last segment is padded with
// 0xffffffff, which sorts to its end and is not written back.
#define SORT_SEG 512u

extern "C" __global__ void sort_bitonic(unsigned *keys, unsigned n)
{
    __shared__ unsigned s[SORT_SEG];
    unsigned base = blockIdx.x * SORT_SEG;
    unsigned t = threadIdx.x;
    for (unsigned i = t; i < SORT_SEG; i += blockDim.x)
        s[i] = base + i < n ? keys[base + i] : 0xffffffffu;
    __syncthreads();
    for (unsigned size = 2; size <= SORT_SEG; size <<= 1) {
        for (unsigned stride = size >> 1; stride > 0; stride >>= 1) {
            unsigned pos = 2 * t - (t & (stride - 1));
            unsigned a = s[pos], b = s[pos + stride];
            bool up = (pos & size) == 0;
            if ((a > b) == up) {
                s[pos] = b;
                s[pos + stride] = a;
            }
            __syncthreads();
        }
    }
    for (unsigned i = t; i < SORT_SEG; i += blockDim.x)
        if (base + i < n)
            keys[base + i] = s[i];
}
