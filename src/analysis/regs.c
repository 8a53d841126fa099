/* regs.c: liveness of PTX virtual registers and the registers-per-thread
 * estimate used for the occupancy limit (see regs.h for the model).
 *
 * Per function: block-level backward liveness (live-in bitset per block,
 * iterated in post-order of the CFG until stable) and forward "possibly
 * defined" sets (iterated in reverse post-order), both as uint64_t word
 * bitsets.  Only registers read before being written in some block can be
 * live at a block boundary, so the block bitsets index just those (densely
 * renumbered); the many block-local temporaries of nvcc output cost nothing
 * there.  A final walk over each block, last instruction first, keeps the
 * weighted count of registers that are live and defined up to date
 * incrementally, touching only each instruction's operands, so the cost is
 * O(instructions + blocks x words x iterations). */
#include "analysis/regs.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/log.h"

/* Per-function scratch. */
struct rg_func {
    const struct ptx_module *m;
    const struct analysis *a;
    const struct ptx_func *f;
    uint32_t nregs;
    size_t words;         /* bitset words for nregs registers */
    uint32_t nglob;       /* registers upward-exposed in some block */
    size_t gwords;        /* bitset words for nglob */
    uint32_t *gidx;       /* [nregs] dense index among those, or PTX_NO_INDEX */
    uint32_t *ginv;       /* [nglob] register of each dense index */
    uint32_t base, n;     /* global index of local block 0; number of blocks */
    uint8_t *weight;      /* [nregs] */
    uint64_t *live_in;    /* [n][gwords] live at block entry (dense indexes) */
    uint64_t *din;        /* [n][gwords] possibly defined at block entry */
    uint32_t *order;      /* post-order of local blocks (unreachable ones last) */
    uint64_t *cur;        /* scratch bitset of max(words, gwords) */
    struct regs_refs refs;
};

uint32_t regs_type_weight(enum ptx_type t)
{
    switch (t) {
    case PTX_T_PRED:
    case PTX_T_NONE:
    case PTX_T_COUNT:
        return 0;
    case PTX_T_B64:
    case PTX_T_U64:
    case PTX_T_S64:
    case PTX_T_F64:
        return 2;
    case PTX_T_B128:
        return 4;
    default:
        return 1;
    }
}

static inline int rg_test(const uint64_t *s, uint32_t r)
{
    return (int)((s[r >> 6] >> (r & 63)) & 1u);
}

static inline void rg_set(uint64_t *s, uint32_t r)
{
    s[r >> 6] |= (uint64_t)1 << (r & 63);
}

static inline void rg_clear(uint64_t *s, uint32_t r)
{
    s[r >> 6] &= ~((uint64_t)1 << (r & 63));
}

static void rg_add(uint32_t *arr, uint32_t *n, uint32_t nregs, uint32_t r)
{
    if (r == PTX_NO_INDEX || r >= nregs)
        return;
    ws_assert(*n < REGS_MAX_REFS);
    arr[(*n)++] = r;
}

void regs_refs(const struct ptx_module *m, uint32_t pc, uint32_t nregs, struct regs_refs *R)
{
    const struct ptx_inst *in = &m->insts[pc];
    R->nuse = R->ndef = 0;
    R->guarded = in->guard != PTX_NO_INDEX;
    if (R->guarded)
        rg_add(R->use, &R->nuse, nregs, in->guard);
    uint32_t nops = (uint32_t)in->ndst + in->nsrc;
    if ((uint64_t)in->opnd + nops > m->nopnds)
        return; /* malformed; analysis.c reports what it needs */
    for (uint32_t i = 0; i < nops; i++) {
        const struct ptx_operand *o = &m->opnds[in->opnd + i];
        int is_dst = i < in->ndst;
        switch (o->kind) {
        case PTX_OPND_REG:
            if (is_dst)
                rg_add(R->def, &R->ndef, nregs, o->reg);
            else
                rg_add(R->use, &R->nuse, nregs, o->reg);
            break;
        case PTX_OPND_ADDR:
            rg_add(R->use, &R->nuse, nregs, o->reg);
            break;
        case PTX_OPND_VEC:
            for (uint32_t k = 0; k < o->vec_n && k < 4; k++) {
                if (o->vec_imm & (1u << k))
                    continue;
                if (is_dst)
                    rg_add(R->def, &R->ndef, nregs, o->vec[k]);
                else
                    rg_add(R->use, &R->nuse, nregs, o->vec[k]);
            }
            break;
        default:
            break;
        }
    }
}

/* The register uses and definitions of the instruction at pc, into F->refs. */
static void rg_collect(struct rg_func *F, uint32_t pc)
{
    regs_refs(F->m, pc, F->nregs, &F->refs);
}

/* Post-order of the blocks reachable from the entry, then the rest. */
static void rg_postorder(struct rg_func *F)
{
    uint32_t n = F->n;
    uint8_t *seen = xcalloc(n, 1);
    uint32_t *stack = xmalloc((size_t)n * sizeof *stack);
    uint32_t *next = xcalloc(n, sizeof *next);
    uint32_t len = 0;
    for (uint32_t root = 0; root < n; root++) {
        if (seen[root])
            continue;
        uint32_t sp = 0;
        stack[sp++] = root;
        seen[root] = 1;
        while (sp > 0) {
            uint32_t v = stack[sp - 1];
            const struct basic_block *bb = &F->a->bbs[F->base + v];
            if (next[v] < bb->nsucc) {
                uint32_t s = bb->succ[next[v]++] - F->base;
                ws_assert(s < n);
                if (!seen[s]) {
                    seen[s] = 1;
                    stack[sp++] = s;
                }
            } else {
                F->order[len++] = v;
                sp--;
            }
        }
    }
    ws_assert(len == n);
    free(next);
    free(stack);
    free(seen);
}

/* out = union of the live-in sets of b's successors (dense indexes). */
static void rg_live_out(const struct rg_func *F, uint32_t b, uint64_t *out)
{
    const struct basic_block *bb = &F->a->bbs[F->base + b];
    memset(out, 0, F->gwords * sizeof *out);
    for (uint32_t i = 0; i < bb->nsucc; i++) {
        const uint64_t *s = F->live_in + (size_t)(bb->succ[i] - F->base) * F->gwords;
        for (size_t w = 0; w < F->gwords; w++)
            out[w] |= s[w];
    }
}

/* Which registers are read before being written in some block. */
static void rg_globals(struct rg_func *F)
{
    uint32_t nr = F->nregs ? F->nregs : 1;
    uint32_t *killed = xcalloc(nr, sizeof *killed); /* 1 + block of the last kill */
    F->gidx = xmalloc((size_t)nr * sizeof *F->gidx);
    F->ginv = xmalloc((size_t)nr * sizeof *F->ginv);
    for (uint32_t r = 0; r < nr; r++)
        F->gidx[r] = PTX_NO_INDEX;
    for (uint32_t b = 0; b < F->n; b++) {
        const struct basic_block *bb = &F->a->bbs[F->base + b];
        for (uint32_t pc = bb->first_pc; pc <= bb->last_pc; pc++) {
            rg_collect(F, pc);
            for (uint32_t i = 0; i < F->refs.nuse; i++) {
                uint32_t r = F->refs.use[i];
                if (killed[r] != b + 1 && F->gidx[r] == PTX_NO_INDEX) {
                    F->gidx[r] = F->nglob;
                    F->ginv[F->nglob++] = r;
                }
            }
            if (!F->refs.guarded)
                for (uint32_t i = 0; i < F->refs.ndef; i++)
                    killed[F->refs.def[i]] = b + 1;
        }
    }
    F->gwords = ((size_t)F->nglob + 63) / 64;
    if (F->gwords == 0)
        F->gwords = 1;
    free(killed);
}

static void rg_liveness(struct rg_func *F, uint64_t *cur)
{
    int changed = 1;
    while (changed) {
        changed = 0;
        for (uint32_t k = 0; k < F->n; k++) {
            uint32_t b = F->order[k];
            const struct basic_block *bb = &F->a->bbs[F->base + b];
            rg_live_out(F, b, cur);
            for (uint32_t pc = bb->last_pc + 1; pc-- > bb->first_pc;) {
                rg_collect(F, pc);
                if (!F->refs.guarded)
                    for (uint32_t i = 0; i < F->refs.ndef; i++) {
                        uint32_t g = F->gidx[F->refs.def[i]];
                        if (g != PTX_NO_INDEX)
                            rg_clear(cur, g);
                    }
                for (uint32_t i = 0; i < F->refs.nuse; i++) {
                    uint32_t g = F->gidx[F->refs.use[i]];
                    if (g != PTX_NO_INDEX)
                        rg_set(cur, g);
                }
            }
            uint64_t *in = F->live_in + (size_t)b * F->gwords;
            if (memcmp(in, cur, F->gwords * sizeof *cur) != 0) {
                memcpy(in, cur, F->gwords * sizeof *cur);
                changed = 1;
            }
        }
    }
}

static void rg_defined(struct rg_func *F, uint64_t *cur)
{
    int changed = 1;
    while (changed) {
        changed = 0;
        for (uint32_t k = F->n; k-- > 0;) {
            uint32_t b = F->order[k];
            const struct basic_block *bb = &F->a->bbs[F->base + b];
            memcpy(cur, F->din + (size_t)b * F->gwords, F->gwords * sizeof *cur);
            for (uint32_t pc = bb->first_pc; pc <= bb->last_pc; pc++) {
                rg_collect(F, pc);
                for (uint32_t i = 0; i < F->refs.ndef; i++) {
                    uint32_t g = F->gidx[F->refs.def[i]];
                    if (g != PTX_NO_INDEX)
                        rg_set(cur, g);
                }
            }
            for (uint32_t i = 0; i < bb->nsucc; i++) {
                uint64_t *d = F->din + (size_t)(bb->succ[i] - F->base) * F->gwords;
                for (size_t w = 0; w < F->gwords; w++) {
                    uint64_t nv = d[w] | cur[w];
                    if (nv != d[w]) {
                        d[w] = nv;
                        changed = 1;
                    }
                }
            }
        }
    }
}

/* Scratch of the final walk. */
struct rg_walk {
    uint32_t *fd_blk; /* [nregs] 1 + local block of fd_pc, 0 = none */
    uint32_t *fd_pc;  /* [nregs] first definition PC within that block */
    uint32_t *touch;  /* [nregs] 1 + PC that last touched the register */
    uint32_t *tlist;  /* touched registers of one instruction */
    uint8_t *told;    /* their membership before the step */
    uint64_t *gout;   /* [gwords] live-out of the block, dense indexes */
};

/* Register r is possibly defined just before the instruction at pc of block b. */
static inline int rg_def_before(const struct rg_func *F, const struct rg_walk *W,
                                const uint64_t *din, uint32_t b, uint32_t r, uint32_t pc)
{
    /* A register that is never live at a block entry is, wherever it is
     * live, preceded by a killing definition in the same block. */
    uint32_t g = F->gidx[r];
    return (g != PTX_NO_INDEX && rg_test(din, g)) ||
           (W->fd_blk[r] == b + 1 && W->fd_pc[r] < pc);
}

/* Peak weighted count of live, defined registers over the points of block b. */
static uint64_t rg_block_peak(struct rg_func *F, struct rg_walk *W, uint32_t b,
                              uint64_t *live)
{
    const struct basic_block *bb = &F->a->bbs[F->base + b];
    const uint64_t *din = F->din + (size_t)b * F->gwords;
    for (uint32_t pc = bb->first_pc; pc <= bb->last_pc; pc++) {
        rg_collect(F, pc);
        for (uint32_t i = 0; i < F->refs.ndef; i++) {
            uint32_t r = F->refs.def[i];
            if (W->fd_blk[r] != b + 1) {
                W->fd_blk[r] = b + 1;
                W->fd_pc[r] = pc;
            }
        }
    }
    rg_live_out(F, b, W->gout);
    memset(live, 0, F->words * sizeof *live);
    uint64_t cnt = 0, peak = 0;
    for (size_t w = 0; w < F->gwords; w++) {
        uint64_t bits = W->gout[w];
        while (bits) {
            uint32_t r = F->ginv[w * 64 + (size_t)__builtin_ctzll(bits)];
            bits &= bits - 1;
            rg_set(live, r);
            if (rg_def_before(F, W, din, b, r, bb->last_pc + 1))
                cnt += F->weight[r];
        }
    }
    peak = cnt;
    for (uint32_t pc = bb->last_pc + 1; pc-- > bb->first_pc;) {
        rg_collect(F, pc);
        const struct regs_refs *R = &F->refs;
        uint32_t nt = 0;
        uint64_t extra = 0;
        /* Just after pc: live-out plus the destinations being written. */
        for (uint32_t i = 0; i < R->ndef; i++) {
            uint32_t r = R->def[i];
            if (W->touch[r] == pc + 1)
                continue;
            W->touch[r] = pc + 1;
            W->told[nt] = (uint8_t)(rg_test(live, r) && rg_def_before(F, W, din, b, r, pc + 1));
            W->tlist[nt++] = r;
            if (!W->told[nt - 1])
                extra += F->weight[r];
        }
        if (cnt + extra > peak)
            peak = cnt + extra;
        for (uint32_t i = 0; i < R->nuse; i++) {
            uint32_t r = R->use[i];
            if (W->touch[r] == pc + 1)
                continue;
            W->touch[r] = pc + 1;
            W->told[nt] = (uint8_t)(rg_test(live, r) && rg_def_before(F, W, din, b, r, pc + 1));
            W->tlist[nt++] = r;
        }
        if (!R->guarded)
            for (uint32_t i = 0; i < R->ndef; i++)
                rg_clear(live, R->def[i]);
        for (uint32_t i = 0; i < R->nuse; i++)
            rg_set(live, R->use[i]);
        /* Just before pc. */
        for (uint32_t i = 0; i < nt; i++) {
            uint32_t r = W->tlist[i];
            int now = rg_test(live, r) && rg_def_before(F, W, din, b, r, pc);
            if (now && !W->told[i])
                cnt += F->weight[r];
            else if (!now && W->told[i])
                cnt -= F->weight[r];
        }
        if (cnt > peak)
            peak = cnt;
    }
    return peak;
}

/* The scratch of function fi with its block liveness computed, or NULL for
 * a function without a body. */
static struct rg_func *rg_open(const struct ptx_module *m, const struct analysis *a, uint32_t fi)
{
    const struct ptx_func *f = &m->funcs[fi];
    if (f->is_extern || f->ninsts == 0 || f->first_pc >= m->ninsts)
        return NULL;
    uint32_t base = a->pc[f->first_pc].bb;
    if (base == PTX_NO_INDEX || base >= a->nbbs)
        return NULL;
    struct rg_func *F = xcalloc(1, sizeof *F);
    F->m = m;
    F->a = a;
    F->f = f;
    F->nregs = f->regs ? f->nregs : 0;
    F->words = ((size_t)F->nregs + 63) / 64;
    if (F->words == 0)
        F->words = 1;
    F->base = base;
    while (base + F->n < a->nbbs && a->bbs[base + F->n].func == fi)
        F->n++;
    F->weight = xcalloc(F->nregs ? F->nregs : 1, 1);
    for (uint32_t r = 0; r < F->nregs; r++)
        F->weight[r] = (uint8_t)regs_type_weight((enum ptx_type)f->regs[r].type);
    rg_globals(F);
    F->live_in = xcalloc((size_t)F->n * F->gwords, sizeof *F->live_in);
    F->din = xcalloc((size_t)F->n * F->gwords, sizeof *F->din);
    F->order = xmalloc((size_t)F->n * sizeof *F->order);
    F->cur = xmalloc((F->gwords > F->words ? F->gwords : F->words) * sizeof *F->cur);
    rg_postorder(F);
    rg_liveness(F, F->cur);
    return F;
}

static void rg_close(struct rg_func *F)
{
    free(F->cur);
    free(F->gidx);
    free(F->ginv);
    free(F->order);
    free(F->din);
    free(F->live_in);
    free(F->weight);
    free(F);
}

static uint32_t rg_function(const struct ptx_module *m, const struct analysis *a, uint32_t fi)
{
    struct rg_func *F = rg_open(m, a, fi);
    if (!F)
        return 0;
    rg_defined(F, F->cur);
    struct rg_walk W;
    size_t nr = F->nregs ? F->nregs : 1;
    W.fd_blk = xcalloc(nr, sizeof *W.fd_blk);
    W.fd_pc = xcalloc(nr, sizeof *W.fd_pc);
    W.touch = xcalloc(nr, sizeof *W.touch);
    W.tlist = xmalloc(2 * REGS_MAX_REFS * sizeof *W.tlist);
    W.told = xmalloc(2 * REGS_MAX_REFS);
    W.gout = xmalloc(F->gwords * sizeof *W.gout);
    uint64_t peak = 0;
    for (uint32_t b = 0; b < F->n; b++) {
        uint64_t p = rg_block_peak(F, &W, b, F->cur);
        if (p > peak)
            peak = p;
    }
    free(W.fd_blk);
    free(W.fd_pc);
    free(W.touch);
    free(W.tlist);
    free(W.told);
    free(W.gout);
    rg_close(F);
    return peak > UINT32_MAX ? UINT32_MAX : (uint32_t)peak;
}

/* ---- storage slots -------------------------------------------------------- */

struct rg_interval {
    uint32_t lo, hi, reg;
};

static int rg_interval_cmp(const void *x, const void *y)
{
    const struct rg_interval *a = x, *b = y;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    return a->reg < b->reg ? -1 : a->reg > b->reg;
}

static void rg_extend(struct rg_interval *iv, uint32_t r, uint32_t pos)
{
    if (pos < iv[r].lo)
        iv[r].lo = pos;
    if (pos > iv[r].hi)
        iv[r].hi = pos;
}

uint32_t regs_slots(const struct ptx_module *m, const struct analysis *a, uint32_t fi,
                    uint32_t *slot)
{
    const struct ptx_func *f = &m->funcs[fi];
    uint32_t nregs = f->regs ? f->nregs : 0;
    struct rg_func *F = nregs ? rg_open(m, a, fi) : NULL;
    if (!F) {
        /* no body to analyse: every register keeps a slot of its own */
        for (uint32_t r = 0; r < nregs; r++)
            slot[r] = r;
        return nregs;
    }
    /* The interval of each register: the positions (PCs from the function's
     * first) where it is live into or out of a block, or an operand. */
    struct rg_interval *iv = xmalloc((size_t)nregs * sizeof *iv);
    for (uint32_t r = 0; r < nregs; r++)
        iv[r] = (struct rg_interval){UINT32_MAX, 0, r};
    uint64_t *out = xmalloc(F->gwords * sizeof *out);
    for (uint32_t b = 0; b < F->n; b++) {
        const struct basic_block *bb = &a->bbs[F->base + b];
        uint32_t first = bb->first_pc - f->first_pc, last = bb->last_pc - f->first_pc;
        const uint64_t *in = F->live_in + (size_t)b * F->gwords;
        rg_live_out(F, b, out);
        for (size_t w = 0; w < F->gwords; w++) {
            for (uint64_t bits = in[w]; bits; bits &= bits - 1)
                rg_extend(iv, F->ginv[w * 64 + (size_t)__builtin_ctzll(bits)], first);
            for (uint64_t bits = out[w]; bits; bits &= bits - 1)
                rg_extend(iv, F->ginv[w * 64 + (size_t)__builtin_ctzll(bits)], last);
        }
        for (uint32_t pc = bb->first_pc; pc <= bb->last_pc; pc++) {
            rg_collect(F, pc);
            for (uint32_t i = 0; i < F->refs.nuse; i++)
                rg_extend(iv, F->refs.use[i], pc - f->first_pc);
            for (uint32_t i = 0; i < F->refs.ndef; i++)
                rg_extend(iv, F->refs.def[i], pc - f->first_pc);
        }
    }
    free(out);
    rg_close(F);
    /* Linear scan in order of interval start: the lowest slot whose last
     * occupant's interval ended strictly before this one starts. */
    qsort(iv, nregs, sizeof *iv, rg_interval_cmp);
    uint32_t *busy_to = xmalloc(((size_t)nregs + 1) * sizeof *busy_to);
    uint32_t nslots = 0, unused = 0;
    for (uint32_t i = 0; i < nregs; i++) {
        if (iv[i].lo == UINT32_MAX) {
            unused = 1;
            continue;
        }
        uint32_t s = 0;
        while (s < nslots && busy_to[s] >= iv[i].lo)
            s++;
        if (s == nslots)
            nslots++;
        busy_to[s] = iv[i].hi;
        slot[iv[i].reg] = s;
    }
    /* registers no instruction names share one slot of their own */
    for (uint32_t i = 0; i < nregs; i++)
        if (iv[i].lo == UINT32_MAX)
            slot[iv[i].reg] = nslots;
    free(busy_to);
    free(iv);
    return nslots + unused;
}

void regs_estimate(const struct ptx_module *m, const struct analysis *a, uint32_t *max_live,
                   uint32_t *est)
{
    uint32_t nf = m->nfuncs;
    if (nf == 0)
        return;
    for (uint32_t fi = 0; fi < nf; fi++)
        max_live[fi] = rg_function(m, a, fi);

    /* Call graph as CSR: edges caller -> callee. */
    uint32_t *off = xcalloc((size_t)nf + 1, sizeof *off);
    uint32_t *edges = NULL;
    size_t nedges = 0, cap = 0;
    for (uint32_t fi = 0; fi < nf; fi++) {
        const struct ptx_func *f = &m->funcs[fi];
        off[fi] = (uint32_t)nedges;
        if (f->is_extern || (uint64_t)f->first_pc + f->ninsts > m->ninsts)
            continue;
        for (uint32_t pc = f->first_pc; pc < f->first_pc + f->ninsts; pc++) {
            const struct ptx_inst *in = &m->insts[pc];
            if (in->op != PTX_OP_CALL || in->nsrc < 1 ||
                (uint64_t)in->opnd + in->ndst + 1 > m->nopnds)
                continue;
            const struct ptx_operand *o = ptx_src(m, in, 0);
            if (o->kind == PTX_OPND_FUNC && o->sym < nf)
                *ARRAY_PUSH(edges, nedges, cap) = o->sym;
        }
    }
    off[nf] = (uint32_t)nedges;

    uint32_t *seen = xcalloc(nf, sizeof *seen);
    uint32_t *stack = xmalloc((size_t)nf * sizeof *stack); /* each function once */
    for (uint32_t fi = 0; fi < nf; fi++) {
        const struct ptx_func *f = &m->funcs[fi];
        if (f->is_extern || f->ninsts == 0) {
            est[fi] = 0;
            continue;
        }
        /* Every function reachable through calls, each once. */
        uint32_t sp = 0, callee_max = 0;
        seen[fi] = fi + 1;
        stack[sp++] = fi;
        while (sp > 0) {
            uint32_t v = stack[--sp];
            for (uint32_t i = off[v]; i < off[v + 1]; i++) {
                uint32_t c = edges[i];
                if (seen[c] == fi + 1)
                    continue;
                seen[c] = fi + 1;
                if (max_live[c] > callee_max)
                    callee_max = max_live[c];
                stack[sp++] = c;
            }
        }
        uint64_t e = (uint64_t)max_live[fi] + callee_max + REGS_OVERHEAD;
        if (e < REGS_MIN)
            e = REGS_MIN;
        if (e > REGS_MAX)
            e = REGS_MAX;
        est[fi] = (uint32_t)e;
    }
    free(stack);
    free(seen);
    free(edges);
    free(off);
}
