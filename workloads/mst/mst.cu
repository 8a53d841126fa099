// mst.cu: minimum spanning forest by Boruvka rounds over components, in the
// manner of the Lonestar GPU suite's mst (the "MST" workload of MeDiC, HPCA
// 2016).  comp[u] is the root of u's component; edge weights are distinct, so
// every component has one lightest edge leaving it and the forest is unique.
// One round:
//   mst_lightest: every node offers each edge leaving its component to the
//     component's atomicMin (best[comp[u]], the lightest weight);
//   mst_choose:   the node that holds that edge names the other component;
//   mst_link:     each component with an edge hooks under the component it
//                 named (when two name each other, the larger id hooks under
//                 the smaller) and records the edge's weight;
//   mst_jump:     every node follows the hooks to its new root.
// The host repeats rounds until no component hooks.  Scattered reads of
// comp[] through the edge lists and scattered atomics make it irregular.

#define MST_NONE 0xffffffffu

extern "C" __global__ void mst_lightest(const int *row_start, const int *edges,
                                        const unsigned *weights, const int *comp,
                                        unsigned *best, int n)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= n)
        return;
    int cu = comp[u];
    unsigned lightest = MST_NONE;
    for (int e = row_start[u]; e < row_start[u + 1]; e++)
        if (comp[edges[e]] != cu && weights[e] < lightest)
            lightest = weights[e];
    if (lightest != MST_NONE)
        atomicMin(&best[cu], lightest);
}

extern "C" __global__ void mst_choose(const int *row_start, const int *edges,
                                      const unsigned *weights, const int *comp,
                                      const unsigned *best, int *partner, int n)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= n)
        return;
    int cu = comp[u];
    unsigned b = best[cu];
    if (b == MST_NONE)
        return;
    for (int e = row_start[u]; e < row_start[u + 1]; e++)
        if (weights[e] == b && comp[edges[e]] != cu)
            partner[cu] = comp[edges[e]];
}

extern "C" __global__ void mst_link(const unsigned *best, const int *partner, int *parent,
                                    unsigned *tree_weight, int *changed, int n)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= n || parent[c] != c || best[c] == MST_NONE)
        return;
    int p = partner[c];
    if (partner[p] == c && c < p)
        return; // two that name each other chose the same edge: the smaller id stays the root
    parent[c] = p;
    tree_weight[c] = best[c];
    *changed = 1;
}

extern "C" __global__ void mst_jump(const int *parent, int *comp, unsigned *best, int n)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= n)
        return;
    int c = comp[u];
    while (parent[c] != c)
        c = parent[c];
    comp[u] = c;
    best[u] = MST_NONE; // for the next round
}
