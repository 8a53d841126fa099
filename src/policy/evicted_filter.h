/* evicted_filter.h: the evicted-address filter of Seshadri, Mutlu, Kozuch and
 * Mowry (PACT 2012; SPEC-policies 9.4): a Bloom filter of the addresses of
 * lines recently evicted from a cache, holding as many addresses as the cache
 * has lines; when that many have entered it, it is cleared.  A missed line
 * found in it was evicted too early: it has high reuse.  Used by the EAF
 * insertion policy (src/policy/cache/eaf.c) and by MeDiC-reuse's bypass
 * override (src/policy/cache/medic_reuse.c).
 * [CHOICE]s: bits_per_addr bits per tracked address, rounded up to a power of
 * two, and two hash functions (the paper's sizes are [MEM, unverified] in the
 * SPEC). */
#ifndef WS_POLICY_EVICTED_FILTER_H
#define WS_POLICY_EVICTED_FILTER_H

#include <stddef.h>
#include <stdint.h>

struct evicted_filter {
    uint64_t cap;      /* addresses it holds before it clears */
    uint64_t inserted; /* addresses entered since the last clear */
    uint64_t nbits;    /* a power of two, at least 64 */
    uint64_t clears;   /* times it filled up and was cleared */
    /* then bits[nbits / 64] (uint64_t) */
};

/* Bytes of a filter of cap addresses at bits_per_addr bits each. */
size_t evicted_filter_size(uint64_t cap, uint64_t bits_per_addr);
/* Set up an empty filter in the evicted_filter_size(cap, bits_per_addr)
 * bytes at f. */
void evicted_filter_init(struct evicted_filter *f, uint64_t cap, uint64_t bits_per_addr);
/* 1 if addr may be in the filter (a Bloom filter: false positives happen). */
int evicted_filter_test(const struct evicted_filter *f, uint64_t addr);
/* An evicted line's address enters; the filter clears when it is full. */
void evicted_filter_add(struct evicted_filter *f, uint64_t addr);

#endif
