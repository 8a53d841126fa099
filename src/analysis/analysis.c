/* analysis.c: per-function control-flow analysis of a parsed PTX module.
 *
 * For each function with a body: split the instructions into basic blocks,
 * build the CFG with a virtual exit node, compute dominators and
 * post-dominators (dom.c), find natural loops from back edges and classify
 * every instruction (iclass.c), then estimate register pressure (regs.c) and
 * build the program phases (phase.c).
 *
 * CFG conventions: a block's successors are listed taken target first, then
 * fall-through.  Blocks ending in ret/exit/trap (guarded or not) and blocks
 * that fall off the end of the function have an edge to the virtual exit.
 * Blocks that cannot reach the exit (infinite loops) get an extra edge to
 * it, chosen from the last block in program order upwards, so every block
 * has a post-dominator.  Loop exits are blocks outside the loop that a
 * member block branches to; leaving through ret/exit is not listed. */
#include "analysis/analysis.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/dom.h"
#include "analysis/iclass.h"
#include "analysis/phase.h"
#include "analysis/regs.h"
#include "base/alloc.h"
#include "base/log.h"

/* The allocation behind struct analysis: successor and loop arrays point into
 * two pools owned here. */
struct analysis_owned {
    struct analysis pub; /* first member: analysis_free() casts back */
    uint32_t *succ_pool;
    uint32_t *loop_pool;
};

/* Growing state while functions are analysed; pointers into the pools are
 * set once everything is built (the pools move while they grow). */
struct an_build {
    struct analysis_owned *own;
    size_t bbs_cap, loops_cap;
    uint32_t *succ_pool;
    size_t succ_len, succ_cap;
    uint32_t *succ_at; /* per block: offset in succ_pool */
    size_t succ_at_len, succ_at_cap;
    uint32_t *loop_pool;
    size_t loop_len, loop_cap;
    uint32_t *loop_at; /* per loop: 3 offsets (latches, exits, blocks) */
    size_t loop_at_len, loop_at_cap;
};

/* Scratch of one function; block indexes are local (0 .. n-1), n is the
 * virtual exit. */
struct an_func {
    const struct ptx_module *m;
    uint32_t fidx;
    uint32_t first, end; /* PC range */
    uint32_t base;       /* global index of local block 0 */
    uint32_t n;          /* real blocks */
    uint32_t *succ_off, *succ;     /* CFG including exit edges, n+1 nodes */
    uint32_t *pred_off, *pred;
    uint8_t *exit_edge;            /* per block: has an edge to the exit */
    uint32_t *idom, *ipdom;
};

static void u32_push(uint32_t **arr, size_t *len, size_t *cap, uint32_t v)
{
    *ARRAY_PUSH(*arr, *len, *cap) = v;
}

static int u32_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int an_is_term(uint16_t op)
{
    return op == PTX_OP_RET || op == PTX_OP_EXIT || op == PTX_OP_TRAP;
}

/* Target PC of the bra at pc, validated to lie inside the function. */
static int an_bra_target(const struct an_func *F, uint32_t pc, uint32_t *target,
                         struct err *e)
{
    const struct ptx_module *m = F->m;
    const struct ptx_inst *in = &m->insts[pc];
    const char *fname = m->funcs[F->fidx].name ? m->funcs[F->fidx].name : "?";
    if (in->nsrc < 1 || (uint64_t)in->opnd + in->ndst + 1 > m->nopnds ||
        ptx_src(m, in, 0)->kind != PTX_OPND_LABEL)
        return err_set(e, WS_ERR_PARSE, "%s: PC %u (line %u): bra without a label operand",
                       fname, pc, in->line);
    int64_t t = ptx_src(m, in, 0)->imm;
    if (t < (int64_t)F->first || t >= (int64_t)F->end)
        return err_set(e, WS_ERR_PARSE,
                       "%s: PC %u (line %u): bra target PC %lld is outside the function "
                       "[%u, %u)",
                       fname, pc, in->line, (long long)t, F->first, F->end);
    *target = (uint32_t)t;
    return WS_OK;
}

/* Leaders, blocks and pc_info.bb. */
static int an_blocks(struct an_func *F, struct an_build *B, struct err *e)
{
    struct analysis *a = &B->own->pub;
    const struct ptx_module *m = F->m;
    uint32_t len = F->end - F->first;
    uint8_t *leader = xcalloc(len, 1);
    leader[0] = 1;
    for (uint32_t pc = F->first; pc < F->end; pc++) {
        const struct ptx_inst *in = &m->insts[pc];
        if (in->op == PTX_OP_BRA) {
            uint32_t t = 0;
            int rc = an_bra_target(F, pc, &t, e);
            if (rc != WS_OK) {
                free(leader);
                return rc;
            }
            leader[t - F->first] = 1;
        }
        if ((in->op == PTX_OP_BRA || an_is_term(in->op)) && pc + 1 < F->end)
            leader[pc + 1 - F->first] = 1;
    }
    F->base = a->nbbs;
    int in_entry = m->funcs[F->fidx].is_entry != 0;
    for (uint32_t pc = F->first; pc < F->end; pc++) {
        a->pc[pc].iclass = (uint8_t)iclass_of(&m->insts[pc], in_entry);
        if (leader[pc - F->first]) {
            struct basic_block *bb = ARRAY_PUSH(a->bbs, a->nbbs, B->bbs_cap);
            memset(bb, 0, sizeof *bb);
            bb->first_pc = pc;
            bb->func = F->fidx;
            bb->ipdom = PTX_NO_INDEX;
        }
        a->bbs[a->nbbs - 1].last_pc = pc;
        a->pc[pc].bb = a->nbbs - 1;
    }
    F->n = a->nbbs - F->base;
    for (uint32_t pc = F->first; pc < F->end; pc++) {
        const struct basic_block *bb = &a->bbs[a->pc[pc].bb];
        a->pc[pc].bb_len = bb->last_pc - bb->first_pc + 1;
    }
    free(leader);
    return WS_OK;
}

/* Successor lists of the blocks (into the result and into F's CSR graph,
 * without the extra edges for infinite loops yet). */
static void an_edges(struct an_func *F, struct an_build *B)
{
    struct analysis *a = &B->own->pub;
    const struct ptx_module *m = F->m;
    uint32_t n = F->n;
    F->exit_edge = xcalloc(n, 1);
    F->succ_off = xcalloc((size_t)n + 2, sizeof *F->succ_off);
    size_t cap = 0, len = 0;
    F->succ = NULL;
    for (uint32_t b = 0; b < n; b++) {
        struct basic_block *bb = &a->bbs[F->base + b];
        const struct ptx_inst *in = &m->insts[bb->last_pc];
        uint32_t next = bb->last_pc + 1;
        int guarded = in->guard != PTX_NO_INDEX;
        uint32_t s[2], ns = 0;
        int falls = 0;
        if (in->op == PTX_OP_BRA) {
            /* Validated in an_blocks. */
            uint32_t t = (uint32_t)ptx_src(m, in, 0)->imm;
            s[ns++] = a->pc[t].bb - F->base;
            falls = guarded && next != t;
        } else if (an_is_term(in->op)) {
            F->exit_edge[b] = 1;
            falls = guarded;
        } else {
            falls = 1;
        }
        if (falls) {
            if (next < F->end)
                s[ns++] = a->pc[next].bb - F->base;
            else
                F->exit_edge[b] = 1;
        }
        u32_push(&B->succ_at, &B->succ_at_len, &B->succ_at_cap, (uint32_t)B->succ_len);
        bb->nsucc = ns;
        F->succ_off[b] = (uint32_t)len;
        for (uint32_t i = 0; i < ns; i++) {
            u32_push(&B->succ_pool, &B->succ_len, &B->succ_cap, F->base + s[i]);
            u32_push(&F->succ, &len, &cap, s[i]);
        }
        if (F->exit_edge[b])
            u32_push(&F->succ, &len, &cap, n);
    }
    F->succ_off[n] = (uint32_t)len;
    F->succ_off[n + 1] = (uint32_t)len;
    if (F->succ == NULL)
        F->succ = xmalloc(sizeof *F->succ);
}

/* Give blocks that cannot reach the exit an edge to it, then build the
 * predecessor lists of the final graph. */
static void an_fix_infinite(struct an_func *F)
{
    uint32_t n = F->n;
    dom_invert(n + 1, F->succ_off, F->succ, &F->pred_off, &F->pred);
    uint8_t *reach = xcalloc((size_t)n + 1, 1);
    uint32_t *stack = xmalloc(((size_t)n + 1) * sizeof *stack);
    uint32_t sp = 0;
    int added = 0;
    reach[n] = 1;
    stack[sp++] = n;
    for (uint32_t start = n + 1; start-- > 0;) {
        if (start < n && !reach[start]) {
            F->exit_edge[start] = 2; /* extra edge */
            added = 1;
            reach[start] = 1;
            stack[sp++] = start;
        }
        while (sp > 0) {
            uint32_t v = stack[--sp];
            for (uint32_t i = F->pred_off[v]; i < F->pred_off[v + 1]; i++) {
                uint32_t p = F->pred[i];
                if (!reach[p]) {
                    reach[p] = 1;
                    stack[sp++] = p;
                }
            }
        }
    }
    free(stack);
    free(reach);
    if (!added)
        return;
    /* Rebuild the successor lists with the extra edges. */
    size_t len = 0, cap = 0;
    uint32_t *succ = NULL;
    uint32_t *off = xcalloc((size_t)n + 2, sizeof *off);
    for (uint32_t b = 0; b < n; b++) {
        off[b] = (uint32_t)len;
        for (uint32_t i = F->succ_off[b]; i < F->succ_off[b + 1]; i++)
            u32_push(&succ, &len, &cap, F->succ[i]);
        if (F->exit_edge[b] == 2)
            u32_push(&succ, &len, &cap, n);
    }
    off[n] = off[n + 1] = (uint32_t)len;
    free(F->succ);
    free(F->succ_off);
    free(F->pred);
    free(F->pred_off);
    F->succ = succ;
    F->succ_off = off;
    dom_invert(n + 1, F->succ_off, F->succ, &F->pred_off, &F->pred);
}

static void an_dominators(struct an_func *F)
{
    uint32_t n = F->n;
    F->idom = xmalloc(((size_t)n + 1) * sizeof *F->idom);
    F->ipdom = xmalloc(((size_t)n + 1) * sizeof *F->ipdom);
    struct dom_graph fwd = {n + 1, F->succ_off, F->succ, F->pred_off, F->pred};
    struct dom_graph rev = {n + 1, F->pred_off, F->pred, F->succ_off, F->succ};
    dom_compute(&fwd, 0, F->idom);
    dom_compute(&rev, n, F->ipdom);
}

static uint32_t an_find(uint32_t *uf, uint32_t x)
{
    uint32_t r = x;
    while (uf[r] != r)
        r = uf[r];
    while (uf[x] != r) {
        uint32_t next = uf[x];
        uf[x] = r;
        x = next;
    }
    return r;
}

struct an_loop {
    uint32_t header;
    uint32_t parent;
    uint32_t depth;
    uint32_t nblocks, nlatches;
    uint32_t out; /* index in the result */
};

/* Loop finding of one function, step by step (an_loops): dominator-tree
 * intervals, headers, loop bodies, then the result. */
struct an_loopscan {
    uint32_t N;           /* nodes: blocks and the virtual exit */
    uint32_t *tin, *tout; /* dominator-tree entry/exit times: u dominates v iff
                             tin[u] <= tin[v] && tout[v] <= tout[u] */
    uint32_t *pre;        /* dominator-tree preorder */
    uint32_t npre;
    uint8_t *is_header;
    struct an_loop *loops; /* inner loops first (parents after their children) */
    size_t nloops, loops_cap;
    uint32_t *innermost;   /* per block: innermost loop or PTX_NO_INDEX */
    uint32_t *stamp;       /* per block: scratch marks */
};

static int an_dominates(const struct an_loopscan *S, uint32_t u, uint32_t v)
{
    return S->tin[u] <= S->tin[v] && S->tout[v] <= S->tout[u];
}

/* Dominator-tree preorder numbering for O(1) dominance queries. */
static void an_domtree(const struct an_func *F, struct an_loopscan *S)
{
    uint32_t N = S->N;
    const uint32_t *idom = F->idom;
    uint32_t *coff = xcalloc((size_t)N + 1, sizeof *coff);
    uint32_t *kids = xmalloc((size_t)N * sizeof *kids);
    uint32_t *fill = xmalloc((size_t)N * sizeof *fill);
    for (uint32_t v = 1; v < N; v++)
        if (idom[v] != DOM_UNDEF)
            coff[idom[v] + 1]++;
    for (uint32_t v = 0; v < N; v++)
        coff[v + 1] += coff[v];
    memcpy(fill, coff, (size_t)N * sizeof *fill);
    for (uint32_t v = 1; v < N; v++)
        if (idom[v] != DOM_UNDEF)
            kids[fill[idom[v]]++] = v;
    S->tin = xmalloc((size_t)N * sizeof *S->tin);
    S->tout = xmalloc((size_t)N * sizeof *S->tout);
    S->pre = xmalloc((size_t)N * sizeof *S->pre);
    uint32_t clock = 0, sp = 0;
    uint32_t *stack = fill; /* reuse: a node is on the stack at most once */
    uint32_t *next = xmalloc((size_t)N * sizeof *next);
    stack[sp++] = 0;
    S->tin[0] = clock++;
    S->pre[S->npre++] = 0;
    next[0] = coff[0];
    while (sp > 0) {
        uint32_t v = stack[sp - 1];
        if (next[v] < coff[v + 1]) {
            uint32_t w = kids[next[v]++];
            S->tin[w] = clock++;
            S->pre[S->npre++] = w;
            next[w] = coff[w];
            stack[sp++] = w;
        } else {
            S->tout[v] = clock++;
            sp--;
        }
    }
    free(next);
    free(kids);
    free(coff);
    free(fill);
}

/* A block is a loop header when one of its predecessors is dominated by it
 * (a back edge). */
static void an_headers(const struct an_func *F, struct an_loopscan *S)
{
    const uint32_t *idom = F->idom;
    S->is_header = xcalloc(S->N, 1);
    for (uint32_t u = 0; u < F->n; u++) {
        if (idom[u] == DOM_UNDEF)
            continue;
        for (uint32_t i = F->succ_off[u]; i < F->succ_off[u + 1]; i++) {
            uint32_t h = F->succ[i];
            if (h < F->n && idom[h] != DOM_UNDEF && an_dominates(S, h, u))
                S->is_header[h] = 1;
        }
    }
}

/* The body of every natural loop: walk back from the latches, collapsing
 * inner loops already found into their headers (union-find), so that each
 * block gets its innermost loop and each loop its parent. */
static void an_bodies(const struct an_func *F, struct an_loopscan *S)
{
    uint32_t n = F->n, N = S->N;
    const uint32_t *idom = F->idom;
    uint32_t *uf = xmalloc((size_t)N * sizeof *uf);
    uint32_t *loop_of_header = xmalloc((size_t)N * sizeof *loop_of_header);
    S->stamp = xmalloc((size_t)N * sizeof *S->stamp);
    S->innermost = xmalloc((size_t)N * sizeof *S->innermost);
    for (uint32_t v = 0; v < N; v++) {
        uf[v] = v;
        S->stamp[v] = S->innermost[v] = loop_of_header[v] = PTX_NO_INDEX;
    }
    uint32_t *work = NULL, *direct = NULL;
    size_t work_len = 0, work_cap = 0, direct_len = 0, direct_cap = 0;
    /* Inner headers are dominated by outer ones: decreasing preorder. */
    for (uint32_t k = S->npre; k-- > 0;) {
        uint32_t h = S->pre[k];
        if (h >= n || !S->is_header[h])
            continue;
        uint32_t L = (uint32_t)S->nloops;
        struct an_loop *lp = ARRAY_PUSH(S->loops, S->nloops, S->loops_cap);
        memset(lp, 0, sizeof *lp);
        lp->header = h;
        lp->parent = PTX_NO_INDEX;
        loop_of_header[h] = L;
        S->innermost[h] = L;
        S->stamp[h] = L;
        work_len = direct_len = 0;
        for (uint32_t i = F->pred_off[h]; i < F->pred_off[h + 1]; i++) {
            uint32_t p = F->pred[i];
            if (idom[p] != DOM_UNDEF && an_dominates(S, h, p)) {
                S->loops[L].nlatches++;
                u32_push(&work, &work_len, &work_cap, p);
            }
        }
        while (work_len > 0) {
            uint32_t y = an_find(uf, work[--work_len]);
            if (S->stamp[y] == L)
                continue;
            S->stamp[y] = L;
            u32_push(&direct, &direct_len, &direct_cap, y);
            if (loop_of_header[y] != PTX_NO_INDEX)
                S->loops[loop_of_header[y]].parent = L;
            else
                S->innermost[y] = L;
            for (uint32_t i = F->pred_off[y]; i < F->pred_off[y + 1]; i++) {
                uint32_t p = F->pred[i];
                if (idom[p] != DOM_UNDEF)
                    u32_push(&work, &work_len, &work_cap, p);
            }
        }
        for (size_t i = 0; i < direct_len; i++)
            uf[direct[i]] = h;
    }
    free(work);
    free(direct);
    free(uf);
    free(loop_of_header);
}

/* Depths, member counts and output order (by header PC); returns the
 * output order of the loops. */
static uint32_t *an_loop_order(const struct an_func *F, struct an_loopscan *S, uint32_t gbase)
{
    struct an_loop *loops = S->loops;
    size_t nloops = S->nloops;
    /* Parents are created after their children. */
    for (size_t L = nloops; L-- > 0;)
        loops[L].depth = loops[L].parent == PTX_NO_INDEX ? 1 : loops[loops[L].parent].depth + 1;
    for (uint32_t b = 0; b < F->n; b++)
        for (uint32_t L = S->innermost[b]; L != PTX_NO_INDEX; L = loops[L].parent)
            loops[L].nblocks++;
    uint32_t *order = xmalloc(nloops * sizeof *order);
    uint32_t *by_header = xmalloc((size_t)S->N * sizeof *by_header);
    for (uint32_t v = 0; v < S->N; v++)
        by_header[v] = PTX_NO_INDEX;
    for (uint32_t L = 0; L < nloops; L++)
        by_header[loops[L].header] = L;
    uint32_t no = 0;
    for (uint32_t v = 0; v < F->n; v++)
        if (by_header[v] != PTX_NO_INDEX)
            order[no++] = by_header[v];
    for (uint32_t i = 0; i < no; i++)
        loops[order[i]].out = gbase + i;
    free(by_header);
    return order;
}

/* Append the loops to the result: header, parent, depth, latches, member
 * blocks and exits (into the loop pool), PC range, and each PC's innermost
 * loop. */
static void an_loop_emit(const struct an_func *F, struct an_build *B, struct an_loopscan *S)
{
    struct analysis *a = &B->own->pub;
    uint32_t n = F->n, N = S->N;
    struct an_loop *loops = S->loops;
    uint32_t nloops = (uint32_t)S->nloops;
    uint32_t *order = an_loop_order(F, S, a->nloops);

    /* Member lists of every loop (CSR by loop), ascending by block. */
    uint32_t *moff = xcalloc(nloops + 1, sizeof *moff);
    for (uint32_t L = 0; L < nloops; L++)
        moff[L + 1] = moff[L] + loops[L].nblocks;
    uint32_t *mem = xmalloc(((size_t)moff[nloops] + 1) * sizeof *mem);
    uint32_t *mfill = xmalloc(nloops * sizeof *mfill);
    memcpy(mfill, moff, nloops * sizeof *mfill);
    for (uint32_t b = 0; b < n; b++)
        for (uint32_t L = S->innermost[b]; L != PTX_NO_INDEX; L = loops[L].parent)
            mem[mfill[L]++] = b;
    free(mfill);

    uint32_t *member = S->stamp; /* reuse as "block b is in loop L" marks */
    uint32_t *seen = xmalloc((size_t)N * sizeof *seen);
    for (uint32_t v = 0; v < N; v++)
        member[v] = seen[v] = PTX_NO_INDEX;
    for (uint32_t i = 0; i < nloops; i++) {
        uint32_t L = order[i];
        struct an_loop *lp = &loops[L];
        struct loop_info *li = ARRAY_PUSH(a->loops, a->nloops, B->loops_cap);
        memset(li, 0, sizeof *li);
        li->header_bb = F->base + lp->header;
        li->header_pc = a->bbs[li->header_bb].first_pc;
        li->parent = lp->parent == PTX_NO_INDEX ? PTX_NO_INDEX : loops[lp->parent].out;
        li->depth = lp->depth;
        li->func = F->fidx;
        /* Latches: predecessors of the header that it dominates. */
        u32_push(&B->loop_at, &B->loop_at_len, &B->loop_at_cap, (uint32_t)B->loop_len);
        for (uint32_t i2 = F->pred_off[lp->header]; i2 < F->pred_off[lp->header + 1]; i2++) {
            uint32_t p = F->pred[i2];
            if (F->idom[p] != DOM_UNDEF && an_dominates(S, lp->header, p))
                u32_push(&B->loop_pool, &B->loop_len, &B->loop_cap, F->base + p);
        }
        li->nlatches = lp->nlatches;
        size_t blocks_at = B->loop_len;
        for (uint32_t j = moff[L]; j < moff[L + 1]; j++) {
            member[mem[j]] = L;
            u32_push(&B->loop_pool, &B->loop_len, &B->loop_cap, F->base + mem[j]);
        }
        li->nblocks = (uint32_t)(B->loop_len - blocks_at);
        ws_assert(li->nblocks == lp->nblocks);
        size_t exits_at = B->loop_len;
        for (size_t j = blocks_at; j < blocks_at + li->nblocks; j++) {
            uint32_t b = B->loop_pool[j] - F->base;
            for (uint32_t k = F->succ_off[b]; k < F->succ_off[b + 1]; k++) {
                uint32_t s = F->succ[k];
                if (s < n && member[s] != L && seen[s] != L) {
                    seen[s] = L;
                    u32_push(&B->loop_pool, &B->loop_len, &B->loop_cap, F->base + s);
                }
            }
        }
        li->nexits = (uint32_t)(B->loop_len - exits_at);
        qsort(B->loop_pool + exits_at, li->nexits, sizeof *B->loop_pool, u32_cmp);
        u32_push(&B->loop_at, &B->loop_at_len, &B->loop_at_cap, (uint32_t)exits_at);
        u32_push(&B->loop_at, &B->loop_at_len, &B->loop_at_cap, (uint32_t)blocks_at);
        li->first_pc = a->bbs[B->loop_pool[blocks_at]].first_pc;
        li->last_pc = a->bbs[B->loop_pool[blocks_at + li->nblocks - 1]].last_pc;
    }
    /* Innermost loop of every PC. */
    for (uint32_t b = 0; b < n; b++) {
        if (S->innermost[b] == PTX_NO_INDEX)
            continue;
        const struct basic_block *bb = &a->bbs[F->base + b];
        for (uint32_t pc = bb->first_pc; pc <= bb->last_pc; pc++)
            a->pc[pc].loop = loops[S->innermost[b]].out;
    }
    free(seen);
    free(mem);
    free(moff);
    free(order);
}

/* Natural loops of the function (see the file comment). */
static void an_loops(struct an_func *F, struct an_build *B)
{
    struct an_loopscan S;
    memset(&S, 0, sizeof S);
    S.N = F->n + 1;
    an_domtree(F, &S);
    an_headers(F, &S);
    an_bodies(F, &S);
    if (S.nloops > 0)
        an_loop_emit(F, B, &S);
    free(S.loops);
    free(S.is_header);
    free(S.stamp);
    free(S.innermost);
    free(S.pre);
    free(S.tin);
    free(S.tout);
}

static void an_func_free(struct an_func *F)
{
    free(F->succ_off);
    free(F->succ);
    free(F->pred_off);
    free(F->pred);
    free(F->exit_edge);
    free(F->idom);
    free(F->ipdom);
}

static int an_function(const struct ptx_module *m, uint32_t fi, struct an_build *B,
                       struct err *e)
{
    struct analysis *a = &B->own->pub;
    const struct ptx_func *f = &m->funcs[fi];
    struct an_func F = {.m = m, .fidx = fi, .first = f->first_pc};
    if ((uint64_t)f->first_pc + f->ninsts > m->ninsts)
        return err_set(e, WS_ERR_PARSE,
                       "function '%s': instructions [%u, %llu) outside the module's %u",
                       f->name ? f->name : "?", f->first_pc,
                       (unsigned long long)f->first_pc + f->ninsts, m->ninsts);
    F.end = f->first_pc + f->ninsts;
    int rc = an_blocks(&F, B, e);
    if (rc != WS_OK)
        return rc;
    an_edges(&F, B);
    an_fix_infinite(&F);
    an_dominators(&F);
    for (uint32_t b = 0; b < F.n; b++) {
        ws_assert(F.ipdom[b] != DOM_UNDEF);
        struct basic_block *bb = &a->bbs[F.base + b];
        bb->ipdom = F.ipdom[b] == F.n ? PTX_NO_INDEX : F.base + F.ipdom[b];
        const struct ptx_inst *in = &m->insts[bb->last_pc];
        if (in->op == PTX_OP_BRA) {
            a->pc[bb->last_pc].reconv =
                bb->ipdom == PTX_NO_INDEX ? PC_EXIT : a->bbs[bb->ipdom].first_pc;
        }
    }
    an_loops(&F, B);
    an_func_free(&F);
    return WS_OK;
}

int analysis_run(const struct ptx_module *m, struct analysis **out, struct err *e)
{
    struct an_build B;
    memset(&B, 0, sizeof B);
    B.own = xcalloc(1, sizeof *B.own);
    struct analysis *a = &B.own->pub;
    *out = NULL;
    a->pc = xcalloc(m->ninsts ? m->ninsts : 1, sizeof *a->pc);
    for (uint32_t pc = 0; pc < m->ninsts; pc++) {
        const struct ptx_inst *in = &m->insts[pc];
        int in_entry = in->func < m->nfuncs && m->funcs[in->func].is_entry;
        a->pc[pc].bb = PTX_NO_INDEX;
        a->pc[pc].reconv = PC_EXIT;
        a->pc[pc].loop = PTX_NO_INDEX;
        a->pc[pc].phase = PTX_NO_INDEX;
        a->pc[pc].iclass = (uint8_t)iclass_of(in, in_entry);
        a->pc[pc].power = power_facts_of(m, in, iclass_is_compute(a->pc[pc].iclass));
        a->pc[pc].is_cond_branch = in->op == PTX_OP_BRA && in->guard != PTX_NO_INDEX &&
                                   !(in->flags & PTX_F_UNI);
    }
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const struct ptx_func *f = &m->funcs[fi];
        if (f->is_extern || f->ninsts == 0)
            continue;
        int rc = an_function(m, fi, &B, e);
        if (rc != WS_OK) {
            free(B.succ_pool);
            free(B.succ_at);
            free(B.loop_pool);
            free(B.loop_at);
            analysis_free(a);
            return rc;
        }
    }
    /* The pools are final: point into them. */
    B.own->succ_pool = B.succ_pool;
    B.own->loop_pool = B.loop_pool;
    for (uint32_t b = 0; b < a->nbbs; b++)
        a->bbs[b].succ = a->bbs[b].nsucc ? B.succ_pool + B.succ_at[b] : NULL;
    for (uint32_t L = 0; L < a->nloops; L++) {
        struct loop_info *li = &a->loops[L];
        li->latches = B.loop_pool + B.loop_at[3 * L];
        li->exits = li->nexits ? B.loop_pool + B.loop_at[3 * L + 1] : NULL;
        li->blocks = B.loop_pool + B.loop_at[3 * L + 2];
    }
    free(B.succ_at);
    free(B.loop_at);
    a->func_max_live_regs32 = xcalloc(m->nfuncs ? m->nfuncs : 1, sizeof *a->func_max_live_regs32);
    a->func_regs = xcalloc(m->nfuncs ? m->nfuncs : 1, sizeof *a->func_regs);
    regs_estimate(m, a, a->func_max_live_regs32, a->func_regs);
    size_t nf = m->nfuncs ? m->nfuncs : 1, total = 0;
    a->func_reg_first = xcalloc(nf, sizeof *a->func_reg_first);
    a->func_slots = xcalloc(nf, sizeof *a->func_slots);
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        a->func_reg_first[fi] = (uint32_t)total;
        total += m->funcs[fi].regs ? m->funcs[fi].nregs : 0;
    }
    a->reg_slot = xcalloc(total ? total : 1, sizeof *a->reg_slot);
    for (uint32_t fi = 0; fi < m->nfuncs; fi++)
        a->func_slots[fi] = regs_slots(m, a, fi, a->reg_slot + a->func_reg_first[fi]);
    phase_build(m, a);
    *out = a;
    return WS_OK;
}

void analysis_free(struct analysis *a)
{
    if (a == NULL)
        return;
    struct analysis_owned *own = (struct analysis_owned *)a;
    free(own->succ_pool);
    free(own->loop_pool);
    free(a->pc);
    free(a->bbs);
    free(a->loops);
    free(a->func_max_live_regs32);
    free(a->func_regs);
    free(a->reg_slot);
    free(a->func_reg_first);
    free(a->func_slots);
    free(a->phases);
    free(own);
}
