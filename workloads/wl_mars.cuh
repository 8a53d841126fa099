// wl_mars.cuh: device helpers of the Mars MapReduce runtime shared by the
// Mars workloads (pvc, pvr, iix): the string hash, the byte copy of Mars's
// emit, and the string key with its comparison.  Our own code; the hash and
// the comparison follow Mars's public samples (docs/workloads.md, pvc).
// Device functions only: nothing here appears in the PTX by itself.
#ifndef WL_MARS_CUH
#define WL_MARS_CUH

#define MARS_BLOCK 256 // map, reduce and sort blocks (Mars's DEFAULT_DIMBLOCK)
#define MARS_SCAN 512  // elements per scan block (two per thread)

// A key naming a string in a text buffer, as PVC's and Inverted Index's keys
// do: a pointer to the buffer, the string's offset in it, and its hash.
struct mars_str_key {
    char *buf;
    int off;
    int hash;
};

// Mars's hash: start from the length, then shift in each byte.
__device__ int mars_hash(const char *s, int len)
{
    int h = len;
    for (int i = 0; i < len; i++)
        h = (h << 4) ^ (h >> 28) ^ s[i];
    return h;
}

// Two string keys: by hash first, then the strings byte by byte up to a NUL.
__device__ int mars_str_compare(const char *a, const char *b)
{
    const mars_str_key *ka = (const mars_str_key *)a;
    const mars_str_key *kb = (const mars_str_key *)b;
    int ha = ka->hash, hb = kb->hash;
    if (ha != hb)
        return ha > hb ? 1 : -1;
    const char *sa = ka->buf + ka->off;
    const char *sb = kb->buf + kb->off;
    while (*sa == *sb && *sa != 0) {
        sa++;
        sb++;
    }
    return *sa > *sb ? 1 : *sa < *sb ? -1 : 0;
}

// Mars copies keys and values byte by byte.
__device__ void mars_copy(char *dst, const char *src, int n)
{
    for (int i = 0; i < n; i++)
        dst[i] = src[i];
}

#endif
