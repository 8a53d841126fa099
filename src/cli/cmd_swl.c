/* cmd_swl.c: `warpsim best-swl`: the Best-SWL baseline of Rogers et al.
 * (DAWS, MICRO 2013, Table 3 and Section 5): run a workload under the static
 * warp limit swl:limit=K for every K from 1 to the warp count, verify every
 * run, print K -> IPC and the best K. */
#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

#define SWL_MAX_K 64
#define SWL_MAX_SETS 64

static void swl_usage(FILE *out)
{
    fprintf(out,
            "usage: warpsim best-swl <workload> [--config preset|file] [--size S]\n"
            "                        [--seed N] [--max K] [--scope core|scheduler]\n"
            "                        [--set key=value]...\n\n"
            "Runs the workload (timing mode) with the static warp limit swl:limit=K for\n"
            "K = 1 .. the warps per SM (scope core, the default) or per scheduler (scope\n"
            "scheduler), or 1 .. --max, verifies every run and prints IPC per K and the\n"
            "best K (the Best-SWL method of DAWS, MICRO 2013, Table 3).\n"
            "Exit status: 0 all verified, 1 a run failed, 2 usage error.\n");
}

/* Value of "key = value" in the printed configuration, or -1. */
static long config_value(const char *text, const char *key)
{
    size_t kl = strlen(key);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        while (*p == ' ')
            p++;
        if (strncmp(p, key, kl) == 0 && strncmp(p + kl, " = ", 3) == 0)
            return strtol(p + kl + 3, NULL, 10);
    }
    return -1;
}

/* Apply --config and the --set options to a fresh gpu; 0 or 2 (usage). */
static int swl_setup(ws_gpu *gpu, const char *config, const char *const *sets, int nsets)
{
    if (ws_gpu_set(gpu, "mode", "timing") != WS_OK)
        return 2;
    if (config && ws_gpu_load_config(gpu, config) != WS_OK) {
        fprintf(stderr, "warpsim best-swl: --config %s: %s\n", config, ws_last_error(gpu));
        return 2;
    }
    for (int i = 0; i < nsets; i++) {
        int rc = cli_apply_set(gpu, sets[i]);
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* Largest K to try: warps per SM (core scope) or per scheduler. */
static int swl_default_max(const char *config, const char *const *sets, int nsets, int per_sched, int *out)
{
    ws_gpu *gpu;
    if (ws_gpu_new(&gpu) != WS_OK)
        return 1;
    int rc = swl_setup(gpu, config, sets, nsets);
    char *text = NULL;
    size_t len = 0;
    FILE *f = rc == 0 ? open_memstream(&text, &len) : NULL;
    if (f) {
        ws_gpu_print_config(gpu, f);
        fclose(f);
        long warps = config_value(text, "sm.warps");
        long units = config_value(text, "sm.schedulers");
        if (warps < 1 || units < 1) {
            fprintf(stderr, "warpsim best-swl: cannot read sm.warps / sm.schedulers\n");
            rc = 1;
        } else {
            long k = per_sched ? (warps + units - 1) / units : warps;
            *out = (int)(k > SWL_MAX_K ? SWL_MAX_K : k);
        }
    } else if (rc == 0) {
        rc = 1;
    }
    free(text);
    ws_gpu_free(gpu);
    return rc;
}

int cmd_best_swl(int argc, char **argv)
{
    struct wl_args args = {.size = WL_SMALL, .seed = 1};
    const char *name = NULL, *config = NULL, *scope = "core";
    const char *sets[SWL_MAX_SETS];
    int nsets = 0, kmax = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        if (cli_is_help(a)) {
            swl_usage(stdout);
            return 0;
        }
        if (a[0] != '-') {
            if (name) {
                fprintf(stderr, "warpsim best-swl: more than one workload given ('%s', '%s')\n",
                        name, a);
                return 2;
            }
            name = a;
            continue;
        }
        if (strcmp(a, "--config") && strcmp(a, "--size") && strcmp(a, "--seed") &&
            strcmp(a, "--max") && strcmp(a, "--set") && strcmp(a, "--scope")) {
            fprintf(stderr, "warpsim best-swl: unknown option '%s'\n", a);
            return 2;
        }
        if (!(v = cli_value(argc, argv, &i)))
            return 2;
        if (!strcmp(a, "--config")) {
            config = v;
        } else if (!strcmp(a, "--size")) {
            if (wl_size_parse(v, &args.size) != WS_OK) {
                fprintf(stderr, "warpsim best-swl: --size: '%s' is not one of small, medium, "
                                "large\n", v);
                return 2;
            }
        } else if (!strcmp(a, "--seed") || !strcmp(a, "--max")) {
            char *end;
            unsigned long long n = strtoull(v, &end, 0);
            if (!*v || *v == '-' || *end || (!strcmp(a, "--max") && (n < 1 || n > SWL_MAX_K))) {
                fprintf(stderr, "warpsim best-swl: %s: '%s' is not %s\n", a, v,
                        !strcmp(a, "--max") ? "a number in 1..64" : "a non-negative integer");
                return 2;
            }
            if (!strcmp(a, "--seed"))
                args.seed = n;
            else
                kmax = (int)n;
        } else if (!strcmp(a, "--scope")) {
            if (strcmp(v, "core") && strcmp(v, "scheduler")) {
                fprintf(stderr, "warpsim best-swl: --scope: '%s' is not core or scheduler\n", v);
                return 2;
            }
            scope = v;
        } else if (nsets >= SWL_MAX_SETS) {
            fprintf(stderr, "warpsim best-swl: too many --set options\n");
            return 2;
        } else {
            sets[nsets++] = v;
        }
    }
    if (!name) {
        fprintf(stderr, "warpsim best-swl: no workload given\n");
        swl_usage(stderr);
        return 2;
    }
    const struct workload_entry *we = workload_find(name);
    if (!we) {
        fprintf(stderr, "warpsim best-swl: unknown workload '%s' (see `warpsim list`)\n", name);
        return 2;
    }
    if (!kmax) {
        int rc = swl_default_max(config, sets, nsets, !strcmp(scope, "scheduler"), &kmax);
        if (rc != 0)
            return rc;
    }
    printf("Best-SWL: %s (size %s, seed %llu), swl:limit=K,scope=%s\n", name,
           wl_size_name(args.size), (unsigned long long)args.seed, scope);
    printf("%4s %10s %12s\n", "K", "IPC", "cycles");
    int best = 0, failed = 0;
    double best_ipc = 0;
    for (int k = 1; k <= kmax; k++) {
        ws_gpu *gpu;
        if (ws_gpu_new(&gpu) != WS_OK)
            return 1;
        int rc = swl_setup(gpu, config, sets, nsets);
        char spec[96];
        snprintf(spec, sizeof spec, "swl:limit=%d,scope=%s", k, scope);
        if (rc == 0 && ws_gpu_set(gpu, "sm.sched", spec) != WS_OK) {
            fprintf(stderr, "warpsim best-swl: %s: %s\n", spec, ws_last_error(gpu));
            rc = 2;
        }
        if (rc != 0) {
            ws_gpu_free(gpu);
            return rc;
        }
        char detail[1024] = "";
        int st = workload_run(gpu, we, &args, detail, sizeof detail);
        double ipc = 0;
        uint64_t cycles = 0;
        if (st == WS_OK) {
            ws_stat_double(gpu, "gpu_ipc", &ipc);
            ws_stat(gpu, "gpu_sim_cycle", &cycles);
            printf("%4d %10.4f %12llu\n", k, ipc, (unsigned long long)cycles);
            if (ipc > best_ipc) {
                best_ipc = ipc;
                best = k;
            }
        } else {
            printf("%4d %10s %12s  %s: %s\n", k, "FAIL", "-", ws_status_name(st), detail);
            failed = 1;
        }
        fflush(stdout);
        ws_gpu_free(gpu);
    }
    if (best)
        printf("best K = %d (IPC %.4f)\n", best, best_ipc);
    return failed ? 1 : 0;
}
