/* memsys_icnt.c: the request network (SM miss queues to L2 sub-partition
 * inputs) and the reply network (L2 reply queues to SM inputs).
 *
 * Modelling choices:
 * - Crossbar: each source port sends one packet per ceil(bytes / flit)
 *   icnt cycles (read requests: 8 bytes; writes and replies: their data plus
 *   icnt.ctrl_bytes);
 *   each destination accepts packets serialised the same way, through
 *   dst_ports ports that each take one packet at a time (an L2
 *   sub-partition has l2.input_ports, an SM one); a packet
 *   arrives icnt_latency + serialisation later; destination buffers hold
 *   icnt_queue packets including those in flight (credits), a full one stalls
 *   the sender. */
#include "timing/memsys_icnt.h"

#include <stdlib.h>

#include "base/alloc.h"
#include "timing/memsys_int.h"

static uint32_t flits(const struct mem_system *ms, uint32_t bytes)
{
    uint32_t f = (bytes + ms->flit - 1) / ms->flit;
    return f ? f : 1;
}

void memsys_icnt_init(struct icnt_net *n, uint32_t n_src, uint32_t n_dst, uint32_t qcap,
                      uint32_t dst_ports)
{
    n->n_src = n_src;
    n->n_dst = n_dst;
    n->dst_ports = dst_ports;
    n->src_free = xcalloc(n_src, sizeof *n->src_free);
    n->dst_free = xcalloc((size_t)n_dst * dst_ports, sizeof *n->dst_free);
    n->dst = xcalloc_lines(n_dst, sizeof *n->dst);
    for (uint32_t i = 0; i < n_dst; i++)
        memsys_ring_alloc(&n->dst[i].q, qcap, 1);
}

void memsys_icnt_fini(struct icnt_net *n)
{
    for (uint32_t i = 0; n->dst && i < n->n_dst; i++)
        memsys_ring_release(&n->dst[i].q);
    free(n->dst);
    free(n->src_free);
    free(n->dst_free);
}

static void icnt_send(struct mem_system *ms, struct icnt_net *n, uint32_t src, uint32_t dst,
                      uint32_t q, uint32_t bytes)
{
    uint32_t ser = flits(ms, bytes);
    ms->st.icnt_flits += ser;
    uint64_t now = ms->icnt_now;
    n->src_free[src] = now + ser;
    uint64_t arr = now + ms->cfg.icnt_latency + ser;
    /* the destination port that frees first (the lowest on a tie) */
    uint64_t *port = &n->dst_free[(size_t)dst * n->dst_ports];
    for (uint32_t p = 1; p < n->dst_ports; p++)
        if (n->dst_free[(size_t)dst * n->dst_ports + p] < *port)
            port = &n->dst_free[(size_t)dst * n->dst_ports + p];
    if (arr < *port + ser)
        arr = *port + ser;
    *port = arr;
    ring_push_t(&n->dst[dst].q, q, arr);
}

void memsys_icnt_tick(struct mem_system *ms)
{
    /* the first source examined rotates with the icnt clock (not per call,
     * so that skipped idle cycles change nothing) */
    struct icnt_net *n = &ms->req_net;
    uint32_t rr = (uint32_t)(ms->icnt_now % n->n_src);
    for (uint32_t k = 0; k < n->n_src; k++) {
        uint32_t s = (rr + k) % n->n_src;
        struct idx_ring *src = &ms->sm[s].missq;
        if (ring_empty(src) || n->src_free[s] > ms->icnt_now)
            continue;
        uint32_t q = ring_head(src);
        struct mem_req *r = &ms->pool.r[q];
        if (ring_full(&n->dst[r->sub].q)) {
            ms->st.icnt_stalls++;
            continue;
        }
        ring_pop(src);
        icnt_send(ms, n, s, r->sub, q,
                  r->kind == MEM_REQ_WRITE ? r->bytes + ms->cfg.icnt_ctrl_bytes : 8);
        ms->st.icnt_req_packets++;
    }
    n = &ms->rep_net;
    rr = (uint32_t)(ms->icnt_now % n->n_src);
    for (uint32_t k = 0; k < n->n_src; k++) {
        uint32_t s = (rr + k) % n->n_src;
        struct idx_ring *src = &ms->sub[s].out;
        if (!ring_ready(src, ms->l2_now) || n->src_free[s] > ms->icnt_now)
            continue;
        uint32_t q = ring_head(src);
        struct mem_req *r = &ms->pool.r[q];
        if (ring_full(&n->dst[r->sm].q)) {
            ms->st.icnt_stalls++;
            continue;
        }
        ring_pop(src);
        icnt_send(ms, n, s, r->sm, q, r->bytes + ms->cfg.icnt_ctrl_bytes);
        ms->st.icnt_reply_packets++;
    }
}
