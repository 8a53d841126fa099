// reduce.cu: sum of an int array.  Each block adds two elements per thread,
// then halves the active threads in a shared-memory tree with __syncthreads
// after every step and writes one partial sum; the host launches it again on
// the partials until one value is left.
extern "C" __global__ void reduce_sum(const int *in, int *out, unsigned n)
{
    extern __shared__ int partial[]; // blockDim.x ints
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * (2 * blockDim.x) + t;
    int v = 0;
    if (i < n)
        v = in[i];
    if (i + blockDim.x < n)
        v += in[i + blockDim.x];
    partial[t] = v;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride)
            partial[t] += partial[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = partial[0];
}
