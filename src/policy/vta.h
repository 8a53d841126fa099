/* vta.h: a victim tag array (Rogers, O'Connor, Aamodt, "Cache-Conscious
 * Wavefront Scheduling", MICRO 2012; SPEC-policies 3.1): the line addresses
 * of L1D lines one warp allocated and lost to an eviction, tags only,
 * set-associative (set = line % sets) with FIFO replacement.  A miss that
 * finds its line in the requesting warp's own array is lost intra-warp
 * locality.
 *
 * One struct vta per warp.  Users: CCWS and Detected-DAWS (their detection)
 * and the memory system's lost-locality statistic (timing/lost_locality.h),
 * which measures the same thing beside any scheduler. */
#ifndef WS_POLICY_VTA_H
#define WS_POLICY_VTA_H

#include <stdint.h>

#define VTA_MAX_TAGS 64 /* sets x ways */
#define VTA_DEFAULT_SETS 2 /* released CCWS config 2:128:8 (16 entries per warp) */
#define VTA_DEFAULT_WAYS 8

struct vta {
    uint8_t sets, ways;
    uint8_t next[VTA_MAX_TAGS];  /* per set: the way FIFO replaces next */
    uint64_t tag[VTA_MAX_TAGS];  /* line + 1; 0 = empty */
};

/* Empty the array and give it its geometry (sets * ways <= VTA_MAX_TAGS). */
void vta_clear(struct vta *t, uint32_t sets, uint32_t ways);
/* 1 when `line` is present. */
int vta_find(const struct vta *t, uint64_t line);
/* Insert `line` (FIFO victim in its set); a line already present changes
 * nothing.  Returns 1 when it was inserted; *displaced (when not NULL) is
 * then the line the FIFO replaced + 1, or 0 when the way was empty. */
int vta_insert(struct vta *t, uint64_t line, uint64_t *displaced);
/* Remove `line`; returns 1 when it was present. */
int vta_remove(struct vta *t, uint64_t line);

#endif
