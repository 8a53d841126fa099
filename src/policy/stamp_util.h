/* stamp_util.h: a per-line time stamp table and "oldest stamp" victim
 * choice, shared by the policies that order lines by one time per line:
 * LRU (stamped on insert and hit) and FIFO (stamped on insert only).  The
 * table is the policy's whole private block. */
#ifndef WS_POLICY_STAMP_UTIL_H
#define WS_POLICY_STAMP_UTIL_H

#include <stddef.h>
#include <stdint.h>

struct stamp_table {
    uint32_t sets, ways;
    uint64_t clock;
    uint64_t stamp[]; /* [sets * ways] */
};

size_t stamp_priv_size(uint32_t sets, uint32_t ways);
void stamp_init(struct stamp_table *t, uint32_t sets, uint32_t ways);
/* The candidate (bitmask of ways) with the oldest stamp; ties: lowest way. */
uint32_t stamp_oldest(const struct stamp_table *t, uint32_t set, uint64_t candidates);
/* Give the line the newest stamp. */
void stamp_touch(struct stamp_table *t, uint32_t set, uint32_t way);

#endif
