// warp.cu: warp-level kernels for the golden PTX tests
// (tests/ptx/test_warp.c computes every lane's expected value on the host).
#define SHFL_OPS 12
#define VOTE_OPS 8

// Shuffles with full width and with 8-lane segments; blockDim.x is a multiple of 32.
extern "C" __global__ void shuffles(const int *in, const float *fin, int *out, const int *sel)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    float f = fin[i];
    int *o = out + i * SHFL_OPS;
    o[0] = __shfl_sync(0xffffffffu, v, sel[i]);
    o[1] = __shfl_up_sync(0xffffffffu, v, 3);
    o[2] = __shfl_down_sync(0xffffffffu, v, 5);
    o[3] = __shfl_xor_sync(0xffffffffu, v, 6);
    o[4] = __shfl_sync(0xffffffffu, v, sel[i], 8);
    o[5] = __shfl_up_sync(0xffffffffu, v, 2, 8);
    o[6] = __shfl_down_sync(0xffffffffu, v, 3, 8);
    o[7] = __shfl_xor_sync(0xffffffffu, v, 5, 8);
    o[8] = __float_as_int(__shfl_xor_sync(0xffffffffu, f, 1));
    long long w = ((long long)v << 32) | (unsigned)(i * 3);
    long long ws = __shfl_down_sync(0xffffffffu, w, 1);
    o[9] = (int)(ws >> 32) ^ (int)ws;
    // A full warp reduction with xor butterflies.
    int s = v;
    for (int m = 16; m > 0; m >>= 1)
        s += __shfl_xor_sync(0xffffffffu, s, m);
    o[10] = s;
    // Inclusive scan with shfl.up.
    int p = v;
    for (int d = 1; d < 32; d <<= 1) {
        int t = __shfl_up_sync(0xffffffffu, p, d);
        if ((threadIdx.x & 31) >= d)
            p += t;
    }
    o[11] = p;
}

extern "C" __global__ void votes(const int *in, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    unsigned *o = out + i * VOTE_OPS;
    o[0] = __ballot_sync(0xffffffffu, v > 0);
    o[1] = (unsigned)__any_sync(0xffffffffu, v == 7);
    o[2] = (unsigned)__all_sync(0xffffffffu, v >= 0);
    o[3] = __activemask();
    unsigned lane = threadIdx.x & 31;
    unsigned m = 0;
    if (lane & 1) // divergent: odd lanes only
        m = __activemask();
    o[4] = m;
    unsigned b = 0;
    if (v % 3 != 0) // ballot among the active subset
        b = __ballot_sync(__activemask(), lane < 16);
    o[5] = b;
    __syncwarp();
    o[6] = __popc(__ballot_sync(0xffffffffu, v & 1));
    unsigned lt, le;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    asm("mov.u32 %0, %%lanemask_le;" : "=r"(le));
    o[7] = lt ^ (le << 1);
}

// bar.red: block-wide counts and predicates.
extern "C" __global__ void block_votes(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    int c = __syncthreads_count(v > 10);
    int a = __syncthreads_and(v >= 0);
    int o = __syncthreads_or(v == 42);
    out[i * 3] = c;
    out[i * 3 + 1] = a;
    out[i * 3 + 2] = o;
}

// Shuffles by half-warps in divergent branches (partial member masks) and
// match.any / match.all.
extern "C" __global__ void partial_warp(const int *in, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = in[i];
    int r;
    if (lane < 16)
        r = __shfl_xor_sync(0x0000ffffu, v, 1);
    else
        r = __shfl_sync(0xffff0000u, v, 16 + ((lane + 3) & 15));
    unsigned *o = out + 3 * i;
    o[0] = (unsigned)r;
    o[1] = __match_any_sync(0xffffffffu, v & 3);
    int pred;
    unsigned ma = __match_all_sync(0xffffffffu, v >> 8, &pred);
    o[2] = ma ^ (unsigned)pred;
}

// Votes and match with per-half-warp member masks in converged code (the
// shape of cooperative_groups::tiled_partition<16>): each half votes alone.
extern "C" __global__ void tile_votes(const int *in, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = in[i];
    unsigned m = 0xffffu << (lane & 16);
    unsigned *o = out + 4 * i;
    o[0] = __ballot_sync(m, v > 0);
    o[1] = __all_sync(m, v >= 0);
    o[2] = __any_sync(m, v == 7);
    o[3] = __match_any_sync(m, v & 3);
}
