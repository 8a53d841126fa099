/* rng.c: splitmix64 (see rng.h). */
#include "base/rng.h"

/* splitmix64's output function: a bijective scramble of 64 bits. */
static uint64_t rng_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void rng_init(struct rng *r, uint64_t state)
{
    r->s = state;
}

void rng_seed(struct rng *r, uint64_t seed)
{
    r->s = rng_mix(seed ^ 0x632be59bd9b4e019ull);
}

uint64_t rng_next(struct rng *r)
{
    return rng_mix(r->s += 0x9e3779b97f4a7c15ull);
}

uint32_t rng_below(struct rng *r, uint32_t n)
{
    return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

float rng_float(struct rng *r)
{
    return (float)(rng_next(r) >> 40) * (1.0f / 16777216.0f);
}
