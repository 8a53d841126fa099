// ndl.cu: Needleman-Wunsch global alignment scores, in the structure of
// Rodinia's nw.  The (n+1) x (n+1) score matrix (row 0 and column 0 hold the
// gap penalties) is filled in 16x16 tiles.  Tiles on one anti-diagonal of the
// tile grid are independent, so the host launches one grid per tile
// anti-diagonal: ndl_kernel_1 for the diagonals of the upper-left triangle
// (growing from 1 tile to n/16), ndl_kernel_2 for those of the lower-right
// triangle (shrinking again).  A block of 16 threads loads its tile's
// similarity scores and the tile's north and west borders into shared memory,
// then sweeps the tile's 31 internal anti-diagonals, thread t computing row t's
// cell of each, with a barrier between diagonals, and writes the tile back.

#define NDL_B 16

__device__ __forceinline__ int ndl_max3(int a, int b, int c)
{
    int m = a > b ? a : b;
    return m > c ? m : c;
}

// Fill the tile whose top-left inner cell is (row0 + 1, col0 + 1).
__device__ __forceinline__ void ndl_tile(const int *ref, int *score, int cols, int penalty,
                                         int row0, int col0)
{
    __shared__ int s_score[NDL_B + 1][NDL_B + 1];
    __shared__ int s_ref[NDL_B][NDL_B];
    int tx = threadIdx.x;
    int corner = row0 * cols + col0;

    if (tx == 0)
        s_score[0][0] = score[corner];
    for (int y = 0; y < NDL_B; y++)
        s_ref[y][tx] = ref[corner + (y + 1) * cols + tx + 1];
    s_score[tx + 1][0] = score[corner + (tx + 1) * cols];
    s_score[0][tx + 1] = score[corner + tx + 1];
    __syncthreads();

    // Anti-diagonal d holds the cells (y, x) with y + x == d + 2 (1-based);
    // thread tx owns the cell in row tx + 1 when that row crosses the diagonal.
    for (int d = 0; d < 2 * NDL_B - 1; d++) {
        int y = tx + 1;
        int x = d + 1 - tx;
        if (x >= 1 && x <= NDL_B)
            s_score[y][x] = ndl_max3(s_score[y - 1][x - 1] + s_ref[y - 1][x - 1],
                                     s_score[y][x - 1] - penalty,
                                     s_score[y - 1][x] - penalty);
        __syncthreads();
    }

    for (int y = 0; y < NDL_B; y++)
        score[corner + (y + 1) * cols + tx + 1] = s_score[y + 1][tx + 1];
}

// Tile diagonal `diag` (1-based) of the upper-left triangle: it has `diag`
// tiles; block b takes the tile in tile-row diag - 1 - b, tile-column b.
extern "C" __global__ void ndl_kernel_1(const int *ref, int *score, int cols, int penalty,
                                        int diag)
{
    int b = blockIdx.x;
    ndl_tile(ref, score, cols, penalty, (diag - 1 - b) * NDL_B, b * NDL_B);
}

// Tile diagonal `diag` (counting down from tiles - 1 to 1) of the lower-right
// triangle of a tiles x tiles grid: block b takes tile-row tiles - 1 - b,
// tile-column tiles - diag + b.
extern "C" __global__ void ndl_kernel_2(const int *ref, int *score, int cols, int penalty,
                                        int diag, int tiles)
{
    int b = blockIdx.x;
    ndl_tile(ref, score, cols, penalty, (tiles - 1 - b) * NDL_B, (tiles - diag + b) * NDL_B);
}
