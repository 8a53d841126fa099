/* mem.c: device memory allocation (first fit over a sorted region list) and
 * address look-up for the global region of the generic address space. */
#include "func/mem.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

void mem_init(struct dev_mem *m, uint64_t limit)
{
    memset(m, 0, sizeof *m);
    m->limit = limit;
}

void mem_fini(struct dev_mem *m)
{
    for (size_t i = 0; i < m->nregions; i++)
        free(m->regions[i].data);
    free(m->regions);
    memset(m, 0, sizeof *m);
}

int mem_alloc(struct dev_mem *m, uint64_t bytes, uint64_t *out, struct err *e)
{
    uint64_t span = (bytes + MEM_ALIGN - 1) / MEM_ALIGN * MEM_ALIGN;
    if (span == 0)
        span = MEM_ALIGN;
    if (bytes > m->limit || span > m->limit - m->used)
        return err_set(e, WS_ERR_NOMEM,
                       "device memory exhausted: %" PRIu64 " bytes requested, %" PRIu64
                       " of %" PRIu64 " bytes in use (option device_memory)",
                       bytes, m->used, m->limit);
    /* first fit: the gap before region i starts MEM_GUARD bytes after the end
     * of region i-1 and must leave MEM_GUARD bytes before region i, so that an
     * access just past an allocation faults instead of landing in the next */
    uint64_t at = MEM_GLOBAL_BASE;
    size_t i = 0;
    for (; i < m->nregions; i++) {
        if (m->regions[i].base - at >= span + MEM_GUARD)
            break;
        at = m->regions[i].base + m->regions[i].span + MEM_GUARD;
    }
    if (MEM_PARAM_BASE - at < span)
        return err_set(e, WS_ERR_NOMEM, "device address space exhausted (%" PRIu64 " bytes)",
                       bytes);
    uint8_t *data = calloc(bytes ? bytes : 1, 1);
    if (!data)
        return err_set(e, WS_ERR_NOMEM, "host memory exhausted backing %" PRIu64
                       " bytes of device memory", bytes);
    array_reserve((void **)&m->regions, &m->cap, m->nregions + 1, sizeof *m->regions);
    memmove(&m->regions[i + 1], &m->regions[i], (m->nregions - i) * sizeof *m->regions);
    m->regions[i] = (struct mem_region){at, bytes, span, data};
    m->nregions++;
    m->used += span;
    m->last = i;
    *out = at;
    return WS_OK;
}

static size_t mem_find(const struct dev_mem *m, uint64_t addr)
{
    /* last region with base <= addr, or nregions if none */
    size_t lo = 0, hi = m->nregions;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->regions[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo == 0 ? m->nregions : lo - 1;
}

int mem_free(struct dev_mem *m, uint64_t addr, struct err *e)
{
    size_t i = mem_find(m, addr);
    if (i == m->nregions || m->regions[i].base != addr)
        return err_set(e, WS_ERR_INVALID,
                       "ws_free: 0x%" PRIx64 " is not the address of a live allocation", addr);
    m->used -= m->regions[i].span;
    free(m->regions[i].data);
    memmove(&m->regions[i], &m->regions[i + 1], (m->nregions - i - 1) * sizeof *m->regions);
    m->nregions--;
    m->last = 0;
    return WS_OK;
}

/* Region index holding [addr, addr+n), or nregions. */
static size_t mem_find_range(const struct dev_mem *m, uint64_t addr, uint64_t n)
{
    size_t i = mem_find(m, addr);
    if (i == m->nregions)
        return i;
    const struct mem_region *r = &m->regions[i];
    uint64_t off = addr - r->base;
    return off > r->size || n > r->size - off ? m->nregions : i;
}

uint8_t *mem_lookup_find(const struct dev_mem *m, uint64_t addr, uint64_t n)
{
    size_t i = mem_find_range(m, addr, n);
    return i == m->nregions ? NULL : m->regions[i].data + (addr - m->regions[i].base);
}

uint8_t *mem_lookup_slow(struct dev_mem *m, uint64_t addr, uint64_t n)
{
    size_t i = mem_find_range(m, addr, n);
    if (i == m->nregions)
        return NULL;
    m->last = i;
    return m->regions[i].data + (addr - m->regions[i].base);
}

#define MEM_NEAR (1u << 20) /* mem_describe names allocations this close */

void mem_describe(const struct dev_mem *m, uint64_t addr, uint64_t n, char *buf, size_t len)
{
    size_t i = mem_find(m, addr);
    if (i == m->nregions || addr - m->regions[i].base >= m->regions[i].span) {
        /* name the allocation it is closest to within MEM_NEAR: a negative
         * index or a stride past the end shows as such */
        const struct mem_region *below = i == m->nregions ? NULL : &m->regions[i];
        size_t j = i == m->nregions ? 0 : i + 1;
        const struct mem_region *above = j < m->nregions ? &m->regions[j] : NULL;
        uint64_t db = below ? addr - (below->base + below->size) : UINT64_MAX;
        uint64_t da = above && above->base > addr ? above->base - addr : UINT64_MAX;
        if (da <= db && da <= MEM_NEAR)
            snprintf(buf, len,
                     "outside any allocation, %" PRIu64 " bytes before the %" PRIu64
                     "-byte allocation at 0x%" PRIx64 " (a negative index?)",
                     da, above->size, above->base);
        else if (db <= MEM_NEAR)
            snprintf(buf, len,
                     "outside any allocation, %" PRIu64 " bytes past the end of the %" PRIu64
                     "-byte allocation at 0x%" PRIx64,
                     db, below->size, below->base);
        else
            snprintf(buf, len, "outside any allocation");
        return;
    }
    const struct mem_region *r = &m->regions[i];
    snprintf(buf, len,
             "past the end of the %" PRIu64 "-byte allocation at 0x%" PRIx64
             " (offset %" PRIu64 ", %" PRIu64 " bytes)",
             r->size, r->base, addr - r->base, n);
}
