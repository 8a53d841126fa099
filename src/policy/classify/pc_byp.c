/* pc_byp.c: PC-Byp, MeDiC's PC-based bypass comparison point
 * (Ausavarungnirun et al., HPCA 2016, Section 5; SPEC-policies 7.7): the L2
 * hit ratio is tracked per static load instruction instead of per warp, with
 * MeDiC's counters (10 bits, halving at 512, reset and 30 profiled accesses
 * every 100k cycles); the requests of a load whose ratio is at most 20 %
 * (mostly-miss or all-miss) carry the bypass bit (use with
 * l2.policy=wbyp).  The paper notes that two PCs can hash to one entry.
 * [CHOICE]s: a table of `entries` (64) counter pairs per SM indexed by
 * PC modulo entries; only reads count (as medic.c); the decision stays as set
 * at the end of profiling until the next reset. */
#include "policy/classify/classify.h"

#include "policy/medic_tag.h"
#include "stats/stats.h"

#define PCB_MAX 4096
#define PCB_MSB 512u

struct pcb_entry {
    uint16_t hits, acc;
    uint8_t typed, bypass;
};

struct pcb {
    uint32_t entries, profile, mm_pct;
    uint64_t epoch_len, epoch;
    struct pcb_entry e[PCB_MAX];
    uint64_t st_bypass, st_typed_bypass, st_typed;
};

static const struct param_desc pcb_params[] = {
    {"entries", PARAM_INT, "64", "PC-indexed counter pairs per SM ([CHOICE])"},
    {"epoch", PARAM_INT, "100000", "cycles between resets (as MeDiC)"},
    {"profile", PARAM_INT, "30", "accesses profiled after a reset (as MeDiC)"},
    {"mostly_miss", PARAM_INT, "20", "bypass at or below this hit % (as MeDiC)"},
    {NULL, PARAM_INT, NULL, NULL},
};

static int pcb_init(void *priv, const struct param_set *p, const struct classify_init *in,
                    struct err *e)
{
    (void)in;
    struct pcb *m = priv;
    int64_t n = param_int(p, "entries"), ep = param_int(p, "epoch");
    int64_t pr = param_int(p, "profile"), mm = param_int(p, "mostly_miss");
    if (n < 1 || n > PCB_MAX || ep < 1 || pr < 1 || pr >= PCB_MSB || mm < 0 || mm > 100)
        return err_set(e, WS_ERR_INVALID,
                       "policy 'pc_byp': need 1 <= entries <= %u, epoch >= 1, 1 <= profile < "
                       "%u, 0 <= mostly_miss <= 100",
                       PCB_MAX, PCB_MSB);
    m->entries = (uint32_t)n;
    m->epoch_len = (uint64_t)ep;
    m->profile = (uint32_t)pr;
    m->mm_pct = (uint32_t)mm;
    return WS_OK;
}

static void pcb_clock(struct pcb *m, uint64_t now)
{
    uint64_t ep = now / m->epoch_len;
    if (ep == m->epoch)
        return;
    m->epoch = ep;
    for (uint32_t i = 0; i < m->entries; i++)
        m->e[i] = (struct pcb_entry){0};
}

/* The event kinds pcb_event reads. */
enum { PCB_EVENTS = SCHED_EV_BIT(SCHED_EV_L2_ACCESS) };

static void pcb_event(void *priv, const struct sched_event *ev)
{
    struct pcb *m = priv;
    pcb_clock(m, ev->now);
    if (ev->kind != SCHED_EV_L2_ACCESS || ev->is_write)
        return;
    struct pcb_entry *x = &m->e[ev->pc % m->entries];
    x->hits += ev->hit ? 1u : 0u;
    x->acc++;
    if (x->acc & PCB_MSB) {
        x->acc >>= 1;
        x->hits >>= 1;
    }
    if (!x->typed && x->acc >= m->profile) {
        x->typed = 1;
        x->bypass = 100u * x->hits <= m->mm_pct * x->acc;
        m->st_typed++;
        m->st_typed_bypass += x->bypass;
    }
}

static uint32_t pcb_tag(void *priv, const struct classify_req *r)
{
    struct pcb *m = priv;
    pcb_clock(m, r->now);
    if (!m->e[r->pc % m->entries].bypass)
        return MEDIC_UNKNOWN;
    m->st_bypass += !r->is_store && !r->is_atomic;
    return MEDIC_TAG_BYPASS;
}

static void pcb_stats(void *priv, struct stats *s, uint32_t n, size_t stride)
{
    struct pcb *m = priv;
    stats_counter(s, "classify_pc_byp_loads", "loads tagged to bypass (their PC mostly misses)",
                  &m->st_bypass, n, stride);
    stats_counter(s, "classify_pc_byp_typed", "table entries that finished profiling",
                  &m->st_typed, n, stride);
    stats_counter(s, "classify_pc_byp_typed_bypass", "... and were found to mostly miss",
                  &m->st_typed_bypass, n, stride);
}

CLASSIFY_POLICY(pc_byp, .desc = "PC-Byp: loads whose PC mostly misses bypass the L2 (MeDiC's PC-Byp)",
                .priv_size = sizeof(struct pcb), .params = pcb_params, .init = pcb_init,
                .tag = pcb_tag, .on_event = pcb_event, .events = PCB_EVENTS, .stats = pcb_stats);
