/* cudart_report.c: what the user of a CUDA program sees when its kernels
 * fail: one short line at the first failed launch, and one summary at exit
 * (failed and refused launches per kernel, the first failure in full, the
 * reads option oob_read_zero answered with zero); the count of failed
 * launches for `warpsim exec` (WARPSIM_STATUS_FD); and the PTX the messages
 * name, written under those names (WARPSIM_DUMP_PTX). */
#include "runtime/cudart_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/demangle.h"
#include "base/file.h"
#include "runtime/fatbin.h"

/* WARPSIM_DUMP_PTX: where to write the PTX, NULL for nowhere */
static const char *dump_dir(void)
{
    const char *v = getenv("WARPSIM_DUMP_PTX");
    return v && *v ? v : NULL;
}

static struct rt_kernel_fails *kernel_entry(const char *name)
{
    for (size_t i = 0; i < rt_g.nkfails; i++)
        if (strcmp(rt_g.kfails[i].name, name) == 0)
            return &rt_g.kfails[i];
    struct rt_kernel_fails *k = ARRAY_PUSH(rt_g.kfails, rt_g.nkfails, rt_g.kfails_cap);
    memset(k, 0, sizeof *k);
    k->name = xstrdup(name);
    return k;
}

void rt_report_failed_launch(const char *kernel, cudaError_t code, const char *fn,
                             const char *msg)
{
    struct rt_kernel_fails *k = kernel_entry(kernel);
    if (k->failed++ == 0)
        k->code = code;
    if (rt_g.nfailed++ == 0) {
        char buf[512];
        free(rt_g.failure);
        rt_g.failure = xstrdup(msg);
        rt_g.failure_code = code;
        rt_g.failure_launch = rt_g.nlaunches;
        fprintf(stderr, "warpsim: %s: kernel %s failed: %s (details at exit)\n", fn,
                demangle(kernel, buf, sizeof buf), cudaGetErrorName(code));
    }
}

void rt_report_refused_launch(const char *kernel)
{
    kernel_entry(kernel)->refused++;
}

/* "N thing" / "N things" */
static const char *plural(uint64_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

static void print_summary(FILE *out)
{
    fprintf(out, "warpsim: %llu of %llu kernel %s failed:\n", (unsigned long long)rt_g.nfailed,
            (unsigned long long)rt_g.nlaunches, plural(rt_g.nlaunches, "launch", "launches"));
    for (size_t i = 0; i < rt_g.nkfails; i++) {
        const struct rt_kernel_fails *k = &rt_g.kfails[i];
        char buf[512];
        fprintf(out, "  %s:", demangle(k->name, buf, sizeof buf));
        if (k->failed)
            fprintf(out, " %llu failed (%s)", (unsigned long long)k->failed,
                    cudaGetErrorName(k->code));
        if (k->refused)
            fprintf(out, "%s %llu refused after a fault", k->failed ? "," : "",
                    (unsigned long long)k->refused);
        fputc('\n', out);
    }
    fprintf(out, "warpsim: the first, launch %llu (%s): %s\n",
            (unsigned long long)rt_g.failure_launch, cudaGetErrorName(rt_g.failure_code),
            rt_g.failure);
    if (rt_g.nrefused)
        fprintf(out,
                "warpsim: after a fault %llu CUDA %s returned the fault's error (sticky until "
                "cudaDeviceReset, as on a GPU)\n",
                (unsigned long long)rt_g.nrefused, plural(rt_g.nrefused, "call", "calls"));
    if (!dump_dir())
        fprintf(out, "warpsim: to read the PTX files named above, run again under "
                     "`warpsim exec --dump-ptx DIR`\n");
}

void rt_report_at_exit(void)
{
    uint64_t zeroed = 0;
    if (rt_g.gpu)
        ws_stat(rt_g.gpu, "oob_global_reads_zeroed", &zeroed);
    if (zeroed)
        fprintf(stderr,
                "warpsim: warning: %llu out-of-bounds global %s returned zero (option "
                "oob_read_zero); statistic oob_global_reads_zeroed\n",
                (unsigned long long)zeroed, plural(zeroed, "read", "reads"));
    if (rt_g.nfailed)
        print_summary(stderr);
    const char *fd = getenv("WARPSIM_STATUS_FD");
    if (fd && *fd) {
        char *end;
        long n = strtol(fd, &end, 10);
        if (*end == '\0' && n > 2) {
            char line[64];
            int len = snprintf(line, sizeof line, "failed_launches %llu\n",
                               (unsigned long long)rt_g.nfailed);
            if (write((int)n, line, (size_t)len) != len)
                fprintf(stderr, "warpsim: WARPSIM_STATUS_FD=%s: %s\n", fd, strerror(errno));
        }
    }
    for (size_t i = 0; i < rt_g.nkfails; i++)
        free(rt_g.kfails[i].name);
    free(rt_g.kfails);
}

/* ---- PTX dump ---------------------------------------------------------------- */

void rt_ptx_name(const struct rt_fatbin *fb, unsigned arch, char *out, size_t len)
{
    const char *dir = dump_dir();
    if (dir)
        snprintf(out, len, "%s/tu%u.compute_%u.ptx", dir, fb->index, arch);
    else
        snprintf(out, len, "tu%u.compute_%u.ptx", fb->index, arch);
}

void rt_ptx_dump(const struct rt_fatbin *fb, const char *ptx, size_t len, unsigned arch)
{
    if (!dump_dir())
        return;
    char path[4096];
    rt_ptx_name(fb, arch, path, sizeof path);
    struct file_out o;
    struct err e;
    if (file_out_open(&o, path, &e) != WS_OK) {
        fprintf(stderr, "warpsim: --dump-ptx: %s\n", e.msg);
        return;
    }
    if (fwrite(ptx, 1, len, o.f) != len) {
        fprintf(stderr, "warpsim: --dump-ptx: cannot write %s\n", path);
        file_out_abort(&o);
        return;
    }
    if (file_out_commit(&o, &e) != WS_OK)
        fprintf(stderr, "warpsim: --dump-ptx: %s\n", e.msg);
}

/* The PTX of the translation units no launch or symbol look-up loaded. */
void rt_ptx_dump_unloaded(void)
{
    if (!dump_dir())
        return;
    for (size_t i = 0; i < rt_g.nfbs; i++) {
        const struct rt_fatbin *fb = rt_g.fbs[i];
        const uint8_t *data;
        size_t len;
        struct fatbin f;
        struct err e;
        if (fb->tried || fatbin_from_wrapper(fb->wrapper, &data, &len, &e) != WS_OK ||
            fatbin_parse(data, len, &f, &e) != WS_OK)
            continue;
        size_t idx[64];
        size_t n = fatbin_ptx_order(&f, idx, 64);
        for (size_t k = 0; k < n; k++) {
            char *ptx;
            size_t plen;
            if (fatbin_entry_data(&f.entries[idx[k]], &ptx, &plen, &e) != WS_OK)
                continue;
            rt_ptx_dump(fb, ptx, plen, f.entries[idx[k]].arch);
            free(ptx);
        }
        fatbin_free(&f);
    }
}
