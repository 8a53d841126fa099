// pvc.cu: Page View Count from the Mars MapReduce suite (He, Fang, Luo,
// Govindaraju, Wang, PACT 2008; MeDiC's "PVC"), as a compact copy of the Mars
// runtime's pipeline written for warpsim.  Our own code; the structure, the
// record layout, the hash and the comparison follow Mars's public
// PageViewCount sample and runtime (facts listed in docs/workloads.md).
//
// The input is a web log held as one char buffer: entry i is the text
// "URL\tIP\tCOOKIE" followed by a NUL (Mars replaces each '\n' by '\0').
// Two MapReduce passes run the same kernels:
//   pass 1 removes duplicate entries: the map emits each entry as a key
//     (value: its size and phase 0), the group step sorts the keys, and the
//     reduce emits one <key, value> per distinct entry, with phase set to 1;
//   pass 2 counts page views: the map (seeing phase 1) cuts the entry's URL
//     and IP fields with NULs written into the log, and emits <URL key, IP
//     offset>; the group step sorts and groups them, and the reduce emits
//     <URL key, the number of values in the group>: the URL's distinct views.
//
// Records, as in Mars: a key is a mars_str_key of 16 bytes (a pointer to the
// log, the entry's offset in it, a hash); a pass-1 value a pvc_entry (size, phase),
// 8 bytes; a pass-2 value an int.  Keys and values live in byte buffers, and
// an index of int4 records (key offset, key size, value offset, value size)
// says where each pair is.  Two keys compare by hash first and, when the
// hashes are equal, by the strings they point to, byte by byte up to a NUL;
// pass 1 hashes the whole entry, pass 2 the URL (with its NUL).
//
// The stages of a pass (host.c launches them):
//   map count   pvc_map_count: one task per thread (Mars's default of one
//               record per task, 256-thread blocks) adds its output's key
//               bytes, value bytes and count to per-task arrays;
//   prefix sum  pvc_scan / pvc_scan_add: exclusive scans of those arrays
//               (512 elements per 256-thread block, up-sweep and down-sweep
//               in shared memory, block sums scanned recursively);
//   map         pvc_map: each task hashes its entry, writes the hash into its
//               input key and copies key and value byte by byte to the
//               offsets from the scans, with an index record;
//   sort        the index, padded to a power of two with records whose key
//               offset is -1 (they sort first), by bitonic sort with the key
//               comparison: one launch of pvc_sort_step per (k, j) step, on
//               global memory, as Mars sorts up to 256 K records (above that
//               Mars sorts 256-record blocks in shared memory between global
//               steps; no size here comes near, so that is left out);
//   scatter     values then keys are copied in sorted order into new buffers
//               (pvc_chunk_sizes, a prefix sum, pvc_copy_chunks, byte by
//               byte) and the index records take the new offsets;
//   boundaries  pvc_boundary flags each record whose key differs from its
//               left neighbour's, a prefix sum numbers the groups,
//               pvc_write_boundary and pvc_ranges give each group its
//               [start, end) in the sorted index;
//   reduce      pvc_reduce_count, three prefix sums and pvc_reduce: one
//               thread per distinct key.
// The scan, sort, scatter and boundary kernels are the Mars runtime's that
// pvr and iix run too (../wl_mars_group.cuh; the hash, the key comparison and
// the byte copy in ../wl_mars.cuh), named here with the pvc_ prefix.
// Where we depart from Mars: the per-task emit cursors and the barrier in
// Mars's emit are gone (a PVC task emits exactly one pair, so it writes at
// its prefix-sum offsets and one index record); the sort works in place in
// the padded index (Mars sorts a padded copy and copies the tail back) and
// the scatter reads and writes the index fields directly (Mars goes through
// int2 arrays); the scan has no bank-conflict padding; pass 2 takes pass 1's
// output on the device (Mars copies it through the host); and pass 2 has a
// reduce (Mars's sample stops pass 2 after grouping and takes each URL's
// group size on the host).

#include "../wl_mars.cuh"

#define MARS_NAME(n) pvc_##n
#define MARS_KEY_COMPARE mars_str_compare

// A key is a mars_str_key: the web log (Mars's file_buf), the entry's offset
// in it, and the hash of the whole entry (pass 1) or of its URL (pass 2).

struct pvc_entry {
    int size;  // bytes of the entry, with its NUL
    int phase; // 0: a log entry; 1: a distinct entry, input of pass 2
};

// ---- map ----

extern "C" __global__ void pvc_map_count(const char *in_keys, const char *in_vals,
                                         const int4 *in_idx, int n, int *key_bytes,
                                         int *val_bytes, int *count)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int4 r = in_idx[t];
    const pvc_entry *v = (const pvc_entry *)(in_vals + r.z);
    key_bytes[t] += (int)sizeof(mars_str_key);
    val_bytes[t] += v->phase == 0 ? (int)sizeof(pvc_entry) : (int)sizeof(int);
    count[t] += 1;
}

extern "C" __global__ void pvc_map(char *in_keys, char *in_vals, const int4 *in_idx, int n,
                                   const int *ps_key, const int *ps_val, const int *ps_count,
                                   char *keys, char *vals, int4 *idx)
{
    __shared__ int out_val[MARS_BLOCK]; // a pass-2 value is built here (Mars's output buffer)
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int4 r = in_idx[t];
    mars_str_key *key = (mars_str_key *)(in_keys + r.x);
    pvc_entry *val = (pvc_entry *)(in_vals + r.z);
    char *e = key->buf + key->off;
    const char *vsrc;
    int vsize;
    if (val->phase == 0) {
        // pass 1: the whole entry is the key
        key->hash = mars_hash(e, val->size);
        vsrc = (const char *)val;
        vsize = (int)sizeof(pvc_entry);
    } else {
        // pass 2: cut the URL and the IP fields with NULs; the URL is the key
        char *p = e;
        int url_len = 1; // with its NUL
        while (*p != '\t') {
            p++;
            url_len++;
        }
        *p = 0;
        while (*p != '\t')
            p++;
        *p = 0;
        out_val[threadIdx.x] = key->off + url_len; // the IP's offset
        key->hash = mars_hash(e, url_len);
        vsrc = (const char *)&out_val[threadIdx.x];
        vsize = (int)sizeof(int);
    }
    int ko = ps_key[t], vo = ps_val[t];
    mars_copy(keys + ko, (const char *)key, (int)sizeof(mars_str_key));
    mars_copy(vals + vo, vsrc, vsize);
    idx[ps_count[t]] = make_int4(ko, (int)sizeof(mars_str_key), vo, vsize);
}

#include "../wl_mars_group.cuh"

// ---- reduce ----

// pass 0 (dedupe): a key and a pvc_entry per group; pass 1 (count): a key
// and an int.
extern "C" __global__ void pvc_reduce_count(const int2 *ranges, const int4 *rec, int ngroups,
                                            int pass, int *key_bytes, int *val_bytes,
                                            int *count)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= ngroups)
        return;
    int2 range = ranges[g];
    int4 first = rec[range.x];
    key_bytes[g] += first.y;
    val_bytes[g] += pass == 0 ? (int)sizeof(pvc_entry) : (int)sizeof(int);
    count[g] += 1;
}

extern "C" __global__ void pvc_reduce(const char *keys, char *vals, const int4 *rec,
                                      const int2 *ranges, int ngroups, int pass,
                                      const int *ps_key, const int *ps_val,
                                      const int *ps_count, char *out_keys, char *out_vals,
                                      int4 *out_idx)
{
    __shared__ int out_val[MARS_BLOCK];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= ngroups)
        return;
    int2 range = ranges[g];
    int4 first = rec[range.x];
    const char *key = keys + first.x;
    const char *vsrc;
    int vsize;
    if (pass == 0) {
        // keep one entry of the group, marked as input of pass 2
        pvc_entry *v = (pvc_entry *)(vals + first.z);
        v->phase = 1;
        vsrc = (const char *)v;
        vsize = (int)sizeof(pvc_entry);
    } else {
        // the URL's distinct views: the number of values in its group
        out_val[threadIdx.x] = range.y - range.x;
        vsrc = (const char *)&out_val[threadIdx.x];
        vsize = (int)sizeof(int);
    }
    int ko = ps_key[g], vo = ps_val[g];
    mars_copy(out_keys + ko, key, first.y);
    mars_copy(out_vals + vo, vsrc, vsize);
    out_idx[ps_count[g]] = make_int4(ko, first.y, vo, vsize);
}
