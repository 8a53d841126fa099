// spmv_vector.cu: CSR sparse matrix-vector product y = A x, one warp per row
// (the "vector" CSR kernel).  The 32 lanes stride through the row, so loads
// of val and col are coalesced, then the lane sums are combined with a
// warp-shuffle tree: DAWS (MICRO 2013), Example 2.
// x is read through the read-only (texture) path, __ldg = ld.global.nc, as the
// paper's kernels read it through the texture cache (SHOC's spmv binds x to a
// texture); presets with tex.nc=1 (daws) send these loads to the texture cache.
#define WARP 32

extern "C" __global__ void spmv_vector(const unsigned *row_ptr, const unsigned *col,
                                       const float *val, const float *x, float *y,
                                       unsigned rows)
{
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned row = tid / WARP; // the same for every lane of a warp
    unsigned lane = tid % WARP;
    if (row < rows) {
        float sum = 0.0f;
        unsigned begin = row_ptr[row];
        unsigned end = row_ptr[row + 1];
        for (unsigned j = begin + lane; j < end; j += WARP)
            sum += val[j] * __ldg(&x[col[j]]);
        for (int offset = WARP / 2; offset > 0; offset /= 2)
            sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (lane == 0)
            y[row] = sum;
    }
}
