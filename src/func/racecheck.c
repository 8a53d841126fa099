/* racecheck.c: shared-memory hazard detection (see racecheck.h). */
#include "func/racecheck.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/demangle.h"
#include "func/exec_internal.h"

#define RACE_MAX_ENTRIES 64 /* distinct (kind, PC, PC) kept per launch */

enum race_kind { RACE_RAW, RACE_WAR, RACE_WAW };
static const char *const race_kind_name[] = {"read after write", "write after read",
                                              "write after write"};

/* One access as remembered: thread (linear in the CTA; its warp is thread /
 * FUNC_WARP_SIZE), PC, and the launch's warp-instruction count when it ran
 * (one instruction may resolve the same bytes twice: a store checks every
 * lane first). */
struct race_acc {
    uint32_t thread, pc;
    uint64_t insn;
};

static uint32_t warp_of(const struct race_acc *a)
{
    return a->thread / FUNC_WARP_SIZE;
}

/* Shadow of one shared byte; stale unless epoch is the CTA's current one. */
struct race_cell {
    uint32_t epoch;
    uint8_t written, written_atomic, read, read2;
    struct race_acc w;     /* last writer */
    struct race_acc r, r2; /* first reader of the epoch; a reader of another warp */
    struct race_acc last_read;
};

struct race_shadow {
    struct race_cell *cells;
    uint64_t ncells;
    uint32_t epoch;
};

struct race_entry {
    uint8_t kind;
    struct race_acc first, second; /* first occurrence: the earlier access, the later */
    uint32_t cta;
    uint64_t off;
    uint64_t count;
};

struct race_log {
    struct race_entry e[RACE_MAX_ENTRIES];
    uint32_t n;
    uint64_t total, dropped; /* hazards; those of pairs past RACE_MAX_ENTRIES */
};

void race_cta_begin(struct func_cta *c)
{
    struct race_shadow *sh = c->race;
    if (!sh)
        sh = c->race = xcalloc(1, sizeof *sh);
    if (c->shared_size > sh->ncells) {
        free(sh->cells);
        sh->cells = xcalloc(c->shared_size, sizeof *sh->cells);
        sh->ncells = c->shared_size;
        sh->epoch = 0;
    }
    sh->epoch++; /* cells of the previous CTA are stale */
}

void race_epoch(struct func_cta *c)
{
    if (c->race)
        c->race->epoch++;
}

void race_cta_free(struct func_cta *c)
{
    if (c->race)
        free(c->race->cells);
    free(c->race);
    c->race = NULL;
}

static void record(const struct step *s, enum race_kind kind, const struct race_acc *first,
                   const struct race_acc *second, uint64_t off)
{
    struct func_kernel *k = s->k;
    k->env->stats->racecheck_hazards++;
    if (!k->races)
        k->races = xcalloc(1, sizeof *k->races);
    struct race_log *log = k->races;
    log->total++;
    for (uint32_t i = 0; i < log->n; i++) {
        struct race_entry *e = &log->e[i];
        if (e->kind == kind && e->first.pc == first->pc && e->second.pc == second->pc) {
            e->count++;
            return;
        }
    }
    if (log->n == RACE_MAX_ENTRIES) {
        log->dropped++;
        return;
    }
    log->e[log->n++] = (struct race_entry){(uint8_t)kind, *first, *second, s->c->linear, off, 1};
}

void race_access(const struct step *s, uint32_t lane, uint64_t off, unsigned n, int kind)
{
    struct race_shadow *sh = s->c->race;
    struct race_acc me = {s->w->id * FUNC_WARP_SIZE + lane, s->pc, s->k->warp_insn};
    uint32_t my_warp = s->w->id;
    int atomic = kind == ACC_ATOMIC, writes = kind != ACC_READ;
    int found[3] = {0, 0, 0}; /* one hazard of a kind per access, however many bytes */
    for (uint64_t b = off; b < off + n && b < sh->ncells; b++) {
        struct race_cell *cell = &sh->cells[b];
        if (cell->epoch != sh->epoch)
            memset(cell, 0, sizeof *cell), cell->epoch = sh->epoch;
        const struct race_acc *again = writes ? &cell->w : &cell->last_read;
        if ((writes ? cell->written : cell->read) && again->thread == me.thread &&
            again->insn == me.insn)
            continue; /* this instruction's second look at the byte */
        if (cell->written && warp_of(&cell->w) != my_warp && !(atomic && cell->written_atomic)) {
            enum race_kind rk = writes ? RACE_WAW : RACE_RAW;
            if (!found[rk]++)
                record(s, rk, &cell->w, &me, b);
        }
        if (writes && cell->read && !found[RACE_WAR]) {
            const struct race_acc *other = warp_of(&cell->r) != my_warp ? &cell->r
                                           : cell->read2           ? &cell->r2
                                                                   : NULL;
            if (other) {
                found[RACE_WAR] = 1;
                record(s, RACE_WAR, other, &me, b);
            }
        }
        if (writes) {
            cell->written = 1;
            cell->written_atomic = (uint8_t)atomic;
            cell->w = me;
            continue;
        }
        cell->last_read = me;
        if (!cell->read) {
            cell->read = 1;
            cell->r = me;
        } else if (!cell->read2 && warp_of(&cell->r) != my_warp) {
            cell->read2 = 1;
            cell->r2 = me;
        }
    }
}

/* "thread (x,y,z) of warp w at [file.cu:line, ]PC p (module:line: op)" */
static void describe(const struct func_kernel *k, const struct race_acc *a, char *buf,
                     size_t len)
{
    const struct ptx_module *m = k->m;
    uint32_t bx = k->block[0], by = k->block[1], t = a->thread;
    const struct ptx_inst *in = &m->insts[a->pc];
    const char *src = ptx_inst_src_file(m, in);
    char where[300] = "";
    if (src)
        snprintf(where, sizeof where, "%s:%u, ", src, in->src_line);
    snprintf(buf, len, "thread (%u,%u,%u) of warp %u at %sPC %u (%s:%u: %s)", t % bx,
             (t / bx) % by, t / (bx * by), warp_of(a), where, a->pc,
             m->name ? m->name : "<module>", in->line, ptx_op_name(in->op));
}

void race_report(struct func_kernel *k, FILE *out)
{
    struct race_log *log = k->races;
    if (!log)
        return;
    char name[256];
    fprintf(out,
            "warpsim: racecheck: kernel '%s': %" PRIu64
            " shared-memory hazard%s (thread accesses) at %u instruction pair%s%s\n",
            demangle(k->m->funcs[k->func].name, name, sizeof name), log->total, log->total == 1 ? "" : "s", log->n,
            log->n == 1 ? "" : "s", log->dropped ? " (and more, not listed)" : "");
    for (uint32_t i = 0; i < log->n; i++) {
        const struct race_entry *e = &log->e[i];
        char a[640], b[640];
        describe(k, &e->first, a, sizeof a);
        describe(k, &e->second, b, sizeof b);
        uint32_t g0 = k->grid[0], g1 = k->grid[1];
        fprintf(out,
                "warpsim: racecheck:   %s hazard x%" PRIu64 ", first at shared byte 0x%" PRIx64
                " in block (%u,%u,%u): %s by %s, then %s by %s, no barrier between\n",
                race_kind_name[e->kind], e->count, e->off, e->cta % g0, (e->cta / g0) % g1,
                e->cta / (g0 * g1), e->kind == RACE_WAR ? "read" : "written", a,
                e->kind == RACE_RAW ? "read" : "written", b);
    }
    free(log);
    k->races = NULL;
}
