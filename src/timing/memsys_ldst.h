/* memsys_ldst.h: the per-SM LD/ST unit of the memory system (memsys_ldst.c). */
#ifndef WS_TIMING_MEMSYS_LDST_H
#define WS_TIMING_MEMSYS_LDST_H

#include <stdint.h>

struct mem_system;

/* One core cycle of SM s's LD/ST unit: take one reply from the reply network
 * (L1 fill or direct completion), advance the current instruction by one
 * access, complete data whose latency has elapsed. */
void memsys_ldst_cycle(struct mem_system *ms, uint32_t s, uint64_t now);

#endif
