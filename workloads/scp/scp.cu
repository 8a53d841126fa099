// scp.cu: scalar products of many vector pairs, in the manner of the CUDA
// SDK's scalarProd sample (the "SCP" workload of MeDiC, HPCA 2016).  Vector
// pair v is a[v * n .. v * n + n) and b[...]; block b takes the pairs b,
// b + gridDim.x, ...  For each pair the threads accumulate strided partial
// products (thread t: elements t, t + blockDim.x, ...), store them in shared
// memory and halve them in a tree; thread 0 writes the pair's product.
// blockDim.x is a power of two.

extern "C" __global__ void scp_dot(float *out, const float *a, const float *b, int pairs,
                                   int n)
{
    extern __shared__ float partial[];
    int t = threadIdx.x;
    for (int v = blockIdx.x; v < pairs; v += gridDim.x) {
        const float *va = a + (size_t)v * n, *vb = b + (size_t)v * n;
        float sum = 0.0f;
        for (int i = t; i < n; i += blockDim.x)
            sum += va[i] * vb[i];
        partial[t] = sum;
        for (int half = blockDim.x / 2; half > 0; half /= 2) {
            __syncthreads();
            if (t < half)
                partial[t] += partial[t + half];
        }
        if (t == 0)
            out[v] = partial[0];
        __syncthreads(); // partial[0] read before the next pair overwrites it
    }
}
