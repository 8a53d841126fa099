/* dram_sched.h: the DRAM request-scheduler contract (per channel).
 *
 * Like Ramulator 2's schedulers, a policy only ranks: given a read-only
 * view of the pending requests of one bank-ready moment, it returns the index
 * of the request to serve next, or -1 to wait.  It must not change controller
 * state; the controller does the row commands and timing.
 *
 * Priority queues (MeDiC WMS, SPEC-policies 7.5): a policy may split the
 * channel's queue into N queues by request class.  queues() gives N and each
 * queue's capacity (it is told the configured dram_queue), queue_of() maps a
 * request's tag to its queue (0 = highest priority).  The controller then
 * calls pick() with a view of one queue at a time, highest priority first,
 * and binds the first request picked: a lower queue is served only when no
 * higher queue has a request pick() will serve now (e.g. all its banks are
 * busy).  Without queues() there is one queue of dram_queue requests.
 *
 * Add a policy: src/policy/dram/NAME.c ending with DRAM_POLICY(NAME, ...). */
#ifndef WS_POLICY_DRAM_SCHED_H
#define WS_POLICY_DRAM_SCHED_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "policy/params.h"

struct stats;

struct dram_view {
    uint32_t n;                 /* pending requests, in arrival order */
    const uint32_t *bank;       /* [n] */
    const uint32_t *row;        /* [n] */
    const uint64_t *arrival;    /* [n] cycle the request entered the queue */
    const uint8_t *is_write;    /* [n] */
    const uint32_t *tag;        /* [n] policy tag (MeDiC warp type) */
    const uint8_t *bank_ready;  /* [n_banks] bank can accept a command now */
    const int64_t *open_row;    /* [n_banks] open row, -1 if precharged */
    uint32_t n_banks;
    uint64_t now;
};

#define DRAM_MAX_QUEUES 8

struct dram_sched_ops {
    const char *name;
    const char *desc;
    size_t priv_size;
    const struct param_desc *params;
    int (*init)(void *priv, const struct param_set *p, uint32_t n_banks, struct err *e);
    int (*pick)(void *priv, const struct dram_view *v); /* required */
    /* optional, together: number of queues (1..DRAM_MAX_QUEUES) and cap[q] */
    uint32_t (*queues)(void *priv, uint32_t dram_queue, uint32_t *cap);
    uint32_t (*queue_of)(void *priv, uint32_t tag);
    /* optional: register the policy's counters, as the scheduler's stats hook
     * (sched.h): the channels' instances lie `stride` bytes apart; names are
     * registered under the prefix dram_ by the memory system. */
    void (*stats)(void *priv, struct stats *s, uint32_t instances, size_t stride);
};

#define DRAM_POLICY(id, ...)                                                             \
    const struct dram_sched_ops dram_policy_##id = {.name = #id, __VA_ARGS__}

/* Helpers shared by policies (src/policy/dram_util.c). */
/* FR-FCFS ranking over the view: the oldest row hit of a ready bank, else the
 * oldest request of a ready bank, else -1. */
int dram_pick_frfcfs(const struct dram_view *v);

#endif
