/* pcal.c: PCAL, priority-based cache allocation with tokens (Li et al.,
 * "Priority-Based Cache Allocation in Throughput Processors", HPCA 2015;
 * SPEC-policies 9.3), as
 * MeDiC models it at the shared L2 (Ausavarungnirun et al., HPCA 2016,
 * Section 5; SPEC 7.7): a warp without a token may hit in the L2, but its
 * misses do not allocate (its requests carry MEDIC_TAG_NOALLOC, which the L2
 * policies wbyp, wip:bypass=1 and medic obey).  Tokens go first to warps
 * that used the cache recently, then to warps in order of arrival.
 * [CHOICE]s: `tokens` tokens per SM (MeDiC sweeps the count); a warp that
 * issues a memory instruction while a token is free takes it (order of
 * arrival); a holder keeps its token while it used the L2 in the last epoch
 * (100k cycles) and gives it back when it did not, or when it exits; there
 * is no warp throttling (MeDiC's PCAL is the token part only). */
#include "policy/classify/classify.h"

#include "policy/medic_tag.h"
#include "stats/stats.h"

struct pcal_warp {
    uint64_t age;
    uint8_t token, used;
};

struct pcal {
    uint32_t nslots, tokens, free_tokens;
    uint64_t epoch_len, epoch;
    struct pcal_warp w[4 * SCHED_MAX_WARPS];
    uint64_t st_grants, st_noalloc;
};

static const struct param_desc pcal_params[] = {
    {"tokens", PARAM_INT, "8", "tokens per SM: warps whose L2 misses allocate (swept in MeDiC)"},
    {"epoch", PARAM_INT, "100000", "cycles between reclaiming tokens of warps that did not use "
                                   "the L2 ([CHOICE])"},
    {NULL, PARAM_INT, NULL, NULL},
};

static int pcal_init(void *priv, const struct param_set *p, const struct classify_init *in,
                     struct err *e)
{
    struct pcal *m = priv;
    int64_t t = param_int(p, "tokens"), ep = param_int(p, "epoch");
    if (t < 0 || ep < 1)
        return err_set(e, WS_ERR_INVALID, "policy 'pcal': need tokens >= 0 and epoch >= 1");
    if (in->nslots > 4 * SCHED_MAX_WARPS)
        return err_set(e, WS_ERR_INVALID, "policy 'pcal': at most %u warp slots per SM",
                       4 * SCHED_MAX_WARPS);
    m->nslots = in->nslots;
    m->tokens = m->free_tokens = (uint32_t)t;
    m->epoch_len = (uint64_t)ep;
    return WS_OK;
}

static void pcal_release(struct pcal *m, struct pcal_warp *w)
{
    if (w->token) {
        w->token = 0;
        m->free_tokens++;
    }
}

static void pcal_clock(struct pcal *m, uint64_t now)
{
    uint64_t ep = now / m->epoch_len;
    if (ep == m->epoch)
        return;
    m->epoch = ep;
    for (uint32_t s = 0; s < m->nslots; s++) {
        struct pcal_warp *w = &m->w[s];
        if (!w->used)
            pcal_release(m, w);
        w->used = 0;
    }
}

/* The event kinds pcal_event reads. */
enum {
    PCAL_EVENTS =
        SCHED_EV_BIT(SCHED_EV_WARP_LAUNCH) | SCHED_EV_BIT(SCHED_EV_WARP_EXIT) |
        SCHED_EV_BIT(SCHED_EV_L2_ACCESS)
};

static void pcal_event(void *priv, const struct sched_event *ev)
{
    struct pcal *m = priv;
    pcal_clock(m, ev->now);
    if (ev->slot < 0 || (uint32_t)ev->slot >= m->nslots)
        return;
    struct pcal_warp *w = &m->w[ev->slot];
    if (ev->kind == SCHED_EV_WARP_LAUNCH || ev->kind == SCHED_EV_WARP_EXIT) {
        pcal_release(m, w);
        *w = (struct pcal_warp){.age = ev->age};
    } else if (ev->kind == SCHED_EV_L2_ACCESS && ev->age == w->age) {
        w->used = 1;
    }
}

static uint32_t pcal_tag(void *priv, const struct classify_req *r)
{
    struct pcal *m = priv;
    pcal_clock(m, r->now);
    if (r->slot >= m->nslots)
        return MEDIC_TAG_NOALLOC;
    struct pcal_warp *w = &m->w[r->slot];
    if (!w->token && m->free_tokens) {
        w->token = 1;
        m->free_tokens--;
        m->st_grants++;
    }
    if (w->token)
        return MEDIC_UNKNOWN;
    m->st_noalloc++;
    return MEDIC_TAG_NOALLOC;
}

static void pcal_stats(void *priv, struct stats *s, uint32_t n, size_t stride)
{
    struct pcal *m = priv;
    stats_counter(s, "classify_pcal_grants", "tokens granted", &m->st_grants, n, stride);
    stats_counter(s, "classify_pcal_noalloc",
                  "memory instructions of warps without a token (misses do not allocate)",
                  &m->st_noalloc, n, stride);
}

CLASSIFY_POLICY(pcal, .desc = "PCAL tokens at the L2: only holders' misses allocate (Li HPCA 2015)",
                .priv_size = sizeof(struct pcal), .params = pcal_params, .init = pcal_init,
                .tag = pcal_tag, .on_event = pcal_event,
                .events = PCAL_EVENTS, .stats = pcal_stats);
