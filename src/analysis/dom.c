/* dom.c: iterative dominator computation (Cooper, Harvey and Kennedy, "A
 * Simple, Fast Dominance Algorithm"), over nodes numbered in reverse
 * postorder of an iterative depth-first search. */
#include "analysis/dom.h"

#include <stdlib.h>

#include "base/alloc.h"

void dom_invert(uint32_t n, const uint32_t *succ_off, const uint32_t *succ,
                uint32_t **pred_off, uint32_t **pred)
{
    uint32_t nedges = succ_off[n];
    uint32_t *off = xcalloc((size_t)n + 1, sizeof *off);
    uint32_t *adj = xmalloc(((size_t)nedges + 1) * sizeof *adj);
    uint32_t *fill = xmalloc(((size_t)n + 1) * sizeof *fill);
    for (uint32_t e = 0; e < nedges; e++)
        off[succ[e] + 1]++;
    for (uint32_t v = 0; v < n; v++)
        off[v + 1] += off[v];
    for (uint32_t v = 0; v <= n; v++)
        fill[v] = off[v];
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t e = succ_off[v]; e < succ_off[v + 1]; e++)
            adj[fill[succ[e]]++] = v;
    free(fill);
    *pred_off = off;
    *pred = adj;
}

/* Postorder numbers from a depth-first search along successor edges;
 * DOM_UNDEF for unreached nodes.  order[] receives the nodes in postorder;
 * returns how many were reached. */
static uint32_t dom_postorder(const struct dom_graph *g, uint32_t root, uint32_t *po,
                              uint32_t *order)
{
    uint32_t *stack = xmalloc((size_t)g->n * sizeof *stack);
    uint32_t *next = xmalloc((size_t)g->n * sizeof *next);
    uint32_t sp = 0, count = 0;
    for (uint32_t v = 0; v < g->n; v++)
        po[v] = DOM_UNDEF;
    /* po[v] == DOM_UNDEF - 1 marks "on the stack / being visited". */
    po[root] = DOM_UNDEF - 1;
    next[root] = g->succ_off[root];
    stack[sp++] = root;
    while (sp > 0) {
        uint32_t v = stack[sp - 1];
        if (next[v] < g->succ_off[v + 1]) {
            uint32_t w = g->succ[next[v]++];
            if (po[w] == DOM_UNDEF) {
                po[w] = DOM_UNDEF - 1;
                next[w] = g->succ_off[w];
                stack[sp++] = w;
            }
        } else {
            sp--;
            po[v] = count;
            order[count++] = v;
        }
    }
    free(stack);
    free(next);
    return count;
}

static uint32_t dom_intersect(const uint32_t *idom, const uint32_t *po, uint32_t a,
                              uint32_t b)
{
    while (a != b) {
        while (po[a] < po[b])
            a = idom[a];
        while (po[b] < po[a])
            b = idom[b];
    }
    return a;
}

void dom_compute(const struct dom_graph *g, uint32_t root, uint32_t *idom)
{
    if (g->n == 0)
        return;
    uint32_t *po = xmalloc((size_t)g->n * sizeof *po);
    uint32_t *order = xmalloc((size_t)g->n * sizeof *order);
    uint32_t count = dom_postorder(g, root, po, order);
    for (uint32_t v = 0; v < g->n; v++)
        idom[v] = DOM_UNDEF;
    idom[root] = root;
    int changed = 1;
    while (changed) {
        changed = 0;
        /* Reverse postorder, skipping the root (last in postorder). */
        for (uint32_t i = count - 1; i-- > 0;) {
            uint32_t v = order[i];
            uint32_t nd = DOM_UNDEF;
            for (uint32_t e = g->pred_off[v]; e < g->pred_off[v + 1]; e++) {
                uint32_t p = g->pred[e];
                if (idom[p] == DOM_UNDEF)
                    continue;
                nd = nd == DOM_UNDEF ? p : dom_intersect(idom, po, p, nd);
            }
            if (nd != idom[v]) {
                idom[v] = nd;
                changed = 1;
            }
        }
    }
    free(po);
    free(order);
}
