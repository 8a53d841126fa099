/* memsys_icnt.h: the request and reply crossbars of the memory system
 * (memsys_icnt.c). */
#ifndef WS_TIMING_MEMSYS_ICNT_H
#define WS_TIMING_MEMSYS_ICNT_H

#include <stdint.h>

struct icnt_net;
struct mem_system;

/* A network of n_src sources and n_dst destinations whose buffers hold qcap
 * packets each; a destination takes packets through dst_ports ports. */
void memsys_icnt_init(struct icnt_net *n, uint32_t n_src, uint32_t n_dst, uint32_t qcap,
                      uint32_t dst_ports);
void memsys_icnt_fini(struct icnt_net *n);
/* One icnt cycle: miss queues -> L2 inputs, L2 reply queues -> SM inputs. */
void memsys_icnt_tick(struct mem_system *ms);

#endif
