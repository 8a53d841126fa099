/* cache.h: a policy-free tag array (valid / reserved / dirty state per line,
 * the warp that allocated each line) plus an MSHR table, shared by the L1D,
 * constant, instruction and L2 caches.  Replacement and insertion decisions
 * are delegated to a cache_policy_ops resolved by name through the registry.
 *
 * The caller computes the set index with cache_set_index (the configured
 * function of the line number it gives: L1 the line address, L2 the line
 * index local to its sub-partition or the full line address) and passes the
 * line address as the tag, so tags are unique whatever the set mapping. */
#ifndef WS_TIMING_CACHE_H
#define WS_TIMING_CACHE_H

#include <stdint.h>

#include "base/err.h"
#include "config/config.h"
#include "policy/cache/cache_policy.h"

enum cache_line_state { CACHE_INVALID = 0, CACHE_VALID, CACHE_RESERVED };
/* Set-index functions (cache_geometry.index). */
enum cache_index { CACHE_INDEX_LINEAR, CACHE_INDEX_CCWS_HASH, CACHE_INDEX_FERMI };
enum cache_probe_result { CACHE_HIT, CACHE_HIT_RESERVED, CACHE_MISS };

struct cache {
    uint32_t sets, assoc, line_shift;
    uint32_t index;      /* enum cache_index */
    uint64_t *tag;       /* [sets * assoc] line address */
    uint8_t *state;      /* enum cache_line_state */
    uint8_t *dirty, *reused;
    int32_t *owner_slot; /* warp slot that allocated the line (-1: none) */
    uint64_t *owner_age; /* its dynamic warp id */
    uint32_t *fill_tag;  /* classifier tag of the request that allocated it */
    const struct cache_policy_ops *ops;
    void *priv;
};

/* What an allocation pushed out. */
struct cache_victim {
    int valid;           /* a valid line was evicted */
    int dirty;
    uint64_t tag;
    int32_t owner_slot;
    uint64_t owner_age;
    int reused;          /* it was hit since it was allocated */
    uint32_t fill_tag;   /* classifier tag of the request that allocated it */
};

/* Check the geometry and resolve the policy g->policy through the registry.
 * `what` names the cache in error messages ("l1d"). */
int cache_prepare(const struct cache_geometry *g, const struct cache_policy_ops **ops,
                  struct param_set *ps, const char *what, struct err *e);
/* Bytes of policy state per cache (a multiple of 16, so that the instances
 * of one cache kind can lie in one array, `stride` apart, for ops->stats). */
size_t cache_priv_stride(const struct cache_geometry *g, const struct cache_policy_ops *ops);
/* Build with the prepared policy; `priv` (zeroed, cache_priv_stride bytes)
 * holds the policy state and stays the caller's. */
int cache_init(struct cache *c, const struct cache_geometry *g,
               const struct cache_policy_ops *ops, const struct param_set *ps, void *priv,
               uint32_t instance, const char *what, struct err *e);
void cache_fini(struct cache *c);

/* The set of line number `line` (an address >> line_shift):
 * linear       line % sets;
 * ccws_hash    (line % sets + 7 x (line / sets)) % sets: the CCWS/DAWS
 *              simulator's hash (tgrogers/ccws-2012 gpu-cache.cc, odd
 *              multiple 7 of the tag above the set bits);
 * fermi        GPGPU-Sim's Fermi hash (Nugteren et al., HPCA 2014): address
 *              bits 7-11 XOR bits 13, 14, 15, 17, 19, with bit 12 on top for
 *              64 sets (the address is line << line_shift). */
uint32_t cache_set_index(const struct cache *c, uint64_t line);
/* Invalidate every line (a flush without write-back timing); returns how
 * many valid lines it dropped. */
uint64_t cache_invalidate_all(struct cache *c);

/* Look up tag in set; *way is set on HIT and HIT_RESERVED. */
int cache_probe(const struct cache *c, uint32_t set, uint64_t tag, uint32_t *way);
/* Record a hit (promotion policy). */
void cache_touch(struct cache *c, uint32_t set, uint32_t way, const struct cache_access *a);
/* Policy asks to bypass this miss (no allocation)? */
int cache_bypass(struct cache *c, uint32_t set, const struct cache_access *a);
/* Reserve a line for tag (reserve-on-miss; valid = 0 is allowed for
 * fill-immediately users).  Returns 0, CACHE_ALLOC_BUSY when every way is
 * RESERVED, or CACHE_ALLOC_REFUSED when the policy's place() refuses (serve
 * the miss without a line).  The evicted line (if any) is described in *v. */
enum { CACHE_ALLOC_BUSY = -1, CACHE_ALLOC_REFUSED = 1 };
int cache_allocate(struct cache *c, uint32_t set, uint64_t tag, const struct cache_access *a,
                   uint32_t *way, struct cache_victim *v);
/* RESERVED -> VALID when the data arrives. */
void cache_fill(struct cache *c, uint32_t set, uint32_t way);
void cache_invalidate(struct cache *c, uint32_t set, uint32_t way);

/* MSHRs: fully associative by line address; each entry holds up to
 * max_merge targets (32-bit values chosen by the owner). */
struct mshr_table {
    uint32_t entries, max_merge, used;
    uint64_t *line;
    uint8_t *valid;
    uint32_t *ntargets;
    uint32_t *targets;   /* [entries * max_merge] */
    uint32_t *way;       /* cache way reserved for the line (set is implied) */
};

void mshr_init(struct mshr_table *m, uint32_t entries, uint32_t max_merge);
void mshr_fini(struct mshr_table *m);
/* Entry for line, or -1. */
int mshr_find(const struct mshr_table *m, uint64_t line);
int mshr_full(const struct mshr_table *m);
/* New entry (caller checked !mshr_full and that none exists). */
uint32_t mshr_alloc(struct mshr_table *m, uint64_t line, uint32_t way);
/* Can entry i take another target? */
static inline int mshr_can_merge(const struct mshr_table *m, uint32_t i)
{
    return m->ntargets[i] < m->max_merge;
}
void mshr_add(struct mshr_table *m, uint32_t i, uint32_t target);
void mshr_release(struct mshr_table *m, uint32_t i);

#endif
