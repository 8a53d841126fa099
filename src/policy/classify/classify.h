/* classify.h: the request-classifier contract.  A classifier observes the
 * machine and decides the tag every memory request carries to the L1D, L2
 * and DRAM policies (struct cache_access.tag, struct dram_view.tag), e.g.
 * MeDiC's warp type or CAWA's criticality (SPEC-policies 7.1-7.2, 8.1).
 *
 * One classifier instance per SM, beside any warp scheduler.  It receives
 * through on_event() every struct sched_event its SM's schedulers receive
 * (issue, loads, L1D accesses and evictions, barriers, kernel start, and any
 * event the memory system adds later) with one difference: ev->slot is the
 * SM's warp slot (0 .. nslots-1; scheduler unit u sees SM slot s as its slot
 * s / n_units when s % n_units == u).  When a warp issues a memory
 * instruction that the LD/ST unit sends to the memory system (any space,
 * atomics included), the SM asks tag() for the tag its requests carry
 * (before the ISSUE event of that instruction).
 *
 * Schedulers see what the classifier publishes per warp: classify_publish()
 * writes a tag and a score (e.g. the criticality) for an SM slot into the
 * SM's board, which every scheduler reads as sched_view.warp_tag and
 * warp_score.  So a classifier combines with any scheduler (MeDiC with GTO,
 * CAWA's criticality with gCAWS or GTO).
 *
 * State lives in priv (priv_size bytes, zeroed, allocated by the core; no
 * malloc in a policy); per-kernel state may use the scratch area sized by
 * kernel_scratch().  A policy file includes only this header, params.h and
 * base/.
 *
 * Add a classifier: create src/policy/classify/NAME.c ending with
 *     CLASSIFY_POLICY(NAME, .desc = "...", .priv_size = ..., .tag = ...);
 * The build collects it; `--set sm.classifier=NAME[:k=v,...]` then works. */
#ifndef WS_POLICY_CLASSIFY_H
#define WS_POLICY_CLASSIFY_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "policy/params.h"
#include "policy/sched/sched.h"

struct stats;

/* The per-warp values of one SM that its schedulers read, owned by the SM:
 * unit-major arrays of n_units x SCHED_MAX_WARPS entries. */
struct classify_board {
    uint32_t n_units;
    uint32_t *tag;
    int64_t *score;
};

/* Publish the tag and score of SM slot `slot` for the schedulers. */
static inline void classify_publish(const struct classify_board *b, uint32_t slot, uint32_t tag,
                                    int64_t score)
{
    size_t i = (size_t)(slot % b->n_units) * SCHED_MAX_WARPS + slot / b->n_units;
    b->tag[i] = tag;
    b->score[i] = score;
}

struct classify_init {
    uint32_t nslots;  /* warp slots of the SM */
    uint32_t sm;      /* SM index */
    uint32_t n_units; /* scheduler units of the SM */
    const struct classify_board *board; /* where to publish (valid for the run) */
};

/* A memory instruction about to send its requests. */
struct classify_req {
    uint32_t slot;    /* SM warp slot */
    uint32_t pc;
    uint32_t cta;     /* CTA slot on the SM */
    uint64_t age;     /* dynamic warp id */
    uint8_t space;    /* enum ptx_space as resolved (generic: PTX_SPACE_NONE) */
    uint8_t is_store, is_atomic;
    uint32_t lanes;   /* lanes that access memory */
    uint64_t now;
};

struct classify_ops {
    const char *name;
    const char *desc;                 /* one line; cites the paper */
    size_t priv_size;
    const struct param_desc *params;  /* NULL-terminated, or NULL */
    int (*init)(void *priv, const struct param_set *p, const struct classify_init *in,
                struct err *e);                                  /* optional */
    uint32_t (*tag)(void *priv, const struct classify_req *r);  /* required */
    void (*on_event)(void *priv, const struct sched_event *ev); /* optional */
    uint32_t events; /* the kinds on_event reads (as sched_ops.events) */
    /* optional: bytes of per-kernel scratch (as sched_ops.kernel_scratch) */
    size_t (*kernel_scratch)(const void *priv, const struct sched_kernel *k);
    /* optional: register counters (names prefixed "classify_"); called once
     * with the first instance's priv, the instances of every SM `stride`
     * bytes apart (pass count = instances and stride to stats_counter()). */
    void (*stats)(void *priv, struct stats *s, uint32_t instances, size_t stride);
};

#define CLASSIFY_POLICY(id, ...)                                                         \
    const struct classify_ops classify_policy_##id = {.name = #id, __VA_ARGS__}

#endif
