/* coalesce.h: the warp memory-access coalescer (GPGPU-Sim, SPEC-policies 1.3).
 *
 * The active lanes of one warp instruction are grouped by aligned segment:
 * 32 B segments for 1-byte accesses, 64 B for 2-byte, 128 B for 4/8/16-byte
 * (Fermi, through L1), or 32 B for everything when `sectored`.  A 128 B
 * segment touched in only one half shrinks to 64 B, and a 64 B one touched
 * in only one half to 32 B.  One access per remaining segment, in ascending
 * address order, carrying its lane mask.  The whole warp is one group
 * (mem_warp_parts = 1, as in the Fermi configurations). */
#ifndef WS_TIMING_COALESCE_H
#define WS_TIMING_COALESCE_H

#include <stdint.h>

#define COAL_MAX_ACCESSES 64 /* 32 lanes, each may straddle two segments */

struct coal_access {
    uint64_t addr;  /* segment base (aligned to bytes) */
    uint32_t bytes; /* 32, 64 or 128 */
    uint32_t mask;  /* lanes served by this access */
};

/* Segment size used for an access width (bytes per lane). */
uint32_t coalesce_segment(uint32_t size, int sectored);

/* Coalesce lanes in `mask` accessing `size` bytes at addr[lane]; writes up to
 * COAL_MAX_ACCESSES entries to out and returns their count. */
uint32_t coalesce_warp(const uint64_t addr[32], uint32_t mask, uint32_t size, int sectored,
                       struct coal_access *out);

#endif
