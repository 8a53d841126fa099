// srad.cu: the two kernels of Rodinia's CUDA srad_v2 (speckle reducing
// anisotropic diffusion) on a rows x cols image, both multiples of 16, with
// 16x16 blocks.  A neighbour beyond the image's edge is the pixel itself.
//
// srad_kernel1: each block stages its tile of the image with a one-pixel halo
// in shared memory; every pixel gets its four differences to the north,
// south, west and east neighbours and its diffusion coefficient
//   c = 1 / (1 + (q^2 - q0^2) / (q0^2 (1 + q0^2))), clamped to [0, 1],
// from the instantaneous coefficient of variation q (q0sqr, the speckle
// scale, is computed by the host over a region of interest).
// srad_kernel2: each block stages its tile of coefficients with a halo to the
// south and east; the divergence of c * gradient updates the image:
//   J += lambda / 4 * (c * dN + c_S * dS + c * dW + c_E * dE).

#define SRAD_BLOCK 16

extern "C" __global__ void srad_kernel1(const float *J, float *C, float *dN, float *dS,
                                        float *dW, float *dE, int cols, int rows, float q0sqr)
{
    __shared__ float tile[SRAD_BLOCK + 2][SRAD_BLOCK + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int r = blockIdx.y * SRAD_BLOCK + ty;
    int c = blockIdx.x * SRAD_BLOCK + tx;
    int index = r * cols + c;

    tile[ty + 1][tx + 1] = J[index];
    if (ty == 0)
        tile[0][tx + 1] = J[(r > 0 ? r - 1 : r) * cols + c];
    if (ty == SRAD_BLOCK - 1)
        tile[SRAD_BLOCK + 1][tx + 1] = J[(r < rows - 1 ? r + 1 : r) * cols + c];
    if (tx == 0)
        tile[ty + 1][0] = J[r * cols + (c > 0 ? c - 1 : c)];
    if (tx == SRAD_BLOCK - 1)
        tile[ty + 1][SRAD_BLOCK + 1] = J[r * cols + (c < cols - 1 ? c + 1 : c)];
    __syncthreads();

    float jc = tile[ty + 1][tx + 1];
    float n = tile[ty][tx + 1] - jc;
    float s = tile[ty + 2][tx + 1] - jc;
    float w = tile[ty + 1][tx] - jc;
    float e = tile[ty + 1][tx + 2] - jc;

    float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
    float l = (n + s + w + e) / jc;
    float num = 0.5f * g2 - (1.0f / 16.0f) * (l * l);
    float den = 1.0f + 0.25f * l;
    float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
    float coeff = 1.0f / (1.0f + den);
    if (coeff < 0.0f)
        coeff = 0.0f;
    else if (coeff > 1.0f)
        coeff = 1.0f;

    C[index] = coeff;
    dN[index] = n;
    dS[index] = s;
    dW[index] = w;
    dE[index] = e;
}

extern "C" __global__ void srad_kernel2(float *J, const float *C, const float *dN,
                                        const float *dS, const float *dW, const float *dE,
                                        int cols, int rows, float lambda)
{
    __shared__ float ctile[SRAD_BLOCK + 1][SRAD_BLOCK + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int r = blockIdx.y * SRAD_BLOCK + ty;
    int c = blockIdx.x * SRAD_BLOCK + tx;
    int index = r * cols + c;

    ctile[ty][tx] = C[index];
    if (ty == SRAD_BLOCK - 1)
        ctile[SRAD_BLOCK][tx] = C[(r < rows - 1 ? r + 1 : r) * cols + c];
    if (tx == SRAD_BLOCK - 1)
        ctile[ty][SRAD_BLOCK] = C[r * cols + (c < cols - 1 ? c + 1 : c)];
    __syncthreads();

    float cn = ctile[ty][tx];
    float cs = ctile[ty + 1][tx];
    float cw = cn;
    float ce = ctile[ty][tx + 1];
    float d = cn * dN[index] + cs * dS[index] + cw * dW[index] + ce * dE[index];
    J[index] = J[index] + 0.25f * lambda * d;
}
