/* host.c: the bfs workload: level-synchronous breadth-first search on a random
 * CSR graph made as Rodinia's graphgen makes its bfs inputs, checked against a
 * CPU queue-based BFS. */
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

#define BFS_BLOCK 256u

struct bfs_graph {
    uint32_t num_nodes;
    uint32_t num_edges;
    int32_t *row_start; /* num_nodes + 1 offsets into edges */
    int32_t *edges;
};

/* A graph of the kind of Rodinia's bfs inputs (graph4096, graph65536,
 * graph1MW_6, all written by Rodinia's graphgen): every node draws 2-4
 * neighbours uniformly at random and each edge is stored in both directions,
 * so a node has its own 2-4 edges plus about 3 incoming ones (mean degree 6,
 * at least 2) and neighbours are scattered over the whole graph.
 * A node's edges keep the order in which they were drawn. */
static void bfs_make_graph(struct bfs_graph *g, uint32_t n, uint64_t seed)
{
    struct rng rng;
    rng_seed(&rng, seed);
    g->num_nodes = n;
    /* draw the undirected edges as (a, b) pairs */
    uint32_t *pa = xmalloc((size_t)n * 4 * sizeof *pa), *pb = xmalloc((size_t)n * 4 * sizeof *pb);
    uint32_t npairs = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = 2 + rng_below(&rng, 3);
        for (uint32_t e = 0; e < k; e++) {
            pa[npairs] = i;
            pb[npairs++] = rng_below(&rng, n);
        }
    }
    uint32_t *degree = xcalloc(n, sizeof *degree);
    for (uint32_t p = 0; p < npairs; p++) {
        degree[pa[p]]++;
        degree[pb[p]]++;
    }
    g->row_start = xmalloc(((size_t)n + 1) * sizeof *g->row_start);
    uint32_t total = 0;
    for (uint32_t i = 0; i < n; i++) {
        g->row_start[i] = (int32_t)total;
        total += degree[i];
        degree[i] = 0; /* reused as the fill position */
    }
    g->row_start[n] = (int32_t)total;
    g->num_edges = total;
    g->edges = xmalloc(((size_t)total + 1) * sizeof *g->edges);
    for (uint32_t p = 0; p < npairs; p++) {
        uint32_t a = pa[p], b = pb[p];
        g->edges[(uint32_t)g->row_start[a] + degree[a]++] = (int32_t)b;
        g->edges[(uint32_t)g->row_start[b] + degree[b]++] = (int32_t)a;
    }
    free(degree);
    free(pa);
    free(pb);
}

/* CPU reference: cost of every node from node 0, -1 when unreachable. */
static uint32_t bfs_cpu(const struct bfs_graph *g, int32_t *cost)
{
    uint32_t n = g->num_nodes, head = 0, tail = 0, levels = 0;
    uint32_t *queue = xmalloc((size_t)n * sizeof *queue);
    for (uint32_t i = 0; i < n; i++)
        cost[i] = -1;
    cost[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        uint32_t u = queue[head++];
        if ((uint32_t)cost[u] + 1 > levels)
            levels = (uint32_t)cost[u] + 1;
        for (int32_t e = g->row_start[u]; e < g->row_start[u + 1]; e++) {
            uint32_t v = (uint32_t)g->edges[e];
            if (cost[v] < 0) {
                cost[v] = cost[u] + 1;
                queue[tail++] = v;
            }
        }
    }
    free(queue);
    return levels;
}

static int bfs_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                   size_t detail_len)
{
    static const uint32_t sizes[] = {4096, 65536, 1048576}; /* Rodinia's graph sizes */
    struct bfs_graph g;
    bfs_make_graph(&g, sizes[a->size], a->seed);
    uint32_t n = g.num_nodes;
    int32_t num_nodes = (int32_t)n;

    int32_t *cost = xmalloc((size_t)n * sizeof *cost);
    int32_t *want = xmalloc((size_t)n * sizeof *want);
    uint8_t *mask = xcalloc(n, 1);
    for (uint32_t i = 0; i < n; i++)
        cost[i] = -1;
    cost[0] = 0;
    mask[0] = 1;

    ws_devptr d_row = 0, d_edges = 0, d_frontier = 0, d_updating = 0, d_visited = 0,
              d_cost = 0, d_changed = 0;
    int rc;
    uint32_t levels = 0;
    WL_TRY_OUT(ws_malloc(gpu, ((size_t)n + 1) * sizeof(int32_t), &d_row));
    WL_TRY_OUT(ws_malloc(gpu, ((size_t)g.num_edges + 1) * sizeof(int32_t), &d_edges));
    WL_TRY_OUT(ws_malloc(gpu, n, &d_frontier));
    WL_TRY_OUT(ws_malloc(gpu, n, &d_updating));
    WL_TRY_OUT(ws_malloc(gpu, n, &d_visited));
    WL_TRY_OUT(ws_malloc(gpu, (size_t)n * sizeof(int32_t), &d_cost));
    WL_TRY_OUT(ws_malloc(gpu, sizeof(int32_t), &d_changed));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_row, g.row_start, ((size_t)n + 1) * sizeof(int32_t)));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_edges, g.edges, (size_t)g.num_edges * sizeof(int32_t)));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_frontier, mask, n));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_visited, mask, n));
    WL_TRY_OUT(ws_memset(gpu, d_updating, 0, n));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_cost, cost, (size_t)n * sizeof(int32_t)));

    void *expand_args[] = {&d_row, &d_edges, &d_frontier, &d_updating,
                           &d_visited, &d_cost, &num_nodes};
    void *update_args[] = {&d_frontier, &d_updating, &d_visited, &d_changed, &num_nodes};
    ws_dim3 grid = ws_dim((n + BFS_BLOCK - 1) / BFS_BLOCK, 1, 1);
    ws_dim3 block = ws_dim(BFS_BLOCK, 1, 1);
    for (;;) {
        int32_t changed = 0;
        WL_TRY_OUT(ws_memset(gpu, d_changed, 0, sizeof(int32_t)));
        WL_TRY_OUT(ws_launch(mod, "bfs_expand", grid, block, 0, expand_args));
        WL_TRY_OUT(ws_launch(mod, "bfs_update", grid, block, 0, update_args));
        WL_TRY_OUT(ws_memcpy_dtoh(gpu, &changed, d_changed, sizeof changed));
        levels++;
        if (!changed)
            break;
        if (levels > n) {
            rc = WS_ERR_VERIFY;
            snprintf(detail, detail_len, "bfs: still changing after %u levels", levels);
            goto out;
        }
    }
    WL_TRY_OUT(ws_memcpy_dtoh(gpu, cost, d_cost, (size_t)n * sizeof(int32_t)));

    uint32_t want_levels = bfs_cpu(&g, want);
    char check[192];
    rc = wl_check_i32("cost", want, cost, n, check, sizeof check);
    if (rc == WS_OK && levels != want_levels) {
        rc = WS_ERR_VERIFY;
        snprintf(check, sizeof check, "levels: expected %u, got %u", want_levels, levels);
    }
    snprintf(detail, detail_len, "bfs: %u nodes, %u edges, %u levels: %s", n, g.num_edges,
             levels, check);

out:
    if (d_changed)
        ws_free(gpu, d_changed);
    if (d_cost)
        ws_free(gpu, d_cost);
    if (d_visited)
        ws_free(gpu, d_visited);
    if (d_updating)
        ws_free(gpu, d_updating);
    if (d_frontier)
        ws_free(gpu, d_frontier);
    if (d_edges)
        ws_free(gpu, d_edges);
    if (d_row)
        ws_free(gpu, d_row);
    free(mask);
    free(want);
    free(cost);
    free(g.edges);
    free(g.row_start);
    return rc;
}

const struct workload workload_bfs = {
    .name = "bfs",
    .desc = "breadth-first search on a Rodinia-style random graph (mean degree 6, "
            "one thread per node)",
    .run = bfs_run,
};
