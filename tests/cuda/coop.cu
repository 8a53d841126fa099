// coop.cu: cooperative groups on warpsim: this_thread_block().sync(),
// tiled_partition<32> and <16> with sync, shfl_down/shfl_xor reductions,
// cg::reduce, any/all/ballot on tiles, meta_group_rank, and __nanosleep.
// Every result is checked against a CPU reference; prints PASS or FAIL.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define BLOCK 256
#define GRID 3

// out32[b*8 + w]: sum of the 32 values of tile w (shfl_down tree)
// out16[b*16 + t]: sum of the 16 values of tile t (cg::reduce)
// max16[b*16 + t]: maximum of tile t (shfl_xor butterfly)
// votes[b*16 + t]: any(v odd) * 4 + all(v >= 0) * 2 + (ballot(v odd) == mask of odd lanes)
// rot[i]: the neighbour's value read from shared memory after block.sync()
__global__ void tiles(const int *in, int *out32, int *out16, int *max16, int *votes, int *rot)
{
    cg::thread_block b = cg::this_thread_block();
    __shared__ int s[BLOCK];
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    s[b.thread_rank()] = in[gid];
    b.sync();
    int v = s[(b.thread_rank() + 1) % b.size()];
    rot[gid] = v;

    cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(b);
    int r = v;
    for (int o = 16; o > 0; o /= 2)
        r += t32.shfl_down(r, o);
    t32.sync();
    if (t32.thread_rank() == 0)
        out32[blockIdx.x * 8 + t32.meta_group_rank()] = r;

    cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(b);
    int r16 = cg::reduce(t16, v, cg::plus<int>());
    int m = v;
    for (int o = 8; o > 0; o /= 2) {
        int other = t16.shfl_xor(m, o);
        m = other > m ? other : m;
    }
    t16.sync();
    unsigned ballot = t16.ballot(v & 1);
    unsigned want = 0;
    for (int l = 0; l < 16; l++)
        want |= (unsigned)(t16.shfl(v, l) & 1) << l;
    int code = t16.any(v & 1) * 4 + t16.all(v >= 0) * 2 + (ballot == want);
    if (t16.thread_rank() == 0) {
        out16[blockIdx.x * 16 + t16.meta_group_rank()] = r16;
        max16[blockIdx.x * 16 + t16.meta_group_rank()] = m;
        votes[blockIdx.x * 16 + t16.meta_group_rank()] = code;
    }
}

// __nanosleep between two phases separated by block.sync()
__global__ void sleepy(int *out)
{
    cg::thread_block b = cg::this_thread_block();
    __shared__ int flag;
    if (b.thread_rank() == 0)
        flag = 7;
    __nanosleep(200 + threadIdx.x);
    b.sync();
    out[blockIdx.x * blockDim.x + threadIdx.x] = flag + (int)b.group_index().x;
}

int main()
{
    const int n = BLOCK * GRID;
    static int h[BLOCK * GRID], rot[BLOCK * GRID];
    for (int i = 0; i < n; i++)
        h[i] = (i * 37 + 11) % 1000 - (i % 7 == 0 ? 500 : 0);
    int *din, *d32, *d16, *dmax, *dvote, *drot, *dsleep;
    cudaMalloc(&din, n * sizeof(int));
    cudaMalloc(&d32, GRID * 8 * sizeof(int));
    cudaMalloc(&d16, GRID * 16 * sizeof(int));
    cudaMalloc(&dmax, GRID * 16 * sizeof(int));
    cudaMalloc(&dvote, GRID * 16 * sizeof(int));
    cudaMalloc(&drot, n * sizeof(int));
    cudaMalloc(&dsleep, n * sizeof(int));
    cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice);
    tiles<<<GRID, BLOCK>>>(din, d32, d16, dmax, dvote, drot);
    sleepy<<<GRID, BLOCK>>>(dsleep);
    int failures = 0;
    if (cudaDeviceSynchronize() != cudaSuccess) {
        printf("FAIL: %s\n", cudaGetErrorString(cudaGetLastError()));
        return 1;
    }
    int o32[GRID * 8], o16[GRID * 16], omax[GRID * 16], ovote[GRID * 16];
    static int osleep[BLOCK * GRID];
    cudaMemcpy(o32, d32, sizeof o32, cudaMemcpyDeviceToHost);
    cudaMemcpy(o16, d16, sizeof o16, cudaMemcpyDeviceToHost);
    cudaMemcpy(omax, dmax, sizeof omax, cudaMemcpyDeviceToHost);
    cudaMemcpy(ovote, dvote, sizeof ovote, cudaMemcpyDeviceToHost);
    cudaMemcpy(rot, drot, sizeof rot, cudaMemcpyDeviceToHost);
    cudaMemcpy(osleep, dsleep, sizeof osleep, cudaMemcpyDeviceToHost);
    for (int b = 0; b < GRID; b++) {
        int v[BLOCK];
        for (int t = 0; t < BLOCK; t++)
            v[t] = h[b * BLOCK + (t + 1) % BLOCK];
        for (int t = 0; t < BLOCK; t++)
            if (rot[b * BLOCK + t] != v[t] && failures++ < 5)
                printf("rot[%d] = %d, want %d\n", b * BLOCK + t, rot[b * BLOCK + t], v[t]);
        for (int w = 0; w < 8; w++) {
            int s = 0;
            for (int l = 0; l < 32; l++)
                s += v[w * 32 + l];
            if (o32[b * 8 + w] != s && failures++ < 5)
                printf("tile32 %d/%d sum %d, want %d\n", b, w, o32[b * 8 + w], s);
        }
        for (int t = 0; t < 16; t++) {
            int s = 0, m = v[t * 16], any = 0, all = 1;
            for (int l = 0; l < 16; l++) {
                int x = v[t * 16 + l];
                s += x;
                m = x > m ? x : m;
                any |= x & 1;
                all &= x >= 0;
            }
            int code = any * 4 + all * 2 + 1;
            if (o16[b * 16 + t] != s && failures++ < 5)
                printf("tile16 %d/%d sum %d, want %d\n", b, t, o16[b * 16 + t], s);
            if (omax[b * 16 + t] != m && failures++ < 5)
                printf("tile16 %d/%d max %d, want %d\n", b, t, omax[b * 16 + t], m);
            if (ovote[b * 16 + t] != code && failures++ < 5)
                printf("tile16 %d/%d votes %d, want %d\n", b, t, ovote[b * 16 + t], code);
        }
        for (int t = 0; t < BLOCK; t++)
            if (osleep[b * BLOCK + t] != 7 + b && failures++ < 5)
                printf("sleepy[%d] = %d, want %d\n", b * BLOCK + t, osleep[b * BLOCK + t], 7 + b);
    }
    printf("%s\n", failures ? "FAIL" : "PASS");
    return failures != 0;
}
