/* lost_locality.c: victim tag arrays as a statistic (lost_locality.h). */
#include "timing/lost_locality.h"

#include <stdlib.h>

#include "base/alloc.h"
#include "policy/vta.h"

void lost_locality_init(struct lost_locality *o, uint32_t nslots)
{
    o->nslots = nslots;
    o->vta = xcalloc(nslots ? nslots : 1, sizeof *o->vta);
    o->age = xcalloc(nslots ? nslots : 1, sizeof *o->age);
    o->filter = xcalloc(LL_FILTER, sizeof *o->filter);
    for (uint32_t s = 0; s < nslots; s++)
        vta_clear(&o->vta[s], VTA_DEFAULT_SETS, VTA_DEFAULT_WAYS);
}

void lost_locality_free(struct lost_locality *o)
{
    free(o->vta);
    free(o->age);
    free(o->filter);
    o->vta = NULL;
    o->age = NULL;
    o->filter = NULL;
}

static uint16_t *ll_bucket(struct lost_locality *o, uint64_t line)
{
    return &o->filter[(line * 0x9e3779b97f4a7c15ull) >> 54 & (LL_FILTER - 1)];
}

/* The slot's array for dynamic warp `age`, or NULL for a finished warp. */
static struct vta *ll_array(struct lost_locality *o, int32_t slot, uint64_t age)
{
    if (slot < 0 || (uint32_t)slot >= o->nslots || age < o->age[slot])
        return NULL;
    struct vta *t = &o->vta[slot];
    if (age > o->age[slot]) {
        for (uint32_t i = 0; i < VTA_MAX_TAGS; i++)
            if (t->tag[i])
                --*ll_bucket(o, t->tag[i] - 1);
        vta_clear(t, VTA_DEFAULT_SETS, VTA_DEFAULT_WAYS);
        o->age[slot] = age;
    }
    return t;
}

void lost_locality_evict(struct lost_locality *o, int32_t slot, uint64_t age, uint64_t line)
{
    struct vta *t = ll_array(o, slot, age);
    uint64_t old;
    if (!t || !vta_insert(t, line, &old))
        return;
    ++*ll_bucket(o, line);
    if (old)
        --*ll_bucket(o, old - 1);
}

int lost_locality_miss(struct lost_locality *o, int32_t slot, uint64_t age, uint64_t line)
{
    struct vta *t = ll_array(o, slot, age);
    return t && vta_find(t, line);
}

void lost_locality_store(struct lost_locality *o, uint64_t line)
{
    uint16_t *b = ll_bucket(o, line);
    for (uint32_t s = 0; s < o->nslots && *b; s++)
        if (vta_remove(&o->vta[s], line))
            --*b;
}
