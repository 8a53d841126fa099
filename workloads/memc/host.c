/* host.c: the memc workload: memcached GET requests against a chained hash
 * table in device memory (FNV-1a hash, bucket-chain walk, byte-wise key
 * compare, value copy), a skewed mix of hits and misses, every response
 * checked against a CPU lookup. */
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

#define MEMC_BLOCK 256u
#define MEMC_KEY_MAX 40u
#define MEMC_VAL_WORDS 20u
#define MEMC_VAL_FILL 0xDEADBEEFu /* what out_val holds where nothing is copied */
#define MEMC_HIT_PERCENT 85u

/* Exactly the kernel's struct memc_item: 128 bytes. */
struct memc_item {
    int32_t next;
    uint8_t nkey;
    uint8_t nval;
    uint16_t flags;
    uint8_t key[MEMC_KEY_MAX];
    uint32_t val[MEMC_VAL_WORDS];
};
_Static_assert(sizeof(struct memc_item) == 128, "memc_item must match the kernel's layout");

struct memc_store {
    uint32_t num_items;
    uint32_t num_buckets; /* a power of two */
    int32_t *buckets;
    struct memc_item *items;
};

struct memc_reqs {
    uint32_t n;
    uint8_t *keys; /* n slots of MEMC_KEY_MAX bytes */
    int32_t *nkey;
};

static uint32_t memc_hash(const uint8_t *key, uint32_t nkey)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < nkey; i++) {
        h ^= key[i];
        h *= 16777619u;
    }
    return h;
}

/* Keys look like real cache keys: a namespace prefix, a decimal id and an
 * optional field suffix ("user:1234:profile").  The id decides the key, so
 * different ids give different keys; keys of equal length often share their
 * first bytes, which makes the byte-wise compare run past the first byte. */
static uint32_t memc_make_key(struct rng *rng, uint32_t id, uint8_t *key)
{
    static const char *const prefixes[] = {"user:", "session:", "item:", "cart:",
                                           "page:/", "obj:v2:"};
    static const char *const suffixes[] = {"", "", ":name", ":profile", ":avatar",
                                           ":friends", ":settings"};
    char buf[64];
    int len = snprintf(buf, sizeof buf, "%s%u%s", prefixes[rng_below(rng, 6)], id,
                       suffixes[rng_below(rng, 7)]);
    memset(key, 0, MEMC_KEY_MAX);
    memcpy(key, buf, (size_t)len);
    return (uint32_t)len;
}

static void memc_make_store(struct memc_store *s, struct rng *rng, uint32_t n)
{
    s->num_items = n;
    s->num_buckets = 1;
    while (s->num_buckets * 2 <= n / 2) /* load factor 2 to 4: chains of a few items */
        s->num_buckets *= 2;
    s->buckets = xmalloc((size_t)s->num_buckets * sizeof *s->buckets);
    for (uint32_t b = 0; b < s->num_buckets; b++)
        s->buckets[b] = -1;
    s->items = xcalloc(n, sizeof *s->items);
    for (uint32_t i = 0; i < n; i++) {
        struct memc_item *it = &s->items[i];
        /* Stored ids are 1000 + 3i; requests for 1000 + 3j + 1 always miss. */
        it->nkey = (uint8_t)memc_make_key(rng, 1000 + 3 * i, it->key);
        it->nval = (uint8_t)(1 + rng_below(rng, MEMC_VAL_WORDS * 4));
        it->flags = (uint16_t)rng_below(rng, 65536);
        for (uint32_t w = 0; w < ((uint32_t)it->nval + 3) / 4; w++)
            it->val[w] = (uint32_t)rng_next(rng);
        if (it->nval % 4) /* bytes past the value's end are zero, as after memcpy */
            it->val[it->nval / 4] &= 0xFFFFFFFFu >> (8 * (4 - it->nval % 4));
        /* Insert at the head of the bucket's chain, as memcached does. */
        uint32_t b = memc_hash(it->key, it->nkey) & (s->num_buckets - 1);
        it->next = s->buckets[b];
        s->buckets[b] = (int32_t)i;
    }
}

/* Requests: 85% ask for stored keys with a skewed popularity (rank u^3 of a
 * random permutation of the items: the top 1% of the items draw about a fifth
 * of the hits), the rest for keys that are not stored. */
static void memc_make_reqs(struct memc_reqs *q, struct rng *rng,
                           const struct memc_store *s, uint32_t n)
{
    uint32_t *perm = xmalloc((size_t)s->num_items * sizeof *perm);
    for (uint32_t i = 0; i < s->num_items; i++)
        perm[i] = i;
    for (uint32_t i = s->num_items - 1; i > 0; i--) {
        uint32_t j = rng_below(rng, i + 1);
        uint32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    q->n = n;
    q->keys = xcalloc(n, MEMC_KEY_MAX);
    q->nkey = xmalloc((size_t)n * sizeof *q->nkey);
    for (uint32_t r = 0; r < n; r++) {
        uint8_t *key = q->keys + (size_t)r * MEMC_KEY_MAX;
        if (rng_below(rng, 100) < MEMC_HIT_PERCENT) {
            float u = rng_float(rng);
            uint32_t rank = (uint32_t)((float)s->num_items * u * u * u);
            if (rank >= s->num_items)
                rank = s->num_items - 1;
            const struct memc_item *it = &s->items[perm[rank]];
            memcpy(key, it->key, MEMC_KEY_MAX);
            q->nkey[r] = it->nkey;
        } else {
            q->nkey[r] = (int32_t)memc_make_key(rng, 1000 + 3 * rng_below(rng, s->num_items) + 1,
                                                key);
        }
    }
    free(perm);
}

/* CPU reference: the response words and lengths the kernel must produce.
 * Returns the number of hits. */
static uint32_t memc_cpu(const struct memc_store *s, const struct memc_reqs *q,
                         uint32_t *want_val, int32_t *want_len)
{
    uint32_t hits = 0;
    for (uint32_t r = 0; r < q->n; r++) {
        const uint8_t *key = q->keys + (size_t)r * MEMC_KEY_MAX;
        uint32_t nkey = (uint32_t)q->nkey[r];
        int32_t found = -1;
        for (int32_t it = s->buckets[memc_hash(key, nkey) & (s->num_buckets - 1)]; it >= 0;
             it = s->items[it].next)
            if (s->items[it].nkey == nkey && memcmp(s->items[it].key, key, nkey) == 0) {
                found = it;
                break;
            }
        uint32_t *dst = want_val + (size_t)r * MEMC_VAL_WORDS;
        for (uint32_t w = 0; w < MEMC_VAL_WORDS; w++)
            dst[w] = MEMC_VAL_FILL;
        if (found < 0) {
            want_len[r] = -1;
            continue;
        }
        const struct memc_item *it = &s->items[found];
        for (uint32_t w = 0; w < ((uint32_t)it->nval + 3) / 4; w++)
            dst[w] = it->val[w];
        want_len[r] = it->nval;
        hits++;
    }
    return hits;
}

static int memc_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                    size_t detail_len)
{
    static const uint32_t items_for[] = {4096, 32768, 524288};
    static const uint32_t reqs_for[] = {8192, 65536, 1048576};
    struct rng rng;
    rng_seed(&rng, a->seed);
    struct memc_store s;
    struct memc_reqs q;
    memc_make_store(&s, &rng, items_for[a->size]);
    memc_make_reqs(&q, &rng, &s, reqs_for[a->size]);
    uint32_t n = q.n;
    size_t val_words = (size_t)n * MEMC_VAL_WORDS;

    uint32_t *got_val = xmalloc(val_words * sizeof *got_val);
    uint32_t *want_val = xmalloc(val_words * sizeof *want_val);
    int32_t *got_len = xmalloc((size_t)n * sizeof *got_len);
    int32_t *want_len = xmalloc((size_t)n * sizeof *want_len);
    for (size_t i = 0; i < val_words; i++)
        got_val[i] = MEMC_VAL_FILL;
    for (uint32_t i = 0; i < n; i++)
        got_len[i] = -7; /* neither a length nor the miss code */

    ws_devptr d_buckets = 0, d_items = 0, d_keys = 0, d_nkey = 0, d_val = 0, d_len = 0;
    int rc;
    WL_TRY_OUT(ws_malloc(gpu, (size_t)s.num_buckets * sizeof(int32_t), &d_buckets));
    WL_TRY_OUT(ws_malloc(gpu, (size_t)s.num_items * sizeof(struct memc_item), &d_items));
    WL_TRY_OUT(ws_malloc(gpu, (size_t)n * MEMC_KEY_MAX, &d_keys));
    WL_TRY_OUT(ws_malloc(gpu, (size_t)n * sizeof(int32_t), &d_nkey));
    WL_TRY_OUT(ws_malloc(gpu, val_words * sizeof(uint32_t), &d_val));
    WL_TRY_OUT(ws_malloc(gpu, (size_t)n * sizeof(int32_t), &d_len));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_buckets, s.buckets, (size_t)s.num_buckets * sizeof(int32_t)));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_items, s.items,
                              (size_t)s.num_items * sizeof(struct memc_item)));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_keys, q.keys, (size_t)n * MEMC_KEY_MAX));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_nkey, q.nkey, (size_t)n * sizeof(int32_t)));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_val, got_val, val_words * sizeof(uint32_t)));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_len, got_len, (size_t)n * sizeof(int32_t)));

    uint32_t mask = s.num_buckets - 1;
    int32_t num_req = (int32_t)n;
    void *args[] = {&d_buckets, &d_items, &d_keys, &d_nkey, &d_val, &d_len, &mask, &num_req};
    WL_TRY_OUT(ws_launch(mod, "memc_get", ws_dim((n + MEMC_BLOCK - 1) / MEMC_BLOCK, 1, 1),
                         ws_dim(MEMC_BLOCK, 1, 1), 0, args));
    WL_TRY_OUT(ws_memcpy_dtoh(gpu, got_len, d_len, (size_t)n * sizeof(int32_t)));
    WL_TRY_OUT(ws_memcpy_dtoh(gpu, got_val, d_val, val_words * sizeof(uint32_t)));

    uint32_t hits = memc_cpu(&s, &q, want_val, want_len);
    char check[192];
    rc = wl_check_i32("len", want_len, got_len, n, check, sizeof check);
    if (rc == WS_OK)
        rc = wl_check_u32("val", want_val, got_val, val_words, check, sizeof check);
    snprintf(detail, detail_len, "memc: %u items in %u buckets, %u GETs (%u hits): %s",
             s.num_items, s.num_buckets, n, hits, check);

out:
    if (d_len)
        ws_free(gpu, d_len);
    if (d_val)
        ws_free(gpu, d_val);
    if (d_nkey)
        ws_free(gpu, d_nkey);
    if (d_keys)
        ws_free(gpu, d_keys);
    if (d_items)
        ws_free(gpu, d_items);
    if (d_buckets)
        ws_free(gpu, d_buckets);
    free(want_len);
    free(got_len);
    free(want_val);
    free(got_val);
    free(q.nkey);
    free(q.keys);
    free(s.items);
    free(s.buckets);
    return rc;
}

const struct workload workload_memc = {
    .name = "memc",
    .desc = "memcached GET: FNV-1a hash, bucket-chain walk and byte-wise key compare "
            "(one thread per request, skewed hits and misses)",
    .run = memc_run,
};
