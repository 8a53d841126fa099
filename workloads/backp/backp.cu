// backp.cu: the two kernels of Rodinia's CUDA backprop, one training step of
// a network with `in` input units, 16 hidden units and one output.  The
// weights between the input and hidden layers are a row-major
// [(in + 1)][(hid + 1)] array whose row 0 and column 0 belong to the bias
// units.  Blocks are 16x16 threads on a grid of (1, in / 16).
//
// backp_layerforward: block `by` multiplies its 16 input units by their 16x16
// weights in shared memory, then sums the 16 rows of products with a pairwise
// tree (row ty adds row ty + s/2 when ty is a multiple of s, s = 2, 4, 8, 16)
// and writes one partial sum per hidden unit; the host adds the partials.
//
// backp_adjust_weights: every weight moves by eta * delta[j] * x[i] plus
// momentum times its previous change, which is stored for the next step;
// block 0's first row also moves the hidden units' bias weights.

#define BACKP_BLOCK 16
#define BACKP_ETA 0.3f
#define BACKP_MOMENTUM 0.3f

extern "C" __global__ void backp_layerforward(const float *input, const float *weights,
                                              float *partial_sum, int in, int hid)
{
    __shared__ float node[BACKP_BLOCK];
    __shared__ float prod[BACKP_BLOCK][BACKP_BLOCK];
    int by = blockIdx.y;
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int row = BACKP_BLOCK * by + ty + 1; // input unit (row 0 is the bias)
    int w_index = (hid + 1) * row + tx + 1;

    if (tx == 0)
        node[ty] = input[row];
    __syncthreads();
    prod[ty][tx] = weights[w_index];
    __syncthreads();
    prod[ty][tx] = prod[ty][tx] * node[ty];
    __syncthreads();
    for (int span = 2; span <= BACKP_BLOCK; span *= 2) {
        if (ty % span == 0)
            prod[ty][tx] = prod[ty][tx] + prod[ty + span / 2][tx];
        __syncthreads();
    }
    // Row 0 now holds the block's sum for every hidden unit; thread (0, ty)
    // writes the one for hidden unit ty + 1.
    if (tx == 0)
        partial_sum[by * hid + ty] = prod[0][ty];
}

extern "C" __global__ void backp_adjust_weights(const float *delta, int hid, const float *ly,
                                                int in, float *w, float *oldw)
{
    int by = blockIdx.y;
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int index_y = BACKP_BLOCK * by + ty + 1;
    int index_x = tx + 1;
    int index = (hid + 1) * index_y + index_x;

    float change = BACKP_ETA * delta[index_x] * ly[index_y] + BACKP_MOMENTUM * oldw[index];
    w[index] += change;
    oldw[index] = change;
    __syncthreads();
    if (ty == 0 && by == 0) {
        float bias_change = BACKP_ETA * delta[index_x] + BACKP_MOMENTUM * oldw[index_x];
        w[index_x] += bias_change;
        oldw[index_x] = bias_change;
    }
}
