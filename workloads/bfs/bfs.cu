// bfs.cu: level-synchronous breadth-first search, one thread per node.
// Follows the structure of Rodinia's bfs: the graph is in CSR form, a frontier
// mask marks the nodes expanded this level, an updating mask collects the
// nodes discovered by this level, and a second kernel promotes them into the
// frontier and the visited set and tells the host to run another level.

extern "C" __global__ void bfs_expand(const int *row_start, const int *edges,
                                      bool *frontier, bool *updating,
                                      const bool *visited, int *cost, int num_nodes)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < num_nodes && frontier[tid]) {
        frontier[tid] = false;
        int next_cost = cost[tid] + 1;
        for (int e = row_start[tid]; e < row_start[tid + 1]; e++) {
            int id = edges[e];
            if (!visited[id]) {
                cost[id] = next_cost;
                updating[id] = true;
            }
        }
    }
}

extern "C" __global__ void bfs_update(bool *frontier, bool *updating, bool *visited,
                                      int *changed, int num_nodes)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < num_nodes && updating[tid]) {
        frontier[tid] = true;
        visited[tid] = true;
        *changed = 1;
        updating[tid] = false;
    }
}
