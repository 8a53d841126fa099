// spmv_scalar.cu: CSR sparse matrix-vector product y = A x, one thread per
// row (the "scalar" CSR kernel).  Threads of a warp walk rows of different
// lengths, so the inner loop diverges: DAWS (MICRO 2013), Example 1.
// x is read through the read-only (texture) path, __ldg = ld.global.nc, as the
// paper's kernels read it through the texture cache (SHOC's spmv binds x to a
// texture); presets with tex.nc=1 (daws) send these loads to the texture cache.
extern "C" __global__ void spmv_scalar(const unsigned *row_ptr, const unsigned *col,
                                       const float *val, const float *x, float *y,
                                       unsigned rows)
{
    unsigned row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float dot = 0.0f;
        unsigned begin = row_ptr[row];
        unsigned end = row_ptr[row + 1];
        for (unsigned j = begin; j < end; j++)
            dot += val[j] * __ldg(&x[col[j]]);
        y[row] = dot;
    }
}
