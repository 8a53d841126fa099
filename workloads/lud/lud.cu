// lud.cu: the blocked LU decomposition kernels of Rodinia's CUDA lud.
// The matrix (matrix_dim x matrix_dim, row-major, a multiple of 16) is
// factored in place into a unit lower triangular L and an upper triangular U
// (Doolittle, no pivoting), one 16-wide block column at a time.  For the
// block step at `offset`:
//   lud_diagonal  factors the 16x16 diagonal block (one block of 16 threads);
//   lud_perimeter solves the blocks right of it (U = L_dd^-1 A) and below it
//                 (L = A U_dd^-1), one of each per block of 32 threads;
//   lud_internal  subtracts L_i * U_j from every trailing block (16x16
//                 threads per block).
// Every kernel stages its blocks in shared memory.

#define LUD_BLOCK 16

extern "C" __global__ void lud_diagonal(float *m, int matrix_dim, int offset)
{
    __shared__ float s[LUD_BLOCK][LUD_BLOCK];
    int tx = threadIdx.x;
    float *base = m + offset * matrix_dim + offset;

    for (int i = 0; i < LUD_BLOCK; i++)
        s[i][tx] = base[i * matrix_dim + tx];
    __syncthreads();

    for (int i = 0; i < LUD_BLOCK - 1; i++) {
        // Column i of L: thread tx owns row tx below the diagonal.
        if (tx > i) {
            for (int j = 0; j < i; j++)
                s[tx][i] -= s[tx][j] * s[j][i];
            s[tx][i] /= s[i][i];
        }
        __syncthreads();
        // Row i + 1 of U: thread tx owns column tx right of the diagonal.
        if (tx > i) {
            for (int j = 0; j < i + 1; j++)
                s[i + 1][tx] -= s[i + 1][j] * s[j][tx];
        }
        __syncthreads();
    }

    // Row 0 is unchanged by the factorisation.
    for (int i = 1; i < LUD_BLOCK; i++)
        base[i * matrix_dim + tx] = s[i][tx];
}

extern "C" __global__ void lud_perimeter(float *m, int matrix_dim, int offset)
{
    __shared__ float dia[LUD_BLOCK][LUD_BLOCK];
    __shared__ float peri_row[LUD_BLOCK][LUD_BLOCK];
    __shared__ float peri_col[LUD_BLOCK][LUD_BLOCK];
    int bx = blockIdx.x;
    int tx = threadIdx.x;
    int blk = offset + (bx + 1) * LUD_BLOCK; // the row/column of this block pair

    // The first half-block of threads loads the upper half of the diagonal
    // block and the row block; the second half the rest and the column block.
    if (tx < LUD_BLOCK) {
        int idx = tx;
        for (int i = 0; i < LUD_BLOCK / 2; i++)
            dia[i][idx] = m[(offset + i) * matrix_dim + offset + idx];
        for (int i = 0; i < LUD_BLOCK; i++)
            peri_row[i][idx] = m[(offset + i) * matrix_dim + blk + idx];
    } else {
        int idx = tx - LUD_BLOCK;
        for (int i = LUD_BLOCK / 2; i < LUD_BLOCK; i++)
            dia[i][idx] = m[(offset + i) * matrix_dim + offset + idx];
        for (int i = 0; i < LUD_BLOCK; i++)
            peri_col[i][idx] = m[(blk + i) * matrix_dim + offset + idx];
    }
    __syncthreads();

    if (tx < LUD_BLOCK) {
        // Forward substitution with the unit lower triangle, column idx.
        int idx = tx;
        for (int i = 1; i < LUD_BLOCK; i++)
            for (int j = 0; j < i; j++)
                peri_row[i][idx] -= dia[i][j] * peri_row[j][idx];
    } else {
        // Solve against the upper triangle, row idx of the column block.
        int idx = tx - LUD_BLOCK;
        for (int i = 0; i < LUD_BLOCK; i++) {
            for (int j = 0; j < i; j++)
                peri_col[idx][i] -= peri_col[idx][j] * dia[j][i];
            peri_col[idx][i] /= dia[i][i];
        }
    }
    __syncthreads();

    if (tx < LUD_BLOCK) {
        int idx = tx;
        for (int i = 1; i < LUD_BLOCK; i++)
            m[(offset + i) * matrix_dim + blk + idx] = peri_row[i][idx];
    } else {
        int idx = tx - LUD_BLOCK;
        for (int i = 0; i < LUD_BLOCK; i++)
            m[(blk + i) * matrix_dim + offset + idx] = peri_col[i][idx];
    }
}

extern "C" __global__ void lud_internal(float *m, int matrix_dim, int offset)
{
    __shared__ float peri_row[LUD_BLOCK][LUD_BLOCK];
    __shared__ float peri_col[LUD_BLOCK][LUD_BLOCK];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = offset + (blockIdx.y + 1) * LUD_BLOCK + ty;
    int col = offset + (blockIdx.x + 1) * LUD_BLOCK + tx;

    peri_row[ty][tx] = m[(offset + ty) * matrix_dim + col];
    peri_col[ty][tx] = m[row * matrix_dim + offset + tx];
    __syncthreads();

    float sum = 0.0f;
    for (int i = 0; i < LUD_BLOCK; i++)
        sum += peri_col[ty][i] * peri_row[i][tx];
    m[row * matrix_dim + col] -= sum;
}
