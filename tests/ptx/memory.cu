// memory.cu: memory-space kernels for the golden PTX tests
// (tests/ptx/test_memory.c checks every output on the host).

__constant__ int ctab[16] = {3, -1, 4, 1, -5, 9, 2, -6, 5, 3, -5, 8, 9, -7, 9, 3};
__constant__ float cscale[4] = {0.5f, 1.5f, -2.0f, 4.0f};
__device__ int dev_hist[4];
__device__ unsigned long long dev_word = 0x1122334455667788ull;
__device__ float dev_out[64];

// Constant arrays with initializers, __device__ globals read and written.
extern "C" __global__ void const_global(const int *idx, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int k = idx[i] & 15;
    out[i] = ctab[k] * 10 + (int)(cscale[k & 3] * 4.0f);
    if (i < 64)
        dev_out[i] = cscale[i & 3] * (float)i;
    if (i < 4)
        dev_hist[i] = ctab[i] + ctab[15 - i];
    if (i == 0)
        dev_word = dev_word * 3 + 1;
}

// Static shared memory: reverse each block's slice.
extern "C" __global__ void shared_reverse(const int *in, int *out)
{
    __shared__ int buf[128];
    int t = threadIdx.x;
    int g = blockIdx.x * blockDim.x + t;
    buf[t] = in[g];
    __syncthreads();
    out[g] = buf[blockDim.x - 1 - t];
}

// Dynamic shared memory holding two arrays of blockDim.x floats.
extern "C" __global__ void dyn_shared(const float *in, float *out)
{
    extern __shared__ float dyn[];
    int t = threadIdx.x, nb = blockDim.x;
    int g = blockIdx.x * nb + t;
    dyn[t] = in[g];
    dyn[nb + t] = in[g] * 2.0f;
    __syncthreads();
    out[g] = dyn[(t + 1) % nb] + dyn[nb + (nb - 1 - t)];
}

// Dynamic shared memory after a static array whose size (20 bytes) is not a
// multiple of 16: the dynamic array starts at align_up(20, 16) = 32, so a CTA
// sized static + dynamic (20 + 4 * blockDim.x) would end 12 bytes short of the
// last element every thread block writes (issue 15, defect 2).
extern "C" __global__ void dyn_after_static(const int *in, int *out)
{
    __shared__ int tag[5];
    extern __shared__ int dyn_tail[];
    int t = threadIdx.x, nb = blockDim.x;
    int g = blockIdx.x * nb + t;
    if (t < 5)
        tag[t] = blockIdx.x * 100 + t;
    dyn_tail[t] = in[g];
    __syncthreads();
    out[g] = dyn_tail[nb - 1 - t] + tag[t % 5];
}

// A local array indexed with data-dependent indexes.
extern "C" __global__ void local_array(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i];
    int arr[24];
    for (int k = 0; k < 24; k++)
        arr[k] = v * k + (k ^ i);
    int s = 0;
    for (int k = 0; k < 24; k++)
        s += arr[(v + k * 7) % 24];
    arr[v % 24] = s;
    out[i] = s + arr[(v / 3) % 24];
}

// Vector loads and stores.
extern "C" __global__ void vec_ops(const float4 *a, const int2 *b, float4 *o4, int2 *o2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 v = a[i];
    int2 w = b[i];
    o4[i] = make_float4(v.w + (float)w.x, v.z * 2.0f, v.y - (float)w.y, v.x);
    o2[i] = make_int2(w.y, w.x + (int)v.x);
}

// Narrow loads with sign and zero extension, narrow stores.
extern "C" __global__ void narrow_loads(const signed char *c, const unsigned char *uc,
                                        const short *s, const unsigned short *us, int *out,
                                        short *out16, signed char *out8, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    out[4 * i] = c[i];
    out[4 * i + 1] = uc[i];
    out[4 * i + 2] = s[i];
    out[4 * i + 3] = us[i];
    out16[i] = (short)(s[i] * 3 + c[i]);
    out8[i] = (signed char)(c[i] + 100);
}

// Generic pointers: odd threads point into shared memory, even ones into global.
__device__ __noinline__ void bump(int *p, int v)
{
    *p += v;
}

extern "C" __global__ void generic_ptrs(int *g, int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    int *p = (t & 1) ? &s[t] : &g[t];
    bump(p, 100 + t);
    __syncthreads();
    out[t] = s[t] + s[t ^ 1] * 1000;
}

// A struct passed by value through the parameter space.
struct by_value_arg {
    int a;
    float b;
    long long c;
    char d[3];
};

extern "C" __global__ void by_value(by_value_arg p, int *out)
{
    out[0] = p.a;
    out[1] = __float_as_int(p.b * 2.0f);
    out[2] = (int)p.c;
    out[3] = (int)(p.c >> 32);
    out[4] = p.d[0] + p.d[1] * 256 + p.d[2] * 65536;
}

// Special registers with a 3-D grid and 3-D blocks (each thread writes its own slot).
extern "C" __global__ void index_3d(int *out)
{
    int bx = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    int tx = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    int nthreads = blockDim.x * blockDim.y * blockDim.z;
    int g = bx * nthreads + tx;
    unsigned lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    int *o = out + 5 * g;
    o[0] = threadIdx.x | (threadIdx.y << 8) | (threadIdx.z << 16);
    o[1] = blockIdx.x | (blockIdx.y << 8) | (blockIdx.z << 16);
    o[2] = blockDim.x | (blockDim.y << 8) | (blockDim.z << 16);
    o[3] = gridDim.x | (gridDim.y << 8) | (gridDim.z << 16);
    o[4] = (int)lane;
}
