/* vta.c: the victim tag array of vta.h. */
#include "policy/vta.h"

#include <string.h>

#include "base/log.h"

void vta_clear(struct vta *t, uint32_t sets, uint32_t ways)
{
    ws_assert(sets >= 1 && ways >= 1 && sets * ways <= VTA_MAX_TAGS);
    memset(t, 0, sizeof *t);
    t->sets = (uint8_t)sets;
    t->ways = (uint8_t)ways;
}

static int vta_index(const struct vta *t, uint64_t line)
{
    uint32_t base = (uint32_t)(line % t->sets) * t->ways;
    for (uint32_t w = 0; w < t->ways; w++)
        if (t->tag[base + w] == line + 1)
            return (int)(base + w);
    return -1;
}

int vta_find(const struct vta *t, uint64_t line) { return vta_index(t, line) >= 0; }

int vta_insert(struct vta *t, uint64_t line, uint64_t *displaced)
{
    if (vta_index(t, line) >= 0)
        return 0;
    uint32_t set = (uint32_t)(line % t->sets);
    uint8_t *f = &t->next[set];
    if (displaced)
        *displaced = t->tag[set * t->ways + *f];
    t->tag[set * t->ways + *f] = line + 1;
    *f = (uint8_t)((*f + 1) % t->ways);
    return 1;
}

int vta_remove(struct vta *t, uint64_t line)
{
    int i = vta_index(t, line);
    if (i < 0)
        return 0;
    t->tag[i] = 0;
    return 1;
}
