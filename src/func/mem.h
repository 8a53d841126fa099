/* mem.h: simulated device memory — the global allocation region of the 64-bit
 * generic address space and the fixed windows of the other state spaces.
 *
 * Generic address map (every address a kernel can hold in a register):
 *   [MEM_GLOBAL_BASE, MEM_PARAM_BASE)   global/const allocations (ws_malloc,
 *                                       module .global/.const variables)
 *   [MEM_PARAM_BASE, +MEM_WINDOW_SIZE)  the running kernel's parameter buffer
 *   [MEM_SHARED_BASE, +MEM_WINDOW_SIZE) the CTA's shared memory (offsets)
 *   [MEM_LOCAL_BASE, +MEM_WINDOW_SIZE)  the thread's local memory (offsets)
 * Only the global region is owned here; the windows are resolved by func/exec.
 * struct dev_mem owns the host backing store of every allocation. */
#ifndef WS_FUNC_MEM_H
#define WS_FUNC_MEM_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

#define MEM_GLOBAL_BASE 0x0000200000000000ull /* host-mappable, also under ASan (managed memory) */
#define MEM_PARAM_BASE 0x00007d0000000000ull
#define MEM_SHARED_BASE 0x00007e0000000000ull
#define MEM_LOCAL_BASE 0x00007f0000000000ull
#define MEM_WINDOW_SIZE 0x0000010000000000ull
#define MEM_ALIGN 256u
#define MEM_GUARD 256u /* unmapped bytes between two allocations */

/* A generic address outside the parameter, shared and local windows (which
 * lie side by side): a global one. */
static inline int mem_is_global(uint64_t a)
{
    return a < MEM_PARAM_BASE || a >= MEM_LOCAL_BASE + MEM_WINDOW_SIZE;
}

struct mem_region {
    uint64_t base;
    uint64_t size;  /* bytes the user asked for (accesses must stay inside) */
    uint64_t span;  /* address range reserved (size rounded up to MEM_ALIGN) */
    uint8_t *data;
};

struct dev_mem {
    struct mem_region *regions; /* sorted by base */
    size_t nregions, cap;
    size_t last;     /* index of the region found by the last look-up */
    uint64_t limit;  /* bytes of device memory */
    uint64_t used;   /* bytes reserved */
};

void mem_init(struct dev_mem *m, uint64_t limit);
void mem_fini(struct dev_mem *m);

/* Reserve `bytes` (zero-filled), 256-byte aligned.  WS_ERR_NOMEM past the limit. */
int mem_alloc(struct dev_mem *m, uint64_t bytes, uint64_t *out, struct err *e);
/* Release an allocation by its base address; WS_ERR_INVALID if not one. */
int mem_free(struct dev_mem *m, uint64_t addr, struct err *e);

/* Host pointer to [addr, addr+n) when it lies inside one allocation, else NULL. */
static inline uint8_t *mem_lookup(struct dev_mem *m, uint64_t addr, uint64_t n);

/* Slow path of mem_lookup (binary search); updates m->last. */
uint8_t *mem_lookup_slow(struct dev_mem *m, uint64_t addr, uint64_t n);

/* mem_lookup without updating m->last: safe while other threads look up too
 * (nothing allocates or frees meanwhile). */
static inline uint8_t *mem_lookup_ro(const struct dev_mem *m, uint64_t addr, uint64_t n);
uint8_t *mem_lookup_find(const struct dev_mem *m, uint64_t addr, uint64_t n);

static inline uint8_t *mem_lookup(struct dev_mem *m, uint64_t addr, uint64_t n)
{
    if (m->last < m->nregions) {
        const struct mem_region *r = &m->regions[m->last];
        if (addr >= r->base && addr - r->base <= r->size && n <= r->size - (addr - r->base))
            return r->data + (addr - r->base);
    }
    return mem_lookup_slow(m, addr, n);
}

static inline uint8_t *mem_lookup_ro(const struct dev_mem *m, uint64_t addr, uint64_t n)
{
    size_t last = m->last;
    if (last < m->nregions) {
        const struct mem_region *r = &m->regions[last];
        if (addr >= r->base && addr - r->base <= r->size && n <= r->size - (addr - r->base))
            return r->data + (addr - r->base);
    }
    return mem_lookup_find(m, addr, n);
}

/* Describe why [addr, addr+n) is not accessible ("outside any allocation",
 * "past the end of the 1024-byte allocation at 0x..."), for fault messages. */
void mem_describe(const struct dev_mem *m, uint64_t addr, uint64_t n, char *buf, size_t len);

#endif
