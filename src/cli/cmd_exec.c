/* cmd_exec.c: `warpsim exec [options] -- ./program args`: run an unmodified
 * CUDA program (built with nvcc -cudart shared) on the simulator by putting
 * warpsim's replacement libcudart.so.13 first on LD_LIBRARY_PATH and passing
 * the settings to it through WARPSIM_* environment variables. */
#include "cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/file.h"

static void exec_usage(FILE *out)
{
    fprintf(out,
            "usage: warpsim exec [options] -- ./program [args...]\n\n"
            "Run a CUDA program built with `nvcc -cudart shared -gencode\n"
            "arch=compute_XX,code=compute_XX` on the simulated GPU.\n\n"
            "options:\n"
            "  --config NAME|FILE  GPU configuration: preset or config file (WARPSIM_CONFIG)\n"
            "  --sched SPEC        warp scheduler policy, e.g. gto, lrr (WARPSIM_SCHED)\n"
            "  --mode MODE         timing (default) or functional (WARPSIM_MODE)\n"
            "  --set KEY=VALUE     any configuration key; repeatable (WARPSIM_SET)\n"
            "  --threads N         host threads simulating the SMs (--set threads=N, after\n"
            "                      the --set options; 0 = the machine's cores)\n"
            "  --stats-json FILE   write per-kernel and total statistics at exit\n"
            "                      (WARPSIM_STATS_JSON)\n"
            "  --timeline FILE     write the timeline (a row per timeline_interval cycles,\n"
            "                      over all launches) as CSV at exit (WARPSIM_TIMELINE)\n"
            "  --stats             print the statistics on stderr at exit (WARPSIM_STATS)\n"
            "  --progress          a progress line during kernels even when stderr is not a\n"
            "                      terminal (WARPSIM_PROGRESS=1; 0 turns it off on a terminal)\n"
            "  --dump-ptx DIR      write the PTX of every translation unit to DIR under the\n"
            "                      names fault messages use, tuN.compute_XX.ptx\n"
            "                      (WARPSIM_DUMP_PTX; DIR is created if missing)\n"
            "  --keep-status       exit with the program's own status even when kernels\n"
            "                      failed (default: 1 when the program exits 0 after a\n"
            "                      failed kernel launch)\n");
}

/* Directory holding libcudart.so.13: $WARPSIM_CUDART_DIR, else lib/ next to
 * the warpsim executable (build tree), else ../lib/warpsim (installed). */
static int find_lib_dir(char *out, size_t len)
{
    const char *env = getenv("WARPSIM_CUDART_DIR");
    if (env && *env) {
        snprintf(out, len, "%s", env);
        return 0;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return -1;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    const char *cands[] = {"lib", "../lib/warpsim"};
    for (size_t i = 0; i < sizeof cands / sizeof cands[0]; i++) {
        char probe[PATH_MAX + 64];
        snprintf(probe, sizeof probe, "%s/%s/libcudart.so.13", exe, cands[i]);
        if (access(probe, R_OK) == 0) {
            size_t k = strlen(probe) - strlen("/libcudart.so.13");
            if (k >= len)
                return -1;
            memcpy(out, probe, k);
            out[k] = '\0';
            return 0;
        }
    }
    return -1;
}

/* Check the settings on a scratch GPU so mistakes are reported here, with
 * the option's name, rather than from inside the program. */
static int validate(const char *config, const char *sched, const char *mode, char **sets,
                    size_t nsets)
{
    ws_gpu *gpu;
    if (ws_gpu_new(&gpu) != WS_OK)
        return 1;
    int rc = 0;
    if (config && ws_gpu_load_config(gpu, config) != WS_OK) {
        fprintf(stderr, "warpsim exec: --config %s: %s\n", config, ws_last_error(gpu));
        rc = 2;
    } else if (mode && ws_gpu_set(gpu, "mode", mode) != WS_OK) {
        fprintf(stderr, "warpsim exec: --mode %s: %s\n", mode, ws_last_error(gpu));
        rc = 2;
    } else if (sched && ws_gpu_set(gpu, "sm.sched", sched) != WS_OK) {
        fprintf(stderr, "warpsim exec: --sched %s: %s\n", sched, ws_last_error(gpu));
        rc = 2;
    }
    for (size_t i = 0; rc == 0 && i < nsets; i++)
        rc = cli_apply_set(gpu, sets[i]);
    if (rc == 0 && ws_gpu_check(gpu) != WS_OK) {
        fprintf(stderr, "warpsim exec: %s\n", ws_last_error(gpu));
        rc = 2;
    }
    ws_gpu_free(gpu);
    return rc;
}

/* --dump-ptx DIR: created if missing (one level); must be a writable directory. */
static int check_dump_dir(const char *dir)
{
    struct stat st;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "warpsim exec: --dump-ptx %s: %s\n", dir, strerror(errno));
        return 2;
    }
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "warpsim exec: --dump-ptx %s: not a directory\n", dir);
        return 2;
    }
    if (access(dir, W_OK | X_OK) != 0) {
        fprintf(stderr, "warpsim exec: --dump-ptx %s: %s\n", dir, strerror(errno));
        return 2;
    }
    return 0;
}

/* What a file was before the run: the runtime writes its outputs through a
 * temporary file renamed into place, so a file this run wrote is a new inode. */
struct file_id {
    int exists;
    dev_t dev;
    ino_t ino;
};

static struct file_id file_id_of(const char *path)
{
    struct stat st;
    struct file_id id = {0, 0, 0};
    if (path && stat(path, &st) == 0)
        id = (struct file_id){1, st.st_dev, st.st_ino};
    return id;
}

/* Whether the file at path was written since `before` was taken. */
static int written_since(const char *path, struct file_id before)
{
    struct file_id now = file_id_of(path);
    return now.exists && (!before.exists || now.dev != before.dev || now.ino != before.ino);
}

/* Whether the statistics file at path was written by this run with status
 * "complete". */
static int stats_complete(const char *path, struct file_id before)
{
    if (!written_since(path, before))
        return 0;
    char *text;
    size_t len;
    struct err e;
    if (file_read_all(path, &text, &len, &e) != WS_OK)
        return 0;
    int ok = strstr(text, "\"status\": \"complete\"") != NULL;
    free(text);
    return ok;
}

/* Failed kernel launches the runtime reported on the status pipe: one line
 * "failed_launches N" per process that loaded it (summed). */
static unsigned long long read_failed_launches(int fd)
{
    char buf[4096];
    size_t len = 0;
    ssize_t n;
    while (len < sizeof buf - 1 && (n = read(fd, buf + len, sizeof buf - 1 - len)) != 0) {
        if (n < 0) {
            if (errno == EINTR)
                continue;
            break; /* EAGAIN: a descendant still holds the pipe open */
        }
        len += (size_t)n;
    }
    buf[len] = '\0';
    unsigned long long total = 0;
    for (char *p = buf; (p = strstr(p, "failed_launches ")) != NULL;) {
        p += strlen("failed_launches ");
        total += strtoull(p, &p, 10);
    }
    return total;
}

/* A path given to opt can be written (checked before a long run, not after). */
static int check_writable(const char *path, const char *opt)
{
    struct file_out o;
    struct err e;
    if (!path)
        return 0;
    if (file_out_open(&o, path, &e) != WS_OK) {
        fprintf(stderr, "warpsim exec: %s: %s\n", opt, e.msg);
        return 2;
    }
    file_out_abort(&o);
    return 0;
}

/* Run the program as a child and return its exit status (128 + signal when
 * killed); a program that exits 0 without the statistics or timeline it was
 * asked for (unwritable file, a failed kernel) makes the status 1, so a lost
 * result is never reported as success; so does one that exits 0 after a
 * failed kernel launch, unless keep_status. */
static int run_program(char **prog, const char *stats_json, const char *timeline,
                       int keep_status)
{
    int rc;
    if ((rc = check_writable(stats_json, "--stats-json")) != 0 ||
        (rc = check_writable(timeline, "--timeline")) != 0)
        return rc;
    /* the runtime reports failed launches on a pipe (WARPSIM_STATUS_FD) */
    int status_pipe[2];
    if (pipe2(status_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        fprintf(stderr, "warpsim exec: cannot create a pipe: %s\n", strerror(errno));
        return 1;
    }
    struct file_id stats_before = file_id_of(stats_json), timeline_before = file_id_of(timeline);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "warpsim exec: cannot fork: %s\n", strerror(errno));
        close(status_pipe[0]);
        close(status_pipe[1]);
        return 1;
    }
    if (pid == 0) {
        char fdnum[16];
        snprintf(fdnum, sizeof fdnum, "%d", status_pipe[1]);
        setenv("WARPSIM_STATUS_FD", fdnum, 1);
        fcntl(status_pipe[1], F_SETFD, 0); /* inherited by the program */
        fcntl(status_pipe[1], F_SETFL, 0);
        execvp(prog[0], prog);
        fprintf(stderr, "warpsim exec: cannot run %s: %s\n", prog[0], strerror(errno));
        _exit(127);
    }
    /* Ctrl-C reaches the program through the terminal; the wrapper waits */
    signal(SIGINT, SIG_IGN);
    close(status_pipe[1]);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            fprintf(stderr, "warpsim exec: waitpid: %s\n", strerror(errno));
            close(status_pipe[0]);
            return 1;
        }
    unsigned long long failed = read_failed_launches(status_pipe[0]);
    close(status_pipe[0]);
    rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (keep_status)
        return rc;
    if (rc == 0 && failed) {
        fprintf(stderr,
                "warpsim exec: %llu kernel %s failed (see the summary above): exit status 1, "
                "the program's was 0 (--keep-status keeps it)\n",
                failed, failed == 1 ? "launch" : "launches");
        return 1;
    }
    if (rc == 0 && stats_json && !stats_complete(stats_json, stats_before)) {
        fprintf(stderr, "warpsim exec: %s was not written with status \"complete\" "
                        "(see the messages above)\n", stats_json);
        rc = 1;
    }
    if (rc == 0 && timeline && !written_since(timeline, timeline_before)) {
        fprintf(stderr, "warpsim exec: the timeline %s was not written (see the messages "
                        "above)\n", timeline);
        rc = 1;
    }
    return rc;
}

int cmd_exec(int argc, char **argv)
{
    const char *config = NULL, *sched = NULL, *mode = NULL, *stats_json = NULL, *threads = NULL;
    const char *timeline = NULL;
    const char *dump_ptx = NULL;
    char threads_set[64];
    int stats = 0, progress = 0, keep_status = 0;
    char **sets = xcalloc((size_t)argc + 1, sizeof *sets);
    size_t nsets = 0;
    int i = 0, rc = 2;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            exec_usage(stdout);
            free(sets);
            return 0;
        }
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (a[0] != '-')
            break; /* the program, without "--" */
        const char **slot = strcmp(a, "--config") == 0       ? &config
                            : strcmp(a, "--sched") == 0      ? &sched
                            : strcmp(a, "--mode") == 0       ? &mode
                            : strcmp(a, "--stats-json") == 0 ? &stats_json
                            : strcmp(a, "--timeline") == 0   ? &timeline
                            : strcmp(a, "--dump-ptx") == 0   ? &dump_ptx
                            : strcmp(a, "--threads") == 0    ? &threads
                                                             : NULL;
        if (slot) {
            if (!(*slot = cli_value(argc, argv, &i)))
                goto out;
        } else if (strcmp(a, "--set") == 0) {
            const char *v = cli_value(argc, argv, &i);
            if (!v)
                goto out;
            if (strchr(v, ';')) {
                fprintf(stderr, "warpsim exec: --set %s: values cannot contain ';'\n", v);
                goto out;
            }
            sets[nsets++] = (char *)v;
        } else if (strcmp(a, "--stats") == 0) {
            stats = 1;
        } else if (strcmp(a, "--progress") == 0) {
            progress = 1;
        } else if (strcmp(a, "--keep-status") == 0) {
            keep_status = 1;
        } else {
            fprintf(stderr, "warpsim exec: unknown option '%s'\n", a);
            exec_usage(stderr);
            goto out;
        }
    }
    if (i >= argc) {
        fprintf(stderr, "warpsim exec: no program given\n");
        exec_usage(stderr);
        goto out;
    }
    if (threads) {
        if (strlen(threads) > 20 || strchr(threads, ';')) {
            fprintf(stderr, "warpsim exec: --threads %s: not a thread count\n", threads);
            goto out;
        }
        snprintf(threads_set, sizeof threads_set, "threads=%s", threads);
        sets[nsets++] = threads_set;
    }
    if ((rc = validate(config, sched, mode, sets, nsets)) != 0)
        goto out;
    if (dump_ptx && (rc = check_dump_dir(dump_ptx)) != 0)
        goto out;
    char dir[PATH_MAX];
    if (find_lib_dir(dir, sizeof dir) != 0) {
        fprintf(stderr, "warpsim exec: cannot find libcudart.so.13 (build the cudart13 target, "
                        "or set WARPSIM_CUDART_DIR)\n");
        rc = 1;
        goto out;
    }
    const char *old = getenv("LD_LIBRARY_PATH");
    size_t need = strlen(dir) + (old ? strlen(old) : 0) + 2;
    char *ld = xmalloc(need);
    snprintf(ld, need, "%s%s%s", dir, old && *old ? ":" : "", old && *old ? old : "");
    setenv("LD_LIBRARY_PATH", ld, 1);
    free(ld);
    if (config)
        setenv("WARPSIM_CONFIG", config, 1);
    if (sched)
        setenv("WARPSIM_SCHED", sched, 1);
    if (mode)
        setenv("WARPSIM_MODE", mode, 1);
    if (stats_json)
        setenv("WARPSIM_STATS_JSON", stats_json, 1);
    if (timeline)
        setenv("WARPSIM_TIMELINE", timeline, 1);
    if (stats)
        setenv("WARPSIM_STATS", "1", 1);
    if (progress)
        setenv("WARPSIM_PROGRESS", "1", 1);
    if (dump_ptx)
        setenv("WARPSIM_DUMP_PTX", dump_ptx, 1);
    if (nsets) {
        size_t len = 1;
        for (size_t k = 0; k < nsets; k++)
            len += strlen(sets[k]) + 1;
        char *joined = xcalloc(len, 1);
        for (size_t k = 0; k < nsets; k++) {
            if (k)
                strcat(joined, ";");
            strcat(joined, sets[k]);
        }
        setenv("WARPSIM_SET", joined, 1);
        free(joined);
    }
    free(sets);
    return run_program(&argv[i], stats_json, timeline, keep_status);
out:
    free(sets);
    return rc;
}
