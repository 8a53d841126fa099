// spmv_scalar.cu: CSR sparse matrix-vector product y = A x, one thread per
// row (the "scalar" CSR kernel).  Threads of a warp walk rows of different
// lengths, so the inner loop diverges: DAWS (MICRO 2013), Example 1.
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
            dot += val[j] * x[col[j]];
        y[row] = dot;
    }
}
