// refused_grid.cu: a translation unit with a cooperative-groups grid
// synchronisation, which warpsim refuses (see refused_main.cu).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void grid_sync(int *out)
{
    cg::grid_group g = cg::this_grid();
    out[g.thread_rank()] = 1;
    g.sync();
    if (g.thread_rank() == 0)
        out[0] = 2;
}

cudaError_t launch_grid_sync(int *out)
{
    void *args[] = {&out};
    return cudaLaunchCooperativeKernel((const void *)grid_sync, dim3(2), dim3(32), args, 0, 0);
}
