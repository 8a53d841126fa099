/* main.c: entry point of the `warpsim` command; dispatches subcommands and
 * answers `warpsim --version` and `warpsim help [command]`. */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *summary;
} commands[] = {
    {"list", cmd_list, "list the built-in workloads"},
    {"run", cmd_run, "run a built-in workload and verify it against its CPU reference"},
    {"compare", cmd_compare, "run workloads under several warp schedulers; compare IPC"},
    {"ptx", cmd_ptx, "parse and analyse a PTX file; print kernels, blocks, loops"},
    {"options", cmd_options, "list the configuration keys accepted by --set"},
    {"policies", cmd_policies, "list every warp scheduler, cache and DRAM policy with parameters"},
    {"exec", cmd_exec, "run a CUDA program (nvcc -cudart shared) on the simulator"},
    {"profile", cmd_profile, "write the DAWS load profile of a workload (daws_profiled)"},
    {"best-swl", cmd_best_swl, "sweep the static warp limit (swl) of a workload; best K"},
    {"sweep", cmd_sweep, "run a sweep SPEC (local processes or Slurm); `sweep status`"},
    {"results", cmd_results, "query a sweep's results (SQLite index; --where, --csv)"},
    {"report", cmd_report, "a sweep's report: HTML page and SVG/PDF figures"},
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *out)
{
    fprintf(out, "usage: warpsim <command> [options]   (warpsim help <command>)\n"
                 "       warpsim --version\n\n"
                 "commands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
}

static int find_command(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(name, commands[i].name) == 0)
            return (int)i;
    return -1;
}

/* `warpsim help [command]`: the overview, or the command's own --help. */
static int help(int argc, char **argv)
{
    if (argc == 0) {
        usage(stdout);
        return 0;
    }
    int c = find_command(argv[0]);
    if (argc > 1 || c < 0) {
        fprintf(stderr, "warpsim help: %s '%s'\n", c < 0 ? "unknown command" : "unexpected argument",
                argv[c < 0 ? 0 : 1]);
        usage(stderr);
        return 2;
    }
    char *args[] = {"--help", NULL};
    return commands[c].fn(1, args);
}

int cli_is_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

const char *cli_value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        fprintf(stderr, "warpsim: option %s needs a value\n", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

int cli_apply_set(ws_gpu *gpu, const char *assignment)
{
    const char *eq = strchr(assignment, '=');
    if (!eq || eq == assignment) {
        fprintf(stderr, "warpsim: --set expects key=value, got '%s'\n", assignment);
        return 2;
    }
    char key[128];
    size_t n = (size_t)(eq - assignment);
    if (n >= sizeof key) {
        fprintf(stderr, "warpsim: --set: key too long in '%s'\n", assignment);
        return 2;
    }
    memcpy(key, assignment, n);
    key[n] = '\0';
    if (ws_gpu_set(gpu, key, eq + 1) != WS_OK) {
        fprintf(stderr, "warpsim: --set %s: %s\n", assignment, ws_last_error(gpu));
        return 2;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || cli_is_help(argv[1])) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("warpsim %s\n", cli_revision);
        return 0;
    }
    if (strcmp(argv[1], "help") == 0)
        return help(argc - 2, argv + 2);
    int c = find_command(argv[1]);
    if (c >= 0)
        return commands[c].fn(argc - 2, argv + 2);
    fprintf(stderr, "warpsim: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
