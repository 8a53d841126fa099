// ptx_sample2.cu: more PTX features for tests/unit/test_ptx_parse.c (cache
// operators, 64-bit division, fp16/bf16 incl. vector immediates, struct params,
// initialized __constant__/__device__ data, inline asm, __syncwarp, pmevent).
#include <cuda_fp16.h>
#include <cuda_bf16.h>
struct P { int a; float b[3]; };
__constant__ P c_ps[2] = {{1, {1.f, 2.f, 3.f}}, {2, {4.f, 5.f, 6.f}}};
__device__ float g_f = 3.5f;
__device__ double g_d[2][2] = {{1.0, 2.0}, {3.0, 4.0}};
__device__ short g_s[5] = {-1, 2, -3};
__device__ char g_str[] = "abc";
__device__ __noinline__ void setter(float *p, P v) { *p = v.b[1] + v.a; }
__global__ void __launch_bounds__(128, 4) k2(float *out, const float *__restrict__ in, long long n, __half2 h2) {
    int i = threadIdx.x;
    float v = __ldg(in + i) + __ldcg(in + i + 1) + __ldcs(in + 2) + __ldlu(in + 3) + __ldcv(in + 4);
    __stcs(out + i, v); __stwb(out + i + 1, v); __stcg(out + 2, v); __stwt(out + 3, v);
    atomicAdd_block((int *)out, 1); atomicAdd_system((int *)out + 1, 1); atomicOr((int*)out+2, 3); atomicXor((int*)out+3, 3); atomicAnd((int*)out+4, 3); atomicMin((unsigned*)out+5, 3u); atomicDec((unsigned*)out+6, 9u);
    long long q = n / (i + 1); long long r = n % (i + 3); unsigned long long uq = (unsigned long long)n / 7u;
    out[5] = q + r + uq + __popcll(n) + __clzll(n) + __brevll(n) + __ffsll(n) + __mul64hi(n, q);
    __half2 hh = __hfma2(h2, h2, h2); __half hx = __hadd(__low2half(hh), __high2half(hh));
    out[6] = __half2float(hx) + __half2float(hsqrt(hx)) + __half2float(__hmax(hx, __float2half(1.0f)));
    __nv_bfloat16 bf = __float2bfloat16(v); out[7] = __bfloat162float(__hmul(bf, bf));
    out[8] = __dsqrt_rn(v) + __drcp_rn(v) + __ddiv_rn(v, 3.0) + fma((double)v, 2.0, 1.0) + __fsqrt_rn(v) + __frcp_rz(v) + __fdiv_ru(v, 3.f) + __saturatef(v) + fminf(v, 1.f) + fmaxf(v, 2.f) + (double)__float_as_int(v) + __int_as_float(i) + __uint2float_rn(i) + __double2int_rz(v) + (float)__double2ll_rn(v) + __ll2float_rn(n) + __fmul_rz(v, v) + __fadd_rd(v, v) + __expf(v) + exp2f(v) + log2f(v) + log10f(v) + sinpif(v) + erff(v) + lgammaf(v) + cbrtf(v) + hypotf(v, 1.f) + fmodf(v, 3.f) + remainderf(v, 2.f) + ldexpf(v, 3) + frexpf(v, &i) + modff(v, &v) + nextafterf(v, 1.f);
    float loc[16]; for (int j = 0; j < 16; j++) loc[j] = in[j * i]; out[9] = loc[i & 15] + loc[(i * 7) & 15];
    P pp; pp.a = i; pp.b[0] = v; pp.b[1] = v * 2; pp.b[2] = 1; setter(out + 10, pp);
    out[11] = c_ps[i & 1].b[i % 3] + g_f + g_d[i&1][i&1] + g_s[i % 5] + g_str[i & 3];
    __syncwarp(0xff); __prof_trigger(3);
    unsigned res; asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(res) : "r"(i), "r"(7)); out[12] = res;
    unsigned lane; asm("mov.u32 %0, %%laneid;" : "=r"(lane)); out[13] = lane + __fns(0xf0f0u, i, 1);
    double dd = __shfl_sync(0xffffffff, (double)v, 0); out[14] = dd + __shfl_sync(0xffffffffu, n, 1);
}
