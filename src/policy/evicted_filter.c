/* evicted_filter.c: the evicted-address Bloom filter (see evicted_filter.h). */
#include "policy/evicted_filter.h"

#include <string.h>

static uint64_t *filter_bits(struct evicted_filter *f)
{
    return (uint64_t *)(f + 1);
}

static const uint64_t *filter_bits_ro(const struct evicted_filter *f)
{
    return (const uint64_t *)(f + 1);
}

static uint64_t filter_nbits(uint64_t cap, uint64_t per)
{
    uint64_t n = 64;
    while (n < cap * per)
        n <<= 1;
    return n;
}

size_t evicted_filter_size(uint64_t cap, uint64_t bits_per_addr)
{
    return sizeof(struct evicted_filter) + filter_nbits(cap, bits_per_addr) / 8;
}

void evicted_filter_init(struct evicted_filter *f, uint64_t cap, uint64_t bits_per_addr)
{
    f->cap = cap;
    f->inserted = 0;
    f->nbits = filter_nbits(cap, bits_per_addr);
    f->clears = 0;
    memset(filter_bits(f), 0, f->nbits / 8);
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

/* The two filter bits of an address. */
static void filter_hash(const struct evicted_filter *f, uint64_t addr, uint64_t *h0, uint64_t *h1)
{
    uint64_t h = mix(addr + 1);
    *h0 = h & (f->nbits - 1);
    *h1 = (h >> 32) & (f->nbits - 1);
}

int evicted_filter_test(const struct evicted_filter *f, uint64_t addr)
{
    uint64_t h0, h1;
    filter_hash(f, addr, &h0, &h1);
    const uint64_t *b = filter_bits_ro(f);
    return (b[h0 / 64] >> (h0 % 64) & 1) && (b[h1 / 64] >> (h1 % 64) & 1);
}

void evicted_filter_add(struct evicted_filter *f, uint64_t addr)
{
    uint64_t h0, h1;
    filter_hash(f, addr, &h0, &h1);
    uint64_t *b = filter_bits(f);
    b[h0 / 64] |= 1ull << (h0 % 64);
    b[h1 / 64] |= 1ull << (h1 % 64);
    if (++f->inserted >= f->cap) {
        memset(b, 0, f->nbits / 8);
        f->inserted = 0;
        f->clears++;
    }
}
