// bit_ops.cu: bit-manipulation kernels for the golden PTX tests
// (tests/ptx/test_bit_ops.c compares every output with a host computation).
#define BIT_OPS 34

extern "C" __global__ void bit_ops(const unsigned *a, const unsigned *b, const unsigned *c,
                                   unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i], z = c[i];
    unsigned s = y & 31;
    unsigned *o = out + i * BIT_OPS;
    o[0] = x & y;
    o[1] = x | y;
    o[2] = x ^ y;
    o[3] = ~x;
    o[4] = x << s;
    o[5] = x >> s;
    o[6] = (unsigned)((int)x >> s);
    unsigned big = y & 63; // 0..63: PTX clamps shift amounts above the width
    unsigned r;
    asm("shl.b32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(big));
    o[7] = r;
    asm("shr.u32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(big));
    o[8] = r;
    asm("shr.s32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(big));
    o[9] = r;
    o[10] = __funnelshift_l(x, z, y);
    o[11] = __funnelshift_r(x, z, y);
    o[12] = __funnelshift_lc(x, z, y);
    o[13] = __funnelshift_rc(x, z, y);
    o[14] = __byte_perm(x, z, y);
    o[15] = (unsigned)__popc(x);
    o[16] = (unsigned)__clz(x);
    o[17] = __brev(x);
    o[18] = (unsigned)__ffs((int)x);
    unsigned long long w = ((unsigned long long)z << 32) | x;
    o[19] = (unsigned)__popcll(w);
    o[20] = (unsigned)__clzll(w);
    o[21] = (unsigned)__ffsll((long long)w);
    o[22] = (unsigned)(__brevll(w) >> 16);
    unsigned pos = y & 0xff, len = (y >> 8) & 0xff;
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos), "r"(len));
    o[23] = r;
    unsigned spos = y & 31, slen = 1 + ((y >> 8) & 31);
    asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(spos), "r"(slen));
    o[24] = r;
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(z), "r"(x), "r"(pos), "r"(len));
    o[25] = r;
    o[26] = (x & y) | (~x & z);          // lop3 (select)
    o[27] = (x ^ y) & ~z;                // lop3
    o[28] = (x | ~y) ^ (z & x);          // lop3
    unsigned long long bw;
    asm("bfe.u64 %0, %1, %2, %3;" : "=l"(bw) : "l"(w), "r"(pos), "r"(len));
    o[29] = (unsigned)(bw ^ (bw >> 32));
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(z), "r"(y)); // sign-replicate mode
    o[30] = r;
    asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(z), "r"(y));
    o[31] = r;
    asm("lop3.b32 %0, %1, %2, %3, 0xE8;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); // majority
    o[32] = r;
    asm("lop3.b32 %0, %1, %2, %3, 0x1E;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); // a ^ (b | c)
    o[33] = r;
}

extern "C" __global__ void shift64_ops(const unsigned long long *a, const unsigned *b,
                                       unsigned long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned long long x = a[i];
    unsigned s = b[i] & 63;
    unsigned long long *o = out + 4 * i;
    o[0] = x << s;
    o[1] = x >> s;
    o[2] = (unsigned long long)((long long)x >> s);
    o[3] = (x << s) | (x >> ((64 - s) & 63)); // rotate
}
