/* test_stats.c: the statistics registry: summed counters, ratios,
 * histograms, text/JSON output, per-kernel snapshots and the timeline CSV. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "stats/stats.h"

struct fake_sm {
    uint64_t insn;
    uint64_t pad;
    uint64_t lanes[3];
};

/* Render with a writer into a string (caller frees). */
static char *render(void (*fn)(const struct stats *, FILE *, int), const struct stats *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    fn(s, f, 0);
    fclose(f);
    return buf;
}

static void print_text(const struct stats *s, FILE *f, int indent)
{
    (void)indent;
    stats_print_text(s, f);
}

static void print_csv(const struct stats *s, FILE *f, int indent)
{
    (void)indent;
    stats_timeline_write_csv(s, f);
}

static void test_counter_sum_stride(void **state)
{
    (void)state;
    struct fake_sm sm[4] = {{.insn = 1}, {.insn = 10}, {.insn = 100}, {.insn = 1000}};
    uint64_t cycles = 7;
    struct stats *s = stats_new();
    stats_counter(s, "gpu_sim_insn", "instructions", &sm[0].insn, 4, sizeof sm[0]);
    stats_counter(s, "gpu_sim_cycle", "cycles", &cycles, 1, 0);
    uint64_t v = 0;
    assert_int_equal(stats_get_u64(s, "gpu_sim_insn", &v), 0);
    assert_int_equal(v, 1111);
    sm[2].insn = 5; /* read lazily: the registry sees the new value */
    assert_int_equal(stats_get_u64(s, "gpu_sim_insn", &v), 0);
    assert_int_equal(v, 1016);
    double d = 0;
    assert_int_equal(stats_get(s, "gpu_sim_cycle", &d), 0);
    assert_true(d == 7.0);
    assert_int_equal(stats_get(s, "nope", &d), -1);
    assert_true(d == 0.0);
    assert_int_equal(stats_get_u64(s, "nope", &v), -1);
    stats_free(s);
}

static void test_ratio(void **state)
{
    (void)state;
    uint64_t insn = 300, cycle = 0, miss = 3;
    struct stats *s = stats_new();
    stats_counter(s, "gpu_sim_insn", "", &insn, 1, 0);
    stats_counter(s, "gpu_sim_cycle", "", &cycle, 1, 0);
    stats_counter(s, "l1d_misses", "", &miss, 1, 0);
    stats_ratio(s, "gpu_ipc", "IPC", "gpu_sim_insn", "gpu_sim_cycle", 1.0);
    stats_ratio(s, "l1d_mpki", "MPKI", "l1d_misses", "gpu_sim_insn", 1000.0);
    double d = -1;
    assert_int_equal(stats_get(s, "gpu_ipc", &d), 0);
    assert_true(d == 0.0); /* zero denominator */
    cycle = 200;
    assert_int_equal(stats_get(s, "gpu_ipc", &d), 0);
    assert_true(d == 1.5);
    assert_int_equal(stats_get(s, "l1d_mpki", &d), 0);
    assert_true(d == 10.0);
    char *json = render(stats_print_json, s);
    assert_non_null(strstr(json, "\"gpu_ipc\": 1.5,"));
    assert_non_null(strstr(json, "\"l1d_mpki\": 10\n"));
    free(json);
    stats_free(s);
}

static void test_histogram_and_json(void **state)
{
    (void)state;
    struct fake_sm sm[2] = {{.insn = 4, .lanes = {1, 2, 3}}, {.insn = 6, .lanes = {10, 20, 30}}};
    static const char *const bins[] = {"W0-4", "W5-8", "W9-32"};
    struct stats *s = stats_new();
    stats_counter(s, "gpu_sim_insn", "instructions", &sm[0].insn, 2, sizeof sm[0]);
    stats_histogram(s, "lane_activity", "lanes", sm[0].lanes, 3, bins, 2, sizeof sm[0]);
    char *json = render(stats_print_json, s);
    assert_string_equal(json, "{\n"
                              "  \"gpu_sim_insn\": 10,\n"
                              "  \"lane_activity\": {\"W0-4\": 11, \"W5-8\": 22, \"W9-32\": 33}\n"
                              "}");
    free(json);
    uint64_t v;
    assert_int_equal(stats_get_u64(s, "lane_activity", &v), 0);
    assert_int_equal(v, 66);
    char *text = render(print_text, s);
    assert_non_null(strstr(text, "gpu_sim_insn"));
    assert_non_null(strstr(text, "= 10\n"));
    assert_non_null(strstr(text, "W9-32:33"));
    free(text);
    stats_free(s);
}

static void test_kernel_snapshots(void **state)
{
    (void)state;
    uint64_t insn = 0, cycle = 0;
    struct stats *s = stats_new();
    stats_counter(s, "gpu_sim_insn", "", &insn, 1, 0);
    stats_counter(s, "gpu_sim_cycle", "", &cycle, 1, 0);
    stats_ratio(s, "gpu_ipc", "", "gpu_sim_insn", "gpu_sim_cycle", 1.0);
    insn = 100;
    cycle = 50;
    stats_kernel_end(s, "k1");
    insn = 130;
    cycle = 80;
    stats_kernel_end(s, "k\"2");
    char *json = render(stats_print_kernels_json, s);
    assert_string_equal(json, "[\n"
                              "  {\n"
                              "    \"kernel\": \"k1\",\n"
                              "    \"index\": 0,\n"
                              "    \"stats\": {\n"
                              "      \"gpu_sim_insn\": 100,\n"
                              "      \"gpu_sim_cycle\": 50,\n"
                              "      \"gpu_ipc\": 2\n"
                              "    }\n"
                              "  },\n"
                              "  {\n"
                              "    \"kernel\": \"k\\\"2\",\n"
                              "    \"index\": 1,\n"
                              "    \"stats\": {\n"
                              "      \"gpu_sim_insn\": 30,\n"
                              "      \"gpu_sim_cycle\": 30,\n"
                              "      \"gpu_ipc\": 1\n"
                              "    }\n"
                              "  }\n"
                              "]");
    free(json);
    stats_free(s);

    s = stats_new();
    json = render(stats_print_kernels_json, s);
    assert_string_equal(json, "[]");
    free(json);
    stats_free(s);
}

static void test_timeline_csv(void **state)
{
    (void)state;
    uint64_t active[2] = {3, 4}, inflight = 9;
    struct stats *s = stats_new();
    stats_timeline_column(s, "active_warps", active, 2, sizeof active[0]);
    stats_timeline_column(s, "insn_in_flight", &inflight, 1, 0);
    stats_timeline_sample(s, 0);
    active[1] = 0;
    inflight = 1;
    stats_timeline_sample(s, 1000);
    char *csv = render(print_csv, s);
    assert_string_equal(csv, "cycle,active_warps,insn_in_flight\n0,7,9\n1000,3,1\n");
    free(csv);
    stats_free(s);
}

static void test_ratio_json_precision(void **state)
{
    (void)state;
    uint64_t a = 1, b = 3;
    struct stats *s = stats_new();
    stats_counter(s, "a", "", &a, 1, 0);
    stats_counter(s, "b", "", &b, 1, 0);
    stats_ratio(s, "r", "", "a", "b", 1.0);
    char *json = render(stats_print_json, s);
    assert_non_null(strstr(json, "\"r\": 0.33333333333333331\n"));
    free(json);
    stats_free(s);
}

/* A running maximum kept per SM: the largest copy, and per-kernel
 * differences of it. */
static void test_counter_max(void **state)
{
    (void)state;
    struct fake_sm sm[3] = {{.insn = 4}, {.insn = 9}, {.insn = 2}};
    struct stats *s = stats_new();
    stats_counter_max(s, "gap_max", "largest gap", &sm[0].insn, 3, sizeof sm[0]);
    stats_counter(s, "gap_sum", "gaps", &sm[0].insn, 3, sizeof sm[0]);
    uint64_t v = 0;
    assert_int_equal(stats_get_u64(s, "gap_max", &v), 0);
    assert_int_equal(v, 9);
    assert_int_equal(stats_get_u64(s, "gap_sum", &v), 0);
    assert_int_equal(v, 15);
    stats_kernel_end(s, "k0");
    sm[2].insn = 12; /* a new maximum on another SM */
    stats_kernel_end(s, "k1");
    char *json = render(stats_print_kernels_json, s);
    assert_non_null(strstr(json, "\"gap_max\": 9,")); /* k0 */
    assert_non_null(strstr(json, "\"gap_max\": 3,")); /* k1: 12 - 9 */
    free(json);
    stats_free(s);
}

/* A weighted sum of counters (energies: events x energy per event), a ratio
 * over it, and both taken per kernel from the kernel's own counts. */
static void test_weighted_sum(void **state)
{
    (void)state;
    uint64_t insn = 0, l2 = 0, cycle = 0;
    struct stats *s = stats_new();
    stats_counter(s, "gpu_sim_insn", "", &insn, 1, 0);
    stats_counter(s, "l2_accesses", "", &l2, 1, 0);
    stats_counter(s, "gpu_sim_cycle", "", &cycle, 1, 0);
    static const char *const terms[] = {"gpu_sim_insn", "l2_accesses", "gpu_sim_cycle"};
    static const double w[] = {0.5, 2.0, 0.25};
    stats_sum(s, "energy_nj", "", 3, terms, w);
    stats_ratio(s, "insn_per_nj", "", "gpu_sim_insn", "energy_nj", 1.0);
    stats_ratio(s, "ipc", "", "gpu_sim_insn", "gpu_sim_cycle", 1.0);
    stats_ratio(s, "ipc_per_nj", "", "ipc", "energy_nj", 1.0); /* a ratio of a ratio */
    double d = -1;
    assert_int_equal(stats_get(s, "insn_per_nj", &d), 0);
    assert_true(d == 0.0); /* a zero sum as denominator */
    insn = 100;
    l2 = 10;
    cycle = 40;
    stats_kernel_end(s, "k1");
    insn = 300;
    l2 = 11;
    cycle = 48;
    stats_kernel_end(s, "k2");
    assert_int_equal(stats_get(s, "energy_nj", &d), 0);
    assert_true(d == 150.0 + 22.0 + 12.0);
    assert_int_equal(stats_get(s, "insn_per_nj", &d), 0);
    assert_true(d == 300.0 / 184.0);
    assert_int_equal(stats_get(s, "ipc_per_nj", &d), 0);
    assert_true(d == 300.0 / 48.0 / 184.0);
    uint64_t u = 0;
    assert_int_equal(stats_get_u64(s, "energy_nj", &u), 0);
    assert_int_equal(u, 184);
    char *json = render(stats_print_kernels_json, s);
    /* k1: 50 + 20 + 10 = 80 nJ; k2: 100 + 2 + 2 = 104 nJ, 200 insn */
    assert_non_null(strstr(json, "\"energy_nj\": 80,"));
    assert_non_null(strstr(json, "\"insn_per_nj\": 1.25,"));
    assert_non_null(strstr(json, "\"energy_nj\": 104,"));
    assert_non_null(strstr(json, "\"insn_per_nj\": 1.9230769230769231,"));
    assert_non_null(strstr(json, "\"ipc_per_nj\": 0.03125\n")); /* k1: 2.5 / 80 */
    free(json);
    char *text = render(print_text, s);
    assert_non_null(strstr(text, "energy_nj                        = 184.0000\n"));
    free(text);
    stats_free(s);
}

/* Registering a name twice is a simulator bug: the child must abort. */
static void test_duplicate_panics(void **state)
{
    (void)state;
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        uint64_t a = 0;
        struct stats *s = stats_new();
        freopen("/dev/null", "w", stderr);
        stats_counter(s, "x", "", &a, 1, 0);
        stats_counter(s, "x", "", &a, 1, 0);
        _exit(0); /* not reached */
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_false(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counter_sum_stride),  cmocka_unit_test(test_ratio),
        cmocka_unit_test(test_histogram_and_json),  cmocka_unit_test(test_kernel_snapshots),
        cmocka_unit_test(test_timeline_csv),        cmocka_unit_test(test_ratio_json_precision),
        cmocka_unit_test(test_duplicate_panics),    cmocka_unit_test(test_weighted_sum),
        cmocka_unit_test(test_counter_max),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
