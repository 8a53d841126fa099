/* profile.c: the DAWS load profiler and its text file (Rogers et al.,
 * MICRO 2013, Section 5.1 "Profiled-DAWS"; SPEC-policies 4.2): per kernel
 * and per global/local load inside a loop, the samples with > 2 active
 * lanes, how many touched > 2 distinct 128-byte lines, the loop (warpsim's
 * loop analysis) and the static RepID. */
#include "profile/profile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "base/alloc.h"
#include "base/file.h"
#include "func/func.h"
#include "ptx/ir.h"

#define PROFILE_MAGIC "warpsim-load-profile 2"
#define PROFILE_MAGIC_V1 "warpsim-load-profile 1"
/* line -> trip epoch of the last touch by the traced warp (lossy, direct-mapped) */
#define PROF_REUSE_SLOTS 16384

int profile_is_div(uint64_t samples, uint64_t div_samples)
{
    if (samples == 0)
        return 1; /* never seen converged: not consistently converged */
    return div_samples * 100 > samples * PROFILE_DIV_PERCENT;
}

int profile_loop_has_locality(uint64_t execs, uint64_t reuse)
{
    return reuse > execs - reuse;
}

int profile_find_kernel(const struct load_profile *p, const char *name)
{
    for (uint32_t k = 0; k < p->nkernels; k++)
        if (strcmp(p->kernels[k], name) == 0)
            return (int)k;
    return -1;
}

int profile_write(FILE *out, const struct load_profile *p, const char *source)
{
    fprintf(out, "%s\n", PROFILE_MAGIC);
    fprintf(out,
            "# DAWS load profile (Rogers et al., MICRO 2013, Section 5.1), written by `warpsim "
            "profile`,\n"
            "# read by --sched daws_profiled:profile=FILE.  See docs/daws.md.\n");
    if (source)
        fprintf(out, "# source: %s\n", source);
    fprintf(out,
            "# One line per global/local load inside a loop:\n"
            "#   kernel      entry name\n"
            "#   pc          instruction index in the module (PTX line in 'line')\n"
            "#   loop_begin  header PC of the innermost loop holding the load\n"
            "#   loop_end    last PC of that loop\n"
            "#   samples     executions with > 2 active lanes\n"
            "#   div         of those, how many touched > 2 distinct %d-byte lines\n"
            "#   is_div      1 = diverged: not consistently converged (no sample, or\n"
            "#               div > %d%% of samples)\n"
            "#   repid       repetition group: same base register and displacements\n"
            "#               within one %d-byte line, in the same loop\n"
            "#   execs       executions (any active lane)\n"
            "#   reuse       of those, executions that re-touched a line the same warp's\n"
            "#               loads touched on this or the previous trip of the loop\n"
            "#               (a loop has locality when reuse > execs - reuse, summed\n"
            "#               over its loads)\n"
            "# kernel pc line loop_begin loop_end samples div is_div repid execs reuse\n",
            PROFILE_LINE_BYTES, PROFILE_DIV_PERCENT, PROFILE_LINE_BYTES);
    for (uint32_t i = 0; i < p->nloads; i++) {
        const struct profile_load *l = &p->loads[i];
        fprintf(out, "%s %u %u %u %u %" PRIu64 " %" PRIu64 " %u %u %" PRIu64 " %" PRIu64 "\n",
                p->kernels[l->kernel], l->pc, l->src_line, l->loop_begin, l->loop_end,
                l->samples, l->div_samples, (unsigned)l->is_div, l->repid, l->execs, l->reuse);
    }
    return ferror(out) ? WS_ERR_IO : WS_OK;
}

int profile_write_file(const char *path, const struct load_profile *p, const char *source,
                       struct err *e)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return err_set(e, WS_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
    int rc = profile_write(f, p, source);
    if (fclose(f) != 0 || rc != WS_OK)
        return err_set(e, WS_ERR_IO, "%s: write failed", path);
    return WS_OK;
}

/* Parse an unsigned decimal field; 0 on success. */
static int parse_u64(const char *s, uint64_t *out)
{
    if (!s || !*s || *s == '-' || *s == '+')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

int profile_read(const char *path, struct load_profile *p, struct err *e)
{
    memset(p, 0, sizeof *p);
    FILE *f = fopen(path, "r");
    if (!f)
        return err_set(e, WS_ERR_IO, "%s: cannot open load profile: %s", path, strerror(errno));
    if (file_check_input(path, f, e) != WS_OK) {
        fclose(f);
        return e->code;
    }
    char buf[1024];
    uint32_t lineno = 0;
    int rc = WS_OK, seen_magic = 0;
    static const char *const names[] = {"pc",  "line",   "loop_begin", "loop_end", "samples",
                                        "div", "is_div", "repid",      "execs",    "reuse"};
    while (rc == WS_OK && fgets(buf, sizeof buf, f)) {
        lineno++;
        size_t len = strlen(buf);
        if (len == sizeof buf - 1 && buf[len - 1] != '\n') {
            rc = err_set(e, WS_ERR_PARSE, "%s:%u: line too long", path, lineno);
            break;
        }
        while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r' || buf[len - 1] == ' '))
            buf[--len] = '\0';
        if (!seen_magic) {
            if (strcmp(buf, PROFILE_MAGIC_V1) == 0)
                rc = err_set(e, WS_ERR_PARSE,
                             "%s:%u: load profile format 1 has no locality columns: write it "
                             "again with `warpsim profile`",
                             path, lineno);
            else if (strcmp(buf, PROFILE_MAGIC) != 0)
                rc = err_set(e, WS_ERR_PARSE,
                             "%s:%u: not a warpsim load profile (expected first line '%s')",
                             path, lineno, PROFILE_MAGIC);
            seen_magic = 1;
            continue;
        }
        char *s = buf;
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s || *s == '#')
            continue;
        char *tok[12];
        int nt = 0;
        char *save = NULL;
        for (char *t = strtok_r(s, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
            if (nt == 12)
                break;
            tok[nt++] = t;
        }
        if (nt != 11) {
            rc = err_set(e, WS_ERR_PARSE,
                         "%s:%u: expected 11 fields (kernel pc line loop_begin loop_end samples "
                         "div is_div repid execs reuse), got %d",
                         path, lineno, nt);
            break;
        }
        uint64_t v[10];
        for (int i = 0; i < 10; i++)
            if (parse_u64(tok[i + 1], &v[i]) != 0 ||
                (i != 4 && i != 5 && i < 8 && v[i] > UINT32_MAX)) {
                rc = err_set(e, WS_ERR_PARSE, "%s:%u: field '%s': '%s' is not a number", path,
                             lineno, names[i], tok[i + 1]);
                break;
            }
        if (rc != WS_OK)
            break;
        if (v[6] > 1 || v[5] > v[4] || v[9] > v[8]) {
            rc = err_set(e, WS_ERR_PARSE,
                         "%s:%u: is_div must be 0 or 1, div must not exceed samples nor reuse "
                         "execs",
                         path, lineno);
            break;
        }
        if (strlen(tok[0]) >= PROFILE_NAME_MAX) {
            rc = err_set(e, WS_ERR_PARSE, "%s:%u: kernel name longer than %d characters", path,
                         lineno, PROFILE_NAME_MAX - 1);
            break;
        }
        int k = profile_find_kernel(p, tok[0]);
        if (k < 0) {
            if (p->nkernels == PROFILE_MAX_KERNELS) {
                rc = err_set(e, WS_ERR_PARSE, "%s:%u: more than %d kernels", path, lineno,
                             PROFILE_MAX_KERNELS);
                break;
            }
            k = (int)p->nkernels++;
            snprintf(p->kernels[k], PROFILE_NAME_MAX, "%s", tok[0]);
        }
        if (p->nloads == PROFILE_MAX_LOADS) {
            rc = err_set(e, WS_ERR_PARSE, "%s:%u: more than %d loads", path, lineno,
                         PROFILE_MAX_LOADS);
            break;
        }
        struct profile_load *l = &p->loads[p->nloads++];
        l->kernel = (uint32_t)k;
        l->pc = (uint32_t)v[0];
        l->src_line = (uint32_t)v[1];
        l->loop_begin = (uint32_t)v[2];
        l->loop_end = (uint32_t)v[3];
        l->samples = v[4];
        l->div_samples = v[5];
        l->is_div = (uint8_t)v[6];
        l->repid = (uint32_t)v[7];
        l->execs = v[8];
        l->reuse = v[9];
    }
    if (rc == WS_OK && ferror(f))
        rc = err_set(e, WS_ERR_IO, "%s: read error", path);
    if (rc == WS_OK && !seen_magic)
        rc = err_set(e, WS_ERR_PARSE, "%s:1: empty file: not a warpsim load profile", path);
    fclose(f);
    return rc;
}

/* ---- the profiler -------------------------------------------------------- */

/* Two loads of one loop seen in the same iteration of the same warp: how
 * often (co), and how often every common lane's addresses lay within one
 * line of each other (near). */
struct prof_pair {
    uint32_t a, b; /* PCs, a < b */
    uint64_t co, near;
};

struct prof_kernel {
    char *name;
    const struct ptx_module *m;
    const struct analysis *an;
    uint64_t *samples, *div; /* [m->ninsts] */
    /* the current warp's latest execution of each load in this iteration */
    uint64_t *last_epoch;    /* [m->ninsts] */
    uint32_t *last_mask;     /* [m->ninsts] */
    uint64_t *last_addr;     /* [m->ninsts * FUNC_WARP_SIZE] */
    uint64_t *loop_epoch;    /* [an->nloops] epoch of the loop's current iteration */
    uint64_t *prev_epoch;    /* [an->nloops] epoch of its previous iteration (0: none) */
    uint64_t *execs, *reuse; /* [m->ninsts] locality counts */
    uint64_t *reuse_line;    /* [PROF_REUSE_SLOTS] line + 1 */
    uint64_t *reuse_epoch;   /* [PROF_REUSE_SLOTS] trip epoch of its last touch */
    struct prof_pair *pairs;
    size_t npairs, pairs_cap;
};

struct profiler {
    struct prof_kernel *ks;
    size_t nks, ks_cap;
    uint64_t epoch;
    const struct func_cta *cur_cta; /* the warp traced last */
    uint32_t cur_cta_linear, cur_warp;
};

struct profiler *profiler_new(void)
{
    return xcalloc(1, sizeof(struct profiler));
}

void profiler_free(struct profiler *pr)
{
    if (!pr)
        return;
    for (size_t i = 0; i < pr->nks; i++) {
        free(pr->ks[i].name);
        free(pr->ks[i].samples);
        free(pr->ks[i].div);
        free(pr->ks[i].last_epoch);
        free(pr->ks[i].last_mask);
        free(pr->ks[i].last_addr);
        free(pr->ks[i].loop_epoch);
        free(pr->ks[i].prev_epoch);
        free(pr->ks[i].execs);
        free(pr->ks[i].reuse);
        free(pr->ks[i].reuse_line);
        free(pr->ks[i].reuse_epoch);
        free(pr->ks[i].pairs);
    }
    free(pr->ks);
    free(pr);
}

static int prof_is_load(const struct analysis *an, uint32_t pc)
{
    uint8_t c = an->pc[pc].iclass;
    return c == ICLASS_LOAD_GLOBAL || c == ICLASS_LOAD_LOCAL;
}

static struct prof_kernel *prof_kernel_for(struct profiler *pr, const struct func_kernel *k)
{
    const char *name = k->m->funcs[k->func].name;
    for (size_t i = 0; i < pr->nks; i++)
        if (pr->ks[i].m == k->m && strcmp(pr->ks[i].name, name) == 0)
            return &pr->ks[i];
    struct prof_kernel *pk = ARRAY_PUSH(pr->ks, pr->nks, pr->ks_cap);
    memset(pk, 0, sizeof *pk);
    pk->m = k->m;
    pk->an = k->an;
    pk->name = xstrdup(name);
    pk->samples = xcalloc(k->m->ninsts ? k->m->ninsts : 1, sizeof(uint64_t));
    pk->div = xcalloc(k->m->ninsts ? k->m->ninsts : 1, sizeof(uint64_t));
    pk->last_epoch = xcalloc(k->m->ninsts ? k->m->ninsts : 1, sizeof(uint64_t));
    pk->last_mask = xcalloc(k->m->ninsts ? k->m->ninsts : 1, sizeof(uint32_t));
    pk->last_addr = xcalloc((k->m->ninsts ? k->m->ninsts : 1) * (size_t)FUNC_WARP_SIZE,
                            sizeof(uint64_t));
    pk->loop_epoch = xcalloc(k->an->nloops ? k->an->nloops : 1, sizeof(uint64_t));
    pk->prev_epoch = xcalloc(k->an->nloops ? k->an->nloops : 1, sizeof(uint64_t));
    pk->execs = xcalloc(k->m->ninsts ? k->m->ninsts : 1, sizeof(uint64_t));
    pk->reuse = xcalloc(k->m->ninsts ? k->m->ninsts : 1, sizeof(uint64_t));
    pk->reuse_line = xcalloc(PROF_REUSE_SLOTS, sizeof(uint64_t));
    pk->reuse_epoch = xcalloc(PROF_REUSE_SLOTS, sizeof(uint64_t));
    return pk;
}

static struct prof_pair *prof_pair(struct prof_kernel *pk, uint32_t a, uint32_t b)
{
    if (a > b) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    for (size_t i = 0; i < pk->npairs; i++)
        if (pk->pairs[i].a == a && pk->pairs[i].b == b)
            return &pk->pairs[i];
    struct prof_pair *p = ARRAY_PUSH(pk->pairs, pk->npairs, pk->pairs_cap);
    memset(p, 0, sizeof *p);
    p->a = a;
    p->b = b;
    return p;
}

/* Compare load pc's addresses with every other load of its loop that the
 * same warp executed earlier in the same iteration, then remember them. */
static void prof_repeats(struct prof_kernel *pk, uint32_t loop, const struct func_trace *t)
{
    const struct loop_info *L = &pk->an->loops[loop];
    for (uint32_t a = L->first_pc; a <= L->last_pc; a++) {
        if (a == t->pc || pk->last_epoch[a] != pk->loop_epoch[loop] || !pk->last_epoch[a])
            continue;
        uint32_t common = pk->last_mask[a] & t->mask;
        if (!common)
            continue;
        int near = 1;
        for (uint32_t l = 0; l < FUNC_WARP_SIZE && near; l++) {
            if (!(common >> l & 1))
                continue;
            uint64_t x = pk->last_addr[(size_t)a * FUNC_WARP_SIZE + l], y = t->addr[l];
            near = (x > y ? x - y : y - x) < PROFILE_LINE_BYTES;
        }
        struct prof_pair *p = prof_pair(pk, a, t->pc);
        p->co++;
        p->near += (uint64_t)near;
    }
    pk->last_epoch[t->pc] = pk->loop_epoch[loop];
    pk->last_mask[t->pc] = t->mask;
    memcpy(&pk->last_addr[(size_t)t->pc * FUNC_WARP_SIZE], t->addr, sizeof t->addr);
}

static uint32_t prof_slot(uint64_t line)
{
    return (uint32_t)((line * 0x9E3779B97F4A7C15ull) >> 50) & (PROF_REUSE_SLOTS - 1);
}

/* Intra-warp locality of one load execution: did a lane touch a line the
 * same warp's loads touched on this or the previous trip of `loop`?  The
 * lines are then recorded for this trip (lanes of one instruction sharing a
 * line are coalescing, not reuse: look all up first). */
static void prof_locality(struct prof_kernel *pk, uint32_t loop, const struct func_trace *t)
{
    uint64_t cur = pk->loop_epoch[loop], prev = pk->prev_epoch[loop];
    int hit = 0;
    for (uint32_t l = 0; l < FUNC_WARP_SIZE; l++) {
        if (!(t->mask >> l & 1))
            continue;
        uint64_t line = t->addr[l] / PROFILE_LINE_BYTES;
        uint32_t i = prof_slot(line);
        if (pk->reuse_line[i] == line + 1 &&
            (pk->reuse_epoch[i] == cur || (prev && pk->reuse_epoch[i] == prev)))
            hit = 1;
    }
    for (uint32_t l = 0; l < FUNC_WARP_SIZE; l++) {
        if (!(t->mask >> l & 1))
            continue;
        uint64_t line = t->addr[l] / PROFILE_LINE_BYTES;
        uint32_t i = prof_slot(line);
        pk->reuse_line[i] = line + 1;
        pk->reuse_epoch[i] = cur;
    }
    pk->execs[t->pc]++;
    pk->reuse[t->pc] += (uint64_t)hit;
}

void profiler_trace(void *ctx, const struct func_kernel *k, const struct func_cta *c,
                    const struct func_warp *w, const struct func_trace *t)
{
    struct profiler *pr = ctx;
    if (t->pc >= k->m->ninsts)
        return;
    const struct analysis *an = k->an;
    uint32_t loop = an->pc[t->pc].loop;
    if (loop == PTX_NO_INDEX)
        return;
    struct prof_kernel *pk = prof_kernel_for(pr, k);
    if (c != pr->cur_cta || c->linear != pr->cur_cta_linear || w->id != pr->cur_warp) {
        /* another warp: no iteration of any loop is current */
        pr->cur_cta = c;
        pr->cur_cta_linear = c->linear;
        pr->cur_warp = w->id;
        for (uint32_t l = 0; l < an->nloops; l++) {
            pk->loop_epoch[l] = ++pr->epoch;
            pk->prev_epoch[l] = 0;
        }
    }
    /* a loop's first instruction starts a new iteration of it (and of the
     * loops inside it) */
    for (uint32_t l = loop; l != PTX_NO_INDEX && l < an->nloops; l = an->loops[l].parent)
        if (an->loops[l].header_pc == t->pc) {
            pk->prev_epoch[l] = pk->loop_epoch[l];
            for (uint32_t i = 0; i < an->nloops; i++)
                if (i == l || (an->loops[i].first_pc >= an->loops[l].first_pc &&
                               an->loops[i].last_pc <= an->loops[l].last_pc))
                    pk->loop_epoch[i] = ++pr->epoch;
        }
    if (!prof_is_load(an, t->pc) || t->is_store || !t->mask)
        return;
    prof_repeats(pk, loop, t);
    prof_locality(pk, loop, t);
    uint32_t lanes = (uint32_t)__builtin_popcount(t->mask);
    if (lanes <= 2)
        return;
    uint64_t seen[FUNC_WARP_SIZE];
    uint32_t nseen = 0;
    for (uint32_t l = 0; l < FUNC_WARP_SIZE; l++) {
        if (!(t->mask >> l & 1))
            continue;
        uint64_t line = t->addr[l] / PROFILE_LINE_BYTES, j;
        for (j = 0; j < nseen && seen[j] != line; j++)
            ;
        if (j == nseen)
            seen[nseen++] = line;
    }
    pk->samples[t->pc]++;
    if (nseen > 2)
        pk->div[t->pc]++;
}

/* Static RepID of every load of one kernel (SPEC 4.2): a load that has no
 * RepID yet starts a group; later loads of the same loop with the same base
 * (register or variable) whose displacement lies within one line of the
 * first load's join it. */
static int prof_same_line(const struct ptx_operand *a, const struct ptx_operand *b)
{
    if (a->kind != PTX_OPND_ADDR || b->kind != PTX_OPND_ADDR || a->reg != b->reg ||
        a->sym != b->sym)
        return 0;
    int64_t d = a->imm > b->imm ? a->imm - b->imm : b->imm - a->imm;
    return d < PROFILE_LINE_BYTES;
}

static void prof_repids(const struct ptx_module *m, const uint32_t *pcs, uint32_t n,
                        uint32_t *rep, const uint32_t *loop)
{
    uint32_t next = 0;
    for (uint32_t i = 0; i < n; i++)
        rep[i] = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        if (rep[i] != UINT32_MAX)
            continue;
        const struct ptx_operand *oa = ptx_src(m, &m->insts[pcs[i]], 0);
        rep[i] = next;
        for (uint32_t j = i + 1; j < n; j++)
            if (rep[j] == UINT32_MAX && loop[j] == loop[i] &&
                prof_same_line(oa, ptx_src(m, &m->insts[pcs[j]], 0)))
                rep[j] = next;
        next++;
    }
}

int profiler_finish(const struct profiler *pr, struct load_profile *out, struct err *e)
{
    memset(out, 0, sizeof *out);
    for (size_t ki = 0; ki < pr->nks; ki++) {
        const struct prof_kernel *pk = &pr->ks[ki];
        if (out->nkernels == PROFILE_MAX_KERNELS)
            return err_set(e, WS_ERR_INVALID, "load profile: more than %d kernels",
                           PROFILE_MAX_KERNELS);
        if (strlen(pk->name) >= PROFILE_NAME_MAX)
            return err_set(e, WS_ERR_INVALID, "load profile: kernel name '%s' too long",
                           pk->name);
        uint32_t kidx = out->nkernels++;
        snprintf(out->kernels[kidx], PROFILE_NAME_MAX, "%s", pk->name);
        /* every static global/local load inside a loop of the module's
         * functions that this kernel ran (samples may be 0) */
        uint32_t n = 0;
        uint32_t *pcs = xcalloc(pk->m->ninsts + 1, sizeof *pcs);
        uint32_t *loop = xcalloc(pk->m->ninsts + 1, sizeof *loop);
        uint32_t *rep = xcalloc(pk->m->ninsts + 1, sizeof *rep);
        for (uint32_t f = 0; f < pk->m->nfuncs; f++) {
            const struct ptx_func *fn = &pk->m->funcs[f];
            int used = 0;
            for (uint32_t pc = fn->first_pc; pc < fn->first_pc + fn->ninsts; pc++)
                used |= pk->samples[pc] != 0;
            if (!used && strcmp(fn->name, pk->name) != 0)
                continue;
            for (uint32_t pc = fn->first_pc; pc < fn->first_pc + fn->ninsts; pc++)
                if (prof_is_load(pk->an, pc) && pk->an->pc[pc].loop != PTX_NO_INDEX) {
                    loop[n] = pk->an->pc[pc].loop;
                    pcs[n++] = pc;
                }
        }
        prof_repids(pk->m, pcs, n, rep, loop);
        /* Dynamic repetition (an extension, docs/daws.md): two loads of one
         * loop whose every common lane's addresses lay within one line in at
         * least PROFILE_REP_PERCENT % of the iterations that ran both (e.g.
         * a[j] and a[j+1] of an unrolled loop, where PTX uses two base
         * registers) join one RepID. */
        for (size_t pi = 0; pi < pk->npairs; pi++) {
            const struct prof_pair *pp = &pk->pairs[pi];
            if (!pp->co || pp->near * 100 < pp->co * PROFILE_REP_PERCENT)
                continue;
            uint32_t ia = n, ib = n;
            for (uint32_t i = 0; i < n; i++) {
                if (pcs[i] == pp->a)
                    ia = i;
                if (pcs[i] == pp->b)
                    ib = i;
            }
            if (ia == n || ib == n || rep[ia] == rep[ib] || loop[ia] != loop[ib])
                continue;
            uint32_t keep = rep[ia] < rep[ib] ? rep[ia] : rep[ib];
            uint32_t drop = rep[ia] < rep[ib] ? rep[ib] : rep[ia];
            for (uint32_t i = 0; i < n; i++)
                if (rep[i] == drop)
                    rep[i] = keep;
        }
        /* renumber densely in PC order (static RepIDs are < n) */
        {
            uint32_t *map = xcalloc(n + 1, sizeof *map), next = 0;
            for (uint32_t i = 0; i <= n; i++)
                map[i] = UINT32_MAX;
            for (uint32_t i = 0; i < n; i++) {
                if (map[rep[i]] == UINT32_MAX)
                    map[rep[i]] = next++;
                rep[i] = map[rep[i]];
            }
            free(map);
        }
        int rc = WS_OK;
        for (uint32_t i = 0; i < n && rc == WS_OK; i++) {
            if (out->nloads == PROFILE_MAX_LOADS) {
                rc = err_set(e, WS_ERR_INVALID, "load profile: more than %d loads",
                             PROFILE_MAX_LOADS);
                break;
            }
            const struct loop_info *L = &pk->an->loops[loop[i]];
            struct profile_load *l = &out->loads[out->nloads++];
            l->kernel = kidx;
            l->pc = pcs[i];
            l->src_line = pk->m->insts[pcs[i]].line;
            l->loop_begin = L->header_pc;
            l->loop_end = L->last_pc;
            l->samples = pk->samples[pcs[i]];
            l->div_samples = pk->div[pcs[i]];
            l->is_div = (uint8_t)profile_is_div(l->samples, l->div_samples);
            l->repid = rep[i];
            l->execs = pk->execs[pcs[i]];
            l->reuse = pk->reuse[pcs[i]];
        }
        free(pcs);
        free(loop);
        free(rep);
        if (rc != WS_OK)
            return rc;
    }
    return WS_OK;
}
