/* stats.c: the statistics registry: named counters, ratios and histograms
 * read through registered pointers, text and JSON writers, per-kernel
 * snapshots and the timeline sampler. */
#include "stats/stats.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/log.h"

enum stat_kind { STAT_COUNTER, STAT_RATIO, STAT_HISTOGRAM, STAT_SUM };

struct stat_entry {
    char *name;
    char *desc;
    enum stat_kind kind;
    const uint64_t *ptr; /* counter: the value; histogram: bin 0 of copy 0 */
    uint32_t count;      /* copies summed (or, max set, their largest) */
    uint8_t max;         /* stats_counter_max */
    size_t stride;       /* bytes between copies */
    uint32_t nbins;      /* histogram bins (1 for a counter, 0 for a ratio) */
    char **bin_names;
    uint32_t num, den;   /* ratio: entry indices of its operands */
    double scale;
    uint32_t nterms;     /* sum: entry indices of its counters and their weights */
    uint32_t *term;
    double *weight;
    uint32_t slot;       /* first index into a flat value vector (counters, bins) */
};

struct timeline_col {
    char *name;
    const uint64_t *ptr;
    uint32_t count;
    size_t stride;
};

struct kernel_snap {
    char *label;
    uint64_t *values; /* nslots values: differences since the previous snapshot */
    uint32_t nslots;
};

struct stats {
    struct stat_entry *e;
    size_t n, cap;
    uint32_t nslots;

    uint32_t *hash; /* open addressing: entry index + 1, 0 = empty */
    size_t hash_cap;

    uint64_t *base; /* values at the previous kernel_end, nslots long */
    uint32_t base_len;
    struct kernel_snap *k;
    size_t nk, kcap;

    char prefix[32]; /* stats_set_prefix */

    struct timeline_col *cols;
    size_t ncols, colcap;
    uint64_t *rows; /* nrows * (ncols + 1): cycle then columns */
    size_t nrows, rowcap;
};

/* ---- name index ------------------------------------------------------------ */

static uint64_t stats_hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return h;
}

static long stats_find(const struct stats *s, const char *name)
{
    if (!s->hash_cap)
        return -1;
    size_t mask = s->hash_cap - 1;
    for (size_t i = stats_hash_str(name) & mask;; i = (i + 1) & mask) {
        uint32_t v = s->hash[i];
        if (!v)
            return -1;
        if (strcmp(s->e[v - 1].name, name) == 0)
            return (long)(v - 1);
    }
}

static void stats_hash_insert(uint32_t *tab, size_t cap, const char *name, uint32_t idx)
{
    size_t mask = cap - 1;
    size_t i = stats_hash_str(name) & mask;
    while (tab[i])
        i = (i + 1) & mask;
    tab[i] = idx + 1;
}

/* name with the current prefix, in buf */
static const char *stats_prefixed(const struct stats *s, const char *name, char *buf, size_t n)
{
    if (!s->prefix[0] || !name)
        return name;
    snprintf(buf, n, "%s%s", s->prefix, name);
    return buf;
}

void stats_set_prefix(struct stats *s, const char *prefix)
{
    ws_assert(!prefix || strlen(prefix) < sizeof s->prefix);
    snprintf(s->prefix, sizeof s->prefix, "%s", prefix ? prefix : "");
}

static struct stat_entry *stats_add(struct stats *s, const char *name_in, const char *desc,
                                    enum stat_kind kind)
{
    char buf[256];
    const char *name = stats_prefixed(s, name_in, buf, sizeof buf);
    ws_assert(name && *name);
    if (stats_find(s, name) >= 0)
        panic("statistic '%s' registered twice", name);
    if ((s->n + 1) * 2 > s->hash_cap) {
        size_t cap = s->hash_cap ? s->hash_cap * 2 : 64;
        uint32_t *tab = xcalloc(cap, sizeof *tab);
        for (size_t i = 0; i < s->n; i++)
            stats_hash_insert(tab, cap, s->e[i].name, (uint32_t)i);
        free(s->hash);
        s->hash = tab;
        s->hash_cap = cap;
    }
    stats_hash_insert(s->hash, s->hash_cap, name, (uint32_t)s->n);
    struct stat_entry *x = ARRAY_PUSH(s->e, s->n, s->cap);
    memset(x, 0, sizeof *x);
    x->name = xstrdup(name);
    x->desc = xstrdup(desc ? desc : "");
    x->kind = kind;
    x->slot = s->nslots;
    return x;
}

/* ---- registration ---------------------------------------------------------- */

struct stats *stats_new(void)
{
    return xcalloc(1, sizeof(struct stats));
}

void stats_free(struct stats *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++) {
        free(s->e[i].name);
        free(s->e[i].desc);
        for (uint32_t b = 0; s->e[i].bin_names && b < s->e[i].nbins; b++)
            free(s->e[i].bin_names[b]);
        free(s->e[i].bin_names);
        free(s->e[i].term);
        free(s->e[i].weight);
    }
    free(s->e);
    free(s->hash);
    free(s->base);
    for (size_t i = 0; i < s->nk; i++) {
        free(s->k[i].label);
        free(s->k[i].values);
    }
    free(s->k);
    for (size_t i = 0; i < s->ncols; i++)
        free(s->cols[i].name);
    free(s->cols);
    free(s->rows);
    free(s);
}

void stats_counter(struct stats *s, const char *name, const char *desc, const uint64_t *ptr,
                   uint32_t count, size_t stride)
{
    ws_assert(ptr && count >= 1);
    struct stat_entry *x = stats_add(s, name, desc, STAT_COUNTER);
    x->ptr = ptr;
    x->count = count;
    x->stride = stride;
    x->nbins = 1;
    s->nslots += 1;
}

void stats_counter_max(struct stats *s, const char *name, const char *desc, const uint64_t *ptr,
                       uint32_t count, size_t stride)
{
    stats_counter(s, name, desc, ptr, count, stride);
    s->e[s->n - 1].max = 1;
}

/* Index of the counter, sum or ratio an operand names: with the current
 * prefix first, then as given; panics otherwise (histograms have no single
 * value). */
static uint32_t stats_operand(const struct stats *s, const char *what, const char *name,
                              const char *op)
{
    char buf[256];
    long i = stats_find(s, stats_prefixed(s, op, buf, sizeof buf));
    if (i < 0)
        i = stats_find(s, op);
    if (i < 0 || s->e[i].kind == STAT_HISTOGRAM)
        panic("%s '%s': operand '%s' is not a registered counter, sum or ratio", what, name,
              op);
    return (uint32_t)i;
}

void stats_ratio(struct stats *s, const char *name, const char *desc, const char *num,
                 const char *den, double scale)
{
    uint32_t in = stats_operand(s, "ratio", name, num);
    uint32_t id = stats_operand(s, "ratio", name, den);
    struct stat_entry *x = stats_add(s, name, desc, STAT_RATIO);
    x->num = in;
    x->den = id;
    x->scale = scale;
}

void stats_sum(struct stats *s, const char *name, const char *desc, uint32_t nterms,
               const char *const *terms, const double *weights)
{
    ws_assert(nterms >= 1 && terms && weights);
    uint32_t *idx = xcalloc(nterms, sizeof *idx);
    for (uint32_t i = 0; i < nterms; i++)
        idx[i] = stats_operand(s, "sum", name, terms[i]);
    struct stat_entry *x = stats_add(s, name, desc, STAT_SUM);
    x->nterms = nterms;
    x->term = idx;
    x->weight = xcalloc(nterms, sizeof *x->weight);
    memcpy(x->weight, weights, nterms * sizeof *x->weight);
}

void stats_histogram(struct stats *s, const char *name, const char *desc, const uint64_t *bins,
                     uint32_t nbins, const char *const *bin_names, uint32_t count, size_t stride)
{
    ws_assert(bins && nbins >= 1 && count >= 1 && bin_names);
    struct stat_entry *x = stats_add(s, name, desc, STAT_HISTOGRAM);
    x->ptr = bins;
    x->nbins = nbins;
    x->count = count;
    x->stride = stride;
    x->bin_names = xcalloc(nbins, sizeof *x->bin_names);
    for (uint32_t b = 0; b < nbins; b++) {
        ws_assert(bin_names[b]);
        x->bin_names[b] = xstrdup(bin_names[b]);
    }
    s->nslots += nbins;
}

/* ---- reading --------------------------------------------------------------- */

static uint64_t stats_read(const uint64_t *p, uint32_t count, size_t stride)
{
    uint64_t sum = 0;
    for (uint32_t i = 0; i < count; i++)
        sum += *(const uint64_t *)(const void *)((const char *)p + (size_t)i * stride);
    return sum;
}

static uint64_t stats_bin(const struct stat_entry *x, uint32_t bin)
{
    if (!x->max)
        return stats_read(x->ptr + bin, x->count, x->stride);
    uint64_t m = 0;
    for (uint32_t i = 0; i < x->count; i++) {
        uint64_t v = *(const uint64_t *)(const void *)((const char *)(x->ptr + bin) +
                                                       (size_t)i * x->stride);
        if (v > m)
            m = v;
    }
    return m;
}

/* All counter and bin values into v (nslots long). */
static void stats_read_all(const struct stats *s, uint64_t *v)
{
    for (size_t i = 0; i < s->n; i++) {
        const struct stat_entry *x = &s->e[i];
        if (x->kind == STAT_RATIO || x->kind == STAT_SUM)
            continue;
        for (uint32_t b = 0; b < x->nbins; b++)
            v[x->slot + b] = stats_bin(x, b);
    }
}

/* A counter's, sum's or ratio's value, from v (nslots long) or, v NULL, read now. */
static double stats_scalar_of(const struct stats *s, const struct stat_entry *x, const uint64_t *v)
{
    switch (x->kind) {
    case STAT_COUNTER:
        return (double)(v ? v[x->slot] : stats_bin(x, 0));
    case STAT_SUM: {
        double sum = 0.0;
        for (uint32_t i = 0; i < x->nterms; i++)
            sum += x->weight[i] * stats_scalar_of(s, &s->e[x->term[i]], v);
        return sum;
    }
    case STAT_RATIO: {
        double den = stats_scalar_of(s, &s->e[x->den], v);
        if (den == 0.0)
            return 0.0;
        double r = x->scale * stats_scalar_of(s, &s->e[x->num], v) / den;
        return isfinite(r) ? r : 0.0;
    }
    case STAT_HISTOGRAM:
        break;
    }
    panic("statistic '%s' has no single value", x->name);
}

int stats_get(const struct stats *s, const char *name, double *out)
{
    long i = stats_find(s, name);
    *out = 0.0;
    if (i < 0)
        return -1;
    const struct stat_entry *x = &s->e[i];
    if (x->kind == STAT_RATIO || x->kind == STAT_SUM) {
        *out = stats_scalar_of(s, x, NULL);
    } else {
        uint64_t sum = 0;
        for (uint32_t b = 0; b < x->nbins; b++)
            sum += stats_bin(x, b);
        *out = (double)sum;
    }
    return 0;
}

int stats_get_u64(const struct stats *s, const char *name, uint64_t *out)
{
    long i = stats_find(s, name);
    *out = 0;
    if (i < 0)
        return -1;
    const struct stat_entry *x = &s->e[i];
    if (x->kind == STAT_RATIO || x->kind == STAT_SUM) {
        double r = stats_scalar_of(s, x, NULL);
        *out = r > 0 ? (uint64_t)r : 0;
    } else {
        for (uint32_t b = 0; b < x->nbins; b++)
            *out += stats_bin(x, b);
    }
    return 0;
}

/* ---- writers --------------------------------------------------------------- */

static void stats_json_string(FILE *out, const char *str)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)str; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

static void stats_json_double(FILE *out, double d)
{
    if (!isfinite(d))
        d = 0.0;
    char buf[64];
    snprintf(buf, sizeof buf, "%.17g", d);
    /* keep it a JSON number: "1e+20" is fine, "inf" never happens here */
    fputs(buf, out);
}

/* The members of one JSON object from the value vector v. */
static void stats_json_members(const struct stats *s, FILE *out, int indent, const uint64_t *v)
{
    for (size_t i = 0; i < s->n; i++) {
        const struct stat_entry *x = &s->e[i];
        fprintf(out, "%*s", indent, "");
        stats_json_string(out, x->name);
        fputs(": ", out);
        switch (x->kind) {
        case STAT_COUNTER:
            fprintf(out, "%" PRIu64, v[x->slot]);
            break;
        case STAT_RATIO:
        case STAT_SUM:
            stats_json_double(out, stats_scalar_of(s, x, v));
            break;
        case STAT_HISTOGRAM:
            fputc('{', out);
            for (uint32_t b = 0; b < x->nbins; b++) {
                if (b)
                    fputs(", ", out);
                stats_json_string(out, x->bin_names[b]);
                fprintf(out, ": %" PRIu64, v[x->slot + b]);
            }
            fputc('}', out);
            break;
        }
        fputs(i + 1 < s->n ? ",\n" : "\n", out);
    }
}

void stats_print_json(const struct stats *s, FILE *out, int indent)
{
    uint64_t *v = xcalloc(s->nslots + 1, sizeof *v);
    stats_read_all(s, v);
    fputs("{\n", out);
    stats_json_members(s, out, indent + 2, v);
    fprintf(out, "%*s}", indent, "");
    free(v);
}

void stats_print_text(const struct stats *s, FILE *out)
{
    uint64_t *v = xcalloc(s->nslots + 1, sizeof *v);
    stats_read_all(s, v);
    for (size_t i = 0; i < s->n; i++) {
        const struct stat_entry *x = &s->e[i];
        switch (x->kind) {
        case STAT_COUNTER:
            fprintf(out, "%-32s = %" PRIu64 "\n", x->name, v[x->slot]);
            break;
        case STAT_RATIO:
        case STAT_SUM:
            fprintf(out, "%-32s = %.4f\n", x->name, stats_scalar_of(s, x, v));
            break;
        case STAT_HISTOGRAM:
            fprintf(out, "%-32s =", x->name);
            for (uint32_t b = 0; b < x->nbins; b++)
                fprintf(out, " %s:%" PRIu64, x->bin_names[b], v[x->slot + b]);
            fputc('\n', out);
            break;
        }
    }
    free(v);
}

/* ---- per-kernel snapshots -------------------------------------------------- */

void stats_kernel_end(struct stats *s, const char *label)
{
    uint64_t *now = xcalloc(s->nslots + 1, sizeof *now);
    stats_read_all(s, now);
    if (s->base_len < s->nslots) { /* counters registered since the last snapshot start at 0 */
        s->base = xrealloc(s->base, (s->nslots + 1) * sizeof *s->base);
        memset(s->base + s->base_len, 0, (s->nslots - s->base_len) * sizeof *s->base);
        s->base_len = s->nslots;
    }
    struct kernel_snap *k = ARRAY_PUSH(s->k, s->nk, s->kcap);
    k->label = xstrdup(label ? label : "");
    k->nslots = s->nslots;
    k->values = xcalloc(s->nslots + 1, sizeof *k->values);
    for (uint32_t i = 0; i < s->nslots; i++) {
        k->values[i] = now[i] - s->base[i];
        s->base[i] = now[i];
    }
    free(now);
}

void stats_print_kernels_json(const struct stats *s, FILE *out, int indent)
{
    fputs("[", out);
    uint64_t *v = xcalloc(s->nslots + 1, sizeof *v);
    for (size_t i = 0; i < s->nk; i++) {
        const struct kernel_snap *k = &s->k[i];
        memset(v, 0, (s->nslots + 1) * sizeof *v);
        memcpy(v, k->values, k->nslots * sizeof *v);
        fprintf(out, "%s\n%*s{\n%*s\"kernel\": ", i ? "," : "", indent + 2, "", indent + 4, "");
        stats_json_string(out, k->label);
        fprintf(out, ",\n%*s\"index\": %zu,\n%*s\"stats\": {\n", indent + 4, "", i, indent + 4,
                "");
        stats_json_members(s, out, indent + 6, v);
        fprintf(out, "%*s}\n%*s}", indent + 4, "", indent + 2, "");
    }
    free(v);
    if (s->nk)
        fprintf(out, "\n%*s", indent, "");
    fputs("]", out);
}

/* ---- timeline -------------------------------------------------------------- */

void stats_timeline_column(struct stats *s, const char *name_in, const uint64_t *ptr,
                           uint32_t count, size_t stride)
{
    char buf[256];
    const char *name = stats_prefixed(s, name_in, buf, sizeof buf);
    ws_assert(name && ptr && count >= 1);
    if (s->nrows)
        panic("timeline column '%s' registered after sampling started", name);
    for (size_t i = 0; i < s->ncols; i++)
        if (strcmp(s->cols[i].name, name) == 0)
            panic("timeline column '%s' registered twice", name);
    struct timeline_col *c = ARRAY_PUSH(s->cols, s->ncols, s->colcap);
    c->name = xstrdup(name);
    c->ptr = ptr;
    c->count = count;
    c->stride = stride;
}

void stats_timeline_sample(struct stats *s, uint64_t cycle)
{
    size_t w = s->ncols + 1;
    array_reserve((void **)&s->rows, &s->rowcap, (s->nrows + 1) * w, sizeof *s->rows);
    uint64_t *row = s->rows + s->nrows * w;
    row[0] = cycle;
    for (size_t i = 0; i < s->ncols; i++)
        row[i + 1] = stats_read(s->cols[i].ptr, s->cols[i].count, s->cols[i].stride);
    s->nrows++;
}

void stats_timeline_write_csv(const struct stats *s, FILE *out)
{
    fputs("cycle", out);
    for (size_t i = 0; i < s->ncols; i++)
        fprintf(out, ",%s", s->cols[i].name);
    fputc('\n', out);
    size_t w = s->ncols + 1;
    for (size_t r = 0; r < s->nrows; r++) {
        for (size_t i = 0; i < w; i++)
            fprintf(out, "%s%" PRIu64, i ? "," : "", s->rows[r * w + i]);
        fputc('\n', out);
    }
}
