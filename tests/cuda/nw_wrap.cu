// nw_wrap.cu: a Needleman-Wunsch-shaped kernel (issue 15, defect 1).  nvcc
// folds the anti-diagonal index into the immediates of the shared accesses:
// the base register holds &temp - 64 * tx, a negative 32-bit offset for every
// thread but 0, and the accesses [base + 68 * k] land inside temp only when
// the sum wraps at 32 bits, as on hardware.  Checked against a CPU reference.
#include <cstdio>

#define B 16

__global__ void nw_like(const int *ref, int *out)
{
    __shared__ int temp[B + 1][B + 1];
    int tx = threadIdx.x;
    temp[tx + 1][0] = ref[tx];
    temp[0][tx + 1] = ref[tx + B];
    if (tx == 0)
        temp[0][0] = 0;
    __syncthreads();
    for (int m = 0; m < B; m++) { // the upper-left triangle, by anti-diagonals
        if (tx <= m) {
            int x = tx + 1, y = m - tx + 1;
            int a = temp[y - 1][x - 1] + ref[2 * B + (x * 7 + y * 3) % B];
            int b = temp[y][x - 1] - 1, c = temp[y - 1][x] - 1;
            int v = a > b ? a : b;
            temp[y][x] = v > c ? v : c;
        }
        __syncthreads();
    }
    for (int m = B - 2; m >= 0; m--) { // the lower-right triangle
        if (tx <= m) {
            int x = tx + B - m, y = B - tx;
            int a = temp[y - 1][x - 1] + ref[2 * B + (x * 7 + y * 3) % B];
            int b = temp[y][x - 1] - 1, c = temp[y - 1][x] - 1;
            int v = a > b ? a : b;
            temp[y][x] = v > c ? v : c;
        }
        __syncthreads();
    }
    out[tx] = temp[B][tx + 1];
}

int main()
{
    int h[3 * B], got[B], t[B + 1][B + 1];
    for (int i = 0; i < 3 * B; i++)
        h[i] = (i * 37 + 11) % 23 - 11;
    // reference: the same recurrence row by row
    for (int i = 0; i < B; i++) {
        t[i + 1][0] = h[i];
        t[0][i + 1] = h[i + B];
    }
    t[0][0] = 0;
    for (int y = 1; y <= B; y++)
        for (int x = 1; x <= B; x++) {
            int a = t[y - 1][x - 1] + h[2 * B + (x * 7 + y * 3) % B];
            int b = t[y][x - 1] - 1, c = t[y - 1][x] - 1;
            int v = a > b ? a : b;
            t[y][x] = v > c ? v : c;
        }
    int *d_ref, *d_out;
    cudaMalloc(&d_ref, sizeof h);
    cudaMalloc(&d_out, sizeof got);
    cudaMemcpy(d_ref, h, sizeof h, cudaMemcpyHostToDevice);
    nw_like<<<1, B>>>(d_ref, d_out);
    cudaError_t e = cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        printf("FAIL %s\n", cudaGetErrorName(e));
        return 1;
    }
    for (int i = 0; i < B; i++)
        if (got[i] != t[B][i + 1]) {
            printf("FAIL out[%d] = %d, expected %d\n", i, got[i], t[B][i + 1]);
            return 1;
        }
    printf("PASS\n");
    return 0;
}
