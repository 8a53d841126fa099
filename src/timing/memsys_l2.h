/* memsys_l2.h: the L2 sub-partitions of the memory system and their DRAM
 * side (memsys_l2.c). */
#ifndef WS_TIMING_MEMSYS_L2_H
#define WS_TIMING_MEMSYS_L2_H

struct mem_system;

/* One l2 cycle: DRAM returns fill the L2 (or go straight to the reply
 * queue), arrived requests move to their bank queues, banks serve their
 * queue heads. */
void memsys_l2_tick(struct mem_system *ms);

#endif
