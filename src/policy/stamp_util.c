/* stamp_util.c: time-stamp table for LRU and FIFO. */
#include "policy/stamp_util.h"

#include <string.h>

#include "base/log.h"

size_t stamp_priv_size(uint32_t sets, uint32_t ways)
{
    return sizeof(struct stamp_table) + (size_t)sets * ways * sizeof(uint64_t);
}

void stamp_init(struct stamp_table *t, uint32_t sets, uint32_t ways)
{
    memset(t, 0, stamp_priv_size(sets, ways));
    t->sets = sets;
    t->ways = ways;
}

uint32_t stamp_oldest(const struct stamp_table *t, uint32_t set, uint64_t candidates)
{
    if (t->ways < 64)
        candidates &= (1ull << t->ways) - 1;
    ws_assert(candidates != 0 && set < t->sets);
    const uint64_t *st = t->stamp + (size_t)set * t->ways;
    uint32_t best = (uint32_t)__builtin_ctzll(candidates);
    for (uint64_t c = candidates & (candidates - 1); c; c &= c - 1) {
        uint32_t w = (uint32_t)__builtin_ctzll(c);
        if (st[w] < st[best])
            best = w;
    }
    return best;
}

void stamp_touch(struct stamp_table *t, uint32_t set, uint32_t way)
{
    t->stamp[(size_t)set * t->ways + way] = ++t->clock;
}
