/* kmeans_host.h: the k-means host driver shared by the kmeans workload
 * (feature-major assignment after Rodinia's invert_mapping: coalesced loads)
 * and the kmn workload (point-major assignment: each thread walks its own
 * point's features, the intra-warp locality of the CCWS/DAWS papers' KMN). */
#ifndef WS_WORKLOADS_KMEANS_HOST_H
#define WS_WORKLOADS_KMEANS_HOST_H

#include "workload.h"

/* Run k-means on `mod`, whose kmeans_assign kernel reads features
 * point-major when point_major is set (then invert_mapping is not used). */
int kmeans_run_layout(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                      size_t detail_len, int point_major);

#endif
