// sssp.cu: single-source shortest paths by repeated edge relaxation
// (topology-driven Bellman-Ford with an active-node flag, in the manner of the
// Lonestar GPU suite's sssp that MeDiC evaluates): every node improved in
// the previous round relaxes its out-edges with atomicMin and flags the
// targets it improved for the next round.

extern "C" __global__ void sssp_relax(const int *row_start, const int *edges,
                                      const int *weights, int *dist, const int *active,
                                      int *next_active, int *changed, int num_nodes)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u < num_nodes && active[u]) {
        int du = dist[u];
        for (int e = row_start[u]; e < row_start[u + 1]; e++) {
            int v = edges[e];
            int nd = du + weights[e];
            if (nd < atomicMin(&dist[v], nd)) {
                next_active[v] = 1;
                *changed = 1;
            }
        }
    }
}

extern "C" __global__ void sssp_clear(int *flags, int num_nodes)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u < num_nodes)
        flags[u] = 0;
}
