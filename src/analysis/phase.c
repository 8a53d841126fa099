/* phase.c: program phases (construction and sizing; see phase.h). */
#include "analysis/phase.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/regs.h"
#include "base/alloc.h"

int phase_is_long_latency(enum inst_class c)
{
    switch (c) {
    case ICLASS_LOAD_GLOBAL: case ICLASS_LOAD_LOCAL: case ICLASS_STORE_GLOBAL: case ICLASS_STORE_LOCAL:
    case ICLASS_STORE_SHARED: case ICLASS_ATOMIC: case ICLASS_BRANCH: case ICLASS_BARRIER:
    case ICLASS_MEMBAR:
        return 1;
    default:
        return 0;
    }
}

/* Register bitset helpers (words of 64). */
static int bit_get(const uint64_t *s, uint32_t r)
{
    return (int)((s[r / 64] >> (r % 64)) & 1u);
}

static void bit_set(uint64_t *s, uint32_t r)
{
    s[r / 64] |= 1ull << (r % 64);
}

static int is_load(enum inst_class c)
{
    return c == ICLASS_LOAD_GLOBAL || c == ICLASS_LOAD_LOCAL;
}

/* May the load whose operands are R move above the first instruction of the
 * current phase (phase.h, "Hoisting")? */
static int hoistable(const struct regs_refs *R, const uint64_t *prev, const uint64_t *def,
                     const uint64_t *use)
{
    for (uint32_t i = 0; i < R->nuse; i++)
        if (bit_get(prev, R->use[i]) || bit_get(def, R->use[i]))
            return 0;
    for (uint32_t i = 0; i < R->ndef; i++)
        if (bit_get(def, R->def[i]) || bit_get(use, R->def[i]))
            return 0;
    return 1;
}

/* Phases of function fi, appended to a->phases (cap: its capacity). */
static void phase_function(const struct ptx_module *m, struct analysis *a, uint32_t fi,
                           struct regs_refs *R, size_t *cap)
{
    const struct ptx_func *f = &m->funcs[fi];
    size_t words = ((size_t)f->nregs + 63) / 64, bytes;
    words = words ? words : 1;
    bytes = words * sizeof(uint64_t);
    /* longop: long-op registers of the current phase; prev: those of the
     * previous phase of the block (not ready before the current phase's
     * start); def, use: registers written, read in the current phase so far */
    uint64_t *longop = xcalloc(words, sizeof *longop), *prev = xcalloc(words, sizeof *prev);
    uint64_t *def = xcalloc(words, sizeof *def), *use = xcalloc(words, sizeof *use);
    int first_of_block = 0, fenced = 0;
    for (uint32_t pc = f->first_pc; pc < f->first_pc + f->ninsts; pc++) {
        struct pc_info *pi = &a->pc[pc];
        enum inst_class c = (enum inst_class)pi->iclass;
        regs_refs(m, pc, f->nregs, R);
        int block = a->bbs[pi->bb].first_pc == pc, start = block;
        for (uint32_t i = 0; i < R->nuse && !start; i++)
            start = bit_get(longop, R->use[i]);
        if (start) {
            struct phase_info *ph = ARRAY_PUSH(a->phases, a->nphases, *cap);
            ph->first_pc = pc;
            ph->func = fi;
            if (block)
                memset(prev, 0, bytes);
            else
                memcpy(prev, longop, bytes);
            memset(longop, 0, bytes);
            memset(def, 0, bytes);
            memset(use, 0, bytes);
            first_of_block = block;
            fenced = 0;
        }
        a->phases[a->nphases - 1].last_pc = pc;
        pi->phase = a->nphases - 1;
        if (phase_is_long_latency(c)) {
            int early = !first_of_block && !fenced && is_load(c) && hoistable(R, prev, def, use);
            for (uint32_t i = 0; i < R->ndef; i++)
                bit_set(early ? prev : longop, R->def[i]);
            fenced |= !is_load(c);
        }
        for (uint32_t i = 0; i < R->nuse; i++)
            bit_set(use, R->use[i]);
        for (uint32_t i = 0; i < R->ndef; i++)
            bit_set(def, R->def[i]);
    }
    free(longop);
    free(prev);
    free(def);
    free(use);
}

void phase_build(const struct ptx_module *m, struct analysis *a)
{
    struct regs_refs *R = xmalloc(sizeof *R);
    size_t cap = 0;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const struct ptx_func *f = &m->funcs[fi];
        if (!f->is_extern && f->ninsts > 0)
            phase_function(m, a, fi, R, &cap);
    }
    free(R);
}

static uint16_t phase_sat(uint64_t v)
{
    return (uint16_t)(v > PHASE_SATURATE ? PHASE_SATURATE : v);
}

void phase_size(const struct ptx_module *m, const struct analysis *a,
                const uint32_t *class_latency, uint32_t issue_cost, struct pc_phase *pc,
                uint32_t *len)
{
    memset(pc, 0, (size_t)m->ninsts * sizeof *pc);
    for (uint32_t p = 0; p < a->nphases; p++) {
        const struct phase_info *ph = &a->phases[p];
        uint64_t acc = 0;
        for (uint32_t i = ph->last_pc + 1; i-- > ph->first_pc;) {
            enum inst_class c = (enum inst_class)a->pc[i].iclass;
            acc += phase_is_long_latency(c) ? issue_cost : class_latency[c];
            pc[i].dist = phase_sat(acc);
        }
        for (uint32_t i = ph->first_pc; i <= ph->last_pc; i++)
            pc[i].len = phase_sat(acc);
        if (len)
            len[p] = acc > UINT32_MAX ? UINT32_MAX : (uint32_t)acc;
    }
}
