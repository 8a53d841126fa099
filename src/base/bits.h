/* bits.h: bit counting for the simulator's hot paths.  Without a population
 * count instruction in the target (x86-64 before -mpopcnt), the compiler's
 * __builtin_popcount is a libgcc call; the SWAR form below inlines to a dozen
 * operations and gives the same count. */
#ifndef WS_BASE_BITS_H
#define WS_BASE_BITS_H

#include <stdint.h>

static inline unsigned ws_popc32(uint32_t x)
{
#if defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__))
    return (unsigned)__builtin_popcount(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (x * 0x01010101u) >> 24;
#endif
}

#endif
