// float_math.cu: floating-point kernels for the golden PTX tests
// (tests/ptx/test_float_math.c compares every output with a host computation).
#include <cuda_fp16.h>

#define F32_OPS 32
#define F64_OPS 20
#define APPROX_OPS 10

// Exactly rounded f32 operations; outputs are raw bit patterns.
extern "C" __global__ void f32_ops(const float *a, const float *b, const float *c,
                                   unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i], z = c[i];
    unsigned *o = out + i * F32_OPS;
    o[0] = __float_as_uint(__fadd_rn(x, y));
    o[1] = __float_as_uint(__fsub_rn(x, y));
    o[2] = __float_as_uint(__fmul_rn(x, y));
    o[3] = __float_as_uint(fmaf(x, y, z));
    o[4] = __float_as_uint(x / y);
    o[5] = __float_as_uint(sqrtf(fabsf(x)));
    o[6] = __float_as_uint(__fadd_rz(x, y));
    o[7] = __float_as_uint(__fmul_ru(x, y));
    o[8] = __float_as_uint(__fmul_rd(x, y));
    o[9] = __float_as_uint(__fdiv_rn(x, y));
    o[10] = __float_as_uint(__fdiv_rz(x, y));
    o[11] = __float_as_uint(__fmaf_rd(x, y, z));
    o[12] = __float_as_uint(__fsqrt_ru(fabsf(y)));
    o[13] = __float_as_uint(__frcp_rn(x));
    o[14] = (unsigned)__float2int_rn(x);
    o[15] = (unsigned)__float2int_rz(x);
    o[16] = (unsigned)__float2int_rd(x);
    o[17] = (unsigned)__float2int_ru(x);
    o[18] = __float2uint_rz(x);
    o[19] = __float_as_uint(__int2float_rn(__float_as_int(y)));
    o[20] = __float_as_uint(__uint2float_rz(__float_as_uint(y)));
    o[21] = __float_as_uint(fminf(x, y));
    o[22] = __float_as_uint(fmaxf(x, y));
    o[23] = __float_as_uint(copysignf(x, y));
    o[24] = (isnan(x) ? 1u : 0u) | (isinf(x) ? 2u : 0u) | (isfinite(x) ? 4u : 0u) |
            (signbit(x) ? 8u : 0u);
    o[25] = (unsigned)__half_as_ushort(__float2half(x));
    o[26] = __float_as_uint(__half2float(__float2half_rz(y)));
    o[27] = __float_as_uint(floorf(x) + ceilf(y));
    o[28] = __float_as_uint(truncf(x) - rintf(y));
    o[29] = (unsigned)(x < y) | ((unsigned)(x <= y) << 1) | ((unsigned)(x == y) << 2) |
            ((unsigned)(x != y) << 3) | ((unsigned)!(x >= y) << 4);
    o[30] = (unsigned)(long long)__float2ll_rd(x);
    o[31] = __float_as_uint(__saturatef(x));
}

// Exactly rounded f64 operations; outputs are raw bit patterns.
extern "C" __global__ void f64_ops(const double *a, const double *b, const double *c,
                                   unsigned long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double x = a[i], y = b[i], z = c[i];
    unsigned long long *o = out + i * F64_OPS;
    o[0] = __double_as_longlong(__dadd_rn(x, y));
    o[1] = __double_as_longlong(__dmul_rn(x, y));
    o[2] = __double_as_longlong(fma(x, y, z));
    o[3] = __double_as_longlong(x / y);
    o[4] = __double_as_longlong(sqrt(fabs(x)));
    o[5] = __double_as_longlong(__dadd_rz(x, y));
    o[6] = __double_as_longlong(__dmul_ru(x, y));
    o[7] = __double_as_longlong(__ddiv_rd(x, y));
    o[8] = __double_as_longlong(__dsqrt_ru(fabs(y)));
    o[9] = (unsigned long long)__double2int_rd(x);
    o[10] = (unsigned long long)__double2ll_rz(x);
    o[11] = __double2ull_ru(x);
    o[12] = __double_as_longlong(__ll2double_rn(__double_as_longlong(y)));
    o[13] = __float_as_uint(__double2float_rn(x));
    o[14] = __float_as_uint(__double2float_rz(y));
    o[15] = __double_as_longlong((double)__double2float_rn(z));
    o[16] = __double_as_longlong(fmin(x, y));
    o[17] = __double_as_longlong(fmax(x, y));
    o[18] = (unsigned long long)(isnan(x) ? 1 : 0) | (isinf(x) ? 2 : 0) | (x < y ? 4 : 0);
    o[19] = __double_as_longlong(copysign(x, y) - floor(z));
}

// Approximate and transcendental operations (checked with a tolerance).
extern "C" __global__ void approx_ops(const float *a, const float *b, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i];
    float *o = out + i * APPROX_OPS;
    o[0] = __sinf(x);
    o[1] = __cosf(x);
    o[2] = __expf(y);
    o[3] = __logf(fabsf(x) + 0.5f);
    o[4] = rsqrtf(fabsf(x) + 0.25f);
    o[5] = __fdividef(x, y + 9.0f);
    o[6] = sinf(x);
    o[7] = expf(y);
    o[8] = log2f(fabsf(x) + 0.5f);
    o[9] = tanhf(y);
}

#define F16_OPS 12

// Half-precision arithmetic (f16 and f16x2); outputs are raw 16-bit patterns.
extern "C" __global__ void f16_ops(const unsigned short *a, const unsigned short *b,
                                   unsigned short *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half x = __ushort_as_half(a[i]), y = __ushort_as_half(b[i]);
    unsigned short *o = out + i * F16_OPS;
    o[0] = __half_as_ushort(__hadd(x, y));
    o[1] = __half_as_ushort(__hsub(x, y));
    o[2] = __half_as_ushort(__hmul(x, y));
    o[3] = __half_as_ushort(__hneg(x));
    o[4] = __half_as_ushort(__habs(y));
    o[5] = (unsigned short)(__hlt(x, y) | (__heq(x, y) << 1) | (__hgtu(x, y) << 2));
    o[6] = __half_as_ushort(__hmax(x, y));
    o[7] = __half_as_ushort(__hmin(x, y));
    __half2 p = __halves2half2(x, y), q = __halves2half2(y, x);
    __half2 s = __hadd2(p, q), m = __hmul2(p, q);
    o[8] = __half_as_ushort(__low2half(s));
    o[9] = __half_as_ushort(__high2half(m));
    o[10] = (unsigned short)__half2int_rz(x);
    o[11] = __half_as_ushort(__int2half_rn((int)a[i] - 40000));
}

// testp (class tests) on f32 and f64, written with inline PTX because nvcc
// expresses isnan/isinf with setp.  out[i] bit k = class test k.
extern "C" __global__ void testp_ops(const float *a, const double *b, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i];
    double y = b[i];
    unsigned r;
    asm("{\n\t.reg .pred p;\n\t.reg .u32 t;\n\t"
        "testp.finite.f32 p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t"
        "testp.infinite.f32 p, %1;\n\tselp.u32 t, 2, 0, p;\n\tor.b32 %0, %0, t;\n\t"
        "testp.number.f32 p, %1;\n\tselp.u32 t, 4, 0, p;\n\tor.b32 %0, %0, t;\n\t"
        "testp.notanumber.f32 p, %1;\n\tselp.u32 t, 8, 0, p;\n\tor.b32 %0, %0, t;\n\t"
        "testp.normal.f32 p, %1;\n\tselp.u32 t, 16, 0, p;\n\tor.b32 %0, %0, t;\n\t"
        "testp.subnormal.f32 p, %1;\n\tselp.u32 t, 32, 0, p;\n\tor.b32 %0, %0, t;\n\t"
        "testp.normal.f64 p, %2;\n\tselp.u32 t, 64, 0, p;\n\tor.b32 %0, %0, t;\n\t"
        "testp.subnormal.f64 p, %2;\n\tselp.u32 t, 128, 0, p;\n\tor.b32 %0, %0, t;\n\t"
        "testp.notanumber.f64 p, %2;\n\tselp.u32 t, 256, 0, p;\n\tor.b32 %0, %0, t;\n\t"
        "testp.infinite.f64 p, %2;\n\tselp.u32 t, 512, 0, p;\n\tor.b32 %0, %0, t;\n\t}"
        : "=r"(r)
        : "f"(x), "d"(y));
    out[i] = r;
}
