// wl_mars_group.cuh: the kernels of the Mars runtime that every Mars workload
// runs the same way (prefix sum, bitonic sort of the index, scatter in sorted
// order, group boundaries); host side in wl_mars.c.  Our own code, following
// the structure of Mars's public runtime (docs/workloads.md, pvc).
//
// The including file defines, before including it (after wl_mars.cuh):
//   MARS_NAME(n)        the kernel name for n, e.g. pvc_##n (each workload's
//                       kernels keep its own prefix);
//   MARS_KEY_COMPARE    a __device__ int f(const char *a, const char *b) that
//                       orders two keys (-1, 0, 1), Mars's compare().
// Included once per .cu file, at the place its kernels take in the PTX.
//
// Records are int4 index entries (key offset, key size, value offset, value
// size) into byte buffers of keys and values.

// -1, 0 or 1 as record a orders before, with or after record b.  Padding
// records (key offset -1) come first.
__device__ int mars_compare(const char *keys, int4 a, int4 b)
{
    if (a.x == -1 || b.x == -1)
        return a.x == b.x ? 0 : a.x == -1 ? -1 : 1;
    return MARS_KEY_COMPARE(keys + a.x, keys + b.x);
}

// ---- prefix sum ----

// Exclusive scan of in[0 .. n) into out, 512 elements per block; the block's
// total goes to sums[blockIdx.x].
extern "C" __global__ void MARS_NAME(scan)(const int *in, int *out, int n, int *sums)
{
    __shared__ int s[MARS_SCAN];
    int t = threadIdx.x, base = blockIdx.x * MARS_SCAN;
    s[t] = base + t < n ? in[base + t] : 0;
    s[t + MARS_SCAN / 2] = base + t + MARS_SCAN / 2 < n ? in[base + t + MARS_SCAN / 2] : 0;
    int stride = 1;
    for (int active = MARS_SCAN / 2; active > 0; active >>= 1) { // up-sweep
        __syncthreads();
        if (t < active) {
            int hi = stride * (2 * t + 2) - 1;
            s[hi] += s[hi - stride];
        }
        stride <<= 1;
    }
    if (t == 0) {
        sums[blockIdx.x] = s[MARS_SCAN - 1];
        s[MARS_SCAN - 1] = 0;
    }
    for (int active = 1; active < MARS_SCAN; active <<= 1) { // down-sweep
        stride >>= 1;
        __syncthreads();
        if (t < active) {
            int hi = stride * (2 * t + 2) - 1;
            int lo = s[hi - stride];
            s[hi - stride] = s[hi];
            s[hi] += lo;
        }
    }
    __syncthreads();
    if (base + t < n)
        out[base + t] = s[t];
    if (base + t + MARS_SCAN / 2 < n)
        out[base + t + MARS_SCAN / 2] = s[t + MARS_SCAN / 2];
}

// Add each block's scanned total to its elements.
extern "C" __global__ void MARS_NAME(scan_add)(int *out, int n, const int *sums)
{
    int base = blockIdx.x * MARS_SCAN, t = threadIdx.x;
    int add = sums[blockIdx.x];
    if (base + t < n)
        out[base + t] += add;
    if (base + t + MARS_SCAN / 2 < n)
        out[base + t + MARS_SCAN / 2] += add;
}

// ---- sort ----

// One bitonic step (stage k, stride j) over the whole padded index.
extern "C" __global__ void MARS_NAME(sort_step)(int4 *rec, const char *keys, int k, int j)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int p = i ^ j;
    if (p > i) {
        int4 a = rec[i], b = rec[p];
        int c = mars_compare(keys, a, b);
        if ((i & k) == 0 ? c > 0 : c < 0) {
            rec[i] = b;
            rec[p] = a;
        }
    }
}

// ---- scatter in sorted order ----

// field 0: the keys, 1: the values
extern "C" __global__ void MARS_NAME(chunk_sizes)(const int4 *rec, int n, int field,
                                                  int *sizes)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int4 r = rec[i];
        sizes[i] = field == 0 ? r.y : r.w;
    }
}

extern "C" __global__ void MARS_NAME(copy_chunks)(int4 *rec, int n, int field, const char *src,
                                                  const int *sums, char *dst)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int4 r = rec[i];
        int to = sums[i];
        if (field == 0) {
            mars_copy(dst + to, src + r.x, r.y);
            r.x = to;
        } else {
            mars_copy(dst + to, src + r.z, r.w);
            r.z = to;
        }
        rec[i] = r;
    }
}

// ---- group boundaries ----

extern "C" __global__ void MARS_NAME(boundary)(const int4 *rec, const char *keys, int n,
                                               int *flags)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        flags[i] = i == 0 || mars_compare(keys, rec[i], rec[i - 1]) != 0;
}

extern "C" __global__ void MARS_NAME(write_boundary)(const int *flags, const int *sums, int n,
                                                     int *bound)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && flags[i])
        bound[sums[i]] = i;
}

extern "C" __global__ void MARS_NAME(ranges)(const int *bound, int ngroups, int n,
                                             int2 *ranges)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g < ngroups)
        ranges[g] = make_int2(bound[g], g + 1 < ngroups ? bound[g + 1] : n);
}
