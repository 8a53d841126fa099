// divergence.cu: control-flow divergence kernels for the golden PTX tests
// (tests/ptx/test_divergence.c replays each thread's control flow on the host).

// if/else per lane.
extern "C" __global__ void if_else(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    int r;
    if (v & 1)
        r = v * 3 + 1;
    else
        r = v / 2;
    out[i] = r;
}

// Three levels of nested if/else with side effects on both sides.
extern "C" __global__ void nested_if(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i], r = 0;
    if (v & 1) {
        if (v & 2) {
            if (v & 4)
                r = 7;
            else
                r = 6;
            out[i * 2 + 1] = r * 10;
        } else {
            if (v & 4)
                r = 5;
            else
                r = 4;
        }
    } else {
        if (v & 2) {
            r = 3;
            if (v & 8)
                out[i * 2 + 1] = -v;
        } else {
            if (v & 4)
                r = 2;
            else
                r = 1;
        }
    }
    out[i * 2] = r + v;
}

// Lane i runs i iterations; nested loops with per-lane inner trip counts.
extern "C" __global__ void loops(const int *trip, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int n = trip[i];
    int s = 0;
    for (int k = 0; k < n; k++)
        s += k * k + i;
    int t = 0;
    for (int a = 0; a < (n & 7); a++)
        for (int b = 0; b <= a + (i & 3); b++)
            t += a * b + 1;
    out[i * 2] = s;
    out[i * 2 + 1] = t;
}

// break and continue inside a per-lane loop.
extern "C" __global__ void break_continue(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    int s = 0, k;
    for (k = 0; k < 100; k++) {
        if ((k + v) % 3 == 0)
            continue;
        s += k ^ v;
        if (s > v * 4 + 50)
            break;
    }
    out[i * 2] = s;
    out[i * 2 + 1] = k;
}

// Some lanes return early; the others still meet at the barrier.
extern "C" __global__ void early_return(const int *in, int *out)
{
    __shared__ int buf[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    buf[t] = in[i];
    if (in[i] < 0) { // whole warps of returning lanes exist and partial ones too
        out[i] = -1;
        return;
    }
    __syncthreads();
    out[i] = buf[t] + buf[(t + 1) % blockDim.x] * 2;
}

__device__ __noinline__ int collatz_steps(int v)
{
    int n = 0;
    while (v != 1 && n < 1000) {
        v = (v & 1) ? 3 * v + 1 : v / 2;
        n++;
    }
    return n;
}

__device__ __noinline__ int fact_rec(int v)
{
    if (v <= 1)
        return 1;
    return v * fact_rec(v - 1);
}

__device__ __noinline__ int fib_rec(int v)
{
    return v < 2 ? v : fib_rec(v - 1) + fib_rec(v - 2);
}

__device__ __noinline__ float scale_add(float a, float b, int k)
{
    return a * (float)k + b;
}

// Divergent calls of non-inlined functions: with return values, recursion,
// and a function called from both sides of a branch.
extern "C" __global__ void calls(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    int r0, r1;
    if (v % 3 == 0) {
        r0 = collatz_steps(v + 1);
        r1 = fact_rec(v % 8);
    } else if (v % 3 == 1) {
        r0 = fib_rec(v % 11);
        r1 = collatz_steps(v * 2 + 1);
    } else {
        r0 = fact_rec(v % 6) + fib_rec(v % 7);
        r1 = -1;
    }
    float f = (v & 1) ? scale_add((float)v, 0.5f, 3) : scale_add(1.0f, (float)v, v);
    out[i * 3] = r0;
    out[i * 3 + 1] = r1;
    out[i * 3 + 2] = __float_as_int(f);
}

// A barrier inside a loop with a uniform trip count, and a divergent body.
extern "C" __global__ void barrier_loop(const int *in, int *out, int iters)
{
    __shared__ int buf[128];
    int t = threadIdx.x, nb = blockDim.x;
    int i = blockIdx.x * nb + t;
    int v = in[i];
    for (int k = 0; k < iters; k++) {
        buf[t] = v;
        __syncthreads();
        int nv = buf[(t + k + 1) % nb];
        if (nv & 1)
            v = v + nv;
        else
            v = v - (nv >> 1);
        __syncthreads();
    }
    out[i] = v;
}

// A switch statement (compiled into branch chains or a jump table).
extern "C" __global__ void switch_case(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i], r;
    switch (v % 9) {
    case 0: r = v + 100; break;
    case 1: r = v * 2; break;
    case 2: r = v - 7;  // fall through
    case 3: r = v ^ 0x55; break;
    case 4: r = -v; break;
    case 5: r = v << 3; break;
    case 6: r = v / 3; break;
    case 7: r = 77; break;
    default: r = v & 0xf0; break;
    }
    out[i] = r;
}

// A while loop with a data-dependent exit (the gcd of two numbers).
extern "C" __global__ void while_gcd(const unsigned *a, const unsigned *b, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = a[i], y = b[i], steps = 0;
    while (y != 0) {
        unsigned t = x % y;
        x = y;
        y = t;
        steps++;
    }
    out[i * 2] = x;
    out[i * 2 + 1] = steps;
}

// goto-based control flow, including a jump into the middle of a loop
// (two entries: an irreducible region unless nvcc restructures it).
extern "C" __global__ void unstructured(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i], s = 0;
    if (v & 1)
        goto mid;
    if (v & 2)
        goto tail;
top:
    s += 3;
mid:
    s += v & 5;
    v -= 2;
    if (v > 0)
        goto top;
    if (s & 4)
        goto done;
tail:
    s = s * 7 + v;
    if (s < 50 && v > -3) {
        v -= 1;
        goto mid;
    }
done:
    out[i] = s * 1000 + v;
}

// Lanes leave the kernel from inside a loop at different iterations.
extern "C" __global__ void exit_in_loop(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i], s = 0;
    for (int k = 0; k < 50; k++) {
        s += k * (v & 3) + 1;
        if (k == v) {
            out[i] = s;
            return;
        }
    }
    out[i] = -s;
}
