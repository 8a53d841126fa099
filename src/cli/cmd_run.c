/* cmd_run.c: `warpsim list`, `warpsim run` and `warpsim options`: built-in
 * workloads and the configuration keys. */
#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

int cmd_list(int argc, char **argv)
{
    if (argc > 0 && cli_is_help(argv[0])) {
        printf("usage: warpsim list\n\nPrints every built-in workload with a one-line "
               "description.\n");
        return 0;
    }
    if (argc > 0) {
        fprintf(stderr, "warpsim list: unexpected argument '%s'\n", argv[0]);
        return 2;
    }
    for (unsigned i = 0; i < workload_count; i++)
        printf("%-14s %s\n", workload_table[i].w->name, workload_table[i].w->desc);
    return 0;
}

int cmd_options(int argc, char **argv)
{
    if (argc > 0 && cli_is_help(argv[0])) {
        printf("usage: warpsim options\n\nLists the configuration keys that "
               "`--set key=value` accepts, with their defaults.\n");
        return 0;
    }
    (void)argv;
    ws_gpu_options(stdout);
    return 0;
}

static void run_usage(FILE *out)
{
    fprintf(out,
            "usage: warpsim run <workload> [--size small|medium|large] [--seed N]\n"
            "                   [--mode functional] [--set key=value]... [--stats]\n\n"
            "Runs a built-in workload (see `warpsim list`), checks its results against\n"
            "the CPU reference and reports instruction counts.\n\n"
            "  --size S        input size (default small)\n"
            "  --seed N        input generator seed (default 1)\n"
            "  --mode M        simulation mode (same as --set mode=M)\n"
            "  --set key=value a configuration option (see `warpsim options`)\n"
            "  --stats         print every statistic counter\n"
            "Exit status: 0 verified, 1 failed or mismatched, 2 usage error.\n");
}

static int parse_seed(const char *s, uint64_t *out)
{
    char *end;
    if (!*s || *s == '-')
        return -1;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end)
        return -1;
    *out = v;
    return 0;
}

int cmd_run(int argc, char **argv)
{
    const char *name = NULL;
    struct wl_args args = {.size = WL_SMALL, .seed = 1};
    int print_stats = 0;
    ws_gpu *gpu;
    if (ws_gpu_new(&gpu) != WS_OK) {
        fprintf(stderr, "warpsim run: cannot create the GPU\n");
        return 1;
    }
    int rc = 0;
    for (int i = 0; i < argc && rc == 0; i++) {
        const char *a = argv[i], *v;
        if (cli_is_help(a)) {
            run_usage(stdout);
            ws_gpu_free(gpu);
            return 0;
        } else if (strcmp(a, "--size") == 0) {
            if (!(v = cli_value(argc, argv, &i)))
                rc = 2;
            else if (wl_size_parse(v, &args.size) != WS_OK) {
                fprintf(stderr, "warpsim run: --size: '%s' is not one of small, medium, large\n", v);
                rc = 2;
            }
        } else if (strcmp(a, "--seed") == 0) {
            if (!(v = cli_value(argc, argv, &i)))
                rc = 2;
            else if (parse_seed(v, &args.seed) != 0) {
                fprintf(stderr, "warpsim run: --seed: '%s' is not a non-negative integer\n", v);
                rc = 2;
            }
        } else if (strcmp(a, "--mode") == 0) {
            if (!(v = cli_value(argc, argv, &i)))
                rc = 2;
            else if (ws_gpu_set(gpu, "mode", v) != WS_OK) {
                fprintf(stderr, "warpsim run: --mode: %s\n", ws_last_error(gpu));
                rc = 2;
            }
        } else if (strcmp(a, "--set") == 0) {
            if (!(v = cli_value(argc, argv, &i)))
                rc = 2;
            else
                rc = cli_apply_set(gpu, v);
        } else if (strcmp(a, "--stats") == 0) {
            print_stats = 1;
        } else if (a[0] == '-') {
            fprintf(stderr, "warpsim run: unknown option '%s'\n", a);
            rc = 2;
        } else if (name) {
            fprintf(stderr, "warpsim run: more than one workload given ('%s', '%s')\n", name, a);
            rc = 2;
        } else {
            name = a;
        }
    }
    if (rc == 0 && !name) {
        fprintf(stderr, "warpsim run: no workload given\n");
        run_usage(stderr);
        rc = 2;
    }
    const struct workload_entry *we = NULL;
    if (rc == 0 && !(we = workload_find(name))) {
        fprintf(stderr, "warpsim run: unknown workload '%s' (see `warpsim list`)\n", name);
        rc = 2;
    }
    if (rc != 0) {
        ws_gpu_free(gpu);
        return rc;
    }

    char detail[1024] = "";
    int st = workload_run(gpu, we, &args, detail, sizeof detail);
    uint64_t warp_insn = 0, thread_insn = 0, kernels = 0;
    ws_stat(gpu, "warp_insn", &warp_insn);
    ws_stat(gpu, "thread_insn", &thread_insn);
    ws_stat(gpu, "kernels_launched", &kernels);
    printf("workload      %s (size %s, seed %llu)\n", name, wl_size_name(args.size),
           (unsigned long long)args.seed);
    printf("kernels       %llu\n", (unsigned long long)kernels);
    printf("warp_insn     %llu\n", (unsigned long long)warp_insn);
    printf("thread_insn   %llu\n", (unsigned long long)thread_insn);
    if (st == WS_OK)
        printf("verification  PASSED: %s\n", detail);
    else
        printf("verification  FAILED (%s): %s\n", ws_status_name(st), detail);
    if (print_stats)
        ws_stats_print(gpu, stdout);
    ws_gpu_free(gpu);
    return st == WS_OK ? 0 : 1;
}
