/* workload.c: workload look-up, loading and the shared host-side helpers. */
#include "workload.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const struct workload_entry *workload_find(const char *name)
{
    for (unsigned i = 0; i < workload_count; i++)
        if (strcmp(workload_table[i].w->name, name) == 0)
            return &workload_table[i];
    return NULL;
}

const char *wl_size_name(enum wl_size s)
{
    static const char *const names[] = {"small", "medium", "large"};
    return names[s];
}

int wl_size_parse(const char *s, enum wl_size *out)
{
    for (int i = WL_SMALL; i <= WL_LARGE; i++)
        if (strcmp(s, wl_size_name(i)) == 0) {
            *out = i;
            return WS_OK;
        }
    return WS_ERR_INVALID;
}

int workload_run(ws_gpu *gpu, const struct workload_entry *we, const struct wl_args *a,
                 char *detail, size_t detail_len)
{
    ws_module *mod;
    char name[128];
    snprintf(name, sizeof name, "%s.ptx", we->w->name);
    WL_TRY(gpu, ws_module_load_string(gpu, we->ptx, name, &mod), detail, detail_len);
    /* the committed ptxas register counts (scripts/gen-ptx.sh) */
    for (const char *l = we->regs; *l;) {
        const char *nl = strchr(l, '\n');
        size_t n = nl ? (size_t)(nl - l) : strlen(l);
        char line[160], kernel[128];
        unsigned regs;
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : 0), l);
        if (line[0] != '#' && sscanf(line, "%127s %u", kernel, &regs) == 2)
            WL_TRY(gpu, ws_module_set_regs(mod, kernel, regs), detail, detail_len);
        l += n + (nl ? 1 : 0);
    }
    return we->w->run(gpu, mod, a, detail, detail_len);
}

int wl_check_u32(const char *what, const uint32_t *want, const uint32_t *got, size_t n,
                 char *detail, size_t detail_len)
{
    for (size_t i = 0; i < n; i++)
        if (want[i] != got[i]) {
            snprintf(detail, detail_len, "%s[%zu]: expected %u, got %u", what, i, want[i],
                     got[i]);
            return WS_ERR_VERIFY;
        }
    snprintf(detail, detail_len, "%zu values of %s match the CPU reference", n, what);
    return WS_OK;
}

int wl_check_i32(const char *what, const int32_t *want, const int32_t *got, size_t n,
                 char *detail, size_t detail_len)
{
    for (size_t i = 0; i < n; i++)
        if (want[i] != got[i]) {
            snprintf(detail, detail_len, "%s[%zu]: expected %d, got %d", what, i, want[i],
                     got[i]);
            return WS_ERR_VERIFY;
        }
    snprintf(detail, detail_len, "%zu values of %s match the CPU reference", n, what);
    return WS_OK;
}

int wl_check_f32(const char *what, const float *want, const float *got, size_t n,
                 float rel_tol, float abs_tol, char *detail, size_t detail_len)
{
    for (size_t i = 0; i < n; i++) {
        float diff = fabsf(want[i] - got[i]);
        if (!(diff <= abs_tol || diff <= rel_tol * fabsf(want[i]))) {
            snprintf(detail, detail_len, "%s[%zu]: expected %.9g, got %.9g", what, i,
                     (double)want[i], (double)got[i]);
            return WS_ERR_VERIFY;
        }
    }
    snprintf(detail, detail_len, "%zu values of %s match the CPU reference", n, what);
    return WS_OK;
}
