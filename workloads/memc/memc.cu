// memc.cu: the GET path of a GPU memcached, one thread per request.
// The store is memcached's own layout in miniature: an open hash table of
// bucket heads, each the start of a chain of items linked through `next`
// (new items go at the head of their chain).  A thread hashes its request's
// key with 32-bit FNV-1a, walks the chain of the key's bucket, compares the
// key length and then the key byte by byte against every item it meets, and
// on a hit copies the item's value out; a miss reports length -1.

#define MEMC_KEY_MAX 40
#define MEMC_VAL_WORDS 20

// One item: 128 bytes, one cache line.
struct memc_item {
    int next;                     // index of the next item in the chain, -1 at the end
    unsigned char nkey;           // key length in bytes
    unsigned char nval;           // value length in bytes
    unsigned short flags;         // client flags (unused by GET)
    unsigned char key[MEMC_KEY_MAX];
    unsigned int val[MEMC_VAL_WORDS];
};

__device__ unsigned memc_hash(const unsigned char *key, int nkey)
{
    unsigned h = 2166136261u;
    for (int i = 0; i < nkey; i++) {
        h ^= key[i];
        h *= 16777619u;
    }
    return h;
}

extern "C" __global__ void memc_get(const int *buckets, const memc_item *items,
                                    const unsigned char *req_keys, const int *req_nkey,
                                    unsigned *out_val, int *out_len, unsigned bucket_mask,
                                    int num_req)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= num_req)
        return;
    const unsigned char *key = req_keys + (size_t)r * MEMC_KEY_MAX;
    int nkey = req_nkey[r];
    unsigned h = memc_hash(key, nkey);

    int found = -1;
    for (int it = buckets[h & bucket_mask]; it >= 0; it = items[it].next) {
        const memc_item *p = &items[it];
        if (p->nkey != nkey)
            continue;
        int i = 0;
        while (i < nkey && p->key[i] == key[i])
            i++;
        if (i == nkey) {
            found = it;
            break;
        }
    }

    if (found < 0) {
        out_len[r] = -1;
        return;
    }
    const memc_item *p = &items[found];
    int nval = p->nval;
    unsigned *dst = out_val + (size_t)r * MEMC_VAL_WORDS;
    for (int w = 0; w < (nval + 3) / 4; w++)
        dst[w] = p->val[w];
    out_len[r] = nval;
}
