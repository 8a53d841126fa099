/* sample.c: sampled simulation (see sample.h). */
#include "api/sample.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "stats/stats.h"
#include "timing/engine.h"

#define SAMPLE_STRATUM 1.25 /* launches within 25 % of each other's work */
#define SAMPLE_MAX_STRATA 64
#define SAMPLE_RECENT 16    /* CPIs a stratum keeps: at most this many estimate */

/* Detailed launches of one stratum: their cycles per thread instruction,
 * the most recent SAMPLE_RECENT of them. */
struct sample_stratum {
    int32_t id; /* floor(log(thread instructions) / log(SAMPLE_STRATUM)) */
    uint32_t n; /* detailed launches in all */
    double cpi[SAMPLE_RECENT]; /* cpi[i % SAMPLE_RECENT] of the i-th */
};

/* Launches of one kernel alike in shape: same block, dynamic shared memory
 * and power of two of the CTA count. */
struct sample_group {
    const struct ptx_module *m;
    uint32_t func, block[3], dyn_shared, ctas_log2;
    uint64_t last_insn; /* the last launch's thread instructions: the next one's forecast */
    uint64_t launches;  /* launches of the group decided so far */
    uint32_t nstrata;
    struct sample_stratum st[SAMPLE_MAX_STRATA];
};

struct sampler {
    struct sample_group *g;
    size_t n, cap;
    uint32_t recent; /* CPIs an estimate uses: sample.kernel_detail, at most SAMPLE_RECENT */
    uint64_t detailed_launches, skipped_launches, skipped_ctas;
    uint64_t est_cycles, est_error_cycles;
};

struct sampler *sampler_new(void)
{
    return xcalloc(1, sizeof(struct sampler));
}

void sampler_free(struct sampler *s)
{
    if (s)
        free(s->g);
    free(s);
}

void sampler_register(struct sampler *s, struct stats *st)
{
    stats_counter(st, "sample_detailed_launches", "launches simulated in detail (sampling)",
                  &s->detailed_launches, 1, 0);
    stats_counter(st, "sample_skipped_launches",
                  "launches run functionally, cycles estimated (sample.kernels)",
                  &s->skipped_launches, 1, 0);
    stats_counter(st, "sample_skipped_ctas",
                  "CTAs of detailed launches run functionally, cycles estimated (sample.ctas)",
                  &s->skipped_ctas, 1, 0);
    stats_counter(st, "sample_est_cycles",
                  "core cycles: simulated ones plus the estimates of the skipped work",
                  &s->est_cycles, 1, 0);
    stats_counter(st, "sample_est_error_cycles",
                  "error bound of sample_est_cycles (sum of the estimates' bounds)",
                  &s->est_error_cycles, 1, 0);
}

static uint32_t log2_floor(uint64_t x)
{
    uint32_t l = 0;
    while (x >>= 1)
        l++;
    return l;
}

static struct sample_group *group_of(struct sampler *s, const struct func_kernel *k)
{
    uint64_t nctas = (uint64_t)k->grid[0] * k->grid[1] * k->grid[2];
    uint32_t lg = log2_floor(nctas);
    for (size_t i = 0; i < s->n; i++) {
        struct sample_group *g = &s->g[i];
        if (g->m == k->m && g->func == k->func && !memcmp(g->block, k->block, sizeof g->block) &&
            g->dyn_shared == k->dyn_shared && g->ctas_log2 == lg)
            return g;
    }
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 16;
        s->g = xrealloc(s->g, s->cap * sizeof *s->g);
    }
    struct sample_group *g = &s->g[s->n++];
    memset(g, 0, sizeof *g);
    g->m = k->m;
    g->func = k->func;
    memcpy(g->block, k->block, sizeof g->block);
    g->dyn_shared = k->dyn_shared;
    g->ctas_log2 = lg;
    return g;
}

static int32_t stratum_id(uint64_t insn)
{
    return insn ? (int32_t)floor(log((double)insn) / log(SAMPLE_STRATUM)) : -1;
}

/* Two-sided 97.5 % quantile of Student's t with n - 1 degrees of freedom. */
static double t975(uint32_t n)
{
    static const double q[] = {0, 0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306};
    return n < sizeof q / sizeof q[0] ? q[n] : 1.96;
}

/* Half-width of the 95 % confidence interval of the mean of n values with
 * this sum and sum of squares (a stratum's recent CPIs: recent_sums). */
static double ci95(uint32_t n, double sum, double sq)
{
    if (n < 2)
        return 0;
    double var = (sq - sum * sum / n) / (n - 1);
    return t975(n) * sqrt(var > 0 ? var / n : 0);
}

/* The count, sum and sum of squares of the last `recent` CPIs of t. */
static uint32_t recent_sums(const struct sample_stratum *t, uint32_t recent, double *sum,
                            double *sq)
{
    uint32_t m = t->n < recent ? t->n : recent;
    *sum = *sq = 0;
    for (uint32_t i = t->n - m; i < t->n; i++) {
        double c = t->cpi[i % SAMPLE_RECENT];
        *sum += c;
        *sq += c * c;
    }
    return m;
}

/* The stratum `id` of g, or the nearest one with detailed launches (NULL if
 * none); *exact says whether it is `id` itself. */
static const struct sample_stratum *stratum_near(const struct sample_group *g, int32_t id,
                                                 int *exact)
{
    const struct sample_stratum *best = NULL;
    for (uint32_t i = 0; i < g->nstrata; i++) {
        const struct sample_stratum *t = &g->st[i];
        if (!best || abs(t->id - id) < abs(best->id - id))
            best = t;
    }
    *exact = best && best->id == id;
    return best;
}

/* Is i a power of base (base >= 2; 1 = base^0 is one)? */
static int is_power(uint64_t i, uint32_t base)
{
    if (!i)
        return 0;
    while (i % base == 0)
        i /= base;
    return i == 1;
}

int sampler_detail(struct sampler *s, const struct gpu_config *c, const struct func_kernel *k)
{
    if (!c->sample_kernels)
        return 1;
    s->recent = c->sample_kernel_detail < SAMPLE_RECENT ? c->sample_kernel_detail : SAMPLE_RECENT;
    struct sample_group *g = group_of(s, k);
    uint64_t i = g->launches++;
    if (c->sample_kernel_resample >= 2 && is_power(i, c->sample_kernel_resample))
        return 1; /* later behaviour is measured too */
    int exact;
    const struct sample_stratum *t = stratum_near(g, stratum_id(g->last_insn), &exact);
    return !g->last_insn || !exact || t->n < c->sample_kernel_detail;
}

void sampler_skipped(struct sampler *s, const struct func_kernel *k, uint64_t insn)
{
    struct sample_group *g = group_of(s, k);
    int exact;
    const struct sample_stratum *t = stratum_near(g, stratum_id(insn), &exact);
    double sum, sq;
    uint32_t m = recent_sums(t, s->recent, &sum, &sq);
    double mean = sum / m, dev = ci95(m, sum, sq);
    if (!exact) { /* the forecast missed: the recent CPIs of every stratum of the group */
        uint32_t n = 0;
        double all = 0, allsq = 0;
        for (uint32_t i = 0; i < g->nstrata; i++) {
            n += recent_sums(&g->st[i], s->recent, &sum, &sq);
            all += sum;
            allsq += sq;
        }
        dev = fmax(ci95(n, all, allsq), fabs(all / n - mean));
    }
    g->last_insn = insn;
    s->skipped_launches++;
    s->est_cycles += (uint64_t)llround((double)insn * mean);
    s->est_error_cycles += (uint64_t)ceil((double)insn * dev);
}

/* Cycles of the `rest` thread instructions of a launch whose CTAs were only
 * partly simulated, with a 95 % bound from the batches of the steady window. */
static double extrapolate(const struct timing_window *w, double rest, double *bound)
{
    const struct timing_point *p = w->pts, *end = &w->pts[TIMING_BATCHES];
    double cpi[TIMING_BATCHES];
    uint32_t nb = 0;
    for (uint32_t j = 1; p[0].ctas && j <= TIMING_BATCHES; j++)
        if (p[j].ctas && p[j].insn > p[j - 1].insn)
            cpi[nb++] = (double)(p[j].cycle - p[j - 1].cycle) / (double)(p[j].insn - p[j - 1].insn);
    if (nb < 2 || end->insn <= p[0].insn) { /* no steady window: the launch's own rate */
        double c = w->done.insn ? rest * (double)w->done.cycle / (double)w->done.insn : 0;
        *bound = c;
        return c;
    }
    double sum = 0, sq = 0;
    for (uint32_t j = 0; j < nb; j++) {
        sum += cpi[j];
        sq += cpi[j] * cpi[j];
    }
    *bound = rest * ci95(nb, sum, sq);
    return rest * (double)(end->cycle - p[0].cycle) / (double)(end->insn - p[0].insn);
}

void sampler_detailed(struct sampler *s, const struct func_kernel *k,
                      const struct timing_window *w, uint64_t insn, uint64_t nctas,
                      uint64_t detailed_ctas)
{
    double cycles = (double)w->done.cycle, bound = 0;
    if (detailed_ctas < nctas) {
        cycles += extrapolate(w, (double)(insn - w->done.insn), &bound);
        s->skipped_ctas += nctas - detailed_ctas;
    }
    s->detailed_launches++;
    s->est_cycles += (uint64_t)llround(cycles);
    s->est_error_cycles += (uint64_t)ceil(bound);
    struct sample_group *g = group_of(s, k);
    g->last_insn = insn;
    if (!insn)
        return;
    int32_t id = stratum_id(insn);
    struct sample_stratum *t = NULL;
    for (uint32_t i = 0; i < g->nstrata && !t; i++)
        if (g->st[i].id == id)
            t = &g->st[i];
    if (!t && g->nstrata == SAMPLE_MAX_STRATA)
        return;
    if (!t) {
        t = &g->st[g->nstrata++];
        memset(t, 0, sizeof *t);
        t->id = id;
    }
    t->cpi[t->n++ % SAMPLE_RECENT] = cycles / (double)insn;
}
