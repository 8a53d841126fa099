/* rng.h: the project's one seeded pseudo-random generator, splitmix64
 * (Steele, Lea and Flood, OOPSLA 2014): a 64-bit state advanced by a
 * constant and scrambled on output.  Deterministic: the same seed gives the
 * same sequence on every machine.  Used for workload inputs, policies with
 * randomness (a struct rng in the policy's priv) and test data. */
#ifndef WS_BASE_RNG_H
#define WS_BASE_RNG_H

#include <stdint.h>

struct rng {
    uint64_t s;
};

/* Start from `state` as is (the first draw is splitmix64's output after it). */
void rng_init(struct rng *r, uint64_t state);
/* Start from a scrambled `seed`, so that nearby seeds do not give shifted
 * copies of one sequence (the state advances by a constant per draw). */
void rng_seed(struct rng *r, uint64_t seed);

uint64_t rng_next(struct rng *r);
uint32_t rng_below(struct rng *r, uint32_t n); /* uniform in [0, n) */
float rng_float(struct rng *r);               /* uniform in [0, 1) */

#endif
