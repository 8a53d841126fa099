/* vit.h: the convolutional code and Viterbi decoder of the viterbi workload,
 * shared by the kernel (viterbi.cu) and the host (host.c: it encodes, adds
 * channel errors and decodes on the CPU for the reference).  Rate 1/2,
 * constraint length 3, generators 7 and 5 (octal); frames of 64 message bits
 * (the last 2 zero, flushing the encoder); hard decisions, Hamming branch
 * metrics.  The decoder keeps its 4 path metrics and 4 survivor words (one
 * bit per step) in registers; the add-compare-select of every state and the
 * traceback choose on the received bits. */
#ifndef VIT_H
#define VIT_H

#ifdef __CUDACC__
#define VIT_FN __device__ static inline
#else
#define VIT_FN static inline
#endif

#define VIT_STEPS 64

VIT_FN unsigned vit_parity(unsigned x)
{
    x ^= x >> 2;
    x ^= x >> 1;
    return x & 1u;
}

/* The two code bits (bit 1: generator 7, bit 0: generator 5) for input b
 * from encoder state s (the last two inputs, the newer in bit 0). */
VIT_FN unsigned vit_out(unsigned s, unsigned b)
{
    unsigned reg = (s << 1 | b) & 7u;
    return vit_parity(reg & 7u) << 1 | vit_parity(reg & 5u);
}

/* Encode 64 message bits (bit t of msg is step t) into 128 code bits. */
VIT_FN void vit_encode(unsigned long long msg, unsigned long long code[2])
{
    unsigned s = 0;
    code[0] = code[1] = 0;
    for (unsigned t = 0; t < VIT_STEPS; t++) {
        unsigned b = (unsigned)(msg >> t) & 1u;
        unsigned long long o = vit_out(s, b);
        code[t / 32] |= o << (2 * (t % 32));
        s = (s << 1 | b) & 3u;
    }
}

/* One add-compare-select: the better of the two paths into state ns (from
 * predecessors ns >> 1 and (ns >> 1) | 2) for received code bits r; sets
 * *from to 1 when the second predecessor wins. */
VIT_FN unsigned vit_acs(unsigned ns, unsigned pa, unsigned pb, unsigned r, unsigned *from)
{
    unsigned b = ns & 1u, sa = ns >> 1, sb = sa | 2u;
    unsigned ea = vit_out(sa, b) ^ r, eb = vit_out(sb, b) ^ r;
    unsigned ma = pa + (ea & 1u) + (ea >> 1), mb = pb + (eb & 1u) + (eb >> 1);
    if (mb < ma) {
        *from = 1u;
        return mb;
    }
    *from = 0u;
    return ma;
}

/* Decode 128 received code bits (steps 0-31 in c0, 32-63 in c1, two bits a
 * step) into 64 message bits. */
VIT_FN unsigned long long vit_decode(unsigned long long c0, unsigned long long c1)
{
    unsigned m0 = 0, m1 = 1000, m2 = 1000, m3 = 1000; /* start in state 0 */
    unsigned long long v0 = 0, v1 = 0, v2 = 0, v3 = 0;   /* survivor bits */
    for (unsigned t = 0; t < VIT_STEPS; t++) {
        unsigned r = (unsigned)((t < 32 ? c0 : c1) >> (2 * (t % 32))) & 3u, f;
        unsigned n0 = vit_acs(0, m0, m2, r, &f);
        v0 |= (unsigned long long)f << t;
        unsigned n1 = vit_acs(1, m0, m2, r, &f);
        v1 |= (unsigned long long)f << t;
        unsigned n2 = vit_acs(2, m1, m3, r, &f);
        v2 |= (unsigned long long)f << t;
        unsigned n3 = vit_acs(3, m1, m3, r, &f);
        v3 |= (unsigned long long)f << t;
        m0 = n0, m1 = n1, m2 = n2, m3 = n3;
    }
    /* the encoder was flushed to state 0: trace back from there */
    unsigned s = 0;
    unsigned long long msg = 0;
    for (unsigned t = VIT_STEPS; t-- > 0;) {
        msg |= (unsigned long long)(s & 1u) << t;
        unsigned long long v = s == 0 ? v0 : s == 1 ? v1 : s == 2 ? v2 : v3;
        unsigned from = (unsigned)(v >> t) & 1u;
        s = (s >> 1) | (from << 1);
    }
    return msg;
}

#endif
