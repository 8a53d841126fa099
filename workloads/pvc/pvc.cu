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
// Records, as in Mars: a key is a pvc_key of 16 bytes (a pointer to the log,
// the entry's offset in it, a hash); a pass-1 value a pvc_entry (size, phase),
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
// Where we depart from Mars: the per-task emit cursors and the barrier in
// Mars's emit are gone (a PVC task emits exactly one pair, so it writes at
// its prefix-sum offsets and one index record); the sort works in place in
// the padded index (Mars sorts a padded copy and copies the tail back) and
// the scatter reads and writes the index fields directly (Mars goes through
// int2 arrays); the scan has no bank-conflict padding; pass 2 takes pass 1's
// output on the device (Mars copies it through the host); and pass 2 has a
// reduce (Mars's sample stops pass 2 after grouping and takes each URL's
// group size on the host).

#define PVC_BLOCK 256 // map, reduce and sort blocks
#define PVC_SCAN 512  // elements per scan block (two per thread)

struct pvc_key {
    char *log; // the web log (Mars's file_buf)
    int off;   // this entry's offset in it
    int hash;  // of the whole entry (pass 1) or of its URL (pass 2)
};

struct pvc_entry {
    int size;  // bytes of the entry, with its NUL
    int phase; // 0: a log entry; 1: a distinct entry, input of pass 2
};

// Mars's hash: start from the length, then shift in each byte.
__device__ int pvc_hash(const char *s, int len)
{
    int h = len;
    for (int i = 0; i < len; i++)
        h = (h << 4) ^ (h >> 28) ^ s[i];
    return h;
}

// -1, 0 or 1 as key a orders before, with or after key b.  Padding records
// (key offset -1) come first.
__device__ int pvc_compare(const char *keys, int4 a, int4 b)
{
    if (a.x == -1 || b.x == -1)
        return a.x == b.x ? 0 : a.x == -1 ? -1 : 1;
    const pvc_key *ka = (const pvc_key *)(keys + a.x);
    const pvc_key *kb = (const pvc_key *)(keys + b.x);
    int ha = ka->hash, hb = kb->hash;
    if (ha != hb)
        return ha > hb ? 1 : -1;
    const char *sa = ka->log + ka->off;
    const char *sb = kb->log + kb->off;
    while (*sa == *sb && *sa != 0) {
        sa++;
        sb++;
    }
    return *sa > *sb ? 1 : *sa < *sb ? -1 : 0;
}

__device__ void pvc_copy(char *dst, const char *src, int n)
{
    for (int i = 0; i < n; i++)
        dst[i] = src[i];
}

// ---- map ----

extern "C" __global__ void pvc_map_count(const char *in_vals, const int4 *in_idx, int n,
                                         int *key_bytes, int *val_bytes, int *count)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int4 r = in_idx[t];
    const pvc_entry *v = (const pvc_entry *)(in_vals + r.z);
    key_bytes[t] += (int)sizeof(pvc_key);
    val_bytes[t] += v->phase == 0 ? (int)sizeof(pvc_entry) : (int)sizeof(int);
    count[t] += 1;
}

extern "C" __global__ void pvc_map(char *in_keys, char *in_vals, const int4 *in_idx, int n,
                                   const int *ps_key, const int *ps_val, const int *ps_count,
                                   char *keys, char *vals, int4 *idx)
{
    __shared__ int out_val[PVC_BLOCK]; // a pass-2 value is built here (Mars's output buffer)
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int4 r = in_idx[t];
    pvc_key *key = (pvc_key *)(in_keys + r.x);
    pvc_entry *val = (pvc_entry *)(in_vals + r.z);
    char *e = key->log + key->off;
    const char *vsrc;
    int vsize;
    if (val->phase == 0) {
        // pass 1: the whole entry is the key
        key->hash = pvc_hash(e, val->size);
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
        key->hash = pvc_hash(e, url_len);
        vsrc = (const char *)&out_val[threadIdx.x];
        vsize = (int)sizeof(int);
    }
    int ko = ps_key[t], vo = ps_val[t];
    pvc_copy(keys + ko, (const char *)key, (int)sizeof(pvc_key));
    pvc_copy(vals + vo, vsrc, vsize);
    idx[ps_count[t]] = make_int4(ko, (int)sizeof(pvc_key), vo, vsize);
}

// ---- prefix sum ----

// Exclusive scan of in[0 .. n) into out, 512 elements per block; the block's
// total goes to sums[blockIdx.x].
extern "C" __global__ void pvc_scan(const int *in, int *out, int n, int *sums)
{
    __shared__ int s[PVC_SCAN];
    int t = threadIdx.x, base = blockIdx.x * PVC_SCAN;
    s[t] = base + t < n ? in[base + t] : 0;
    s[t + PVC_SCAN / 2] = base + t + PVC_SCAN / 2 < n ? in[base + t + PVC_SCAN / 2] : 0;
    int stride = 1;
    for (int active = PVC_SCAN / 2; active > 0; active >>= 1) { // up-sweep
        __syncthreads();
        if (t < active) {
            int hi = stride * (2 * t + 2) - 1;
            s[hi] += s[hi - stride];
        }
        stride <<= 1;
    }
    if (t == 0) {
        sums[blockIdx.x] = s[PVC_SCAN - 1];
        s[PVC_SCAN - 1] = 0;
    }
    for (int active = 1; active < PVC_SCAN; active <<= 1) { // down-sweep
        stride >>= 1;
        __syncthreads();
        if (t < active) {
            int hi = stride * (2 * t + 2) - 1;
            int lo = s[hi - stride];
            s[hi - stride] = s[hi];
            s[hi] += lo;
        }
    }
    __syncthreads();
    if (base + t < n)
        out[base + t] = s[t];
    if (base + t + PVC_SCAN / 2 < n)
        out[base + t + PVC_SCAN / 2] = s[t + PVC_SCAN / 2];
}

// Add each block's scanned total to its elements.
extern "C" __global__ void pvc_scan_add(int *out, int n, const int *sums)
{
    int base = blockIdx.x * PVC_SCAN, t = threadIdx.x;
    int add = sums[blockIdx.x];
    if (base + t < n)
        out[base + t] += add;
    if (base + t + PVC_SCAN / 2 < n)
        out[base + t + PVC_SCAN / 2] += add;
}

// ---- sort ----

// One bitonic step (stage k, stride j) over the whole padded index.
extern "C" __global__ void pvc_sort_step(int4 *rec, const char *keys, int k, int j)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int p = i ^ j;
    if (p > i) {
        int4 a = rec[i], b = rec[p];
        int c = pvc_compare(keys, a, b);
        if ((i & k) == 0 ? c > 0 : c < 0) {
            rec[i] = b;
            rec[p] = a;
        }
    }
}

// ---- scatter in sorted order ----

// field 0: the keys, 1: the values
extern "C" __global__ void pvc_chunk_sizes(const int4 *rec, int n, int field, int *sizes)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int4 r = rec[i];
        sizes[i] = field == 0 ? r.y : r.w;
    }
}

extern "C" __global__ void pvc_copy_chunks(int4 *rec, int n, int field, const char *src,
                                           const int *sums, char *dst)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int4 r = rec[i];
        int to = sums[i];
        if (field == 0) {
            pvc_copy(dst + to, src + r.x, r.y);
            r.x = to;
        } else {
            pvc_copy(dst + to, src + r.z, r.w);
            r.z = to;
        }
        rec[i] = r;
    }
}

// ---- group boundaries ----

extern "C" __global__ void pvc_boundary(const int4 *rec, const char *keys, int n, int *flags)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        flags[i] = i == 0 || pvc_compare(keys, rec[i], rec[i - 1]) != 0;
}

extern "C" __global__ void pvc_write_boundary(const int *flags, const int *sums, int n,
                                              int *bound)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && flags[i])
        bound[sums[i]] = i;
}

extern "C" __global__ void pvc_ranges(const int *bound, int ngroups, int n, int2 *ranges)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g < ngroups)
        ranges[g] = make_int2(bound[g], g + 1 < ngroups ? bound[g + 1] : n);
}

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
    __shared__ int out_val[PVC_BLOCK];
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
    pvc_copy(out_keys + ko, key, first.y);
    pvc_copy(out_vals + vo, vsrc, vsize);
    out_idx[ps_count[g]] = make_int4(ko, first.y, vo, vsize);
}
