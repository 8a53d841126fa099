// atomics.cu: atomic-operation kernels for the golden PTX tests
// (tests/ptx/test_atomics.c compares the final values with known totals).

// res layout (global): see test_atomics.c.
extern "C" __global__ void global_atomics(const int *v, int *ires, unsigned *ures, float *fres,
                                          double *dres, unsigned long long *llres, int *old_out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = v[i];
    atomicAdd(&ires[0], x);
    atomicAdd(&ures[0], (unsigned)i);
    atomicAdd(&fres[0], 0.5f);
    atomicAdd(&dres[0], 0.25);
    atomicAdd(&llres[0], 0x100000001ull * (unsigned)(i + 1));
    atomicMin(&ires[1], x);
    atomicMax(&ires[2], x);
    atomicMin(&ures[1], (unsigned)x);
    atomicMax(&ures[2], (unsigned)x);
    atomicInc(&ures[3], 16u); // wraps to 0 after 16
    atomicDec(&ures[4], 9u);  // wraps to 9 at 0
    atomicAnd(&ures[5], ~(1u << ((i * 7) % 23)));
    atomicOr(&ures[6], 1u << (i % 29));
    atomicXor(&ures[7], (unsigned)x);
    old_out[i] = atomicExch(&ires[3], i);
    // CAS loop: multiply ires[4] by 3 modulo 2^32, one step per thread.
    int old = ires[4], assumed;
    do {
        assumed = old;
        old = atomicCAS(&ires[4], assumed, assumed * 3);
    } while (old != assumed);
    // CAS loop on 64 bits: a running maximum of x * x.
    unsigned long long want = (unsigned long long)((long long)x * x);
    unsigned long long cur = llres[1];
    while (cur < want) {
        unsigned long long prev = atomicCAS(&llres[1], cur, want);
        if (prev == cur)
            break;
        cur = prev;
    }
    atomicMax(&llres[2], (unsigned long long)(unsigned)x);
    atomicMin(&llres[3], (unsigned long long)(unsigned)x);
    asm volatile("red.global.add.u32 [%0], %1;" ::"l"(&ures[8]), "r"(2u) : "memory");
}

// Shared-memory atomics: a histogram per block, then merged into global.
extern "C" __global__ void shared_hist(const unsigned *v, unsigned *hist, int *stats, int n)
{
    __shared__ unsigned h[16];
    __shared__ int smin, smax, sxor;
    __shared__ float fsum;
    int t = threadIdx.x;
    if (t < 16)
        h[t] = 0;
    if (t == 0) {
        smin = 0x7fffffff;
        smax = (int)0x80000000;
        sxor = 0;
        fsum = 0.0f;
    }
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) {
        unsigned x = v[i];
        atomicAdd(&h[x & 15], 1u);
        atomicMin(&smin, (int)x);
        atomicMax(&smax, (int)x);
        atomicXor(&sxor, (int)x);
        atomicAdd(&fsum, 1.0f);
    }
    __syncthreads();
    if (t < 16)
        atomicAdd(&hist[t], h[t]);
    if (t == 0) {
        atomicMin(&stats[0], smin);
        atomicMax(&stats[1], smax);
        atomicXor(&stats[2], sxor);
        atomicAdd(&stats[3], (int)fsum);
    }
}

// Scoped atomics, 64-bit bitwise/exch atomics, returned old values (tickets)
// and a CAS loop on shared memory.
extern "C" __global__ void more_atomics(unsigned *tickets, unsigned long long *ll,
                                        unsigned *counters, double *dsum)
{
    __shared__ unsigned s_cas;
    __shared__ double s_d;
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (t == 0) {
        s_cas = 1;
        s_d = 0.0;
    }
    __syncthreads();
    tickets[i] = atomicAdd(&counters[0], 1u); // every ticket distinct
    atomicAdd_block(&counters[1], 2u);
    atomicAdd_system(&counters[2], 3u);
    atomicOr(&ll[0], 1ull << (i % 64));
    atomicAnd(&ll[1], ~(1ull << ((i * 5) % 61)));
    atomicXor(&ll[2], 0x0123456789abcdefull * (unsigned long long)(i + 1));
    atomicExch(&ll[3], 42ull);
    // shared-memory CAS loop: s_cas = s_cas * 5 + 1 for every thread of the block
    unsigned old = s_cas, assumed;
    do {
        assumed = old;
        old = atomicCAS(&s_cas, assumed, assumed * 5 + 1);
    } while (old != assumed);
    atomicAdd(&s_d, 0.125);
    __syncthreads();
    if (t == 0) {
        atomicAdd(&counters[3], s_cas);
        atomicAdd(dsum, s_d);
    }
}

#include <cuda_fp16.h>

// atomicAdd on __half2 and __half (atom.add.noftz.f16x2 / .f16): every
// thread adds exactly representable values, so the sums are exact.
extern "C" __global__ void half_atomics(__half2 *h2, __half *h, const __half2 *add)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&h2[0], add[i]);
    atomicAdd(&h[0], __low2half(add[i]));
    atomicAdd(&h[1], __float2half(-0.125f));
}
