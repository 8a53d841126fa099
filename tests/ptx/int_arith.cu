// int_arith.cu: integer arithmetic kernels for the golden PTX tests
// (tests/ptx/test_int_arith.c compares every output with a host computation).
#include <climits>

#define I32_OPS 26
#define I64_OPS 20
#define CARRY_OPS 12

// One thread per input pair; out[i * I32_OPS + k] is operation k.
extern "C" __global__ void i32_ops(const int *a, const int *b, const int *c, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i], y = b[i], z = c[i];
    unsigned ux = (unsigned)x, uy = (unsigned)y, uz = (unsigned)z;
    int *o = out + i * I32_OPS;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = __mulhi(x, y);
    o[4] = (int)__umulhi(ux, uy);
    o[5] = (y != 0 && !(x == INT_MIN && y == -1)) ? x / y : 12345;
    o[6] = (y != 0 && !(x == INT_MIN && y == -1)) ? x % y : 12345;
    o[7] = uy != 0 ? (int)(ux / uy) : 777;
    o[8] = uy != 0 ? (int)(ux % uy) : 777;
    o[9] = min(x, y);
    o[10] = max(x, y);
    o[11] = (int)min(ux, uy);
    o[12] = (int)max(ux, uy);
    o[13] = abs(x);
    o[14] = -x;
    o[15] = x * y + z;
    o[16] = (int)__sad(x, y, uz);
    o[17] = (int)__usad(ux, uy, uz);
    o[18] = __hadd(x, y);
    o[19] = __rhadd(x, y);
    o[20] = (int)__uhadd(ux, uy);
    o[21] = (int)__urhadd(ux, uy);
    o[22] = __mul24(x, y);
    o[23] = (int)__umul24(ux, uy);
    int s, d;
    asm("add.sat.s32 %0, %1, %2;" : "=r"(s) : "r"(x), "r"(y));
    asm("sub.sat.s32 %0, %1, %2;" : "=r"(d) : "r"(x), "r"(y));
    o[24] = s;
    o[25] = d;
}

extern "C" __global__ void i64_ops(const long long *a, const long long *b, const long long *c,
                                   long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    long long x = a[i], y = b[i], z = c[i];
    unsigned long long ux = x, uy = y;
    long long *o = out + (long long)i * I64_OPS;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = __mul64hi(x, y);
    o[4] = (long long)__umul64hi(ux, uy);
    o[5] = (y != 0 && !(x == LLONG_MIN && y == -1)) ? x / y : 12345;
    o[6] = (y != 0 && !(x == LLONG_MIN && y == -1)) ? x % y : 12345;
    o[7] = uy != 0 ? (long long)(ux / uy) : 777;
    o[8] = uy != 0 ? (long long)(ux % uy) : 777;
    o[9] = min(x, y);
    o[10] = max(x, y);
    o[11] = (long long)min(ux, uy);
    o[12] = (long long)max(ux, uy);
    o[13] = llabs(x);
    o[14] = -x;
    o[15] = x * y + z;
    o[16] = (long long)(int)x * (long long)(int)y;                    // mul.wide.s32
    o[17] = (long long)((unsigned long long)(unsigned)x * (unsigned)y); // mul.wide.u32
    o[18] = (long long)(int)x * (long long)(int)y + z;                // mad.wide.s32
    o[19] = (long long)(x >> 3) - (long long)((unsigned long long)y >> 5);
}

// Multi-word arithmetic through the carry flag.  Each thread reads two
// 128-bit numbers as four 32-bit words (least significant first).
extern "C" __global__ void carry_ops(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const unsigned *x = a + 4 * i, *y = b + 4 * i;
    unsigned *o = out + CARRY_OPS * i;
    unsigned s0, s1, s2, s3;
    asm("add.cc.u32 %0, %4, %8;\n\t"
        "addc.cc.u32 %1, %5, %9;\n\t"
        "addc.cc.u32 %2, %6, %10;\n\t"
        "addc.u32 %3, %7, %11;"
        : "=r"(s0), "=r"(s1), "=r"(s2), "=r"(s3)
        : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(y[0]), "r"(y[1]), "r"(y[2]),
          "r"(y[3]));
    o[0] = s0;
    o[1] = s1;
    o[2] = s2;
    o[3] = s3;
    unsigned d0, d1, d2, d3;
    asm("sub.cc.u32 %0, %4, %8;\n\t"
        "subc.cc.u32 %1, %5, %9;\n\t"
        "subc.cc.u32 %2, %6, %10;\n\t"
        "subc.u32 %3, %7, %11;"
        : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
        : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(y[0]), "r"(y[1]), "r"(y[2]),
          "r"(y[3]));
    o[4] = d0;
    o[5] = d1;
    o[6] = d2;
    o[7] = d3;
    // 32 x 64 -> 96-bit product: x[0] * (y[1]:y[0]) with mad.lo.cc / madc.hi.
    unsigned p0, p1, p2;
    asm("{\n\t.reg .u32 t;\n\t"
        "mul.lo.u32 %0, %3, %4;\n\t"
        "mul.hi.u32 t, %3, %4;\n\t"
        "mad.lo.cc.u32 %1, %3, %5, t;\n\t"
        "madc.hi.u32 %2, %3, %5, 0;\n\t}"
        : "=r"(p0), "=r"(p1), "=r"(p2)
        : "r"(x[0]), "r"(y[0]), "r"(y[1]));
    o[8] = p0;
    o[9] = p1;
    o[10] = p2;
    // Carry out of a 32-bit add captured with addc of zeros.
    unsigned c;
    asm("{\n\t.reg .u32 tmp;\n\t"
        "add.cc.u32 tmp, %1, %2;\n\t"
        "addc.u32 %0, 0, 0;\n\t}"
        : "=r"(c)
        : "r"(x[3]), "r"(y[3]));
    o[11] = c;
}

// Byte and half-word dot products (dp4a, dp2a).
extern "C" __global__ void dot_ops(const int *a, const int *b, const int *c, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i], y = b[i], z = c[i];
    int *o = out + 5 * i;
    o[0] = __dp4a(x, y, z);
    o[1] = (int)__dp4a((unsigned)x, (unsigned)y, (unsigned)z);
    o[2] = __dp2a_lo(x, y, z);
    o[3] = __dp2a_hi(x, y, z);
    o[4] = (int)__dp2a_lo((unsigned)x, (unsigned)y, (unsigned)z);
}
