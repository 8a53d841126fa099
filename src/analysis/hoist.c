/* hoist.c: load hoisting within basic-block segments (see hoist.h).
 *
 * Per segment, two walks:
 *  - backward, the loads' dependence cone: an instruction belongs to it when
 *    it is a movable load, or when a later member reads a register it writes,
 *    writes a register it reads, or writes a register it writes;
 *  - forward, each instruction's level: the largest level among the earlier
 *    instructions it depends on, plus one across a read of a movable load's
 *    result (a write-after-read or write-after-write dependence adds none).
 * The segment is then ordered by (level, cone members first, original
 * position), a stable counting sort.  That keeps every dependence P -> S:
 * level(P) <= level(S); at equal levels P precedes S in the source, and if
 * S is a cone member so is P (P feeds what S feeds). */
#include "analysis/hoist.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/regs.h"
#include "base/alloc.h"

/* Does the instruction read a clock (%clock, %clock64, %globaltimer)? */
static int hoist_reads_clock(const struct ptx_module *m, const struct ptx_inst *in)
{
    for (uint32_t i = in->ndst; i < (uint32_t)in->ndst + in->nsrc; i++) {
        const struct ptx_operand *o = &m->opnds[in->opnd + i];
        if (o->kind == PTX_OPND_SREG &&
            (o->reg == PTX_SREG_CLOCK || o->reg == PTX_SREG_CLOCK64 ||
             o->reg == PTX_SREG_GLOBALTIMER))
            return 1;
    }
    return 0;
}

/* Instructions that keep their place and end a segment. */
static int hoist_is_ordering(const struct ptx_module *m, const struct ptx_inst *in)
{
    if (in->flags & (PTX_F_SYNC | PTX_F_VOLATILE | PTX_F_RELAXED_SCOPE))
        return 1;
    if (hoist_reads_clock(m, in))
        return 1; /* a timed load stays between its clock reads */
    switch (in->op) {
    case PTX_OP_BRA: case PTX_OP_CALL: case PTX_OP_RET: case PTX_OP_EXIT: case PTX_OP_TRAP:
    case PTX_OP_ST: case PTX_OP_ATOM: case PTX_OP_RED: case PTX_OP_BAR: case PTX_OP_MEMBAR:
    case PTX_OP_FENCE: case PTX_OP_SUST: case PTX_OP_NANOSLEEP: case PTX_OP_PMEVENT:
        return 1;
    default:
        return 0;
    }
}

/* The long-latency loads a scheduling compiler moves up. */
static int hoist_is_movable(const struct ptx_inst *in)
{
    switch (in->op) {
    case PTX_OP_LD: case PTX_OP_LDU:
        return in->space == PTX_SPACE_GLOBAL || in->space == PTX_SPACE_LOCAL ||
               in->space == PTX_SPACE_NONE;
    case PTX_OP_TEX: case PTX_OP_TLD4: case PTX_OP_SULD:
        return 1;
    default:
        return 0;
    }
}

/* A register's levels in the forward walk (valid in generation gen). */
struct hoist_reg {
    uint32_t gen;
    uint32_t raw; /* level a reader of its current value needs */
    uint32_t war; /* largest level of a reader so far: a writer's level */
    uint32_t waw; /* level of its last writer */
};

struct hoist_ctx {
    struct ptx_module *m;
    uint32_t nregs;       /* of the function; index nregs is the carry flag */
    uint32_t *cone_use;   /* [nregs + 1]: generation in which a cone member read it */
    uint32_t *cone_def;   /* [nregs + 1]: ... wrote it */
    struct hoist_reg *lvl; /* [nregs + 1] */
    uint32_t gen;
    uint8_t *in_cone;     /* [segment length] */
    uint32_t *level;      /* [segment length] */
    uint32_t *count;      /* [2 x (segment length + 1)]: bucket sizes, then starts */
    struct ptx_inst *tmp; /* [segment length] */
    struct regs_refs refs;
};

/* The carry flag as one more register: written by .cc, read by addc/subc/madc. */
static void hoist_refs(struct hoist_ctx *H, uint32_t pc)
{
    struct regs_refs *R = &H->refs;
    regs_refs(H->m, pc, H->nregs, R);
    const struct ptx_inst *in = &H->m->insts[pc];
    if ((in->op == PTX_OP_ADDC || in->op == PTX_OP_SUBC || in->op == PTX_OP_MADC) &&
        R->nuse < REGS_MAX_REFS)
        R->use[R->nuse++] = H->nregs;
    if ((in->flags & PTX_F_CC) && R->ndef < REGS_MAX_REFS)
        R->def[R->ndef++] = H->nregs;
}

static int hoist_any(const uint32_t *regs, uint32_t n, const uint32_t *stamp, uint32_t gen)
{
    for (uint32_t k = 0; k < n; k++)
        if (stamp[regs[k]] == gen)
            return 1;
    return 0;
}

static struct hoist_reg *hoist_reg(struct hoist_ctx *H, uint32_t r)
{
    struct hoist_reg *g = &H->lvl[r];
    if (g->gen != H->gen)
        *g = (struct hoist_reg){.gen = H->gen};
    return g;
}

/* Level of every instruction of segment [s, e) (see above); returns the
 * largest. */
static uint32_t hoist_levels(struct hoist_ctx *H, uint32_t s, uint32_t e)
{
    uint32_t top = 0;
    for (uint32_t i = s; i < e; i++) {
        hoist_refs(H, i);
        const struct regs_refs *R = &H->refs;
        uint32_t l = 0;
        for (uint32_t k = 0; k < R->nuse; k++) {
            const struct hoist_reg *g = hoist_reg(H, R->use[k]);
            l = g->raw > l ? g->raw : l;
        }
        for (uint32_t k = 0; k < R->ndef; k++) {
            const struct hoist_reg *g = hoist_reg(H, R->def[k]);
            l = g->war > l ? g->war : l;
            l = g->waw > l ? g->waw : l;
        }
        for (uint32_t k = 0; k < R->nuse; k++) {
            struct hoist_reg *g = hoist_reg(H, R->use[k]);
            g->war = l > g->war ? l : g->war;
        }
        uint32_t after = l + (uint32_t)hoist_is_movable(&H->m->insts[i]);
        for (uint32_t k = 0; k < R->ndef; k++) {
            struct hoist_reg *g = hoist_reg(H, R->def[k]);
            g->waw = l;
            g->raw = after;
        }
        H->level[i - s] = l;
        top = l > top ? l : top;
    }
    return top;
}

/* Order segment [s, e) by (level, cone first, position); returns the
 * instructions moved. */
static uint32_t hoist_segment(struct hoist_ctx *H, uint32_t s, uint32_t e)
{
    struct ptx_module *m = H->m;
    uint32_t n = e - s, ncone = 0;
    H->gen++;
    for (uint32_t i = e; i-- > s;) {
        hoist_refs(H, i);
        const struct regs_refs *R = &H->refs;
        int member = hoist_is_movable(&m->insts[i]) ||
                     hoist_any(R->def, R->ndef, H->cone_use, H->gen) ||
                     hoist_any(R->def, R->ndef, H->cone_def, H->gen) ||
                     hoist_any(R->use, R->nuse, H->cone_def, H->gen);
        H->in_cone[i - s] = (uint8_t)member;
        if (!member)
            continue;
        ncone++;
        for (uint32_t k = 0; k < R->nuse; k++)
            H->cone_use[R->use[k]] = H->gen;
        for (uint32_t k = 0; k < R->ndef; k++)
            H->cone_def[R->def[k]] = H->gen;
    }
    if (ncone == 0)
        return 0;
    H->gen++;
    uint32_t top = hoist_levels(H, s, e), nb = 2 * (top + 1), moved = 0;
    memset(H->count, 0, (size_t)nb * sizeof *H->count);
    for (uint32_t k = 0; k < n; k++)
        H->count[2 * H->level[k] + !H->in_cone[k]]++;
    for (uint32_t b = 0, at = 0; b < nb; b++) {
        uint32_t c = H->count[b];
        H->count[b] = at;
        at += c;
    }
    for (uint32_t k = 0; k < n; k++) {
        uint32_t to = H->count[2 * H->level[k] + !H->in_cone[k]]++;
        H->tmp[to] = m->insts[s + k];
        moved += to != k;
    }
    memcpy(&m->insts[s], H->tmp, (size_t)n * sizeof *H->tmp);
    return moved;
}

uint32_t hoist_loads(struct ptx_module *m)
{
    uint8_t *leader = xcalloc(m->ninsts + 1, 1);
    for (uint32_t pc = 0; pc < m->ninsts; pc++) {
        const struct ptx_inst *in = &m->insts[pc];
        for (uint32_t i = 0; i < (uint32_t)in->ndst + in->nsrc; i++) {
            const struct ptx_operand *o = &m->opnds[in->opnd + i];
            if (o->kind == PTX_OPND_LABEL && o->imm >= 0 && (uint64_t)o->imm < m->ninsts)
                leader[o->imm] = 1;
        }
    }
    struct hoist_ctx H = {.m = m};
    H.in_cone = xmalloc((size_t)m->ninsts + 1);
    H.level = xmalloc(((size_t)m->ninsts + 1) * sizeof *H.level);
    H.count = xmalloc(2 * ((size_t)m->ninsts + 1) * sizeof *H.count);
    H.tmp = xmalloc(((size_t)m->ninsts + 1) * sizeof *H.tmp);
    uint32_t moved = 0;
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const struct ptx_func *fn = &m->funcs[f];
        if (fn->is_extern || fn->ninsts == 0)
            continue;
        H.nregs = fn->nregs;
        H.cone_use = xcalloc((size_t)fn->nregs + 1, sizeof *H.cone_use);
        H.cone_def = xcalloc((size_t)fn->nregs + 1, sizeof *H.cone_def);
        H.lvl = xcalloc((size_t)fn->nregs + 1, sizeof *H.lvl);
        H.gen = 0;
        uint32_t end = fn->first_pc + fn->ninsts;
        for (uint32_t pc = fn->first_pc; pc < end;) {
            if (hoist_is_ordering(m, &m->insts[pc])) {
                pc++;
                continue;
            }
            uint32_t s = pc++;
            while (pc < end && !leader[pc] && !hoist_is_ordering(m, &m->insts[pc]))
                pc++;
            moved += hoist_segment(&H, s, pc);
        }
        free(H.cone_use);
        free(H.cone_def);
        free(H.lvl);
    }
    free(H.tmp);
    free(H.level);
    free(H.count);
    free(H.in_cone);
    free(leader);
    return moved;
}
