/* dom.h: dominator trees of small directed graphs (Cooper-Harvey-Kennedy).
 *
 * A graph is given in compressed form: the successors of node v are
 * adj[off[v] .. off[v+1]).  Both the successor and the predecessor lists are
 * passed, so the same routine computes dominators (forward graph) and
 * post-dominators (the reversed graph, rooted at a virtual exit). */
#ifndef WS_ANALYSIS_DOM_H
#define WS_ANALYSIS_DOM_H

#include <stdint.h>

#define DOM_UNDEF UINT32_MAX

struct dom_graph {
    uint32_t n;          /* nodes 0 .. n-1 */
    const uint32_t *succ_off, *succ; /* successors of v: succ[succ_off[v] .. succ_off[v+1]) */
    const uint32_t *pred_off, *pred; /* predecessors, same layout */
};

/* Fill idom[0..n-1]: idom[root] = root, DOM_UNDEF for nodes not reachable
 * from root along successor edges, else the immediate dominator. */
void dom_compute(const struct dom_graph *g, uint32_t root, uint32_t *idom);

/* Build the predecessor lists of a graph given by its successor lists.
 * *pred_off gets n+1 entries, *pred succ_off[n]; caller frees both. */
void dom_invert(uint32_t n, const uint32_t *succ_off, const uint32_t *succ,
                uint32_t **pred_off, uint32_t **pred);

#endif
