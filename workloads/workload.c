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
    return we->w->run(gpu, mod, a, detail, detail_len);
}

/* splitmix64's output function: a bijective scramble of 64 bits. */
static uint64_t wl_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void wl_rng_init(struct wl_rng *r, uint64_t seed)
{
    /* Scramble the seed so that nearby seeds do not give shifted copies of
     * the same sequence (the state advances by a constant per draw). */
    r->s = wl_mix(seed ^ 0x632BE59BD9B4E019ull);
}

uint64_t wl_rng_next(struct wl_rng *r)
{
    return wl_mix(r->s += 0x9E3779B97F4A7C15ull);
}

uint32_t wl_rng_below(struct wl_rng *r, uint32_t n)
{
    return (uint32_t)(((wl_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

float wl_rng_float(struct wl_rng *r)
{
    return (float)(wl_rng_next(r) >> 40) * (1.0f / 16777216.0f);
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
