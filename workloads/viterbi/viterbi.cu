// viterbi.cu: Viterbi decoding of convolutionally encoded frames (vit.h),
// one thread per frame of 64 message bits received as 128 code bits with
// channel errors (the large-warp slides' viterbi).
#include "vit.h"

extern "C" __global__ void viterbi(const unsigned long long *code, unsigned long long *msg,
                                   unsigned n)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    msg[t] = vit_decode(code[2 * t], code[2 * t + 1]);
}
