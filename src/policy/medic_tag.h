/* medic_tag.h: the request tag shared by the MeDiC family (Ausavarungnirun et
 * al., HPCA 2016; SPEC-policies 7) and the bypass comparison points of its
 * evaluation.  A classifier (src/policy/classify/: medic, rand_byp, pc_byp,
 * pcal) writes it on every memory request; the L2 policies (cache/wbyp.c,
 * cache/wip.c) and the DRAM scheduler (dram/wms.c) read it.
 *
 *   bits 0-2  the warp type (enum medic_type; 0 = not known: a warp being
 *             profiled, or a classifier that types nothing; every reader
 *             treats 0 as balanced);
 *   bit 3     MEDIC_TAG_BYPASS: the request's warp (or PC) bypasses the L2:
 *             a read skips the bank queue and the lookup; a write or atomic
 *             still looks up but never allocates (SPEC 7.3);
 *   bit 4     MEDIC_TAG_NOALLOC: a miss must not allocate (PCAL: the warp
 *             holds no token), a hit is served as usual.
 * With the default classifier none every tag is 0: the readers then act as
 * their baseline (LRU, one FR-FCFS queue order). */
#ifndef WS_POLICY_MEDIC_TAG_H
#define WS_POLICY_MEDIC_TAG_H

#include <stdint.h>

enum medic_type {
    MEDIC_UNKNOWN = 0,
    MEDIC_ALL_HIT = 1,
    MEDIC_MOSTLY_HIT = 2,
    MEDIC_BALANCED = 3,
    MEDIC_MOSTLY_MISS = 4,
    MEDIC_ALL_MISS = 5,
    MEDIC_TYPES = 6
};

#define MEDIC_TYPE_MASK 7u
#define MEDIC_TAG_BYPASS 8u
#define MEDIC_TAG_NOALLOC 16u

static inline uint32_t medic_type_of(uint32_t tag)
{
    uint32_t t = tag & MEDIC_TYPE_MASK;
    return t < MEDIC_TYPES ? t : MEDIC_UNKNOWN;
}

/* Eviction class of a type (WIP, SPEC 7.4): 0 = evicted first (mostly-miss,
 * all-miss), 1 = balanced (and unknown), 2 = evicted last (mostly-hit,
 * all-hit). */
static inline uint32_t medic_class_of(uint32_t type)
{
    if (type == MEDIC_MOSTLY_MISS || type == MEDIC_ALL_MISS)
        return 0;
    if (type == MEDIC_ALL_HIT || type == MEDIC_MOSTLY_HIT)
        return 2;
    return 1;
}

/* WMS (SPEC 7.5): the mostly-hit bit, set for mostly-hit and all-hit warps. */
static inline int medic_high_priority(uint32_t tag)
{
    return medic_class_of(medic_type_of(tag)) == 2;
}

#endif
