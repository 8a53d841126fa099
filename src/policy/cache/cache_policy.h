/* cache_policy.h: the replacement / insertion contract used by every cache
 * (L1D, L2, constant, instruction).  The cache owns tags, valid/reserved/
 * dirty state and MSHRs and stays policy-free; the policy owns only its
 * replacement metadata (ages, RRPVs, counters, signatures) in priv.
 *
 * Calls, all with the set index and way:
 *   victim()  on a miss that must allocate: choose a way among `candidates`
 *             (bitmask of ways not RESERVED; invalid ways are preferred by the
 *             cache before calling, so every candidate is valid);
 *   on_insert() after the cache places a new line in `way` (insertion policy);
 *   on_hit()  on a hit (promotion policy);
 *   on_evict() when a valid line leaves (`reused` = it was hit since insert);
 *   place()   optional, replaces the two steps above for policies that
 *             partition the set (CAWA CACP, SPEC-policies 8.3): it sees the
 *             empty ways (`invalid`) and the valid ones (`valid`), returns a
 *             way from either, or CACHE_NO_WAY to refuse to allocate (the
 *             miss is then served without a line: the fill bypasses the
 *             cache).  Without place() the cache takes the lowest invalid
 *             way, else victim(valid).
 * A policy may also say "do not allocate" (bypass): optional.  In an L1 it is
 * asked on a miss; in the L2 it is asked once per read when the read arrives
 * at its sub-partition, before any tag lookup: a bypassing read goes straight
 * to DRAM and its data is not inserted (MeDiC WByp; writes and atomics are
 * never offered, see src/timing/memsys_l2.c). */
#ifndef WS_POLICY_CACHE_POLICY_H
#define WS_POLICY_CACHE_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "policy/params.h"

struct stats;

struct cache_access {
    uint64_t line_addr; /* address >> log2(line) */
    uint32_t pc;
    uint32_t sm;
    int32_t warp;       /* warp slot on SM sm, -1 when no warp made the request
                           (write-backs, instruction fetches) */
    uint64_t warp_age;  /* dynamic warp id */
    uint8_t is_write;
    uint32_t tag;       /* policy tag carried by the request (MeDiC warp type, CAWA criticality) */
};

struct cache_policy_init {
    uint32_t sets, ways;
    uint32_t instance; /* e.g. SM index for L1D, sub-partition for L2 */
    uint64_t seed;     /* for policies with randomness (BRRIP) */
};

struct cache_policy_ops {
    const char *name;
    const char *desc;
    size_t (*priv_size)(uint32_t sets, uint32_t ways); /* required: bytes of metadata */
    const struct param_desc *params;
    int (*init)(void *priv, const struct param_set *p, const struct cache_policy_init *in,
                struct err *e);                                                  /* required */
    uint32_t (*victim)(void *priv, uint32_t set, uint64_t candidates,
                       const struct cache_access *a);                            /* required */
    void (*on_insert)(void *priv, uint32_t set, uint32_t way, const struct cache_access *a);
    void (*on_hit)(void *priv, uint32_t set, uint32_t way, const struct cache_access *a);
    void (*on_evict)(void *priv, uint32_t set, uint32_t way, int reused);       /* optional */
    uint32_t (*place)(void *priv, uint32_t set, uint64_t invalid, uint64_t valid,
                      const struct cache_access *a);                            /* optional */
    int (*bypass)(void *priv, uint32_t set, const struct cache_access *a);      /* optional */
    /* optional: register the policy's counters, as the scheduler's stats hook
     * (sched.h): called once with the first instance's priv; the instances of
     * one cache kind (every SM's L1D, every L2 slice) lie `stride` bytes apart,
     * so pass count = instances and stride to stats_counter() to sum them.
     * Names are given without a cache prefix ("brrip_inserts"): the memory
     * system registers them under the cache's (l1d_, l1c_, l1i_, l2_). */
    void (*stats)(void *priv, struct stats *s, uint32_t instances, size_t stride);
};

#define CACHE_NO_WAY UINT32_MAX /* place(): do not allocate */

#define CACHE_POLICY(id, ...)                                                            \
    const struct cache_policy_ops cache_policy_##id = {.name = #id, __VA_ARGS__}

#endif
