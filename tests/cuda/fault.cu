// fault.cu: a program whose kernel reads past the end of an array (issue 15),
// run by tests/cuda/fault.sh under `warpsim exec`.
//   fault.cu fault: the second launch faults; the program checks that it sees
//                   cudaErrorIllegalAddress, sticky, from the launch, the
//                   synchronize and every later call (three more launches, a
//                   copy), as on a GPU, and prints PASS.
//   fault.cu zero:  run with oob_read_zero=1: the reads past the end give 0.
#include <cstdio>
#include <cstring>

__global__ void gather(const float *in, float *out, int n, int off)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i + off]; // the faulting line (fault.sh looks for "fault.cu:15")
}

static int expect(const char *what, cudaError_t got, cudaError_t want)
{
    if (got == want)
        return 0;
    printf("FAIL %s: %s, expected %s\n", what, cudaGetErrorName(got), cudaGetErrorName(want));
    return 1;
}

int main(int argc, char **argv)
{
    const int n = 256, off = 16;
    int zero = argc > 1 && strcmp(argv[1], "zero") == 0;
    float h[n], *in, *out;
    for (int i = 0; i < n; i++)
        h[i] = (float)(i + 1);
    int bad = expect("cudaMalloc", cudaMalloc(&in, n * sizeof(float)), cudaSuccess);
    bad += expect("cudaMalloc", cudaMalloc(&out, n * sizeof(float)), cudaSuccess);
    bad += expect("cudaMemcpy", cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice), cudaSuccess);
    gather<<<2, 128>>>(in, out, n, 0);
    bad += expect("in-bounds launch", cudaDeviceSynchronize(), cudaSuccess);
    gather<<<2, 128>>>(in, out, n, off); // threads 240..255 read in[256..271]
    if (zero) {
        bad += expect("launch", cudaGetLastError(), cudaSuccess);
        bad += expect("copy", cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
        for (int i = 0; i < n; i++) {
            float want = i + off < n ? (float)(i + off + 1) : 0.0f;
            if (h[i] != want) {
                printf("FAIL out[%d] = %g, expected %g\n", i, h[i], want);
                return 1;
            }
        }
    } else {
        cudaError_t e = cudaErrorIllegalAddress;
        bad += expect("faulting launch", cudaGetLastError(), e);
        bad += expect("synchronize", cudaDeviceSynchronize(), e);
        for (int k = 0; k < 3; k++) { // as a program that checks nothing would go on
            gather<<<2, 128>>>(in, out, n, 0);
            bad += expect("launch after the fault", cudaGetLastError(), e);
        }
        bad += expect("copy after the fault", cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost), e);
    }
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad != 0;
}
