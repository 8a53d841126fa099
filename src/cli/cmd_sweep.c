/* cmd_sweep.c: `warpsim sweep`, `warpsim results` and `warpsim report`.
 * The sweep orchestration is Python 3 (tools/sweep/warpsim_sweep.py, standard
 * library plus matplotlib for reports); these commands execute it with
 * python3 ($WARPSIM_PYTHON, else Debian's /usr/bin/python3, else python3 on
 * PATH), passing this executable's path in WARPSIM so that every point runs
 * the same binary.  The script is found at <dir of the executable>/../tools/
 * sweep/ (build/warpsim in the source tree) or at $WARPSIM_SWEEP_TOOL. */
#include "cli/cli.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SWEEP_REL "/../tools/sweep/warpsim_sweep.py"

/* This executable's absolute path in self and the tool's in tool; 0 or 1. */
static int sweep_paths(char *self, size_t self_n, char *tool, size_t tool_n)
{
    ssize_t n = readlink("/proc/self/exe", self, self_n - 1);
    if (n <= 0 || (size_t)n >= self_n - 1) {
        fprintf(stderr, "warpsim: cannot resolve the path of this executable\n");
        return 1;
    }
    self[n] = '\0';
    const char *env = getenv("WARPSIM_SWEEP_TOOL");
    if (env && *env) {
        if (snprintf(tool, tool_n, "%s", env) >= (int)tool_n)
            return 1;
        return 0;
    }
    const char *slash = strrchr(self, '/');
    int dir_len = (int)(slash - self);
    if (snprintf(tool, tool_n, "%.*s%s", dir_len, self, SWEEP_REL) >= (int)tool_n)
        return 1;
    if (access(tool, R_OK) != 0) {
        fprintf(stderr,
                "warpsim: the sweep tool is not at %s (run warpsim from its build folder in "
                "the source tree, or set WARPSIM_SWEEP_TOOL)\n",
                tool);
        return 1;
    }
    return 0;
}

/* Replace this process by python3 TOOL <sub> args...; returns only on error. */
static int sweep_exec(const char *sub, int argc, char **argv)
{
    char self[PATH_MAX], tool[PATH_MAX];
    if (sweep_paths(self, sizeof self, tool, sizeof tool) != 0)
        return 2;
    char **args = calloc((size_t)argc + 4, sizeof *args);
    if (!args) {
        fprintf(stderr, "warpsim: out of memory\n");
        return 1;
    }
    const char *python = getenv("WARPSIM_PYTHON");
    if (!python || !*python)
        python = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
    args[0] = (char *)python;
    args[1] = tool;
    args[2] = (char *)sub;
    for (int i = 0; i < argc; i++)
        args[3 + i] = argv[i];
    args[argc + 3] = NULL;
    if (setenv("WARPSIM", self, 1) != 0) {
        free(args);
        return 1;
    }
    fflush(NULL);
    execvp(python, args);
    fprintf(stderr, "warpsim %s: cannot run %s (needed for sweeps; Debian: python3)\n", sub, python);
    free(args);
    return 1;
}

int cmd_sweep(int argc, char **argv)
{
    return sweep_exec("sweep", argc, argv);
}

int cmd_results(int argc, char **argv)
{
    return sweep_exec("results", argc, argv);
}

int cmd_report(int argc, char **argv)
{
    return sweep_exec("report", argc, argv);
}
