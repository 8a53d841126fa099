// ptx_sample.cu: kernel exercising many PTX features (device functions, printf,
// shared/dynamic shared, atomics, warp intrinsics, math, fp16); its PTX is parsed
// by tests/unit/test_ptx_parse.c.
#include <cassert>
#include <cstdio>
#include <cuda_fp16.h>
struct S { float a; int b; double c; };
__constant__ float c_tab[4] = {1.0f, 2.5f, -3.0f, 4.0f};
__constant__ int c_mat[2][3] = {{1, 2, 3}, {4, 5, 6}};
__device__ double d_arr[3] = {1.5, 2.5, 3.5};
__device__ unsigned long long d_cnt;
__device__ __noinline__ float helper(float x, int k) { return x * c_tab[k & 3] + k; }
__device__ __noinline__ S mk(S s, int k) { s.a += k; s.c *= 2; return s; }
__device__ __noinline__ void nothing(int *p) { *p = 1; }
extern __shared__ float dyn[];
__global__ void k1(const float *in, float *out, int n, S s) {
    __shared__ float tile[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.f;
    tile[threadIdx.x] = v; dyn[threadIdx.x] = v * 2;
    __syncthreads();
    int cnt = __syncthreads_count(v > 0.5f);
    int a = __syncthreads_and(v > 0.1f); int o = __syncthreads_or(v > 0.9f);
    unsigned m = __ballot_sync(0xffffffff, v > 1.0f);
    float x = __shfl_down_sync(0xffffffff, v, 1);
    x += __shfl_xor_sync(0xffffffff, x, 2);
    x += __shfl_up_sync(0xffffffff, x, 4);
    x += __shfl_sync(0xffffffff, x, 3);
    x += sinf(x) + expf(x) + sqrtf(fabsf(x)) + __fdividef(x, 3.0f) + __sinf(x) + __cosf(x) + __expf(x) + logf(x+2) + powf(x, 1.3f) + tanhf(x) + rsqrtf(x+1) + atan2f(x, 2.f);
    x += helper(x, i);
    S r = mk(s, i);
    x += r.a + r.c;
    atomicAdd(&d_cnt, 1ULL); atomicAdd(out, x); atomicMax((int*)out + 1, i); atomicCAS((int*)out + 2, 0, i); atomicExch((int*)out+3, i); atomicInc((unsigned*)out+4, 7u);
    atomicAdd((double*)out + 5, (double)x);
    
    out[i] = x + cnt + a + o + m + tile[(threadIdx.x + 1) % 256] + dyn[0] + __popc(m) + __clz(m) + __brev(m);
    if (i == 0) printf("hello %d %f %s\n", i, x, "z");
    int lz[8]; for (int j = 0; j < 8; j++) lz[j] = in[(i + j) % n]; out[i+1] = lz[i & 7];
    nothing((int*)out + 9);
    __syncwarp();
    __threadfence(); __threadfence_block(); __threadfence_system();
    if (__all_sync(0xffffffff, x > 0)) out[0] = 1; if (__any_sync(0xffffffff, x > 0)) out[1] = 1;
    out[2] = __activemask(); out[3] = __match_any_sync(0xffffffff, i); int pr; out[4] = __match_all_sync(0xffffffff, i, &pr) + pr;
    #if __CUDA_ARCH__ >= 800
    out[5] = __reduce_add_sync(0xffffffff, i) + __reduce_max_sync(0xffffffff, (unsigned)i);
#endif
    out[6] = __byte_perm(i, m, 0x5140) + __funnelshift_l(i, m, 5) + __funnelshift_rc(i, m, i) + __dp4a(i, (int)m, 3);
    long long q = (long long)in[0] / (long long)i + (unsigned long long)m % 7ULL; out[7] = q;
    double dd = d_arr[i % 3] * 2.0 + sqrt((double)x) + exp((double)x) + 0.1; out[8] = dd;
    __half h = __float2half(x); h = __hadd(h, h); out[10] = __half2float(h) + __half2float(__hmul(h, h));
    __nanosleep(100); out[11] = clock() + clock64() + __mul24(i, 3) + __umulhi(i, m) + __sad(i, m, 3) + __usad(i,m,1) + copysignf(x, -1.f) + isnan(x) + isinf(x) + truncf(x) + roundf(x) + rintf(x) + floorf(x) + ceilf(x);
    if (x < -1e30f) __trap();
    if (x < -1e31f) assert(0);
    void *p = malloc(16); free(p);
}
