// mco.cu: Monte Carlo pricing of European call options, one block per option,
// with the structure of the CUDA SDK's MonteCarlo (MCO in the Phase-aware
// paper's Table II: one 256-thread block per option).  Every option reads the
// same normally distributed samples z; thread t sums the payoff
// max(S exp(mu_t + v_sqrt_t z) - X, 0) and its square over the paths
// t, t + 256, t + 512, ...; a shared-memory tree then adds the block's 256
// pairs and thread 0 writes the option's two sums.
#define MCO_BLOCK 256

// opt[k] = (S, X, mu_t, v_sqrt_t) of option k: stock price, strike,
// (r - v^2 / 2) T and v sqrt(T)
extern "C" __global__ void mco(const float *samples, const float4 *opt, float2 *sums,
                               unsigned paths)
{
    __shared__ float s_sum[MCO_BLOCK];
    __shared__ float s_sum2[MCO_BLOCK];
    const float4 o = opt[blockIdx.x];
    const unsigned t = threadIdx.x;
    float sum = 0.0f, sum2 = 0.0f;
    for (unsigned i = t; i < paths; i += MCO_BLOCK) {
        float end = o.x * expf(o.z + o.w * samples[i]);
        float pay = fmaxf(end - o.y, 0.0f);
        sum += pay;
        sum2 += pay * pay;
    }
    s_sum[t] = sum;
    s_sum2[t] = sum2;
    __syncthreads();
    for (unsigned stride = MCO_BLOCK / 2; stride > 0; stride /= 2) {
        if (t < stride) {
            s_sum[t] += s_sum[t + stride];
            s_sum2[t] += s_sum2[t + stride];
        }
        __syncthreads();
    }
    if (t == 0)
        sums[blockIdx.x] = make_float2(s_sum[0], s_sum2[0]);
}
