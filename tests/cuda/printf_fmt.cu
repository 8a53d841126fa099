// printf_fmt.cu: device printf of every conversion nvcc passes through to
// vprintf (%c %s %d %i %u %x %X %o %e %E %f %F %g %G %a %A %p, the length
// modifiers hh h l ll z, %%), with flags, widths, precisions and '*' widths
// and precisions taken from the arguments.  The program captures its own
// stdout around the kernel and compares it with the host printf of the same
// formats and arguments.  Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <unistd.h>

// one line per format; i, u, ll, d, s and w come from the kernel's parameters
#define FORMATS(P)                                                                       \
    P("c [%c] [%3c] [%-3c]\n", 'A', 'b', 'z')                                            \
    P("s [%s] [%8s] [%-8s] [%.3s] [%*s]\n", "warp", "sim", "left", "truncated", w, "st") \
    P("d [%d] [%i] [%+d] [% d] [%05d] [%-6d] [%.4d]\n", i, -i, i, i, -42, 7, 3)          \
    P("u [%u] [%x] [%X] [%o] [%#x] [%#o] [%08X]\n", u, u, u, u, 255u, 8u, 0xbeefu)       \
    P("hh [%hhd] [%hhu] [%hhx] [%hd] [%hu] [%hx]\n", 300, 300, -1, 70000, 70000, -1)     \
    P("l [%ld] [%lu] [%lx] [%lld] [%llu] [%llx] [%zu]\n", -ll, (unsigned long)ll, ll, ll, \
      (unsigned long long)-ll, ll, (size_t)4096)                                         \
    P("e [%e] [%E] [%.2e] [%12.3E]\n", d, -d, d * 1e10, d)                              \
    P("f [%f] [%.0f] [%.10f] [%10.2f] [%-10.1f] [%+f] [%F]\n", d, d, d, -d, d, d, d)     \
    P("g [%g] [%G] [%g] [%.3g] [%#g] [%g]\n", d, d * 1e-9, 1e20, d, 2.0, 100000.0)       \
    P("a [%a] [%A] [%.2a]\n", d, -d, 1.0)                                                \
    P("f32 [%f] [%g]\n", (double)1.5f, (double)-0.1f)                                    \
    P("p [%p] [%p]\n", (void *)0x1234abcdULL, (void *)0)                                 \
    P("star [%*d] [%-*d] [%.*f] [%*.*f] [%*x]\n", w, i, w, i, 3, d, w, 2, d, -w, u)      \
    P("pct [100%%] [%%d] [%5.1f%%]\n", 99.5)                                             \
    P("mixed %d %s %c %f %llu %x|\n", i, "str", 'q', d, (unsigned long long)ll, u)       \
    P("no conversions at all\n")

#define DEV(...) printf(__VA_ARGS__);

__global__ void print_all(int i, unsigned u, long long ll, double d, int w)
{
    FORMATS(DEV)
}

int main()
{
    int i = 12345, w = 9;
    unsigned u = 0xdeadbeefu;
    long long ll = 1234567890123456789LL;
    double d = 3.14159265358979;

    // expected text: the host's printf of the same formats and arguments
    static char want[8192];
    size_t pos = 0;
#define HOST(...) pos += snprintf(want + pos, sizeof want - pos, __VA_ARGS__);
    FORMATS(HOST)

    // capture this process's stdout around the kernel
    fflush(stdout);
    int saved = dup(1);
    FILE *cap = tmpfile();
    if (saved < 0 || !cap || dup2(fileno(cap), 1) < 0) {
        printf("FAIL: cannot capture stdout\n");
        return 1;
    }
    print_all<<<1, 1>>>(i, u, ll, d, w);
    cudaError_t rc = cudaDeviceSynchronize();
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    static char got[8192];
    long len = ftell(cap);
    rewind(cap);
    size_t n = fread(got, 1, sizeof got - 1, cap);
    got[n] = '\0';
    fclose(cap);

    int failures = 0;
    if (rc != cudaSuccess) {
        printf("kernel failed: %s\n", cudaGetErrorString(rc));
        failures++;
    }
    if (len < 0 || strcmp(got, want) != 0) {
        failures++;
        // show the first differing line
        const char *g = got, *h = want;
        while (*g && *g == *h)
            g++, h++;
        while (g > got && g[-1] != '\n')
            g--, h--;
        printf("device printf differs from the host's:\n  got:  %.*s\n  want: %.*s\n",
               (int)strcspn(g, "\n"), g, (int)strcspn(h, "\n"), h);
    }
    printf("%s\n", failures ? "FAIL" : "PASS");
    return failures != 0;
}
