/* cmd_run.c: `warpsim list`, `warpsim run`, `warpsim compare` and
 * `warpsim options`: built-in workloads under a configuration, scheduler
 * comparisons and the configuration keys. */
#include "cli/cli.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/file.h"
#include "base/progress.h"
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
            "                   [--mode timing|functional] [--config preset|file]\n"
            "                   [--sched spec] [--threads N] [--set key=value]... [--stats]\n"
            "                   [--stats-json FILE] [--timeline FILE] [--show-config]\n"
            "                   [--quiet] [--progress]\n\n"
            "Runs a built-in workload (see `warpsim list`), checks its results against\n"
            "the CPU reference and prints the results: instructions, verification and, in\n"
            "timing mode, a summary of the statistics.\n\n"
            "  --size S          input size (default small)\n"
            "  --seed N          input generator seed (default 1)\n"
            "  --mode M          timing (default, cycle-level) or functional\n"
            "  --config X        a preset (gtx480, daws, paws, lwm, medic, cawa), a file of\n"
            "                    key = value lines or a GPGPU-Sim gpgpusim.config\n"
            "  --sched S         warp scheduler spec (same as --set sm.sched=S)\n"
            "  --threads N       host threads simulating the SMs (same as --set threads=N;\n"
            "                    default 0 = the machine's cores; results are identical)\n"
            "  --set key=value   a configuration option (see `warpsim options`)\n"
            "  --stats           print every statistic after the summary\n"
            "  --stats-json F    write configuration, totals and per-kernel statistics as JSON\n"
            "  --timeline F      write the timeline (timeline_interval cycles per row) as CSV\n"
            "  --show-config     print the configuration after the results (the keys the\n"
            "                    mode reads: functional mode reads four)\n"
            "  --quiet           print the results only (no statistics summary)\n"
            "  --progress        show the progress line (kernel, cycle, instructions,\n"
            "                    simulation rate) even when stderr is not a terminal\n"
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

/* ---- Ctrl-C ------------------------------------------------------------------------ */

/* Set by the SIGINT handler and read by the simulator (ws_gpu_set_interrupt):
 * the one object a signal handler may write, hence file scope.  The handler
 * is reset after the first Ctrl-C, so a second one kills the process. */
static volatile sig_atomic_t run_interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    run_interrupted = 1;
}

static void catch_sigint(ws_gpu *gpu)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    run_interrupted = 0;
    sigaction(SIGINT, &sa, NULL);
    ws_gpu_set_interrupt(gpu, &run_interrupted);
}

/* ---- shared configuration options ---------------------------------------------- */

/* Options that configure the gpu, applied in the order --config, --sched,
 * then --mode / --set in command-line order. */
struct gpu_opts {
    const char *config;
    const char *sched;
    const char *sets[256];
    const char *key[256]; /* sets[i] is the value of this key (--mode, --threads), or
                             NULL for key=value */
    int nsets;
    int progress; /* --progress: a progress line even when stderr is not a terminal */
};

static int opts_take(struct gpu_opts *o, int argc, char **argv, int *i, int *rc, const char *cmd)
{
    const char *a = argv[*i], *v;
    if (strcmp(a, "--progress") == 0) {
        o->progress = 1;
        return 1;
    }
    if (strcmp(a, "--config") == 0 || strcmp(a, "--sched") == 0 || strcmp(a, "--set") == 0 ||
        strcmp(a, "--mode") == 0 || strcmp(a, "--threads") == 0) {
        if (!(v = cli_value(argc, argv, i))) {
            *rc = 2;
            return 1;
        }
        if (strcmp(a, "--config") == 0) {
            o->config = v;
        } else if (strcmp(a, "--sched") == 0) {
            o->sched = v;
        } else if (o->nsets >= (int)(sizeof o->sets / sizeof o->sets[0])) {
            fprintf(stderr, "warpsim %s: too many --set options\n", cmd);
            *rc = 2;
        } else {
            o->key[o->nsets] = strcmp(a, "--mode") == 0      ? "mode"
                               : strcmp(a, "--threads") == 0 ? "threads"
                                                             : NULL;
            o->sets[o->nsets++] = v;
        }
        return 1;
    }
    return 0;
}

/* Apply the options to gpu and check the resulting configuration as a
 * launch would (ws_gpu_check): any error is a usage error (exit 2) reported
 * before anything runs. */
static int opts_apply(const struct gpu_opts *o, ws_gpu *gpu, const char *cmd, const char *sched)
{
    if (o->config && ws_gpu_load_config(gpu, o->config) != WS_OK) {
        fprintf(stderr, "warpsim %s: --config %s: %s\n", cmd, o->config, ws_last_error(gpu));
        return 2;
    }
    if (sched && ws_gpu_set(gpu, "sm.sched", sched) != WS_OK) {
        fprintf(stderr, "warpsim %s: --sched %s: %s\n", cmd, sched, ws_last_error(gpu));
        return 2;
    }
    for (int i = 0; i < o->nsets; i++) {
        if (o->key[i]) {
            if (ws_gpu_set(gpu, o->key[i], o->sets[i]) != WS_OK) {
                fprintf(stderr, "warpsim %s: --%s: %s\n", cmd, o->key[i], ws_last_error(gpu));
                return 2;
            }
            continue;
        }
        int rc = cli_apply_set(gpu, o->sets[i]);
        if (rc != 0)
            return rc;
    }
    if (ws_gpu_check(gpu) != WS_OK) {
        fprintf(stderr, "warpsim %s: %s\n", cmd, ws_last_error(gpu));
        return 2;
    }
    return 0;
}

static const char *const summary_stats[] = {
    "gpu_sim_cycle", "gpu_sim_insn", "gpu_ipc", "sched_issued", "sched_idle_no_inst",
    "sched_not_ready", "sched_pipe_stall", "sched_held_back", "l1d_miss_rate", "l2_miss_rate",
    "dram_row_hit_rate", "avg_mem_latency", "cta_disparity_avg",
};

static void print_summary(ws_gpu *gpu)
{
    uint64_t cyc;
    if (ws_stat(gpu, "gpu_sim_cycle", &cyc) != WS_OK)
        return; /* functional mode: no timing statistics */
    printf("statistics:\n");
    for (size_t i = 0; i < sizeof summary_stats / sizeof summary_stats[0]; i++) {
        double v;
        if (ws_stat_double(gpu, summary_stats[i], &v) != WS_OK)
            continue;
        if (v == (double)(uint64_t)v && v < 1e15)
            printf("  %-20s %llu\n", summary_stats[i], (unsigned long long)v);
        else
            printf("  %-20s %.4f\n", summary_stats[i], v);
    }
    uint64_t skipped_l = 0, skipped_c = 0, est = 0, bound = 0, insn = 0;
    ws_stat(gpu, "sample_skipped_launches", &skipped_l);
    ws_stat(gpu, "sample_skipped_ctas", &skipped_c);
    if (skipped_l + skipped_c == 0 || ws_stat(gpu, "sample_est_cycles", &est) != WS_OK)
        return;
    ws_stat(gpu, "sample_est_error_cycles", &bound);
    ws_stat(gpu, "gpu_sim_insn", &insn);
    printf("  sampled: %llu launches and %llu CTAs estimated, not simulated\n"
           "  %-20s %llu +- %llu (95 %%)\n  %-20s %.4f\n",
           (unsigned long long)skipped_l, (unsigned long long)skipped_c, "sample_est_cycles",
           (unsigned long long)est, (unsigned long long)bound, "sample_est_ipc",
           est ? (double)insn / (double)est : 0.0);
}

/* Open --stats-json / --timeline before the run (a path that cannot be
 * written is a usage error found before a long run, not after it). */
static int open_output(struct file_out *o, const char *path, const char *opt)
{
    struct err e;
    if (!path)
        return 0;
    if (file_out_open(o, path, &e) != WS_OK) {
        fprintf(stderr, "warpsim run: %s: %s\n", opt, e.msg);
        return 2;
    }
    return 0;
}

/* Write the statistics JSON (json) or the timeline into o and rename it
 * into place; status says whether the run completed. */
static int write_output(ws_gpu *gpu, struct file_out *o, int json, const char *status,
                        const char *reason)
{
    if (!o->f)
        return 0;
    int rc = json ? ws_stats_write_json_status(gpu, o->f, status, reason)
                  : ws_timeline_write_csv(gpu, o->f);
    struct err e;
    if (rc != WS_OK) {
        fprintf(stderr, "warpsim run: error writing '%s'\n", o->path);
        file_out_abort(o);
        return 1;
    }
    if (file_out_commit(o, &e) != WS_OK) {
        fprintf(stderr, "warpsim run: %s\n", e.msg);
        return 1;
    }
    return 0;
}

int cmd_run(int argc, char **argv)
{
    const char *name = NULL, *json = NULL, *timeline = NULL;
    struct wl_args args = {.size = WL_SMALL, .seed = 1};
    struct gpu_opts o;
    memset(&o, 0, sizeof o);
    int print_stats = 0, quiet = 0, show_config = 0;
    int rc = 0;
    for (int i = 0; i < argc && rc == 0; i++) {
        const char *a = argv[i], *v;
        if (cli_is_help(a)) {
            run_usage(stdout);
            return 0;
        } else if (opts_take(&o, argc, argv, &i, &rc, "run")) {
            continue;
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
        } else if (strcmp(a, "--stats-json") == 0) {
            if (!(json = cli_value(argc, argv, &i)))
                rc = 2;
        } else if (strcmp(a, "--timeline") == 0) {
            if (!(timeline = cli_value(argc, argv, &i)))
                rc = 2;
        } else if (strcmp(a, "--stats") == 0) {
            print_stats = 1;
        } else if (strcmp(a, "--quiet") == 0) {
            quiet = 1;
        } else if (strcmp(a, "--show-config") == 0) {
            show_config = 1;
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
    if (rc != 0)
        return rc;
    ws_gpu *gpu;
    if (ws_gpu_new(&gpu) != WS_OK) {
        fprintf(stderr, "warpsim run: cannot create the GPU\n");
        return 1;
    }
    rc = opts_apply(&o, gpu, "run", o.sched);
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
    struct file_out jout = {0}, tout = {0};
    if (rc == 0)
        rc = open_output(&jout, json, "--stats-json");
    if (rc == 0)
        rc = open_output(&tout, timeline, "--timeline");
    if (rc != 0) {
        file_out_abort(&jout);
        ws_gpu_free(gpu);
        return rc;
    }
    struct progress_line prog;
    progress_line_start(&prog);
    if (progress_wanted(o.progress))
        ws_gpu_set_progress(gpu, progress_line_report, &prog);

    catch_sigint(gpu);
    char detail[1024] = "";
    int st = workload_run(gpu, we, &args, detail, sizeof detail);
    signal(SIGINT, SIG_DFL);
    progress_line_end(&prog);
    if (st == WS_ERR_INTERRUPTED)
        fprintf(stderr, "warpsim run: interrupted: %s\n%s", detail, ws_deadlock_report(gpu));
    uint64_t warp_insn = 0, gpu_sim_insn = 0, kernels = 0;
    ws_stat(gpu, "warp_insn", &warp_insn);
    ws_stat(gpu, "gpu_sim_insn", &gpu_sim_insn);
    ws_stat(gpu, "kernels_launched", &kernels);
    printf("workload      %s (size %s, seed %llu)\n", name, wl_size_name(args.size),
           (unsigned long long)args.seed);
    printf("kernels       %llu\n", (unsigned long long)kernels);
    printf("warp_insn     %llu\n", (unsigned long long)warp_insn);
    printf("gpu_sim_insn  %llu\n", (unsigned long long)gpu_sim_insn);
    if (st == WS_OK)
        printf("verification  PASSED: %s\n", detail);
    else
        printf("verification  FAILED (%s): %s\n", ws_status_name(st), detail);
    if (st == WS_ERR_DEADLOCK && *ws_deadlock_report(gpu))
        printf("deadlock report:\n%s", ws_deadlock_report(gpu));
    if (!quiet)
        print_summary(gpu);
    if (print_stats) {
        printf("every statistic:\n");
        ws_stats_print(gpu, stdout);
    }
    if (show_config) {
        printf("configuration:\n");
        ws_gpu_print_config(gpu, stdout);
    } else if (!quiet) {
        printf("(--show-config prints the configuration; --stats-json records it)\n");
    }
    /* a verification mismatch still ran every launch: its statistics are complete */
    const char *status = st == WS_OK || st == WS_ERR_VERIFY ? "complete"
                         : st == WS_ERR_INTERRUPTED       ? "partial"
                                                          : "failed";
    char reason[1100];
    snprintf(reason, sizeof reason, "%s: %s", ws_status_name(st), detail);
    int wrc = write_output(gpu, &jout, 1, status, st == WS_OK ? NULL : reason);
    wrc |= write_output(gpu, &tout, 0, status, NULL);
    ws_gpu_free(gpu);
    if (st == WS_ERR_INTERRUPTED)
        return 130; /* as a shell reports a process stopped by SIGINT */
    return st == WS_OK && !wrc ? 0 : 1;
}

/* ---- compare ----------------------------------------------------------------------- */

static void compare_usage(FILE *out)
{
    fprintf(out,
            "usage: warpsim compare <workload[,workload...]> --sched a,b[,c...]\n"
            "                       [--config preset|file] [--size S] [--seed N]\n"
            "                       [--threads N] [--set key=value]... [--progress]\n\n"
            "Runs every workload under every warp scheduler (timing mode), verifies each\n"
            "run against its CPU reference, prints one line per finished run (workload,\n"
            "scheduler, verified, IPC, seconds) and then IPC normalised to the first\n"
            "scheduler, with the harmonic mean per scheduler.  A scheduler spec may carry parameters (name:key=value), so\n"
            "specs in the list are separated by ',' only before a name without '='.\n"
            "On a terminal (or with --progress) a progress line shows the run in flight.\n"
            "Exit status: 0 all verified, 1 a run failed, 2 usage error.\n");
}

/* Split "a,b:x=1,y=2,c" into specs: a comma starts a new spec unless the
 * next item looks like key=value (a parameter of the previous spec). */
static int split_specs(char *list, char **out, int max)
{
    int n = 0;
    char *p = list;
    while (p && *p && n < max) {
        out[n++] = p;
        char *c = p;
        for (;;) {
            c = strchr(c, ',');
            if (!c)
                break;
            char *next = c + 1;
            char *eq = strchr(next, '='), *comma = strchr(next, ',');
            char *colon = strchr(out[n - 1], ':');
            if (eq && (!comma || eq < comma) && colon && colon < c) {
                c = next; /* a parameter of the same spec */
                continue;
            }
            break;
        }
        if (c)
            *c++ = '\0';
        p = c;
    }
    return n;
}

#define COMPARE_MAX 32

int cmd_compare(int argc, char **argv)
{
    struct wl_args args = {.size = WL_SMALL, .seed = 1};
    struct gpu_opts o;
    memset(&o, 0, sizeof o);
    const char *wl_list = NULL;
    int rc = 0;
    for (int i = 0; i < argc && rc == 0; i++) {
        const char *a = argv[i], *v;
        if (cli_is_help(a)) {
            compare_usage(stdout);
            return 0;
        } else if (opts_take(&o, argc, argv, &i, &rc, "compare")) {
            continue;
        } else if (strcmp(a, "--size") == 0) {
            if (!(v = cli_value(argc, argv, &i)))
                rc = 2;
            else if (wl_size_parse(v, &args.size) != WS_OK) {
                fprintf(stderr, "warpsim compare: --size: '%s' is not one of small, medium, large\n", v);
                rc = 2;
            }
        } else if (strcmp(a, "--seed") == 0) {
            if (!(v = cli_value(argc, argv, &i)))
                rc = 2;
            else if (parse_seed(v, &args.seed) != 0) {
                fprintf(stderr, "warpsim compare: --seed: '%s' is not a non-negative integer\n", v);
                rc = 2;
            }
        } else if (a[0] == '-') {
            fprintf(stderr, "warpsim compare: unknown option '%s'\n", a);
            rc = 2;
        } else if (wl_list) {
            fprintf(stderr, "warpsim compare: give the workloads as one comma-separated list\n");
            rc = 2;
        } else {
            wl_list = a;
        }
    }
    if (rc != 0)
        return rc;
    if (!wl_list || !o.sched) {
        fprintf(stderr, "warpsim compare: %s\n", !wl_list ? "no workload given" : "--sched is required");
        compare_usage(stderr);
        return 2;
    }
    char wbuf[1024], sbuf[1024];
    snprintf(wbuf, sizeof wbuf, "%s", wl_list);
    snprintf(sbuf, sizeof sbuf, "%s", o.sched);
    char *wls[COMPARE_MAX], *specs[COMPARE_MAX];
    int nw = 0, ns = split_specs(sbuf, specs, COMPARE_MAX);
    for (char *t = strtok(wbuf, ","); t && nw < COMPARE_MAX; t = strtok(NULL, ","))
        wls[nw++] = t;
    for (int w = 0; w < nw; w++)
        if (!workload_find(wls[w])) {
            fprintf(stderr, "warpsim compare: unknown workload '%s' (see `warpsim list`)\n", wls[w]);
            return 2;
        }
    /* check every scheduler name before running anything */
    for (int s = 0; s < ns; s++) {
        ws_gpu *g;
        if (ws_gpu_new(&g) != WS_OK)
            return 1;
        rc = opts_apply(&o, g, "compare", specs[s]);
        ws_gpu_free(g);
        if (rc != 0)
            return rc;
    }
    static double ipc[COMPARE_MAX][COMPARE_MAX];
    int failed = 0, done = 0, spec_width = 0;
    for (int s = 0; s < ns; s++)
        spec_width = (int)strlen(specs[s]) > spec_width ? (int)strlen(specs[s]) : spec_width;
    struct progress_line prog;
    int tty = isatty(fileno(stderr)), show = progress_wanted(o.progress);
    for (int w = 0; w < nw; w++)
        for (int s = 0; s < ns; s++) {
            struct timespec ts0;
            clock_gettime(CLOCK_MONOTONIC, &ts0);
            ws_gpu *gpu;
            if (ws_gpu_new(&gpu) != WS_OK)
                return 1;
            ws_gpu_set(gpu, "mode", "timing");
            rc = opts_apply(&o, gpu, "compare", specs[s]);
            if (rc != 0) {
                ws_gpu_free(gpu);
                return rc;
            }
            progress_line_start(&prog);
            if (show) {
                fprintf(stderr, "%s  %s / %s ...%30s%s", tty ? "\r" : "", wls[w], specs[s], "",
                        tty ? "" : "\n");
                ws_gpu_set_progress(gpu, progress_line_report, &prog);
            }
            char detail[1024] = "";
            int st = workload_run(gpu, workload_find(wls[w]), &args, detail, sizeof detail);
            progress_line_end(&prog);
            if (st != WS_OK) {
                fprintf(stderr, "warpsim compare: %s under %s: %s: %s\n", wls[w], specs[s],
                        ws_status_name(st), detail);
                failed = 1;
                ipc[w][s] = 0;
            } else if (ws_stat_double(gpu, "gpu_ipc", &ipc[w][s]) != WS_OK) {
                ipc[w][s] = 0;
            }
            ws_gpu_free(gpu);
            if (show && tty)
                fprintf(stderr, "\r%70s\r", "");
            struct timespec ts1;
            clock_gettime(CLOCK_MONOTONIC, &ts1);
            printf("run %2d/%-2d  %-14s %-*s  %-8s  IPC %8.3f  %6.1f s\n", ++done, nw * ns, wls[w],
                   spec_width, specs[s], st == WS_OK ? "verified" : "FAILED", ipc[w][s],
                   (double)(ts1.tv_sec - ts0.tv_sec) + (double)(ts1.tv_nsec - ts0.tv_nsec) * 1e-9);
            fflush(stdout);
        }
    printf("\n");
    int width[COMPARE_MAX];
    for (int s = 0; s < ns; s++) {
        size_t l = strlen(specs[s]);
        width[s] = l > 8 ? (int)l : 8;
    }
    printf("IPC normalised to %s (size %s); the first column is %s's IPC\n", specs[0],
           wl_size_name(args.size), specs[0]);
    printf("%-14s %10s", "workload", "base IPC");
    for (int s = 0; s < ns; s++)
        printf("  %*s", width[s], specs[s]);
    printf("\n");
    double hsum[COMPARE_MAX] = {0};
    int hn[COMPARE_MAX] = {0};
    for (int w = 0; w < nw; w++) {
        printf("%-14s %10.3f", wls[w], ipc[w][0]);
        for (int s = 0; s < ns; s++) {
            double r = ipc[w][0] > 0 ? ipc[w][s] / ipc[w][0] : 0;
            if (r > 0) {
                hsum[s] += 1.0 / r;
                hn[s]++;
                printf("  %*.3f", width[s], r);
            } else {
                printf("  %*s", width[s], "FAIL");
            }
        }
        printf("\n");
    }
    printf("%-14s %10s", "hmean", "");
    for (int s = 0; s < ns; s++)
        if (hn[s])
            printf("  %*.3f", width[s], (double)hn[s] / hsum[s]);
        else
            printf("  %*s", width[s], "-");
    printf("\n");
    if (failed)
        printf("a run FAILED (see above): its IPC is shown as FAIL\n");
    else
        printf("all %d runs verified against their CPU references\n", nw * ns);
    return failed ? 1 : 0;
}
