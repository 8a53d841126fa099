/* coalesce.c: grouping a warp's lane addresses into memory accesses. */
#include "timing/coalesce.h"

uint32_t coalesce_segment(uint32_t size, int sectored)
{
    if (sectored || size <= 1)
        return 32;
    if (size == 2)
        return 64;
    return 128;
}

/* Hash slots of coalesce_warp: a power of two, twice COAL_MAX_ACCESSES. */
#define COAL_SLOTS 128

/* Bits [lo, hi) of a 64-bit word, 0 <= lo <= hi <= 64. */
static uint64_t bit_range(uint32_t lo, uint32_t hi)
{
    uint64_t below_hi = hi >= 64 ? ~0ull : (1ull << hi) - 1;
    return below_hi & ~((1ull << lo) - 1);
}

/* Mark bytes [lo, hi) of a segment's 128-bit byte map, lo < hi <= 128: one
 * mask per word (a lane's bytes are marked on every memory instruction). */
static void coal_mark(uint64_t bm[2], uint32_t lo, uint32_t hi)
{
    if (lo < 64)
        bm[0] |= bit_range(lo, hi < 64 ? hi : 64);
    if (hi > 64)
        bm[1] |= bit_range(lo > 64 ? lo - 64 : 0, hi - 64);
}

static int coal_touched(const uint64_t bm[2], uint32_t lo, uint32_t hi)
{
    for (uint32_t b = lo; b < hi; b += 32) {
        uint64_t word = bm[b >> 6] >> (b & 63);
        if (word & 0xffffffffull)
            return 1;
    }
    return 0;
}

/* The halving rule on one access: 128 -> 64 -> 32 bytes while only one half
 * of its byte map is touched. */
static void coal_halve(struct coal_access *a, const uint64_t bm[2])
{
    uint32_t off = 0, bytes = a->bytes;
    while (bytes > 32) {
        uint32_t half = bytes / 2;
        int lo = coal_touched(bm, off, off + half);
        int hi = coal_touched(bm, off + half, off + bytes);
        if (lo && hi)
            break;
        if (hi)
            off += half;
        bytes = half;
    }
    a->addr += off;
    a->bytes = bytes;
}

uint32_t coalesce_warp(const uint64_t addr[32], uint32_t mask, uint32_t size, int sectored,
                       struct coal_access *out)
{
    uint32_t seg = coalesce_segment(size, sectored);
    uint64_t bm[COAL_MAX_ACCESSES][2];
    /* segment -> its access, open addressing: a divergent warp's 32
     * segments are found without comparing each lane with every access;
     * occ marks the slots in use (slot[] itself is not cleared) */
    uint8_t slot[COAL_SLOTS];
    uint64_t occ[COAL_SLOTS / 64] = {0};
    uint32_t n = 0, last = 0; /* last: the access of the previous lane's segment */
    if (size == 0)
        size = 1;
    for (uint32_t l = 0; l < 32; l++) {
        if (!(mask >> l & 1))
            continue;
        uint64_t a = addr[l], end = addr[l] + size;
        while (a < end) {
            uint64_t base = a & ~(uint64_t)(seg - 1);
            uint64_t stop = base + seg < end ? base + seg : end;
            uint32_t k = last;
            if (k >= n || out[k].addr != base) { /* neighbouring lanes share segments */
                uint32_t h = (uint32_t)((base >> 5) * 0x9e3779b97f4a7c15ull >> 57); /* 7 bits */
                while ((occ[h / 64] >> (h % 64) & 1) && out[slot[h]].addr != base)
                    h = (h + 1) & (COAL_SLOTS - 1);
                k = occ[h / 64] >> (h % 64) & 1 ? slot[h] : n;
                if (k == n) {
                    if (n == COAL_MAX_ACCESSES)
                        break; /* cannot happen for size <= 16 */
                    out[n].addr = base;
                    out[n].bytes = seg;
                    out[n].mask = 0;
                    bm[n][0] = bm[n][1] = 0;
                    occ[h / 64] |= 1ull << (h % 64);
                    slot[h] = (uint8_t)n++;
                }
            }
            last = k;
            out[k].mask |= 1u << l;
            coal_mark(bm[k], (uint32_t)(a - base), (uint32_t)(stop - base));
            a = stop;
        }
    }
    for (uint32_t k = 0; k < n; k++)
        coal_halve(&out[k], bm[k]);
    /* ascending address order (insertion sort: n <= 64) */
    for (uint32_t i = 1; i < n; i++) {
        struct coal_access x = out[i];
        uint32_t j = i;
        while (j > 0 && out[j - 1].addr > x.addr) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = x;
    }
    return n;
}
