/* cmd_profile.c: `warpsim profile`: run a built-in workload functionally and
 * write the DAWS load profile (src/profile/profile.h, docs/daws.md) that
 * `--sched daws_profiled:profile=FILE` reads (Rogers et al., MICRO 2013,
 * Section 5.1: classify loads offline from an earlier run on another input). */
#include "cli/cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/gpu.h"
#include "profile/profile.h"
#include "workload.h"

static void profile_usage(FILE *out)
{
    fprintf(out,
            "usage: warpsim profile <workload> [--size small|medium|large] [--seed N]\n"
            "                       -o FILE\n\n"
            "Runs a built-in workload in functional mode and writes, per kernel and per\n"
            "global/local load inside a loop, how often it ran with > 2 active lanes, how\n"
            "many of those touched > 2 distinct 128-byte lines, its loop and its RepID:\n"
            "the load profile of Profiled-DAWS (--sched daws_profiled:profile=FILE).\n"
            "Profile one seed and run another (the paper profiles a different input).\n\n"
            "  --size S   input size (default small)\n"
            "  --seed N   input generator seed (default 2)\n"
            "  -o FILE    where to write the profile (required)\n");
}

int cmd_profile(int argc, char **argv)
{
    struct wl_args args = {.size = WL_SMALL, .seed = 2};
    const char *name = NULL, *outpath = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            profile_usage(stdout);
            return 0;
        } else if (strcmp(a, "--size") == 0) {
            const char *v = cli_value(argc, argv, &i);
            if (!v)
                return 2;
            if (wl_size_parse(v, &args.size) != WS_OK) {
                fprintf(stderr, "warpsim profile: --size: '%s' is not one of small, medium, "
                                "large\n",
                        v);
                return 2;
            }
        } else if (strcmp(a, "--seed") == 0) {
            const char *v = cli_value(argc, argv, &i);
            if (!v)
                return 2;
            char *end;
            errno = 0;
            unsigned long long s = strtoull(v, &end, 10);
            if (errno || !*v || *end || *v == '-') {
                fprintf(stderr, "warpsim profile: --seed: '%s' is not a non-negative integer\n",
                        v);
                return 2;
            }
            args.seed = s;
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            outpath = cli_value(argc, argv, &i);
            if (!outpath)
                return 2;
        } else if (a[0] == '-') {
            fprintf(stderr, "warpsim profile: unknown option '%s'\n", a);
            profile_usage(stderr);
            return 2;
        } else if (!name) {
            name = a;
        } else {
            fprintf(stderr, "warpsim profile: unexpected argument '%s'\n", a);
            return 2;
        }
    }
    if (!name || !outpath) {
        fprintf(stderr, "warpsim profile: %s\n", !name ? "which workload?" : "-o FILE is required");
        profile_usage(stderr);
        return 2;
    }
    const struct workload_entry *we = workload_find(name);
    if (!we) {
        fprintf(stderr, "warpsim profile: unknown workload '%s' (see `warpsim list`)\n", name);
        return 2;
    }
    ws_gpu *gpu;
    if (ws_gpu_new(&gpu) != WS_OK) {
        fprintf(stderr, "warpsim profile: cannot create the simulated GPU\n");
        return 1;
    }
    if (ws_gpu_set(gpu, "mode", "functional") != WS_OK) {
        fprintf(stderr, "warpsim profile: %s\n", ws_last_error(gpu));
        ws_gpu_free(gpu);
        return 1;
    }
    struct profiler *pr = profiler_new();
    gpu->trace_fn = profiler_trace;
    gpu->trace_ctx = pr;
    char detail[512] = "";
    int st = workload_run(gpu, we, &args, detail, sizeof detail);
    int rc = 0;
    if (st != WS_OK) {
        fprintf(stderr, "warpsim profile: %s failed: %s: %s\n", name, ws_status_name(st), detail);
        rc = 1;
    }
    struct load_profile *p = rc ? NULL : calloc(1, sizeof *p);
    if (!rc) {
        struct err e;
        err_clear(&e);
        char source[256];
        snprintf(source, sizeof source, "workload %s size %s seed %llu (functional run)", name,
                 wl_size_name(args.size), (unsigned long long)args.seed);
        if (!p || profiler_finish(pr, p, &e) != WS_OK ||
            profile_write_file(outpath, p, source, &e) != WS_OK) {
            fprintf(stderr, "warpsim profile: %s\n", p ? e.msg : "out of memory");
            rc = 1;
        } else {
            printf("wrote %s: %u loads in loops of %u kernels\n", outpath, p->nloads,
                   p->nkernels);
        }
    }
    free(p);
    profiler_free(pr);
    ws_gpu_free(gpu);
    return rc;
}
