/* host.c: the sssp workload: single-source shortest paths on a random
 * weighted CSR graph with irregular degrees (as bfs's), by repeated
 * relaxation rounds on the GPU, checked against a CPU Dijkstra. */
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

#define SSSP_BLOCK 256u
#define SSSP_INF 0x3fffffff

struct sssp_graph {
    uint32_t n, m;
    int32_t *row_start; /* n + 1 offsets */
    int32_t *edges, *weights;
};

/* Most nodes have 0-7 out-edges, one in sixteen (and the source, node 0) is a
 * hub with 16-79; half the edges stay within 64 nodes of their source, the
 * others go anywhere; weights uniform in 1..100. */
static void sssp_make_graph(struct sssp_graph *g, uint32_t n, uint64_t seed)
{
    struct rng rng;
    rng_seed(&rng, seed);
    g->n = n;
    g->row_start = xmalloc(((size_t)n + 1) * sizeof *g->row_start);
    uint32_t total = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t d = i == 0 || rng_below(&rng, 16) == 0 ? 16 + rng_below(&rng, 64)
                                                         : rng_below(&rng, 8);
        g->row_start[i] = (int32_t)total;
        total += d;
    }
    g->row_start[n] = (int32_t)total;
    g->m = total;
    g->edges = xmalloc(((size_t)total + 1) * sizeof *g->edges);
    g->weights = xmalloc(((size_t)total + 1) * sizeof *g->weights);
    for (uint32_t i = 0; i < n; i++)
        for (int32_t e = g->row_start[i]; e < g->row_start[i + 1]; e++) {
            uint32_t to = rng_below(&rng, 2) == 0 ? (i + n + rng_below(&rng, 129) - 64) % n
                                                  : (uint32_t)rng_below(&rng, n);
            g->edges[e] = (int32_t)to;
            g->weights[e] = 1 + (int32_t)rng_below(&rng, 100);
        }
}

/* CPU reference: Dijkstra from node 0 with a binary heap of (dist, node)
 * entries (stale entries skipped); unreachable nodes keep SSSP_INF. */
static void sssp_cpu(const struct sssp_graph *g, int32_t *dist)
{
    size_t cap = (size_t)g->m + 1, len = 0;
    uint64_t *heap = xmalloc(cap * sizeof *heap); /* dist << 32 | node */
    for (uint32_t i = 0; i < g->n; i++)
        dist[i] = SSSP_INF;
    dist[0] = 0;
    heap[len++] = 0;
    while (len) {
        uint64_t top = heap[0];
        heap[0] = heap[--len];
        for (size_t i = 0;;) { /* sift down */
            size_t l = 2 * i + 1, r = l + 1, s = i;
            if (l < len && heap[l] < heap[s])
                s = l;
            if (r < len && heap[r] < heap[s])
                s = r;
            if (s == i)
                break;
            uint64_t t = heap[i];
            heap[i] = heap[s];
            heap[s] = t;
            i = s;
        }
        uint32_t u = (uint32_t)top;
        if ((int32_t)(top >> 32) != dist[u])
            continue;
        for (int32_t e = g->row_start[u]; e < g->row_start[u + 1]; e++) {
            uint32_t v = (uint32_t)g->edges[e];
            int32_t nd = dist[u] + g->weights[e];
            if (nd >= dist[v])
                continue;
            dist[v] = nd;
            if (len == cap) {
                cap *= 2;
                heap = xrealloc(heap, cap * sizeof *heap);
            }
            size_t i = len++; /* sift up */
            heap[i] = (uint64_t)nd << 32 | v;
            while (i && heap[(i - 1) / 2] > heap[i]) {
                uint64_t t = heap[i];
                heap[i] = heap[(i - 1) / 2];
                heap[(i - 1) / 2] = t;
                i = (i - 1) / 2;
            }
        }
    }
    free(heap);
}

static int sssp_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                    size_t detail_len)
{
    static const uint32_t sizes[] = {4096, 32768, 262144};
    struct sssp_graph g;
    sssp_make_graph(&g, sizes[a->size], a->seed);
    uint32_t n = g.n;
    int32_t num_nodes = (int32_t)n;
    int32_t *dist = xmalloc((size_t)n * sizeof *dist);
    int32_t *want = xmalloc((size_t)n * sizeof *want);
    int32_t *flag = xcalloc(n, sizeof *flag);
    for (uint32_t i = 0; i < n; i++)
        dist[i] = SSSP_INF;
    dist[0] = 0;
    flag[0] = 1;
    ws_devptr d_row = 0, d_edges = 0, d_w = 0, d_dist = 0, d_act[2] = {0, 0}, d_changed = 0;
    int rc = WS_OK;
    uint32_t rounds = 0;
    size_t nb = (size_t)n * sizeof(int32_t), eb = ((size_t)g.m + 1) * sizeof(int32_t);
    WL_TRY_OUT(ws_malloc(gpu, nb + sizeof(int32_t), &d_row));
    WL_TRY_OUT(ws_malloc(gpu, eb, &d_edges));
    WL_TRY_OUT(ws_malloc(gpu, eb, &d_w));
    WL_TRY_OUT(ws_malloc(gpu, nb, &d_dist));
    WL_TRY_OUT(ws_malloc(gpu, nb, &d_act[0]));
    WL_TRY_OUT(ws_malloc(gpu, nb, &d_act[1]));
    WL_TRY_OUT(ws_malloc(gpu, sizeof(int32_t), &d_changed));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_row, g.row_start, nb + sizeof(int32_t)));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_edges, g.edges, eb));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_w, g.weights, eb));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_dist, dist, nb));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_act[0], flag, nb));
    ws_dim3 grid = ws_dim((n + SSSP_BLOCK - 1) / SSSP_BLOCK, 1, 1);
    ws_dim3 block = ws_dim(SSSP_BLOCK, 1, 1);
    for (;;) {
        ws_devptr cur = d_act[rounds & 1], next = d_act[(rounds + 1) & 1];
        void *clear_args[] = {&next, &num_nodes};
        void *relax_args[] = {&d_row, &d_edges, &d_w, &d_dist, &cur, &next, &d_changed,
                              &num_nodes};
        int32_t changed = 0;
        WL_TRY_OUT(ws_memset(gpu, d_changed, 0, sizeof(int32_t)));
        WL_TRY_OUT(ws_launch(mod, "sssp_clear", grid, block, 0, clear_args));
        WL_TRY_OUT(ws_launch(mod, "sssp_relax", grid, block, 0, relax_args));
        WL_TRY_OUT(ws_memcpy_dtoh(gpu, &changed, d_changed, sizeof changed));
        rounds++;
        if (!changed)
            break;
        if (rounds > n) {
            rc = WS_ERR_VERIFY;
            snprintf(detail, detail_len, "sssp: still changing after %u rounds", rounds);
            goto out;
        }
    }
    WL_TRY_OUT(ws_memcpy_dtoh(gpu, dist, d_dist, nb));
    sssp_cpu(&g, want);
    char check[192];
    rc = wl_check_i32("dist", want, dist, n, check, sizeof check);
    snprintf(detail, detail_len, "sssp: %u nodes, %u edges, %u rounds: %s", n, g.m, rounds,
             check);
#undef SSSP_TRY
out:
    if (d_changed)
        ws_free(gpu, d_changed);
    for (int k = 1; k >= 0; k--)
        if (d_act[k])
            ws_free(gpu, d_act[k]);
    if (d_dist)
        ws_free(gpu, d_dist);
    if (d_w)
        ws_free(gpu, d_w);
    if (d_edges)
        ws_free(gpu, d_edges);
    if (d_row)
        ws_free(gpu, d_row);
    free(flag);
    free(want);
    free(dist);
    free(g.weights);
    free(g.edges);
    free(g.row_start);
    return rc;
}

const struct workload workload_sssp = {
    .name = "sssp",
    .desc = "single-source shortest paths by atomicMin relaxation rounds on a random "
            "weighted irregular CSR graph (Lonestar-style, one thread per node)",
    .run = sssp_run,
};
