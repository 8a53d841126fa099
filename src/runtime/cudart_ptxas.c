/* cudart_ptxas.c: registers per thread from ptxas for the kernels of a CUDA
 * program run through `warpsim exec` (configuration key ptx.ptxas_regs).
 * GPGPU-Sim 3.x sizes a CTA's registers with the count ptxas -v reports for
 * the program's PTX ("Used N registers"); the built-in workloads carry that
 * count in their .regs files, and this does the same for a program's PTX when
 * it is loaded: the PTX goes to a temporary file, ptxas compiles it for the
 * PTX's own target (-arch=sm_XX from compute_XX) and each entry's count goes
 * to ws_module_set_regs.  The counts depend on the ptxas release, so a study
 * records it beside the results.  ptxas is $WARPSIM_PTXAS, else ptxas on
 * PATH, else /usr/local/cuda/bin/ptxas. */
#include "runtime/cudart_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/alloc.h"

/* The ptxas to run, or NULL (msg says why). */
static const char *find_ptxas(char *buf, size_t len, char *msg, size_t msglen)
{
    const char *env = getenv("WARPSIM_PTXAS");
    if (env && *env) {
        if (access(env, X_OK) != 0) {
            snprintf(msg, msglen, "WARPSIM_PTXAS=%s is not an executable", env);
            return NULL;
        }
        return env;
    }
    const char *path = getenv("PATH");
    while (path && *path) {
        const char *end = strchr(path, ':');
        size_t n = end ? (size_t)(end - path) : strlen(path);
        if (n && (size_t)snprintf(buf, len, "%.*s/ptxas", (int)n, path) < len &&
            access(buf, X_OK) == 0)
            return buf;
        path = end ? end + 1 : NULL;
    }
    if (access("/usr/local/cuda/bin/ptxas", X_OK) == 0)
        return "/usr/local/cuda/bin/ptxas";
    snprintf(msg, msglen, "no ptxas on PATH or in /usr/local/cuda/bin (set WARPSIM_PTXAS)");
    return NULL;
}

/* Run ptxas on file for sm_arch; its output (stdout and stderr) in *out.
 * 0 when it exited 0. */
static int run_ptxas(const char *ptxas, const char *file, unsigned arch, char **out,
                     char *msg, size_t msglen)
{
    char archopt[32];
    snprintf(archopt, sizeof archopt, "-arch=sm_%u", arch);
    int fd[2];
    if (pipe(fd) != 0) {
        snprintf(msg, msglen, "pipe: %s", strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(msg, msglen, "fork: %s", strerror(errno));
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        close(fd[0]);
        close(fd[1]);
        execl(ptxas, "ptxas", archopt, "-v", file, "-o", "/dev/null", (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    size_t n = 0, cap = 4096;
    char *text = xmalloc(cap);
    for (;;) {
        if (n + 1 >= cap)
            text = xrealloc(text, cap *= 2);
        ssize_t r = read(fd[0], text + n, cap - n - 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    text[n] = '\0';
    close(fd[0]);
    int status = 0;
    pid_t w;
    while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    *out = text;
    if (w < 0) { /* e.g. the program's own SIGCHLD handler reaped it: no status to trust */
        snprintf(msg, msglen, "%s %s: waitpid: %s", ptxas, archopt, strerror(errno));
        return -1;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    const char *line = strstr(text, "error");
    size_t l = line ? strcspn(line, "\n") : 0;
    snprintf(msg, msglen, "%s %s failed (%s %d)%s%.*s", ptxas, archopt,
             WIFEXITED(status) ? "exit status" : "signal",
             WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), line ? ": " : "",
             (int)(l > 300 ? 300 : l), line ? line : "");
    return -1;
}

static int ptxas_counts(ws_module *mod, const char *ptx, size_t len, unsigned arch,
                        const char *name, char *msg, size_t msglen)
{
    char buf[4096];
    const char *ptxas = find_ptxas(buf, sizeof buf, msg, msglen);
    if (!ptxas)
        return -1;
    const char *dir = getenv("TMPDIR");
    char file[4096];
    snprintf(file, sizeof file, "%s/warpsim-ptxas-XXXXXX.ptx", dir && *dir ? dir : "/tmp");
    int fd = mkstemps(file, 4);
    if (fd < 0) {
        snprintf(msg, msglen, "cannot create a temporary file for ptxas: %s", strerror(errno));
        return -1;
    }
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, ptx + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            snprintf(msg, msglen, "cannot write %s: %s", file, strerror(errno));
            close(fd);
            unlink(file);
            return -1;
        }
        off += (size_t)w;
    }
    close(fd);
    char *out = NULL;
    int rc = run_ptxas(ptxas, file, arch, &out, msg, msglen);
    unlink(file);
    /* "Compiling entry function 'K' for 'sm_XX'", later "Used N registers" */
    for (const char *p = out; rc == 0 && (p = strstr(p, "Compiling entry function '"));) {
        p += strlen("Compiling entry function '");
        size_t kl = strcspn(p, "'\n");
        char kernel[1024];
        snprintf(kernel, sizeof kernel, "%.*s", (int)(kl < sizeof kernel ? kl : sizeof kernel - 1),
                 p);
        const char *next = strstr(p, "Compiling entry function '");
        const char *used = strstr(p, "Used ");
        unsigned regs = 0;
        if (!used || (next && used > next) || sscanf(used, "Used %u registers", &regs) != 1) {
            snprintf(msg, msglen, "%s: ptxas printed no register count for %s", name, kernel);
            rc = -1;
            break;
        }
        /* a kernel that needs none (0) keeps no limit on its CTAs: leave it out */
        if (regs && ws_module_set_regs(mod, kernel, regs) != WS_OK) {
            snprintf(msg, msglen, "%s: ptxas names a kernel %s (%u registers) the module lacks",
                     name, kernel, regs);
            rc = -1;
            break;
        }
    }
    free(out);
    return rc;
}

int rt_ptxas_regs(ws_module *mod, const char *ptx, size_t len, unsigned arch, const char *name,
                  char *msg, size_t msglen)
{
    char why[8192] = "";
    if (ptxas_counts(mod, ptx, len, arch, name, why, sizeof why) == 0)
        return 0;
    snprintf(msg, msglen, "ptx.ptxas_regs: %s", why);
    return -1;
}
