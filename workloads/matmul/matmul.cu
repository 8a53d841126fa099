// matmul.cu: the classic tiled integer matrix multiplication C = A B of
// square n x n matrices (n a multiple of 16), one thread per element of C
// in 16 x 16 blocks: each step loads a tile of A and one of B into shared
// memory, synchronises, accumulates 16 products and synchronises again
// (the large-warp slides' matrix_mult).
#define MM_TILE 16

extern "C" __global__ void matmul(const int *a, const int *b, int *c, unsigned n)
{
    __shared__ int ta[MM_TILE][MM_TILE];
    __shared__ int tb[MM_TILE][MM_TILE];
    unsigned tx = threadIdx.x, ty = threadIdx.y;
    unsigned row = blockIdx.y * MM_TILE + ty, col = blockIdx.x * MM_TILE + tx;
    int sum = 0;
    for (unsigned k0 = 0; k0 < n; k0 += MM_TILE) {
        ta[ty][tx] = a[row * n + k0 + tx];
        tb[ty][tx] = b[(k0 + ty) * n + col];
        __syncthreads();
        for (unsigned k = 0; k < MM_TILE; k++)
            sum += ta[ty][k] * tb[k][tx];
        __syncthreads();
    }
    c[row * n + col] = sum;
}
