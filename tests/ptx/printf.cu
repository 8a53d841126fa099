// printf.cu: device printf kernels for the golden PTX tests
// (tests/ptx/test_printf.c captures the output and compares the exact text).
#include <cstdio>

extern "C" __global__ void print_basic(int a, float f, double d)
{
    printf("hello from thread %d of block %d\n", (int)threadIdx.x, (int)blockIdx.x);
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        printf("int %d neg %d hex %x unsigned %u\n", a, -a, a, (unsigned)a);
        printf("float %f %.3f %e double %g\n", f, f, (double)f * 100.0, d);
        printf("string %s char %c long %lld pct 100%%\n", "warpsim", 'Z', -1234567890123ll);
        printf("padded [%5d] [%-5d] [%05.1f]\n", a, a, f);
        printf("no arguments\n");
    }
}

// Only lanes with an odd value print, in divergent code.
extern "C" __global__ void print_divergent(const int *in)
{
    int v = in[threadIdx.x];
    if (v & 1)
        printf("odd %d at %u\n", v, threadIdx.x);
}

// '*' widths and precisions (int arguments, a negative width means '-'),
// hh/h length modifiers (the int argument narrowed), %a and %p.
extern "C" __global__ void print_star(int w, int prec, int v, double d)
{
    printf("[%*d] [%-*d] [%*d] [%.*f] [%*.*e] [%*s]\n", w, v, w, v, -w, v, prec, d, w, prec,
           d, w, "s");
    printf("[%hhd] [%hhu] [%hd] [%hx] [%a] [%p]\n", v, v, v, v, d, (void *)0xabc0ULL);
}
