/* host.c: the mst workload: minimum spanning forest of a random undirected
 * graph with irregular degrees and distinct weights, by Boruvka rounds on the
 * GPU (Lonestar-style, MeDiC's MST), checked against a CPU Kruskal: the same
 * total weight and the same number of forest edges (distinct weights make
 * the forest unique). */
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

#define MST_BLOCK 256u

struct mst_graph {
    uint32_t n, m;          /* nodes, undirected edges */
    uint32_t *eu, *ev, *ew; /* the m edges and their weights (a permutation of 1..m) */
    int32_t *row_start;     /* CSR of both directions: n + 1 offsets */
    int32_t *edges;
    uint32_t *weights;
};

/* Each node draws 1-3 edges, one in sixteen a hub with 8-39; half go to a
 * node within 64 of it, half anywhere (self-loops dropped); weights are a
 * random permutation of 1..m. */
static void mst_make_graph(struct mst_graph *g, uint32_t n, uint64_t seed)
{
    struct rng rng;
    rng_seed(&rng, seed);
    uint32_t cap = 4 * n, m = 0;
    g->n = n;
    g->eu = xmalloc((size_t)cap * sizeof *g->eu);
    g->ev = xmalloc((size_t)cap * sizeof *g->ev);
    for (uint32_t u = 0; u < n; u++) {
        uint32_t d = rng_below(&rng, 16) == 0 ? 8 + rng_below(&rng, 32) : 1 + rng_below(&rng, 3);
        for (uint32_t k = 0; k < d; k++) {
            uint32_t v = rng_below(&rng, 2) == 0 ? (u + n + rng_below(&rng, 129) - 64) % n
                                                 : (uint32_t)rng_below(&rng, n);
            if (v == u)
                continue;
            if (m == cap) {
                cap *= 2;
                g->eu = xrealloc(g->eu, (size_t)cap * sizeof *g->eu);
                g->ev = xrealloc(g->ev, (size_t)cap * sizeof *g->ev);
            }
            g->eu[m] = u;
            g->ev[m++] = v;
        }
    }
    g->m = m;
    g->ew = xmalloc((size_t)m * sizeof *g->ew);
    for (uint32_t i = 0; i < m; i++)
        g->ew[i] = i + 1;
    for (uint32_t i = m; i > 1; i--) { /* Fisher-Yates */
        uint32_t j = (uint32_t)rng_below(&rng, i), t = g->ew[i - 1];
        g->ew[i - 1] = g->ew[j];
        g->ew[j] = t;
    }
    g->row_start = xcalloc((size_t)n + 1, sizeof *g->row_start);
    for (uint32_t i = 0; i < m; i++) {
        g->row_start[g->eu[i] + 1]++;
        g->row_start[g->ev[i] + 1]++;
    }
    for (uint32_t u = 0; u < n; u++)
        g->row_start[u + 1] += g->row_start[u];
    int32_t *fill = xmalloc((size_t)n * sizeof *fill);
    memcpy(fill, g->row_start, (size_t)n * sizeof *fill);
    g->edges = xmalloc(2 * (size_t)m * sizeof *g->edges);
    g->weights = xmalloc(2 * (size_t)m * sizeof *g->weights);
    for (uint32_t i = 0; i < m; i++) {
        int32_t a = fill[g->eu[i]]++, b = fill[g->ev[i]]++;
        g->edges[a] = (int32_t)g->ev[i];
        g->weights[a] = g->ew[i];
        g->edges[b] = (int32_t)g->eu[i];
        g->weights[b] = g->ew[i];
    }
    free(fill);
}

static uint32_t mst_find(uint32_t *uf, uint32_t x)
{
    while (uf[x] != x)
        x = uf[x] = uf[uf[x]];
    return x;
}

/* CPU reference: Kruskal (edges in weight order, which is the inverse of the
 * weight permutation) with a union-find; the forest's weight and edge count. */
static void mst_cpu(const struct mst_graph *g, uint64_t *total, uint32_t *count)
{
    uint32_t *by_weight = xmalloc((size_t)g->m * sizeof *by_weight);
    uint32_t *uf = xmalloc((size_t)g->n * sizeof *uf);
    for (uint32_t i = 0; i < g->m; i++)
        by_weight[g->ew[i] - 1] = i;
    for (uint32_t u = 0; u < g->n; u++)
        uf[u] = u;
    *total = 0;
    *count = 0;
    for (uint32_t k = 0; k < g->m; k++) {
        uint32_t i = by_weight[k], a = mst_find(uf, g->eu[i]), b = mst_find(uf, g->ev[i]);
        if (a == b)
            continue;
        uf[a] = b;
        *total += g->ew[i];
        ++*count;
    }
    free(uf);
    free(by_weight);
}

static int mst_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                   size_t detail_len)
{
    static const uint32_t sizes[] = {4096, 32768, 262144};
    struct mst_graph g;
    mst_make_graph(&g, sizes[a->size], a->seed);
    uint32_t n = g.n;
    int32_t num_nodes = (int32_t)n;
    int32_t *ids = xmalloc((size_t)n * sizeof *ids);
    uint32_t *tw = xcalloc(n, sizeof *tw);
    for (uint32_t u = 0; u < n; u++)
        ids[u] = (int32_t)u;
    ws_devptr d_row = 0, d_edges = 0, d_w = 0, d_comp = 0, d_parent = 0, d_best = 0;
    ws_devptr d_partner = 0, d_tw = 0, d_changed = 0;
    int rc = WS_OK;
    uint32_t rounds = 0;
    size_t nb = (size_t)n * sizeof(int32_t), eb = 2 * (size_t)g.m * sizeof(int32_t);
    WL_TRY_OUT(ws_malloc(gpu, nb + sizeof(int32_t), &d_row));
    WL_TRY_OUT(ws_malloc(gpu, eb, &d_edges));
    WL_TRY_OUT(ws_malloc(gpu, eb, &d_w));
    WL_TRY_OUT(ws_malloc(gpu, nb, &d_comp));
    WL_TRY_OUT(ws_malloc(gpu, nb, &d_parent));
    WL_TRY_OUT(ws_malloc(gpu, nb, &d_best));
    WL_TRY_OUT(ws_malloc(gpu, nb, &d_partner));
    WL_TRY_OUT(ws_malloc(gpu, nb, &d_tw));
    WL_TRY_OUT(ws_malloc(gpu, sizeof(int32_t), &d_changed));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_row, g.row_start, nb + sizeof(int32_t)));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_edges, g.edges, eb));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_w, g.weights, eb));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_comp, ids, nb));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_parent, ids, nb));
    WL_TRY_OUT(ws_memset(gpu, d_best, 0xff, nb));
    WL_TRY_OUT(ws_memset(gpu, d_tw, 0, nb));
    ws_dim3 grid = ws_dim((n + MST_BLOCK - 1) / MST_BLOCK, 1, 1);
    ws_dim3 block = ws_dim(MST_BLOCK, 1, 1);
    void *lightest_args[] = {&d_row, &d_edges, &d_w, &d_comp, &d_best, &num_nodes};
    void *choose_args[] = {&d_row, &d_edges, &d_w, &d_comp, &d_best, &d_partner, &num_nodes};
    void *link_args[] = {&d_best, &d_partner, &d_parent, &d_tw, &d_changed, &num_nodes};
    void *jump_args[] = {&d_parent, &d_comp, &d_best, &num_nodes};
    for (;;) {
        int32_t changed = 0;
        WL_TRY_OUT(ws_memset(gpu, d_changed, 0, sizeof(int32_t)));
        WL_TRY_OUT(ws_launch(mod, "mst_lightest", grid, block, 0, lightest_args));
        WL_TRY_OUT(ws_launch(mod, "mst_choose", grid, block, 0, choose_args));
        WL_TRY_OUT(ws_launch(mod, "mst_link", grid, block, 0, link_args));
        WL_TRY_OUT(ws_launch(mod, "mst_jump", grid, block, 0, jump_args));
        WL_TRY_OUT(ws_memcpy_dtoh(gpu, &changed, d_changed, sizeof changed));
        rounds++;
        if (!changed)
            break;
        if (rounds > 64) { /* each round at least halves the components */
            rc = WS_ERR_VERIFY;
            snprintf(detail, detail_len, "mst: still hooking after %u rounds", rounds);
            goto out;
        }
    }
    WL_TRY_OUT(ws_memcpy_dtoh(gpu, tw, d_tw, nb));
    uint64_t total = 0, want_total;
    uint32_t count = 0, want_count;
    for (uint32_t c = 0; c < n; c++)
        if (tw[c]) {
            total += tw[c];
            count++;
        }
    mst_cpu(&g, &want_total, &want_count);
    if (total != want_total || count != want_count) {
        rc = WS_ERR_VERIFY;
        snprintf(detail, detail_len,
                 "mst: forest of %u edges weighing %llu, expected %u edges weighing %llu", count,
                 (unsigned long long)total, want_count, (unsigned long long)want_total);
        goto out;
    }
    snprintf(detail, detail_len,
             "mst: %u nodes, %u edges, %u rounds: forest of %u edges weighing %llu matches "
             "the CPU Kruskal",
             n, g.m, rounds, count, (unsigned long long)total);
#undef MST_TRY
out:
    if (d_changed)
        ws_free(gpu, d_changed);
    if (d_tw)
        ws_free(gpu, d_tw);
    if (d_partner)
        ws_free(gpu, d_partner);
    if (d_best)
        ws_free(gpu, d_best);
    if (d_parent)
        ws_free(gpu, d_parent);
    if (d_comp)
        ws_free(gpu, d_comp);
    if (d_w)
        ws_free(gpu, d_w);
    if (d_edges)
        ws_free(gpu, d_edges);
    if (d_row)
        ws_free(gpu, d_row);
    free(tw);
    free(ids);
    free(g.weights);
    free(g.edges);
    free(g.row_start);
    free(g.ew);
    free(g.ev);
    free(g.eu);
    return rc;
}

const struct workload workload_mst = {
    .name = "mst",
    .desc = "minimum spanning forest by Boruvka rounds (atomicMin per component, hooking, "
            "pointer jumping) on a random irregular graph with distinct weights (Lonestar-style)",
    .run = mst_run,
};
