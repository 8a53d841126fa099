// blackscholes.cu: European call and put prices by the Black-Scholes
// formula, one thread per option; the cumulative normal distribution is the
// Abramowitz-Stegun polynomial, with a branch on the sign of its argument
// (the large-warp slides' blackscholes).
__device__ static float bs_cnd(float d)
{
    float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float poly = k * (0.319381530f +
                      k * (-0.356563782f + k * (1.781477937f + k * (-1.821255978f +
                                                                    k * 1.330274429f))));
    float c = 0.398942280f * expf(-0.5f * d * d) * poly;
    if (d > 0.0f)
        c = 1.0f - c;
    return c;
}

extern "C" __global__ void blackscholes(const float *s, const float *x, const float *t,
                                        float *call, float *put, float r, float v,
                                        unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float sq = sqrtf(t[i]);
    float d1 = (logf(s[i] / x[i]) + (r + 0.5f * v * v) * t[i]) / (v * sq);
    float d2 = d1 - v * sq;
    float c1 = bs_cnd(d1), c2 = bs_cnd(d2);
    float disc = x[i] * expf(-r * t[i]);
    call[i] = s[i] * c1 - disc * c2;
    put[i] = disc * (1.0f - c2) - s[i] * (1.0f - c1);
}
