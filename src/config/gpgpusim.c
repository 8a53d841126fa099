/* gpgpusim.c: import of GPGPU-Sim gpgpusim.config files.  Every option
 * warpsim models is mapped onto configuration keys (positional strings such
 * as the cache geometry "32:128:4,L:L:m:N:H,A:32:8,8" and the DRAM timing
 * string are decoded here, the only place warpsim accepts them); every other
 * option is collected in the `ignored` list for the caller to print. */
#include "config/config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

struct cimp {
    struct gpu_config *c;
    const char *name; /* file name for messages */
    unsigned line, col; /* position of the value being handled (line 0: combined options) */
    const char *opt;  /* option being handled */
    char *ign;        /* ignored list */
    size_t ign_len, ign_cap;
    struct err *e;

    /* values combined after all lines are read (0 = not given) */
    uint64_t clusters, cores_per_cluster;
    uint64_t buswidth, mem_per_ctrlr;
    uint64_t num_sp, num_sfu, num_dp, num_int;
    int have_num_sp, have_num_sfu, have_num_dp, have_num_int;
    uint64_t widths[16];
    size_t nwidths;
    int have_rop, have_dram_lat;
    uint64_t rop_latency, dram_latency;
};

static void cimp_ignore(struct cimp *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void cimp_ignore(struct cimp *x, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    size_t n = strlen(buf);
    array_reserve((void **)&x->ign, &x->ign_cap, x->ign_len + n + 2, 1);
    memcpy(x->ign + x->ign_len, buf, n);
    x->ign_len += n;
    x->ign[x->ign_len++] = '\n';
    x->ign[x->ign_len] = '\0';
}

/* "file:line:col" of the value being handled, or "file" for combined options. */
static const char *cimp_where(const struct cimp *x, char *buf, size_t n)
{
    if (x->line)
        snprintf(buf, n, "%s:%u:%u", x->name, x->line, x->col);
    else
        snprintf(buf, n, "%s", x->name);
    return buf;
}

static int cimp_bad(struct cimp *x, const char *value, const char *expected)
{
    char w[512];
    return err_set(x->e, WS_ERR_INVALID, "%s: option %s: invalid value '%s' (expected %s)",
                   cimp_where(x, w, sizeof w), x->opt, value, expected);
}

/* config_set with a formatted value; errors get file:line and the option. */
static int cimp_set(struct cimp *x, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int cimp_set(struct cimp *x, const char *key, const char *fmt, ...)
{
    char buf[CONFIG_NAME_MAX + 32];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (config_set(x->c, key, buf, x->e) != WS_OK) {
        char w[512];
        return err_prefix(x->e, "%s: option %s: ", cimp_where(x, w, sizeof w), x->opt);
    }
    return WS_OK;
}

static int cimp_u64(const char *s, uint64_t *out)
{
    while (isspace((unsigned char)*s))
        s++;
    if (!isdigit((unsigned char)*s))
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    while (isspace((unsigned char)*end))
        end++;
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

/* Split s at sep into at most max fields (s is modified). */
static size_t cimp_split(char *s, char sep, char **f, size_t max)
{
    size_t n = 0;
    while (n < max) {
        f[n++] = s;
        char *p = strchr(s, sep);
        if (!p)
            break;
        *p = '\0';
        s = p + 1;
    }
    return n;
}

/* A comma-separated list of numbers; first value into *first, all into v. */
static int cimp_list(const char *value, char sep, uint64_t *v, size_t max, size_t *n)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", value);
    char *f[32];
    size_t k = cimp_split(buf, sep, f, max < 32 ? max : 32);
    for (size_t i = 0; i < k; i++)
        if (cimp_u64(f[i], &v[i]) != 0)
            return -1;
    *n = k;
    return 0;
}

/* ---- option handlers -------------------------------------------------------- */

typedef int (*cimp_fn)(struct cimp *x, const char *value, const char *key);

static int h_u32(struct cimp *x, const char *value, const char *key)
{
    uint64_t v;
    if (cimp_u64(value, &v) != 0)
        return cimp_bad(x, value, "an integer");
    return cimp_set(x, key, "%" PRIu64, v);
}

static int h_bool_not(struct cimp *x, const char *value, const char *key)
{
    uint64_t v;
    if (cimp_u64(value, &v) != 0 || v > 1)
        return cimp_bad(x, value, "0 or 1");
    return cimp_set(x, key, "%d", v ? 0 : 1);
}

static int h_bool(struct cimp *x, const char *value, const char *key)
{
    uint64_t v;
    if (cimp_u64(value, &v) != 0 || v > 1)
        return cimp_bad(x, value, "0 or 1");
    return cimp_set(x, key, "%d", (int)v);
}

/* 3.0/3.1 -gpgpu_flush_cache: once a core's threads finish its L1s are
 * flushed, once all threads finish the L2 is invalidated (3.2 split it into
 * -gpgpu_flush_l1_cache and -gpgpu_flush_l2_cache) */
static int h_flush_both(struct cimp *x, const char *value, const char *key)
{
    (void)key;
    int rc = h_bool(x, value, "l1d.flush");
    return rc ? rc : h_bool(x, value, "l2.flush");
}

static int h_first(struct cimp *x, const char *value, const char *key)
{
    uint64_t v[16];
    size_t n;
    if (cimp_list(value, strchr(value, ':') ? ':' : ',', v, 16, &n) != 0)
        return cimp_bad(x, value, "a list of integers");
    return cimp_set(x, key, "%" PRIu64, v[0]);
}

static int h_deferred(struct cimp *x, const char *value, const char *key)
{
    uint64_t v;
    if (cimp_u64(value, &v) != 0)
        return cimp_bad(x, value, "an integer");
    static const struct {
        const char *name;
        size_t off;
        size_t flag; /* offset of the have_ flag, or 0 */
    } slots[] = {
        {"clusters", offsetof(struct cimp, clusters), 0},
        {"cores", offsetof(struct cimp, cores_per_cluster), 0},
        {"buswidth", offsetof(struct cimp, buswidth), 0},
        {"per_ctrlr", offsetof(struct cimp, mem_per_ctrlr), 0},
        {"sp", offsetof(struct cimp, num_sp), offsetof(struct cimp, have_num_sp)},
        {"sfu", offsetof(struct cimp, num_sfu), offsetof(struct cimp, have_num_sfu)},
        {"dp", offsetof(struct cimp, num_dp), offsetof(struct cimp, have_num_dp)},
        {"int", offsetof(struct cimp, num_int), offsetof(struct cimp, have_num_int)},
        {"rop", offsetof(struct cimp, rop_latency), offsetof(struct cimp, have_rop)},
        {"dram_lat", offsetof(struct cimp, dram_latency), offsetof(struct cimp, have_dram_lat)},
    };
    for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++)
        if (strcmp(slots[i].name, key) == 0) {
            memcpy((char *)x + slots[i].off, &v, sizeof v);
            if (slots[i].flag) {
                int one = 1;
                memcpy((char *)x + slots[i].flag, &one, sizeof one);
            }
            return WS_OK;
        }
    return err_set(x->e, WS_ERR_INVALID, "internal: bad deferred slot %s", key);
}

static int h_widths(struct cimp *x, const char *value, const char *key)
{
    (void)key;
    if (cimp_list(value, ',', x->widths, 16, &x->nwidths) != 0 ||
        (x->nwidths != 7 && x->nwidths < 10))
        return cimp_bad(x, value, "7 (3.x) or 10+ (4.x) comma-separated pipeline widths");
    return WS_OK;
}

static int h_pipeline(struct cimp *x, const char *value, const char *key)
{
    (void)key;
    uint64_t v[2];
    size_t n;
    if (cimp_list(value, ':', v, 2, &n) != 0 || n != 2)
        return cimp_bad(x, value, "<threads>:<warp size>, e.g. 1536:32");
    char w[512];
    if (v[1] != 32)
        return err_set(x->e, WS_ERR_UNSUPPORTED, "%s: option %s: warp size %" PRIu64
                       " is not supported (warpsim models 32-thread warps)",
                       cimp_where(x, w, sizeof w), x->opt, v[1]);
    int rc = cimp_set(x, "sm.threads", "%" PRIu64, v[0]);
    return rc ? rc : cimp_set(x, "sm.warps", "%" PRIu64, (v[0] + 31) / 32);
}

static int h_clocks(struct cimp *x, const char *value, const char *key)
{
    (void)key;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", value);
    char *f[4];
    if (cimp_split(buf, ':', f, 4) != 4 || strchr(f[3], ':'))
        return cimp_bad(x, value, "<core>:<icnt>:<l2>:<dram> in MHz");
    static const char *const keys[] = {"clock.core", "clock.icnt", "clock.l2", "clock.dram"};
    for (int i = 0; i < 4; i++) {
        char *end;
        double d = strtod(f[i], &end);
        if (end == f[i] || *end || !(d > 0))
            return cimp_bad(x, value, "<core>:<icnt>:<l2>:<dram> in MHz");
        int rc = cimp_set(x, keys[i], "%.17g", d);
        if (rc)
            return rc;
    }
    return WS_OK;
}

static int h_scheduler(struct cimp *x, const char *value, const char *key)
{
    (void)key;
    if (strcmp(value, "lrr") == 0 || strcmp(value, "gto") == 0)
        return cimp_set(x, "sm.sched", "%s", value);
    if (strcmp(value, "old") == 0)
        return cimp_set(x, "sm.sched", "oldest");
    if (strncmp(value, "two_level_active:", 17) == 0) {
        uint64_t v[3];
        size_t n;
        if (cimp_list(value + 17, ':', v, 3, &n) != 0 || n != 3 || v[0] == 0)
            return cimp_bad(x, value, "two_level_active:<active>:<inner>:<outer>");
        if (v[1] != 0 && v[1] != 2)
            cimp_ignore(x, "%s %s: inner prioritisation %" PRIu64
                        " not modelled, using lrr", x->opt, value, v[1]);
        if (v[2] != 1)
            cimp_ignore(x, "%s %s: outer prioritisation %" PRIu64
                        " not modelled (GPGPU-Sim implements only 1 = SRR)", x->opt, value, v[2]);
        return cimp_set(x, "sm.sched", "two_level_active:active=%" PRIu64 "%s", v[0],
                        v[1] == 2 ? ",inner=gto" : "");
    }
    if (strncmp(value, "tl:", 3) == 0) {
        /* GPGPU-Sim 3.1.1-3.2.0's two-level scheduler, tl:<active> */
        uint64_t v;
        size_t n;
        if (cimp_list(value + 3, ':', &v, 1, &n) != 0 || n != 1 || v == 0)
            return cimp_bad(x, value, "tl:<active>");
        return cimp_set(x, "sm.sched", "two_level_active:active=%" PRIu64 ",release=3.2.0", v);
    }
    cimp_ignore(x, "%s %s (scheduler not mapped: choose one with sm.sched)", x->opt, value);
    return WS_OK;
}

/* The set-index letter, the fifth policy field of 3.3/4.x cache strings
 * (repl:wr:alloc:wralloc:idx): L linear, H the Fermi hash, P IPOLY. */
static int cimp_index(struct cimp *x, const char *policy, const char *prefix)
{
    char buf[64];
    char *f[6];
    snprintf(buf, sizeof buf, "%s", policy);
    if (cimp_split(buf, ':', f, 6) < 5)
        return WS_OK;
    const char *fn = strcmp(f[4], "L") == 0 ? "linear" : strcmp(f[4], "H") == 0 ? "fermi" : NULL;
    if (!fn) {
        cimp_ignore(x, "%s: set-index function '%s' (not modelled: the index stays linear)",
                    x->opt, f[4]);
        return WS_OK;
    }
    char key[64];
    snprintf(key, sizeof key, "%s.index", prefix);
    return cimp_set(x, key, "%s", fn);
}

/* Cache strings of every GPGPU-Sim generation:
 *   3.2+   [N:|S:]sets:line:assoc,repl:wr:alloc:wralloc[:idx],mshr:entries:merge,mq[:...]
 *   3.0/3.1       sets:line:assoc:repl:wr:alloc,mshr:entries:merge,mq[:fifo]
 *   CCWS-rel   T,sets:line:assoc:repl:wr:alloc,mshr:entries:merge,mq[:...]  (T = N, L or S)
 * The 4.x N:/S: and CCWS-rel T, prefixes name the cache type; only the
 * geometry, replacement, MSHRs and miss queue are mapped. */
static int h_cache(struct cimp *x, const char *value, const char *prefix)
{
    static const char *const expect = "sets:line:assoc,<repl>:<wr>:<alloc>:<wr_alloc>[:<index>],"
                                      "<mshr>:<entries>:<merge>,<miss queue>[,<data port>] (or a 3.0/3.1 "
                                      "sets:line:assoc:<repl>:<wr>:<alloc>,... string)";
    if (strncmp(value, "none", 4) == 0) {
        if (strcmp(prefix, "l1d") == 0)
            return cimp_set(x, "l1d.enabled", "0");
        if (strcmp(prefix, "l2") == 0)
            return cimp_set(x, "l2.enabled", "0");
        cimp_ignore(x, "%s %s (this cache cannot be disabled in warpsim)", x->opt, value);
        return WS_OK;
    }
    char buf[256];
    snprintf(buf, sizeof buf, "%s", value);
    char *all[6];
    size_t np = cimp_split(buf, ',', all, 6);
    char **part = all;
    char type = 'N';
    if (np >= 2 && isalpha((unsigned char)part[0][0]) && !part[0][1]) { /* CCWS-rel "T," */
        type = part[0][0];
        part++;
        np--;
    }
    char *g[8];
    size_t ng = cimp_split(part[0], ':', g, 8);
    char **geo = g;
    if (ng >= 4 && isalpha((unsigned char)g[0][0]) && !g[0][1]) { /* 4.x "N:" / "S:" */
        type = g[0][0];
        geo++;
        ng--;
    }
    int rc;
    if (type == 'S' && strcmp(prefix, "l2") == 0) {
        /* 4.x sectors are 32 bytes (SECTOR_SIZE) */
        if ((rc = cimp_set(x, "l2.sector_bytes", "32")))
            return rc;
    } else if (type == 'S')
        cimp_ignore(x, "%s: sectored cache organisation (modelled as a normal cache; see "
                    "coalesce.sectored)", x->opt);
    else if (type != 'N')
        cimp_ignore(x, "%s: cache type '%c' (modelled as a normal cache)", x->opt, type);
    /* 3.0/3.1: the policy letters follow the geometry after colons */
    const char *repl;
    size_t mshr_part;
    if (ng == 6) {
        repl = geo[3];
        mshr_part = 1;
    } else if (ng == 3) {
        repl = np >= 2 ? part[1] : NULL;
        mshr_part = 2;
    } else {
        return cimp_bad(x, value, expect);
    }
    uint64_t sets, line, assoc;
    if (cimp_u64(geo[0], &sets) || cimp_u64(geo[1], &line) || cimp_u64(geo[2], &assoc))
        return cimp_bad(x, value, expect);
    char key[64];
    snprintf(key, sizeof key, "%s.sets", prefix);
    if ((rc = cimp_set(x, key, "%" PRIu64, sets)))
        return rc;
    snprintf(key, sizeof key, "%s.line", prefix);
    if ((rc = cimp_set(x, key, "%" PRIu64, line)))
        return rc;
    snprintf(key, sizeof key, "%s.assoc", prefix);
    if ((rc = cimp_set(x, key, "%" PRIu64, assoc)))
        return rc;
    if (repl) {
        const char *pol = repl[0] == 'L' ? "lru" : repl[0] == 'F' ? "fifo" : NULL;
        if (!pol)
            return cimp_bad(x, value, "replacement L (LRU) or F (FIFO)");
        snprintf(key, sizeof key, "%s.policy", prefix);
        if ((rc = cimp_set(x, key, "%s", pol)))
            return rc;
    }
    if (ng == 3 && np >= 2 && (rc = cimp_index(x, part[1], prefix)))
        return rc;
    if (np > mshr_part) {
        char *m[3];
        uint64_t entries, merge;
        if (cimp_split(part[mshr_part], ':', m, 3) != 3 || cimp_u64(m[1], &entries) ||
            cimp_u64(m[2], &merge))
            return cimp_bad(x, value, expect);
        snprintf(key, sizeof key, "%s.mshr", prefix);
        if ((rc = cimp_set(x, key, "%" PRIu64, entries)))
            return rc;
        snprintf(key, sizeof key, "%s.mshr_merge", prefix);
        if ((rc = cimp_set(x, key, "%" PRIu64, merge)))
            return rc;
    }
    if (np > mshr_part + 1) {
        char *q[8];
        uint64_t mq;
        cimp_split(part[mshr_part + 1], ':', q, 8);
        if (cimp_u64(q[0], &mq))
            return cimp_bad(x, value, expect);
        snprintf(key, sizeof key, "%s.miss_queue", prefix);
        if ((rc = cimp_set(x, key, "%" PRIu64, mq)))
            return rc;
    }
    /* 3.2.2+: the data port width follows the miss queue; warpsim models it
     * on the L2 only (an L1's port moves a whole line per cycle).  Without
     * the field the version had no data port. */
    if (strcmp(prefix, "l2") == 0) {
        uint64_t width = 0;
        if (np > mshr_part + 2 && cimp_u64(part[mshr_part + 2], &width))
            return cimp_bad(x, value, expect);
        if ((rc = cimp_set(x, "l2.port_bytes", "%" PRIu64, width)))
            return rc;
    }
    return WS_OK;
}

static char *cimp_trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return s;
}

/* Named "nbk=16:CCD=2:...", or positional: 3.0/3.1
 * nbk:tCCD:tRRD:tRCD:tRAS:tRP:tRC:CL:WL:tWTR, 3.2+
 * nbk:tCCD:tRRD:tRCD:tRAS:tRP:tRC:CL:WL:tCDLR:tWR[:nbkgrp:tCCDL:tRTPL]. */
static int h_dram_timing(struct cimp *x, const char *value, const char *key)
{
    (void)key;
    static const char *const names[] = {"nbk", "CCD", "RRD",  "RCD", "RAS", "RP",
                                        "RC",  "CL",  "WL",   "CDLR", "WR"};
    static const char *const keys[] = {"dram.banks", "dram.tCCD", "dram.tRRD", "dram.tRCD",
                                       "dram.tRAS",  "dram.tRP",  "dram.tRC",  "dram.CL",
                                       "dram.WL",    "dram.tCDLR", "dram.tWR"};
    char buf[512];
    snprintf(buf, sizeof buf, "%s", value);
    char *f[24];
    size_t n = cimp_split(buf, ':', f, 24);
    int rc;
    if (strchr(value, '=')) {
        for (size_t i = 0; i < n; i++) {
            char *name = cimp_trim(f[i]); /* a value continued on the next line has a space */
            if (!*name)
                continue;
            char *eq = strchr(name, '=');
            uint64_t v;
            if (!eq || cimp_u64(eq + 1, &v))
                return cimp_bad(x, value, "name=value fields separated by ':'");
            *eq = '\0';
            name = cimp_trim(name);
            size_t k = 0;
            while (k < 11 && strcmp(names[k], name) != 0)
                k++;
            if (k == 11) {
                cimp_ignore(x, "%s: %s=%" PRIu64 " (not modelled)", x->opt, name, v);
                continue;
            }
            if ((rc = cimp_set(x, keys[k], "%" PRIu64, v)))
                return rc;
        }
        return WS_OK;
    }
    if (n < 10)
        return cimp_bad(x, value, "nbk:tCCD:tRRD:tRCD:tRAS:tRP:tRC:CL:WL:tWTR (3.0/3.1), "
                                  "nbk:tCCD:tRRD:tRCD:tRAS:tRP:tRC:CL:WL:tCDLR:tWR or "
                                  "name=value fields");
    for (size_t i = 0; i < n; i++) {
        uint64_t v;
        if (cimp_u64(f[i], &v))
            return cimp_bad(x, value, "integers separated by ':'");
        if (n == 10 && i == 9) {
            cimp_ignore(x, "%s: tWTR=%" PRIu64 " (3.0/3.1 positional form; warpsim derives "
                        "the write-to-read delay from dram.tCDLR)", x->opt, v);
            continue;
        }
        if (i >= 11) {
            cimp_ignore(x, "%s: positional field %zu = %" PRIu64 " (not modelled)", x->opt,
                        i + 1, v);
            continue;
        }
        if ((rc = cimp_set(x, keys[i], "%" PRIu64, v)))
            return rc;
    }
    return WS_OK;
}

static int h_dram_sched(struct cimp *x, const char *value, const char *key)
{
    (void)key;
    uint64_t v;
    if (cimp_u64(value, &v) != 0 || v > 1)
        return cimp_bad(x, value, "0 (FIFO) or 1 (FR-FCFS)");
    return cimp_set(x, "dram.sched", "%s", v ? "frfcfs" : "fcfs");
}

static int h_queue(struct cimp *x, const char *value, const char *key)
{
    (void)key;
    uint64_t v;
    if (cimp_u64(value, &v) != 0)
        return cimp_bad(x, value, "an integer");
    if (v == 0) { /* GPGPU-Sim: 0 = unlimited */
        cimp_ignore(x, "%s 0 (unlimited queue: using 1024 entries)", x->opt);
        v = 1024;
    }
    return cimp_set(x, "dram.queue", "%" PRIu64, v);
}

static int h_coalesce(struct cimp *x, const char *value, const char *key)
{
    (void)key;
    uint64_t v;
    if (cimp_u64(value, &v) != 0)
        return cimp_bad(x, value, "an integer compute capability, e.g. 13 or 20");
    return cimp_set(x, "coalesce.sectored", "%d", v >= 40 ? 1 : 0);
}

static int h_addr_map(struct cimp *x, const char *value, const char *key)
{
    (void)key;
    const char *p = strstr(value, "dramid@");
    uint64_t bit;
    char num[16];
    if (!p || sscanf(p + 7, "%15[0-9]", num) != 1 || cimp_u64(num, &bit) || bit > 31 ||
        bit < 5)
        return cimp_bad(x, value, "dramid@<bit>;<mask>");
    cimp_ignore(x, "%s: only the channel interleaving (dramid@%" PRIu64
                ") is used; the bit mask is not modelled", x->opt, bit);
    return cimp_set(x, "dram.chunk", "%" PRIu64, (uint64_t)1 << bit);
}

struct cimp_opt {
    const char *name;
    cimp_fn fn;
    const char *key;
};

static const struct cimp_opt cimp_opts[] = {
    {"-gpgpu_n_clusters", h_deferred, "clusters"},
    {"-gpgpu_n_cores_per_cluster", h_deferred, "cores"},
    {"-gpgpu_shader_core_pipeline", h_pipeline, NULL},
    {"-gpgpu_shader_cta", h_u32, "sm.ctas"},
    {"-gpgpu_shader_registers", h_u32, "sm.registers"},
    {"-gpgpu_shmem_size", h_u32, "sm.shared"},
    {"-gpgpu_shmem_num_banks", h_u32, "smem.banks"},
    {"-gpgpu_smem_latency", h_u32, "smem.latency"},
    {"-smem_latency", h_u32, "smem.latency"}, /* 3.3.0 4.x-cfgs name */
    {"-gpgpu_num_sched_per_core", h_u32, "sm.schedulers"},
    {"-gpgpu_scheduler", h_scheduler, NULL},
    {"-gpgpu_max_insn_issue_per_warp", h_u32, "sm.max_issue_per_warp"},
    {"-gpgpu_pipeline_widths", h_widths, NULL},
    {"-gpgpu_num_sp_units", h_deferred, "sp"},
    {"-gpgpu_num_sfu_units", h_deferred, "sfu"},
    {"-gpgpu_num_dp_units", h_deferred, "dp"},
    {"-gpgpu_num_int_units", h_deferred, "int"},
    {"-ptx_opcode_latency_fp", h_first, "sp.latency"},
    {"-ptx_opcode_initiation_fp", h_first, "sp.ii"},
    {"-ptx_opcode_latency_int", h_first, "int.latency"},
    {"-ptx_opcode_initiation_int", h_first, "int.ii"},
    {"-ptx_opcode_latency_dp", h_first, "dp.latency"},
    {"-ptx_opcode_initiation_dp", h_first, "dp.ii"},
    {"-ptx_opcode_latency_sfu", h_first, "sfu.latency"},
    {"-ptx_opcode_initiation_sfu", h_first, "sfu.ii"},
    {"-gpgpu_cache:dl1", h_cache, "l1d"},
    {"-gpgpu_cache:dl2", h_cache, "l2"},
    {"-gpgpu_cache:il1", h_cache, "l1i"},
    {"-gpgpu_const_cache:l1", h_cache, "l1c"},
    {"-gpgpu_tex_cache:l1", h_cache, "tex"},
    {"-gpgpu_gmem_skip_L1D", h_bool_not, "l1d.enabled"},
    {"-gpgpu_flush_cache", h_flush_both, NULL},
    {"-gpgpu_flush_l1_cache", h_bool, "l1d.flush"},
    {"-gpgpu_flush_l2_cache", h_bool, "l2.flush"},
    {"-gpgpu_perf_sim_memcpy", h_bool, "l2.memcpy_fill"},
    {"-gpgpu_coalesce_arch", h_coalesce, NULL},
    {"-gpgpu_l1_latency", h_u32, "l1d.latency"},
    {"-l1_latency", h_u32, "l1d.latency"},     /* 3.3.0 4.x-cfgs name */
    {"-L1_HIT_LATENCY", h_u32, "l1d.latency"}, /* CCWS-rel */
    {"-gpgpu_l2_rop_latency", h_deferred, "rop"},
    {"-rop_latency", h_deferred, "rop"},
    {"-dram_latency", h_deferred, "dram_lat"},
    {"-gpgpu_n_mem", h_u32, "mem.channels"},
    {"-gpgpu_n_sub_partition_per_mchannel", h_u32, "mem.subparts"},
    {"-gpgpu_n_mem_per_ctrlr", h_deferred, "per_ctrlr"},
    {"-gpgpu_dram_buswidth", h_deferred, "buswidth"},
    {"-gpgpu_dram_burst_length", h_u32, "dram.burst"},
    {"-dram_data_command_freq_ratio", h_u32, "dram.data_rate"},
    {"-gpgpu_dram_timing_opt", h_dram_timing, NULL},
    {"-gpgpu_frfcfs_dram_sched_queue_size", h_queue, NULL},
    {"-gpgpu_dram_sched_queue_size", h_queue, NULL}, /* 3.1.x, 3.2.0 */
    {"-gpgpu_dram_scheduler", h_dram_sched, NULL},
    {"-gpgpu_dram_partition_queues", h_first, "l2.bank_queue"},
    {"-gpgpu_mem_addr_mapping", h_addr_map, NULL},
    {"-gpgpu_clock_domains", h_clocks, NULL},
    {"-icnt_flit_size", h_u32, "icnt.flit"},
};
#define CIMP_NOPTS (sizeof cimp_opts / sizeof cimp_opts[0])

/* Values that combine several options, applied once all lines are read. */
static int cimp_finish(struct cimp *x)
{
    int rc;
    x->line = 0;
    x->opt = "(combined options)";
    if (x->clusters || x->cores_per_cluster) {
        uint64_t cl = x->clusters ? x->clusters : x->c->n_sms;
        uint64_t co = x->cores_per_cluster ? x->cores_per_cluster : 1;
        x->opt = "-gpgpu_n_clusters x -gpgpu_n_cores_per_cluster";
        if ((rc = cimp_set(x, "sm.count", "%" PRIu64, cl * co)))
            return rc;
    }
    if (x->buswidth || x->mem_per_ctrlr) { /* GPGPU-Sim defaults: 4 bytes, 1 chip */
        uint64_t bw = x->buswidth ? x->buswidth : 4;
        uint64_t chips = x->mem_per_ctrlr ? x->mem_per_ctrlr : 1;
        x->opt = "-gpgpu_dram_buswidth x -gpgpu_n_mem_per_ctrlr";
        if ((rc = cimp_set(x, "dram.bus_bytes", "%" PRIu64, bw * chips)))
            return rc;
    }
    if (x->nwidths) {
        /* OC_EX stage widths: 3.x SP,SFU,MEM at 3..5; 4.x SP,DP,INT,SFU,MEM at 5..9 */
        x->opt = "-gpgpu_pipeline_widths";
        int old = x->nwidths == 7;
        uint64_t sp = old ? x->widths[3] : x->widths[5];
        uint64_t sfu = old ? x->widths[4] : x->widths[8];
        uint64_t mem = old ? x->widths[5] : x->widths[9];
        if ((rc = cimp_set(x, "sp.units", "%" PRIu64, sp)) ||
            (rc = cimp_set(x, "sfu.units", "%" PRIu64, sfu)) ||
            (rc = cimp_set(x, "ldst.units", "%" PRIu64, mem)))
            return rc;
        if (!old && ((rc = cimp_set(x, "dp.units", "%" PRIu64, x->widths[6])) ||
                     (rc = cimp_set(x, "int.units", "%" PRIu64, x->widths[7]))))
            return rc;
    }
    /* explicit unit counts win over the pipeline widths */
    x->opt = "-gpgpu_num_*_units";
    if ((x->have_num_sp && (rc = cimp_set(x, "sp.units", "%" PRIu64, x->num_sp))) ||
        (x->have_num_sfu && (rc = cimp_set(x, "sfu.units", "%" PRIu64, x->num_sfu))) ||
        (x->have_num_dp && (rc = cimp_set(x, "dp.units", "%" PRIu64, x->num_dp))) ||
        (x->have_num_int && (rc = cimp_set(x, "int.units", "%" PRIu64, x->num_int))))
        return rc;
    /* GPGPU-Sim counts these two latencies in core cycles; warpsim in the
     * component's own clock.  The ROP delay is GPGPU-Sim's whole L2 pipeline:
     * every request waits it before the tag lookup and a hit then returns at
     * once, so it maps to l2.rop_latency with no separate hit latency. */
    if (x->have_rop) {
        x->opt = "-rop_latency";
        double v = round((double)x->rop_latency * x->c->l2_mhz / x->c->core_mhz);
        if ((rc = cimp_set(x, "l2.rop_latency", "%.0f", v)) ||
            (rc = cimp_set(x, "l2.latency", "0")))
            return rc;
    }
    if (x->have_dram_lat) {
        x->opt = "-dram_latency";
        double v = round((double)x->dram_latency * x->c->dram_mhz / x->c->core_mhz);
        if ((rc = cimp_set(x, "dram.latency", "%.0f", v)))
            return rc;
    }
    return WS_OK;
}

/* One token of the comment-stripped file, with where it starts. */
struct ctok {
    char *s;
    unsigned line, col;
};

static void ctok_push(struct ctok **t, size_t *n, size_t *cap, char *s, unsigned line,
                      unsigned col)
{
    array_reserve((void **)t, cap, *n + 1, sizeof **t);
    (*t)[(*n)++] = (struct ctok){s, line, col};
}

static void ctok_free(struct ctok *t, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(t[i].s);
    free(t);
}

/* Tokenise as GPGPU-Sim's option parser does: '#' starts a comment that runs
 * to the end of its line, all lines form one stream of whitespace-separated
 * tokens, and a token starting with '"' absorbs the following tokens (joined
 * by one space, across lines) until one ends with '"'; the quotes go. */
static int cimp_tokens(struct cimp *x, const char *text, struct ctok **out, size_t *nout)
{
    struct ctok *raw = NULL, *tok = NULL;
    size_t nraw = 0, rcap = 0, ntok = 0, tcap = 0;
    unsigned line = 1, col = 1;
    for (const char *p = text; *p;) {
        if (*p == '#') {
            while (*p && *p != '\n')
                p++;
        } else if (*p == '\n') {
            line++, col = 1, p++;
        } else if (isspace((unsigned char)*p)) {
            col++, p++;
        } else {
            const char *st = p;
            unsigned c0 = col;
            while (*p && *p != '#' && !isspace((unsigned char)*p))
                col++, p++;
            ctok_push(&raw, &nraw, &rcap, xstrndup(st, (size_t)(p - st)), line, c0);
        }
    }
    for (size_t i = 0; i < nraw; i++) {
        char *s = raw[i].s;
        size_t len = strlen(s);
        raw[i].s = NULL;
        if (s[0] == '"') {
            size_t j = i;
            while (len < 2 || s[len - 1] != '"') {
                if (++j == nraw) {
                    unsigned l = raw[i].line, c = raw[i].col;
                    free(s);
                    ctok_free(raw, nraw);
                    ctok_free(tok, ntok);
                    return err_set(x->e, WS_ERR_INVALID, "%s:%u:%u: quoted value has no "
                                   "closing '\"'", x->name, l, c);
                }
                size_t more = strlen(raw[j].s);
                s = xrealloc(s, len + more + 2);
                s[len] = ' ';
                memcpy(s + len + 1, raw[j].s, more + 1);
                len += more + 1;
            }
            memmove(s, s + 1, len - 2);
            s[len - 2] = '\0';
            ctok_push(&tok, &ntok, &tcap, s, raw[i].line, raw[i].col);
            i = j;
        } else {
            ctok_push(&tok, &ntok, &tcap, s, raw[i].line, raw[i].col);
        }
    }
    ctok_free(raw, nraw);
    *out = tok;
    *nout = ntok;
    return WS_OK;
}

/* A token that names an option: "-" and a letter (a value may be negative). */
static int cimp_is_option(const char *s)
{
    return s[0] == '-' && isalpha((unsigned char)s[1]);
}

int config_import_gpgpusim(struct gpu_config *c, const char *text, const char *name,
                           char **ignored, struct err *e)
{
    struct cimp x = {.c = c, .name = name ? name : "gpgpusim.config", .e = e};
    struct ctok *t = NULL;
    size_t n = 0;
    int rc = cimp_tokens(&x, text, &t, &n);
    if (rc != WS_OK)
        return rc;
    for (size_t k = 0; k < n && rc == WS_OK; k += 2) {
        const char *opt = t[k].s;
        if (!cimp_is_option(opt)) {
            rc = err_set(e, WS_ERR_INVALID, "%s:%u:%u: expected a GPGPU-Sim option ('-name "
                         "value'), got '%s'", x.name, t[k].line, t[k].col, opt);
            break;
        }
        if (k + 1 == n || cimp_is_option(t[k + 1].s)) {
            rc = err_set(e, WS_ERR_INVALID, "%s:%u:%u: option %s has no value", x.name,
                         t[k].line, t[k].col, opt);
            break;
        }
        const char *value = t[k + 1].s;
        x.line = t[k + 1].line;
        x.col = t[k + 1].col;
        size_t i = 0;
        while (i < CIMP_NOPTS && strcmp(cimp_opts[i].name, opt) != 0)
            i++;
        if (i == CIMP_NOPTS) {
            cimp_ignore(&x, "%s%s%s", opt, *value ? " " : "", value);
            continue;
        }
        if (!*value) {
            rc = err_set(e, WS_ERR_INVALID, "%s:%u:%u: option %s has an empty value", x.name,
                         x.line, x.col, opt);
            break;
        }
        x.opt = opt;
        rc = cimp_opts[i].fn(&x, value, cimp_opts[i].key);
    }
    if (rc == WS_OK)
        rc = cimp_finish(&x);
    ctok_free(t, n);
    if (rc == WS_OK && ignored) {
        *ignored = x.ign ? x.ign : xstrdup("");
        x.ign = NULL;
    }
    free(x.ign);
    return rc;
}
