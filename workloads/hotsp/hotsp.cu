// hotsp.cu: the thermal-simulation kernel of Rodinia's CUDA hotspot.
// The chip is a grid_rows x grid_cols grid of cells, each with a temperature
// and a dissipated power.  One explicit Euler step moves every cell by
//   step/Cap * (power + (T_S + T_N - 2T) / Ry + (T_E + T_W - 2T) / Rx
//               + (T_amb - T) / Rz)
// where a neighbour beyond the chip's edge is replaced by the cell itself.
//
// Each 16x16 block loads a tile of temperatures and powers into shared memory
// and runs `iteration` steps on it (the "pyramid"): after step i only the
// cells at least i + 1 away from the tile's edge are still exact, so tiles
// overlap by `border` = pyramid height cells on every side and each block
// writes only its inner (16 - 2 * iteration)^2 cells.  The host launches the
// kernel repeatedly, swapping the source and destination grids.

#define HOTSP_BLOCK 16
#define HOTSP_AMBIENT 80.0f

#define IN_RANGE(x, lo, hi) ((x) >= (lo) && (x) <= (hi))

extern "C" __global__ void hotsp_calculate_temp(int iteration, const float *power,
                                                const float *temp_src, float *temp_dst,
                                                int grid_cols, int grid_rows, int border_cols,
                                                int border_rows, float cap, float rx, float ry,
                                                float rz, float step)
{
    __shared__ float temp_tile[HOTSP_BLOCK][HOTSP_BLOCK];
    __shared__ float power_tile[HOTSP_BLOCK][HOTSP_BLOCK];
    __shared__ float temp_next[HOTSP_BLOCK][HOTSP_BLOCK];

    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    float step_div_cap = step / cap;
    float rx_1 = 1.0f / rx, ry_1 = 1.0f / ry, rz_1 = 1.0f / rz;

    // The tile's top-left cell; tiles advance by the part they compute exactly.
    int small_rows = HOTSP_BLOCK - 2 * border_rows;
    int small_cols = HOTSP_BLOCK - 2 * border_cols;
    int tile_y = small_rows * by - border_rows;
    int tile_x = small_cols * bx - border_cols;
    int y = tile_y + ty, x = tile_x + tx;
    int index = grid_cols * y + x;

    if (IN_RANGE(y, 0, grid_rows - 1) && IN_RANGE(x, 0, grid_cols - 1)) {
        temp_tile[ty][tx] = temp_src[index];
        power_tile[ty][tx] = power[index];
    }
    __syncthreads();

    // The part of the tile that lies on the chip; neighbours are clamped to it.
    int valid_ymin = tile_y < 0 ? -tile_y : 0;
    int valid_xmin = tile_x < 0 ? -tile_x : 0;
    int valid_ymax = tile_y + HOTSP_BLOCK - 1 > grid_rows - 1
                         ? HOTSP_BLOCK - 1 - (tile_y + HOTSP_BLOCK - grid_rows)
                         : HOTSP_BLOCK - 1;
    int valid_xmax = tile_x + HOTSP_BLOCK - 1 > grid_cols - 1
                         ? HOTSP_BLOCK - 1 - (tile_x + HOTSP_BLOCK - grid_cols)
                         : HOTSP_BLOCK - 1;
    int n = max(ty - 1, valid_ymin), s = min(ty + 1, valid_ymax);
    int w = max(tx - 1, valid_xmin), e = min(tx + 1, valid_xmax);

    bool computed = false;
    for (int i = 0; i < iteration; i++) {
        computed = false;
        if (IN_RANGE(tx, i + 1, HOTSP_BLOCK - i - 2) && IN_RANGE(ty, i + 1, HOTSP_BLOCK - i - 2) &&
            IN_RANGE(tx, valid_xmin, valid_xmax) && IN_RANGE(ty, valid_ymin, valid_ymax)) {
            computed = true;
            float t = temp_tile[ty][tx];
            temp_next[ty][tx] =
                t + step_div_cap * (power_tile[ty][tx] +
                                    (temp_tile[s][tx] + temp_tile[n][tx] - 2.0f * t) * ry_1 +
                                    (temp_tile[ty][e] + temp_tile[ty][w] - 2.0f * t) * rx_1 +
                                    (HOTSP_AMBIENT - t) * rz_1);
        }
        __syncthreads();
        if (i == iteration - 1)
            break;
        if (computed)
            temp_tile[ty][tx] = temp_next[ty][tx];
        __syncthreads();
    }
    if (computed)
        temp_dst[index] = temp_next[ty][tx];
}
