// pvr.cu: Page View Rank from the Mars MapReduce suite (He, Fang, Luo,
// Govindaraju, Wang, PACT 2008; MeDiC's "PVR"), written for warpsim on the
// Mars runtime that pvc uses (../wl_mars.cuh, ../wl_mars_group.cuh).  Our
// own code; the structure, the records and the comparison follow Mars's
// public PageViewRank sample (facts listed in docs/workloads.md).
//
// The input is Page View Count's output: one record per URL, its view count
// as the key (an int) and the offset of its line "URL\tcount" in the text as
// the value (an int); the GPU never reads the text.  One MapReduce pass with
// no reduce (Mars's MAP_GROUP workflow):
//   map count   pvr_map_count: each task (one record per thread, 256-thread
//               blocks) will emit one int key and one int value;
//   prefix sum  pvr_scan / pvr_scan_add over the per-task key bytes, value
//               bytes and counts;
//   map         pvr_map: copies the count and the offset into its slots of
//               a shared-memory output buffer (Mars's per-thread buffer of
//               five ints) and from there byte by byte to the scanned
//               offsets, with an int4 index record;
//   sort        the index, padded to a power of two with records whose key
//               offset is -1 (they sort first), by bitonic sort with Mars's
//               PVR comparison: the larger count first; one launch of
//               pvr_sort_step per (k, j) step on global memory;
//   scatter     values then keys copied in sorted order (pvr_chunk_sizes,
//               a prefix sum, pvr_copy_chunks);
//   boundaries  pvr_boundary, a prefix sum, pvr_write_boundary and
//               pvr_ranges: the groups of equal counts, each an int2
//               [start, end) of the sorted index.
// The host takes the first ten records: the ten most viewed URLs.  Each key
// comparison of the sort is two gathered int loads (the keys) behind two
// int4 loads (the index records).

#include "../wl_mars.cuh"

#define MARS_NAME(n) pvr_##n
#define MARS_KEY_COMPARE pvr_compare

#define PVR_OUT_INTS 5 // Mars's output buffer: five ints per thread

// Mars's PVR comparison: the larger view count orders first.
__device__ int pvr_compare(const char *a, const char *b)
{
    int ca = *(const int *)a, cb = *(const int *)b;
    return ca > cb ? -1 : ca < cb ? 1 : 0;
}

// ---- map ----

// (the records are not read: every task emits one pair of ints)
extern "C" __global__ void pvr_map_count(const char *in_keys, const char *in_vals,
                                         const int4 *in_idx, int n, int *key_bytes,
                                         int *val_bytes, int *count)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    key_bytes[t] += (int)sizeof(int);
    val_bytes[t] += (int)sizeof(int);
    count[t] += 1;
}

extern "C" __global__ void pvr_map(const char *in_keys, const char *in_vals, const int4 *in_idx,
                                   int n, const int *ps_key, const int *ps_val,
                                   const int *ps_count, char *keys, char *vals, int4 *idx)
{
    __shared__ int out[MARS_BLOCK * PVR_OUT_INTS];
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int4 r = in_idx[t];
    int *o = &out[threadIdx.x * PVR_OUT_INTS];
    o[0] = *(const int *)(in_keys + r.x); // the count
    o[1] = *(const int *)(in_vals + r.z); // the line's offset
    int ko = ps_key[t], vo = ps_val[t];
    mars_copy(keys + ko, (const char *)&o[0], (int)sizeof(int));
    mars_copy(vals + vo, (const char *)&o[1], (int)sizeof(int));
    idx[ps_count[t]] = make_int4(ko, (int)sizeof(int), vo, (int)sizeof(int));
}

#include "../wl_mars_group.cuh"
