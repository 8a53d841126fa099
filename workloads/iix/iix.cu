// iix.cu: Inverted Index from the Mars MapReduce suite (He, Fang, Luo,
// Govindaraju, Wang, PACT 2008; MeDiC's "IIX"), written for warpsim on the
// Mars runtime that pvc uses (../wl_mars.cuh, ../wl_mars_group.cuh).  Our
// own code; the structure, the records, the link scanner, the hash and the
// comparison follow Mars's public InvertedIndex sample (facts listed in
// docs/workloads.md).
//
// The input is a set of HTML files, each in its own device buffer, cut into
// blocks of about 1 KB that end at a line's end (the '\n' turned into a NUL).
// A map task takes one block: its key is an iix key (the file's buffer, a
// link offset and a hash, filled in by the map), its value an iix_val (the
// block's offset and size in the file, the file's id).  One MapReduce pass
// with no reduce (Mars's MAP_GROUP workflow):
//   map count   iix_map_count: each task walks its block byte by byte with
//               Mars's link scanner (below) and, for every link, adds a key
//               of 16 bytes, a value of 4 and a record to its per-task
//               counters in global memory, as Mars's emit count does;
//   prefix sum  iix_scan / iix_scan_add over those counters;
//   map         iix_map: walks the block again; at each link it writes a NUL
//               over the closing quote (in the file, as Mars does), sets the
//               input key's offset to the link's place in the file and its
//               hash to the link's, and emits <key, file id>: the key and the
//               value copied byte by byte at the task's scanned offsets plus
//               its cursors, which live in per-task arrays in global memory
//               (Mars's keyValOffsets and curIndex), and an index record;
//   sort        the index, padded to a power of two with key offsets of -1
//               (they sort first), by bitonic sort, comparing keys by hash
//               and then the link strings byte by byte up to the NUL: one
//               launch of iix_sort_step per (k, j) step on global memory;
//   scatter     values then keys copied in sorted order (iix_chunk_sizes,
//               a prefix sum, iix_copy_chunks);
//   boundaries  iix_boundary, a prefix sum, iix_write_boundary and
//               iix_ranges: one group per distinct link, [start, end) of the
//               sorted index, its values the ids of the files linking to it.
// Mars's scanner, a state machine over the block's bytes: '<' opens a tag;
// spaces may follow, then 'a'; spaces, then "href"; then spaces and '=' up
// to a '"', where the link starts; it ends at the next '"'.  Any other byte
// on the way goes back to the start ("<a name=", "<area href=", "<abbr",
// "<a hreflang=" and "href='...'" are not links to it).
// Where we depart from Mars: the emit has no barrier (Mars's __syncthreads
// in the emit of a task that loops over its block's links diverges), and
// the index record takes its offsets from the prefix sums and the cursors
// (Mars derives them from the task's previous index record).

#include "../wl_mars.cuh"

#define MARS_NAME(n) iix_##n
#define MARS_KEY_COMPARE mars_str_compare

// A key is a mars_str_key: the file's buffer (Mars's file_buf), the link's
// offset in the file, and the link's hash.

struct iix_val {
    int block_offset; // the block's offset in its file
    int block_size;   // its bytes, with the NUL that ends it
    int file_id;
};

enum { IIX_START, IIX_IN_TAG, IIX_IN_ATAG, IIX_FOUND_HREF, IIX_START_LINK };

// Walk buf[0 .. size) with Mars's link scanner; at each link, found(j, e):
// the link is buf[j .. e), buf[e] its closing quote.
template <class Found> __device__ void iix_links(char *buf, int size, Found &found)
{
    int state = IIX_START;
    for (int j = 0; j < size; j++) {
        char c = buf[j];
        switch (state) {
        case IIX_START:
            if (c == '<')
                state = IIX_IN_TAG;
            break;
        case IIX_IN_TAG:
            state = c == 'a' ? IIX_IN_ATAG : c == ' ' ? IIX_IN_TAG : IIX_START;
            break;
        case IIX_IN_ATAG:
            if (c == 'h') {
                if (buf[j + 1] == 'r' && buf[j + 2] == 'e' && buf[j + 3] == 'f') {
                    state = IIX_FOUND_HREF;
                    j += 3;
                } else {
                    state = IIX_START;
                }
            } else {
                state = c == ' ' ? IIX_IN_ATAG : IIX_START;
            }
            break;
        case IIX_FOUND_HREF:
            state = c == ' ' || c == '=' ? IIX_FOUND_HREF : c == '"' ? IIX_START_LINK : IIX_START;
            break;
        default: { // IIX_START_LINK
            int e = j;
            while (buf[e] != '"')
                e++;
            found(j, e);
            j = e;
            state = IIX_START;
            break;
        }
        }
    }
}

// ---- map ----

// Task t's input record: its key, its value and its block of the file.
struct iix_task {
    mars_str_key *key;
    const iix_val *val;
    char *buf;
};

__device__ iix_task iix_task_of(char *in_keys, const char *in_vals, const int4 *in_idx, int t)
{
    int4 r = in_idx[t];
    iix_task k;
    k.key = (mars_str_key *)(in_keys + r.x);
    k.val = (const iix_val *)(in_vals + r.z);
    k.buf = k.key->buf + k.val->block_offset;
    return k;
}

struct iix_count {
    int *key_bytes, *val_bytes, *count;
    int t;
    __device__ void operator()(int, int)
    {
        key_bytes[t] += (int)sizeof(mars_str_key);
        val_bytes[t] += (int)sizeof(int);
        count[t] += 1;
    }
};

extern "C" __global__ void iix_map_count(char *in_keys, const char *in_vals,
                                         const int4 *in_idx, int n, int *key_bytes,
                                         int *val_bytes, int *count)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    iix_task k = iix_task_of(in_keys, in_vals, in_idx, t);
    iix_count found = {key_bytes, val_bytes, count, t};
    iix_links(k.buf, k.val->block_size, found);
}

struct iix_emit {
    char *buf;
    mars_str_key *key;
    const iix_val *val;
    const int *ps_key, *ps_val, *ps_count;
    char *keys, *vals;
    int4 *idx;
    int2 *cursor; // bytes of keys and values this task has emitted
    int *emitted; // and records
    int t;
    __device__ void operator()(int j, int e)
    {
        buf[e] = 0;
        key->off = val->block_offset + j;
        key->hash = mars_hash(buf + j, e - j);
        int2 at = cursor[t];
        int ko = ps_key[t] + at.x, vo = ps_val[t] + at.y;
        mars_copy(keys + ko, (const char *)key, (int)sizeof(mars_str_key));
        mars_copy(vals + vo, (const char *)&val->file_id, (int)sizeof(int));
        cursor[t] = make_int2(at.x + (int)sizeof(mars_str_key), at.y + (int)sizeof(int));
        int cur = emitted[t];
        idx[ps_count[t] + cur] = make_int4(ko, (int)sizeof(mars_str_key), vo, (int)sizeof(int));
        emitted[t] = cur + 1;
    }
};

extern "C" __global__ void iix_map(char *in_keys, const char *in_vals, const int4 *in_idx,
                                   int n, const int *ps_key, const int *ps_val,
                                   const int *ps_count, char *keys, char *vals, int4 *idx,
                                   int2 *cursor, int *emitted)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    iix_task k = iix_task_of(in_keys, in_vals, in_idx, t);
    iix_emit found = {k.buf, k.key, k.val, ps_key, ps_val, ps_count, keys,
                      vals,  idx,   cursor, emitted, t};
    iix_links(k.buf, k.val->block_size, found);
}

#include "../wl_mars_group.cuh"
