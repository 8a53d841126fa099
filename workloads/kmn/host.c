/* host.c: the kmn workload: k-means with the point-major assignment kernel
 * (kmn.cu), driven by the kmeans workload's host code and CPU reference. */
#include "kmeans/kmeans_host.h"

static int kmn_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                   size_t detail_len)
{
    return kmeans_run_layout(gpu, mod, a, detail, detail_len, 1);
}

const struct workload workload_kmn = {
    .name = "kmn",
    .desc = "k-means assignment reading points point-major (per-thread locality, the "
            "CCWS/DAWS papers' KMN)",
    .run = kmn_run,
};
