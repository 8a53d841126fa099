// cons.cu: separable 2-D convolution in two passes, in the manner of the CUDA
// SDK's convolutionSeparable sample (the "CONS" workload of MeDiC, HPCA 2016).
// A (2R+1)-tap filter in constant memory is applied along the rows of a
// width x height float image, then the same filter along the columns of the
// result; outside the image the input counts as zero.
//
// Each block stages a strip of the image in shared memory: the pixels it
// writes (CONS_STEPS tiles of one block's width or height) plus one tile of
// halo on each side (a tile is at least R pixels, so the halo covers the
// filter), then every thread produces CONS_STEPS outputs from the strip.
// The row pass needs width % (16 * CONS_STEPS) == 0 and height % 4 == 0, the
// column pass width % 16 == 0 and height % (8 * CONS_STEPS) == 0.

#define CONS_R 8
#define CONS_STEPS 8
#define ROW_BX 16
#define ROW_BY 4
#define COL_BX 16
#define COL_BY 8

__constant__ float cons_filter[2 * CONS_R + 1];

extern "C" __global__ void cons_rows(float *dst, const float *src, int width, int height)
{
    __shared__ float strip[ROW_BY][(CONS_STEPS + 2) * ROW_BX];
    int tx = threadIdx.x, ty = threadIdx.y;
    int y = blockIdx.y * ROW_BY + ty;
    // the strip's first pixel is one tile left of the block's first output
    int x0 = (blockIdx.x * CONS_STEPS - 1) * ROW_BX + tx;
    const float *row = src + (size_t)y * width;
    for (int i = 0; i < CONS_STEPS + 2; i++) {
        int x = x0 + i * ROW_BX;
        strip[ty][tx + i * ROW_BX] = x >= 0 && x < width ? row[x] : 0.0f;
    }
    __syncthreads();
    for (int i = 1; i <= CONS_STEPS; i++) {
        float sum = 0.0f;
        for (int k = -CONS_R; k <= CONS_R; k++)
            sum += cons_filter[CONS_R - k] * strip[ty][tx + i * ROW_BX + k];
        dst[(size_t)y * width + x0 + i * ROW_BX] = sum;
    }
}

extern "C" __global__ void cons_cols(float *dst, const float *src, int width, int height)
{
    // one padding column keeps the threads of a warp on different banks
    __shared__ float strip[COL_BX][(CONS_STEPS + 2) * COL_BY + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * COL_BX + tx;
    int y0 = (blockIdx.y * CONS_STEPS - 1) * COL_BY + ty;
    for (int i = 0; i < CONS_STEPS + 2; i++) {
        int y = y0 + i * COL_BY;
        strip[tx][ty + i * COL_BY] = y >= 0 && y < height ? src[(size_t)y * width + x] : 0.0f;
    }
    __syncthreads();
    for (int i = 1; i <= CONS_STEPS; i++) {
        float sum = 0.0f;
        for (int k = -CONS_R; k <= CONS_R; k++)
            sum += cons_filter[CONS_R - k] * strip[tx][ty + i * COL_BY + k];
        dst[(size_t)(y0 + i * COL_BY) * width + x] = sum;
    }
}
