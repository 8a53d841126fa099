/* test_printf.c: golden test of device printf in PTX produced by nvcc
 * (tests/ptx/printf.cu): vprintf with ints, floats, doubles, strings, chars,
 * long long, width/precision flags, '*' widths and precisions, hh/h, %a, %p
 * and %%, from converged and divergent code.
 * The output is captured through ws_gpu_set_output on a tmpfile() and
 * compared with the text the host's printf produces for the same formats. */
#include "golden.h"

static int setup(void **state)
{
    return golden_open(state, "tests/ptx/printf.ptx");
}

/* Run `kernel` with output captured; returns a malloc'ed NUL-terminated text. */
static char *capture(struct golden *g, const char *kernel, uint32_t grid, uint32_t block,
                     void **args)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    ws_gpu_set_output(g->gpu, f);
    golden_launch(g, kernel, grid, block, 0, args);
    GOLDEN_OK(g, ws_synchronize(g->gpu));
    ws_gpu_set_output(g->gpu, stdout);
    fflush(f);
    long len = ftell(f);
    assert_true(len >= 0);
    rewind(f);
    char *text = calloc(1, (size_t)len + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    return text;
}

static void append(char *buf, size_t cap, const char *fmt, ...)
{
    size_t used = strlen(buf);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, cap - used, fmt, ap);
    va_end(ap);
}

static void test_basic(void **state)
{
    struct golden *g = *state;
    int a = 1234;
    float f = 3.14159f;
    double d = -2.5e-7;
    void *args[] = {&a, &f, &d};
    char *text = capture(g, "print_basic", 1, 4, args);
    char want[1024] = "";
    for (int t = 0; t < 4; t++)
        append(want, sizeof want, "hello from thread %d of block %d\n", t, 0);
    append(want, sizeof want, "int %d neg %d hex %x unsigned %u\n", a, -a, a, (unsigned)a);
    append(want, sizeof want, "float %f %.3f %e double %g\n", (double)f, (double)f,
           (double)f * 100.0, d);
    append(want, sizeof want, "string %s char %c long %lld pct 100%%\n", "warpsim", 'Z',
           -1234567890123ll);
    append(want, sizeof want, "padded [%5d] [%-5d] [%05.1f]\n", a, a, (double)f);
    append(want, sizeof want, "no arguments\n");
    assert_string_equal(text, want);
    free(text);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Several blocks: the order of blocks is not specified, so compare the sorted lines. */
static void test_blocks(void **state)
{
    struct golden *g = *state;
    int a = -7;
    float f = 0.5f;
    double d = 1e10;
    void *args[] = {&a, &f, &d};
    char *text = capture(g, "print_basic", 3, 2, args);
    char *lines[64];
    int n = 0;
    for (char *p = strtok(text, "\n"); p && n < 64; p = strtok(NULL, "\n"))
        lines[n++] = p;
    assert_int_equal(n, 6 + 5);
    qsort(lines, (size_t)n, sizeof(char *), cmp_str);
    char want[16][128];
    int m = 0;
    for (int b = 0; b < 3; b++)
        for (int t = 0; t < 2; t++)
            snprintf(want[m++], 128, "hello from thread %d of block %d", t, b);
    snprintf(want[m++], 128, "int %d neg %d hex %x unsigned %u", a, -a, a, (unsigned)a);
    snprintf(want[m++], 128, "float %f %.3f %e double %g", (double)f, (double)f,
             (double)f * 100.0, d);
    snprintf(want[m++], 128, "string %s char %c long %lld pct 100%%", "warpsim", 'Z',
             -1234567890123ll);
    snprintf(want[m++], 128, "padded [%5d] [%-5d] [%05.1f]", a, a, (double)f);
    snprintf(want[m++], 128, "no arguments");
    char *wl[16];
    for (int i = 0; i < m; i++)
        wl[i] = want[i];
    qsort(wl, (size_t)m, sizeof(char *), cmp_str);
    for (int i = 0; i < n; i++)
        assert_string_equal(lines[i], wl[i]);
    free(text);
}

static void test_divergent(void **state)
{
    struct golden *g = *state;
    int in[32];
    for (int i = 0; i < 32; i++)
        in[i] = (i * 7) % 10 - 3;
    ws_devptr di = golden_upload(g, in, sizeof in);
    void *args[] = {&di};
    char *text = capture(g, "print_divergent", 1, 32, args);
    char want[2048] = "";
    for (int t = 0; t < 32; t++)
        if (in[t] & 1)
            append(want, sizeof want, "odd %d at %u\n", in[t], (unsigned)t);
    assert_string_equal(text, want);
    free(text);
}

/* '*' width and precision arguments, hh/h narrowing, %a and %p (issue 15). */
static void test_star_and_short(void **state)
{
    struct golden *g = *state;
    int w = 7, prec = 2, v = 70000 + 300;
    double d = -1234.5678;
    void *args[] = {&w, &prec, &v, &d};
    char *text = capture(g, "print_star", 1, 1, args);
    char want[1024] = "";
    append(want, sizeof want, "[%*d] [%-*d] [%*d] [%.*f] [%*.*e] [%*s]\n", w, v, w, v, -w, v,
           prec, d, w, prec, d, w, "s");
    append(want, sizeof want, "[%hhd] [%hhu] [%hd] [%hx] [%a] [%p]\n", (signed char)v,
           (unsigned char)v, (short)v, (unsigned short)v, d, (void *)0xabc0ULL);
    assert_string_equal(text, want);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic),
        cmocka_unit_test(test_blocks),
        cmocka_unit_test(test_divergent),
        cmocka_unit_test(test_star_and_short),
    };
    return cmocka_run_group_tests(tests, setup, golden_close);
}
