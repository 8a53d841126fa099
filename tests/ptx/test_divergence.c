/* test_divergence.c: golden test of control-flow divergence in PTX produced
 * by nvcc (tests/ptx/divergence.cu): per-lane if/else, 3-level nesting,
 * per-lane trip counts, nested loops, break/continue, early return before a
 * barrier, divergent and recursive calls of .func, barriers in loops, switch,
 * a data-dependent while loop, goto-based (irreducible) control flow and exits
 * from inside a loop.  Each thread's result is replayed on the host. */
#include "golden.h"

static int setup(void **state)
{
    return golden_open(state, "tests/ptx/divergence.ptx");
}

static void check_i32(const char *what, const int *want, const int *got, int n, int per)
{
    for (int i = 0; i < n; i++)
        if (want[i] != got[i])
            fail_msg("%s: thread %d output %d: expected %d, got %d", what, i / per, i % per,
                     want[i], got[i]);
}

static void test_if_else(void **state)
{
    struct golden *g = *state;
    enum { N = 128 };
    int in[N], got[N], want[N];
    for (int i = 0; i < N; i++)
        in[i] = (i * 37) % 101 - 50;
    ws_devptr di = golden_upload(g, in, sizeof in), dout = golden_upload(g, NULL, sizeof got);
    void *args[] = {&di, &dout};
    golden_launch(g, "if_else", 2, 64, 0, args);
    golden_download(g, got, dout, sizeof got);
    for (int i = 0; i < N; i++)
        want[i] = (in[i] & 1) ? in[i] * 3 + 1 : in[i] / 2;
    check_i32("if_else", want, got, N, 1);
}

static void test_nested_if(void **state)
{
    struct golden *g = *state;
    enum { N = 96 };
    int in[N], got[2 * N], want[2 * N];
    for (int i = 0; i < N; i++) {
        in[i] = (i * 5 + (i >> 4)) & 15;
        want[2 * i + 1] = 999; /* untouched unless a branch writes it */
    }
    memcpy(got, want, sizeof got);
    ws_devptr di = golden_upload(g, in, sizeof in), dout = golden_upload(g, got, sizeof got);
    void *args[] = {&di, &dout};
    golden_launch(g, "nested_if", 1, N, 0, args);
    golden_download(g, got, dout, sizeof got);
    for (int i = 0; i < N; i++) {
        int v = in[i], r;
        if (v & 1) {
            if (v & 2) {
                r = (v & 4) ? 7 : 6;
                want[2 * i + 1] = r * 10;
            } else {
                r = (v & 4) ? 5 : 4;
            }
        } else {
            if (v & 2) {
                r = 3;
                if (v & 8)
                    want[2 * i + 1] = -v;
            } else {
                r = (v & 4) ? 2 : 1;
            }
        }
        want[2 * i] = r + v;
    }
    check_i32("nested_if", want, got, 2 * N, 2);
}

static void test_loops(void **state)
{
    struct golden *g = *state;
    enum { N = 96 };
    int trip[N], got[2 * N], want[2 * N];
    for (int i = 0; i < N; i++)
        trip[i] = i < 32 ? i : (i * 7) % 40; /* warp 0: lane i runs i iterations */
    ws_devptr dt = golden_upload(g, trip, sizeof trip), dout = golden_upload(g, NULL, sizeof got);
    void *args[] = {&dt, &dout};
    golden_launch(g, "loops", 3, 32, 0, args);
    golden_download(g, got, dout, sizeof got);
    for (int i = 0; i < N; i++) {
        int n = trip[i], s = 0, t = 0;
        for (int k = 0; k < n; k++)
            s += k * k + i;
        for (int a = 0; a < (n & 7); a++)
            for (int b = 0; b <= a + (i & 3); b++)
                t += a * b + 1;
        want[2 * i] = s;
        want[2 * i + 1] = t;
    }
    check_i32("loops", want, got, 2 * N, 2);
}

static void test_break_continue(void **state)
{
    struct golden *g = *state;
    enum { N = 64 };
    int in[N], got[2 * N], want[2 * N];
    for (int i = 0; i < N; i++)
        in[i] = (i * 29) % 300;
    ws_devptr di = golden_upload(g, in, sizeof in), dout = golden_upload(g, NULL, sizeof got);
    void *args[] = {&di, &dout};
    golden_launch(g, "break_continue", 2, 32, 0, args);
    golden_download(g, got, dout, sizeof got);
    for (int i = 0; i < N; i++) {
        int v = in[i], s = 0, k;
        for (k = 0; k < 100; k++) {
            if ((k + v) % 3 == 0)
                continue;
            s += k ^ v;
            if (s > v * 4 + 50)
                break;
        }
        want[2 * i] = s;
        want[2 * i + 1] = k;
    }
    check_i32("break_continue", want, got, 2 * N, 2);
}

static void test_early_return(void **state)
{
    struct golden *g = *state;
    enum { B = 128, NB = 2, N = B * NB };
    int in[N], got[N], want[N];
    for (int i = 0; i < N; i++) {
        int t = i % B;
        int neg = (t >= 32 && t < 64)             /* warp 1 returns entirely */
                  || (t >= 64 && t < 96 && (t & 1)) /* warp 2: odd lanes return */
                  || (i >= B && t == 127);        /* block 1: the last thread */
        in[i] = neg ? -(i + 1) : i * 3;
    }
    ws_devptr di = golden_upload(g, in, sizeof in), dout = golden_upload(g, NULL, sizeof got);
    void *args[] = {&di, &dout};
    golden_launch(g, "early_return", NB, B, 0, args);
    golden_download(g, got, dout, sizeof got);
    for (int i = 0; i < N; i++) {
        int t = i % B, base = i - t;
        want[i] = in[i] < 0 ? -1 : in[i] + in[base + (t + 1) % B] * 2;
    }
    check_i32("early_return", want, got, N, 1);
}

static int collatz_steps(int v)
{
    int n = 0;
    while (v != 1 && n < 1000) {
        v = (v & 1) ? 3 * v + 1 : v / 2;
        n++;
    }
    return n;
}

static int fact_rec(int v)
{
    return v <= 1 ? 1 : v * fact_rec(v - 1);
}

static int fib_rec(int v)
{
    return v < 2 ? v : fib_rec(v - 1) + fib_rec(v - 2);
}

static void test_calls(void **state)
{
    struct golden *g = *state;
    enum { N = 96 };
    int in[N], got[3 * N], want[3 * N];
    for (int i = 0; i < N; i++)
        in[i] = (i * 53) % 400;
    ws_devptr di = golden_upload(g, in, sizeof in), dout = golden_upload(g, NULL, sizeof got);
    void *args[] = {&di, &dout};
    golden_launch(g, "calls", 3, 32, 0, args);
    golden_download(g, got, dout, sizeof got);
    for (int i = 0; i < N; i++) {
        int v = in[i], r0, r1;
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
        float f = (v & 1) ? fmaf(3.0f, (float)v, 0.5f) : fmaf((float)v, 1.0f, (float)v);
        want[3 * i] = r0;
        want[3 * i + 1] = r1;
        want[3 * i + 2] = (int)golden_f2u(f);
    }
    check_i32("calls", want, got, 3 * N, 3);
}

static void test_barrier_loop(void **state)
{
    struct golden *g = *state;
    enum { B = 128, NB = 2, N = B * NB, ITERS = 5 };
    int in[N], got[N], want[N];
    for (int i = 0; i < N; i++)
        in[i] = (i * 31) % 97 - 20;
    ws_devptr di = golden_upload(g, in, sizeof in), dout = golden_upload(g, NULL, sizeof got);
    int iters = ITERS;
    void *args[] = {&di, &dout, &iters};
    golden_launch(g, "barrier_loop", NB, B, 0, args);
    golden_download(g, got, dout, sizeof got);
    for (int b = 0; b < NB; b++) {
        int v[B], buf[B];
        for (int t = 0; t < B; t++)
            v[t] = in[b * B + t];
        for (int k = 0; k < ITERS; k++) {
            memcpy(buf, v, sizeof buf);
            for (int t = 0; t < B; t++) {
                int nv = buf[(t + k + 1) % B];
                v[t] = (nv & 1) ? v[t] + nv : v[t] - (nv >> 1);
            }
        }
        memcpy(want + b * B, v, sizeof v);
    }
    check_i32("barrier_loop", want, got, N, 1);
}

static void test_switch(void **state)
{
    struct golden *g = *state;
    enum { N = 128 };
    int in[N], got[N], want[N];
    for (int i = 0; i < N; i++)
        in[i] = (i * 13) % 200 - 60;
    ws_devptr di = golden_upload(g, in, sizeof in), dout = golden_upload(g, NULL, sizeof got);
    void *args[] = {&di, &dout};
    golden_launch(g, "switch_case", 4, 32, 0, args);
    golden_download(g, got, dout, sizeof got);
    for (int i = 0; i < N; i++) {
        int v = in[i], r;
        switch (v % 9) {
        case 0: r = v + 100; break;
        case 1: r = v * 2; break;
        case 2: /* r = v - 7, then falls through */
        case 3: r = v ^ 0x55; break;
        case 4: r = -v; break;
        case 5: r = (int)((unsigned)v << 3); break;
        case 6: r = v / 3; break;
        case 7: r = 77; break;
        default: r = v & 0xf0; break;
        }
        want[i] = r;
    }
    check_i32("switch_case", want, got, N, 1);
}

static void test_while_gcd(void **state)
{
    struct golden *g = *state;
    enum { N = 64 };
    uint32_t a[N], b[N], got[2 * N], want[2 * N];
    for (uint32_t i = 0; i < N; i++) {
        a[i] = i * 1013u + 12u;
        b[i] = (i * 389u) % 1000u;
    }
    a[3] = 832040; /* consecutive Fibonacci numbers: the longest loop */
    b[3] = 514229;
    ws_devptr da = golden_upload(g, a, sizeof a), db = golden_upload(g, b, sizeof b);
    ws_devptr dout = golden_upload(g, NULL, sizeof got);
    void *args[] = {&da, &db, &dout};
    golden_launch(g, "while_gcd", 2, 32, 0, args);
    golden_download(g, got, dout, sizeof got);
    for (int i = 0; i < N; i++) {
        uint32_t x = a[i], y = b[i], steps = 0;
        while (y) {
            uint32_t t = x % y;
            x = y;
            y = t;
            steps++;
        }
        want[2 * i] = x;
        want[2 * i + 1] = steps;
    }
    golden_check_u32("while_gcd", want, got, 2 * N, 2, NULL);
}

static int unstructured_ref(int v)
{
    int s = 0;
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
    return s * 1000 + v;
}

static void test_unstructured(void **state)
{
    struct golden *g = *state;
    enum { N = 96 };
    int in[N], got[N], want[N];
    for (int i = 0; i < N; i++)
        in[i] = (i * 11) % 46 - 5;
    ws_devptr di = golden_upload(g, in, sizeof in), dout = golden_upload(g, NULL, sizeof got);
    void *args[] = {&di, &dout};
    golden_launch(g, "unstructured", 3, 32, 0, args);
    golden_download(g, got, dout, sizeof got);
    for (int i = 0; i < N; i++)
        want[i] = unstructured_ref(in[i]);
    check_i32("unstructured", want, got, N, 1);
}

static void test_exit_in_loop(void **state)
{
    struct golden *g = *state;
    enum { N = 64 };
    int in[N], got[N], want[N];
    for (int i = 0; i < N; i++)
        in[i] = (i * 17) % 60; /* values >= 50 never exit inside the loop */
    ws_devptr di = golden_upload(g, in, sizeof in), dout = golden_upload(g, NULL, sizeof got);
    void *args[] = {&di, &dout};
    golden_launch(g, "exit_in_loop", 2, 32, 0, args);
    golden_download(g, got, dout, sizeof got);
    for (int i = 0; i < N; i++) {
        int v = in[i], s = 0, done = 0;
        for (int k = 0; k < 50 && !done; k++) {
            s += k * (v & 3) + 1;
            if (k == v) {
                want[i] = s;
                done = 1;
            }
        }
        if (!done)
            want[i] = -s;
    }
    check_i32("exit_in_loop", want, got, N, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_if_else),       cmocka_unit_test(test_nested_if),
        cmocka_unit_test(test_loops),         cmocka_unit_test(test_break_continue),
        cmocka_unit_test(test_early_return),  cmocka_unit_test(test_calls),
        cmocka_unit_test(test_barrier_loop),  cmocka_unit_test(test_switch),
        cmocka_unit_test(test_while_gcd),     cmocka_unit_test(test_unstructured),
        cmocka_unit_test(test_exit_in_loop),
    };
    return cmocka_run_group_tests(tests, setup, golden_close);
}
