/* dram.h: one DRAM channel (memory partition): request queue, banks with
 * open-row state, GDDR command timing and the configured request scheduler.
 *
 * Timing, in DRAM command-clock cycles (SPEC-policies 1.4):
 *   ACT  needs the bank precharged, tRC since its last ACT, tRP since its PRE,
 *        tRRD since the channel's last ACT;
 *   PRE  needs tRAS since ACT, tWTP after a write, the read burst after a read;
 *   RD   needs tRCD since ACT, tCCD since the last column command, tWTR after
 *        a write, and the data bus free at t + CL;
 *   WR   needs tRCDWR = tRCD - (WL + 1) (at least 1) since ACT, tCCD, tRTW
 *        after a read, and the data bus free at t + WL.
 * Derived: BL/R = dram_burst / dram_data_rate (at least 1),
 * tRTW = CL + BL/R + 2 - WL, tWTR = WL + BL/R + tCDLR, tWTP = WL + BL/R + tWR.
 * Data bus: a request of B bytes occupies it for
 *   max(ceil(B / (dram_bus_bytes * dram_data_rate)), BL/R) command cycles,
 * so the peak is dram_bus_bytes * dram_data_rate bytes per command cycle.
 * A request's data returns dram_latency cycles after its last data beat
 * (GPGPU-Sim's fixed controller latency).  One command per cycle; banks are
 * scanned round-robin from bank now % banks,
 * column commands before row commands.
 *
 * Scheduling: each bank serves one request at a time.  Whenever banks are
 * free, the policy (registry_dram) picks among the queued requests, seeing
 * which banks are free and their open rows; the chosen request is bound to
 * its bank, which then precharges / activates / issues the column command.
 * A bank is free again as soon as its column command has issued, so row hits
 * to one bank pipeline at tCCD / bus rate.  The policy is consulted at such
 * bank-ready moments only (a request arrived or a bank became free).
 * Queues: one of dram_queue requests, or the policy's priority queues
 * (dram_sched.h), each with its own capacity and one spare slot. */
#ifndef WS_TIMING_DRAM_H
#define WS_TIMING_DRAM_H

#include <stdint.h>

#include "base/err.h"
#include "config/config.h"
#include "policy/dram/dram_sched.h"
#include "timing/mem_req.h"

struct dram_bank {
    int64_t open_row;         /* -1 precharged */
    uint32_t cur;             /* bound request (pool index) or MEM_REQ_NONE */
    uint32_t cur_row;
    uint8_t cur_write;
    uint64_t next_act, next_pre, next_rd, next_wr;
};

struct dram_channel {
    uint32_t n_banks, cap;    /* cap: logical capacity, all queues */
    /* timing */
    uint32_t tCCD, tRRD, tRCD, tRCDWR, tRAS, tRP, tRC, CL, WL, tRTW, tWTR, tWTP, blr;
    uint32_t bus_bytes_per_cycle;
    uint32_t latency;         /* dram_latency: fixed pipeline delay added to returns */
    /* pending requests in arrival order (structure of arrays = dram_view) */
    uint32_t n;
    uint32_t *bank, *row, *tag, *req;
    uint8_t *queue;           /* [n] the request's queue */
    uint32_t n_queues;
    uint32_t qcap[DRAM_MAX_QUEUES], qn[DRAM_MAX_QUEUES]; /* capacity, pending */
    /* one queue's view when there are several: pending indices and copies */
    uint32_t *sub_idx, *sub_bank, *sub_row, *sub_tag;
    uint64_t *sub_arrival;
    uint8_t *sub_is_write;
    uint64_t *arrival;
    uint8_t *is_write;
    uint8_t *bank_ready;
    int64_t *open_row;
    struct dram_bank *banks;
    uint64_t next_act_any, next_rd_any, next_wr_any, bus_free;
    uint32_t n_bound;         /* banks with a bound request */
    uint64_t wake;            /* no command can issue before this cycle */
    uint8_t rebind;           /* a request arrived or a bank freed since the last pick */
    struct idx_ring ret;      /* completed requests (timed, dram cycles) */
    const struct dram_sched_ops *ops;
    void *priv;
    /* statistics */
    uint64_t accesses, reads, writes, row_hits, activates, busy_cycles;
    uint64_t read_bursts, write_bursts, precharges; /* for the energy model */
};

/* Check the configuration and resolve the scheduler cfg->dram_sched through
 * the registry. */
int dram_prepare(const struct gpu_config *cfg, const struct dram_sched_ops **ops,
                 struct param_set *ps, struct err *e);
/* Bytes of scheduler state per channel (a multiple of 16: the channels'
 * states lie in one array, `stride` apart, for ops->stats). */
size_t dram_priv_stride(const struct dram_sched_ops *ops);
/* Build with the prepared scheduler; `priv` (zeroed, dram_priv_stride
 * bytes) holds its state and stays the caller's. */
int dram_init(struct dram_channel *ch, const struct gpu_config *cfg,
              const struct dram_sched_ops *ops, const struct param_set *ps, void *priv,
              struct err *e);
void dram_fini(struct dram_channel *ch);

/* Queue of a request with policy tag `tag`. */
uint32_t dram_queue_of(const struct dram_channel *ch, uint32_t tag);
/* A miss may need two slots (dirty victim write-back, then the fetch): a
 * queue accepts when fewer than its capacity are pending, or with `spare`
 * when no more than its capacity are (it physically holds one more). */
static inline int dram_can_accept(const struct dram_channel *ch, uint32_t tag, int spare)
{
    uint32_t q = dram_queue_of(ch, tag);
    return ch->qn[q] < ch->qcap[q] || (spare && ch->qn[q] <= ch->qcap[q]);
}
void dram_enqueue(struct dram_channel *ch, struct mem_pool *pool, uint32_t req, uint32_t bank,
                  uint32_t row, uint64_t now);
/* One command cycle at `now`; finished requests go to ch->ret. */
void dram_cycle(struct dram_channel *ch, struct mem_pool *pool, uint64_t now);
/* Data-bus cycles of a request. */
uint32_t dram_data_cycles(const struct dram_channel *ch, uint32_t bytes);
int dram_busy(const struct dram_channel *ch);
/* Earliest DRAM cycle >= now at which dram_cycle can issue or bind anything
 * (UINT64_MAX: nothing queued); returns do not count (see ch->ret). */
uint64_t dram_next_event(const struct dram_channel *ch, uint64_t now);

#endif
