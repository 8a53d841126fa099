/* cipher.h: the toy Feistel block cipher of the decrypt workload, shared by
 * the kernel (decrypt.cu) and the host (host.c, which encrypts the input and
 * checks the decryption).  A 64-bit block is two 32-bit halves; each block
 * has its own round count (8..23).  The round function branches on the data:
 * an odd input is multiplied and folded, an even one runs 1..8 xorshift
 * steps chosen by its bits, and a final add or subtract of the round key
 * depends on bit 8.  Our own cipher, not AES: the point is data-dependent
 * control flow per thread, as the slides' "decrypt". */
#ifndef DECRYPT_CIPHER_H
#define DECRYPT_CIPHER_H

#ifdef __CUDACC__
#define DC_FN __device__ static inline
#else
#define DC_FN static inline
#endif

struct dc_key {
    unsigned k0, k1, k2, k3;
};

DC_FN unsigned dc_round_key(struct dc_key key, unsigned i)
{
    unsigned j = i & 3u;
    unsigned k = j == 0 ? key.k0 : j == 1 ? key.k1 : j == 2 ? key.k2 : key.k3;
    return k + i * 0x9e3779b9u;
}

DC_FN unsigned dc_f(unsigned r, unsigned k)
{
    unsigned x = r ^ k;
    if (x & 1u) {
        x *= 0x85ebca6bu;
        x ^= x >> 13;
    } else {
        unsigned m = ((x >> 1) & 7u) + 1u;
        for (unsigned i = 0; i < m; i++) {
            x ^= x << 7;
            x ^= x >> 9;
        }
    }
    if (x & 0x100u)
        x += k >> 3;
    else
        x -= k << 2;
    return x;
}

DC_FN void dc_encrypt(unsigned *l, unsigned *r, struct dc_key key, unsigned rounds)
{
    for (unsigned i = 0; i < rounds; i++) {
        unsigned nl = *r, nr = *l ^ dc_f(*r, dc_round_key(key, i));
        *l = nl;
        *r = nr;
    }
}

DC_FN void dc_decrypt(unsigned *l, unsigned *r, struct dc_key key, unsigned rounds)
{
    for (unsigned i = rounds; i-- > 0;) {
        unsigned nl = *r ^ dc_f(*l, dc_round_key(key, i)), nr = *l;
        *l = nl;
        *r = nr;
    }
}

#endif
