/* lost_locality.h: the memory system's measurement of lost intra-warp
 * locality, beside any scheduler.  Per SM, every warp slot has a victim tag
 * array (policy/vta.h, CCWS's released geometry: 2 sets x 8 ways, FIFO) fed
 * exactly as CCWS feeds its own (SPEC-policies 3.2): an L1D eviction inserts
 * the victim line into the array of the warp that allocated it, a global
 * store removes its line from every array, and a load miss (or a miss merged
 * into a pending one) that finds its line in the requesting warp's array is
 * one lost-locality event.  The DAWS paper adds such an array to Profiled-
 * DAWS "for the purposes of this data" (Fig. 11); here it serves every policy
 * and never influences timing.
 *
 * A slot's array belongs to one dynamic warp (age): an event of a newer warp
 * empties it, events of an older (finished) one are ignored — the same as
 * clearing it at warp launch, without needing that event.
 *
 * A store would search every slot's array; a counting filter over the
 * arrays' lines (how many entries hash to each of LL_FILTER buckets) lets
 * most stores, whose line no array holds, skip the search. */
#ifndef WS_TIMING_LOST_LOCALITY_H
#define WS_TIMING_LOST_LOCALITY_H

#include <stdint.h>

struct vta;

#define LL_FILTER 1024 /* buckets of the filter, a power of two */

struct lost_locality {
    uint32_t nslots;
    struct vta *vta;  /* [nslots] */
    uint64_t *age;    /* [nslots] the dynamic warp each array belongs to */
    uint16_t *filter; /* [LL_FILTER] entries of all arrays per line hash */
};

void lost_locality_init(struct lost_locality *o, uint32_t nslots);
void lost_locality_free(struct lost_locality *o);
/* Line `line` allocated by warp (slot, age) was evicted. */
void lost_locality_evict(struct lost_locality *o, int32_t slot, uint64_t age, uint64_t line);
/* Warp (slot, age) missed on `line` with a load: 1 when that is lost locality. */
int lost_locality_miss(struct lost_locality *o, int32_t slot, uint64_t age, uint64_t line);
/* A global store to `line`. */
void lost_locality_store(struct lost_locality *o, uint64_t line);

#endif
