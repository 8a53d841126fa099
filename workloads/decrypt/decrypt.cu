// decrypt.cu: decryption of independent 64-bit blocks of a toy Feistel
// cipher (cipher.h), one thread per block.  Each block has its own round
// count, and the round function branches on the data, so the threads of a
// warp run different loop counts and paths (the large-warp slides'
// "decrypt", there AES).
#include "cipher.h"

extern "C" __global__ void decrypt(const unsigned *in, const unsigned *rounds, unsigned *out,
                                   unsigned k0, unsigned k1, unsigned k2, unsigned k3,
                                   unsigned n)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    struct dc_key key = {k0, k1, k2, k3};
    unsigned l = in[2 * t], r = in[2 * t + 1];
    dc_decrypt(&l, &r, key, rounds[t]);
    out[2 * t] = l;
    out[2 * t + 1] = r;
}
