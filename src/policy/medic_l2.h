/* medic_l2.h: the L2 side of MeDiC (Ausavarungnirun et al., HPCA 2016,
 * Sections 4.2-4.3; SPEC-policies 7.3-7.4), shared by the cache policies
 * wbyp (bypass only), wip (insertion only, or with bypass) and medic (both).
 * Lines are ordered by a time stamp (LRU) and carry the warp type of the
 * request that brought them (src/policy/medic_tag.h).
 *
 * - Bypass (obey_tag): a read whose tag has MEDIC_TAG_BYPASS bypasses; a
 *   miss whose tag has MEDIC_TAG_BYPASS (a write or atomic of a bypassing
 *   warp, which still looks up) or MEDIC_TAG_NOALLOC (PCAL) does not
 *   allocate.
 * - Insertion (wip): the victim is the least recently used line of the
 *   lowest class present among the candidates (mostly-miss and all-miss
 *   lines, then balanced ones, then mostly-hit and all-hit ones); a
 *   mostly-miss or all-miss warp's line is inserted at the LRU position,
 *   every other at MRU.  Without wip every line is one class and inserted at
 *   MRU: plain LRU.  With strict=0 the type only sets the insertion position
 *   and the victim is the LRU line (the paper "appends" the type bits to the
 *   replacement bits; strict=1, SPEC 7.4, reads them as the high-order bits).
 * [CHOICE]s: LRU insertion makes the line older than every line of the
 * cache (the latest LRU insertion is the oldest); a line keeps the type of
 * the warp that inserted it (the paper annotates the block at insertion); a
 * hit only moves it to MRU (letting a mostly-hit warp's hit raise the line's
 * class pinned dead lines: kmn's L2 miss rate went from 14 % to 43 %);
 * unknown (profiling) counts as balanced. */
#ifndef WS_POLICY_MEDIC_L2_H
#define WS_POLICY_MEDIC_L2_H

#include <stddef.h>
#include <stdint.h>

#include "policy/cache/cache_policy.h"

#define MEDIC_L2_MID (1ull << 62)

struct medic_l2 {
    uint32_t sets, ways;
    uint8_t wip, obey_tag, strict;
    uint64_t clock;            /* MRU stamps count up from MEDIC_L2_MID */
    uint64_t low;              /* LRU stamps count down from it */
    uint64_t st_noalloc;       /* misses refused a line by their tag */
    uint64_t st_lru_inserts;   /* lines inserted at the LRU position */
    uint64_t st_victims[3];    /* victims by class (0 = mostly-miss first) */
    uint64_t st_bits;          /* WIP storage: 2 type bits per line */
    /* then stamp[sets * ways] (uint64_t) and type[sets * ways] (uint8_t) */
};

size_t medic_l2_size(uint32_t sets, uint32_t ways);
void medic_l2_init(struct medic_l2 *m, const struct cache_policy_init *in, int wip, int obey_tag,
                   int strict);
uint32_t medic_l2_victim(void *priv, uint32_t set, uint64_t candidates,
                         const struct cache_access *a);
void medic_l2_insert(void *priv, uint32_t set, uint32_t way, const struct cache_access *a);
void medic_l2_hit(void *priv, uint32_t set, uint32_t way, const struct cache_access *a);
uint32_t medic_l2_place(void *priv, uint32_t set, uint64_t invalid, uint64_t valid,
                        const struct cache_access *a);
int medic_l2_bypass(void *priv, uint32_t set, const struct cache_access *a);
void medic_l2_stats(void *priv, struct stats *s, uint32_t instances, size_t stride);

#endif
