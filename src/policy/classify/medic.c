/* medic.c: MeDiC warp-type identification (Ausavarungnirun, Ghose, Kayiran,
 * Loh, Das, Kandemir, Mutlu, "Exploiting Inter-Warp Heterogeneity to Improve
 * GPGPU Performance", HPCA 2016, Sections 3.1, 4.1, 4.2, 6.5; SPEC-policies
 * 7.1-7.3).
 *
 * Every warp slot keeps two 10-bit counters, its L2 hits and L2 accesses,
 * fed by SCHED_EV_L2_ACCESS.  When the access counter's most significant bit
 * becomes set (512) both counters shift right by one (Section 6.5).  Every
 * `epoch` cycles (100k, footnote 2) every warp's counters are cleared and the
 * warp re-enters profiling; after its first `profile` accesses (30) its type
 * is set from hits/accesses (Figure 4, Section 3.1): all-hit (every access
 * hit), mostly-hit (>= 70 %), balanced, mostly-miss (<= the boundary, 20 %
 * nominal), all-miss (no hit).  Every memory request carries the type in its
 * tag (src/policy/medic_tag.h), plus the bypass bit for a mostly-miss or
 * all-miss warp (WByp, Section 4.2): the L2 policies wbyp and wip and the DRAM
 * scheduler wms act on it.  The type and the hit ratio (per mille) are
 * published for the schedulers.
 *
 * Dynamic tuning (Section 4.2, footnote 3): the mostly-miss/balanced boundary
 * drops by 5 % for every 5 % the L2 miss rate rises.
 *
 * [CHOICE]s (SPEC 7.2-7.3; tests/policy/test_medic.c shows each):
 * - one counter pair per SM warp slot in this SM's classifier, updated by the
 *   lookups of every L2 slice (the paper keeps them in the warp's metadata);
 * - only reads count (a lookup with is_write set, a store or an atomic, does
 *   not): the hit ratio is that of the loads a warp waits for;
 * - the counters and type belong to the warp slot (the hardware warp whose
 *   metadata holds them): a warp that takes a slot inherits them until the
 *   next reset, and lookups of a slot's earlier warp still count
 *   (per_warp=0).  With per_warp=1 a new warp starts profiling with cleared
 *   counters and its predecessor's lookups are dropped.  Most warps of
 *   warpsim's workloads send fewer than 30 L2 reads in their lives: per warp
 *   they would never leave profiling;
 * - while profiling a warp's type is "unknown" (tag type 0), which every
 *   reader treats as balanced: no bypass, normal insertion, low DRAM priority;
 * - the type stays as set at the end of profiling until the next reset
 *   (retype=0, SPEC 7.2); retype=1 recomputes it after every later access
 *   (the counters keep counting and halving either way);
 * - exact boundaries: all-hit = every access hit, all-miss = none did,
 *   mostly-hit >= 70 %, mostly-miss <= boundary (both closed);
 * - the tuning compares each epoch's L2 read miss rate, as seen by this SM's
 *   warps, with the previous epoch's; each whole 5 % rise lowers the boundary
 *   by 5 %, each whole 5 % fall raises it, clamped to [0, nominal];
 * - a request carries the type its warp had when the instruction issued
 *   (the paper reads the warp's metadata as the request reaches the L2);
 * - the epoch clock is the core cycle; an epoch is noticed at the first
 *   event or request after it began. */
#include "policy/classify/classify.h"

#include <stdio.h>

#include "policy/medic_tag.h"
#include "stats/stats.h"

#define MEDIC_CTR_MSB 512u /* 10-bit counters: bit 9 set */
#define MEDIC_RATIO_BINS 11 /* [0,10) .. [90,100), 100 % */

struct medic_warp {
    uint64_t age;
    uint16_t hits, acc;  /* the 10-bit counters */
    uint8_t type;        /* enum medic_type; MEDIC_UNKNOWN while profiling */
    uint8_t typed;       /* profiling over */
    uint8_t last_type;   /* type of this warp in its previous epoch (0: none) */
};

struct medic {
    const struct classify_board *board;
    uint32_t nslots;
    uint64_t epoch_len;
    uint32_t profile, mh_pct, mm_nominal, bypass, tune, retype, step, per_warp;
    uint32_t mm_pct;      /* the tuned mostly-miss boundary */
    uint64_t epoch;       /* index of the current epoch */
    uint64_t ep_acc, ep_miss;   /* this epoch's read lookups and misses */
    uint64_t prev_pm;     /* previous epoch's miss rate, per mille */
    int have_prev;
    struct medic_warp w[4 * SCHED_MAX_WARPS];
    /* statistics */
    uint64_t st_types[MEDIC_TYPES];        /* warps typed, by type */
    uint64_t st_ratio[MEDIC_RATIO_BINS];   /* their hit ratios */
    uint64_t st_req[MEDIC_TYPES];          /* memory instructions, by tag type */
    uint64_t st_req_bypass;                /* loads tagged to bypass */
    uint64_t st_kept, st_changed;          /* typed again in a later epoch: same / other type */
    uint64_t st_down, st_up;               /* boundary moves */
    uint64_t st_resets;                    /* epochs that reset the counters */
    uint64_t st_bits;                      /* storage: 22 bits per warp slot */
};

static const struct param_desc medic_params[] = {
    {"epoch", PARAM_INT, "100000", "cycles between counter resets (MeDiC footnote 2: 100k)"},
    {"profile", PARAM_INT, "30", "accesses profiled after a reset before typing (Section 4.1)"},
    {"mostly_hit", PARAM_INT, "70", "mostly-hit at or above this hit % (Section 3.1)"},
    {"mostly_miss", PARAM_INT, "20", "mostly-miss at or below this hit %, nominal (Section 3.1)"},
    {"bypass", PARAM_INT, "1", "1: tag mostly-miss and all-miss warps to bypass the L2 (WByp)"},
    {"tune", PARAM_INT, "1", "1: tune the mostly-miss boundary by the L2 miss rate (footnote 3)"},
    {"step", PARAM_INT, "5", "tuning step, % of boundary per % of miss rate (footnote 3: 5)"},
    {"retype", PARAM_INT, "0", "1: re-type after every access once profiled (0: SPEC 7.2)"},
    {"per_warp", PARAM_INT, "0",
     "1: a new warp in a slot starts over (0: the counters belong to the slot)"},
    {NULL, PARAM_INT, NULL, NULL},
};

static int medic_init(void *priv, const struct param_set *p, const struct classify_init *in,
                      struct err *e)
{
    struct medic *m = priv;
    int64_t ep = param_int(p, "epoch"), pr = param_int(p, "profile");
    int64_t mh = param_int(p, "mostly_hit"), mm = param_int(p, "mostly_miss");
    int64_t st = param_int(p, "step");
    if (ep < 1 || pr < 1 || pr >= MEDIC_CTR_MSB || mh < 1 || mh > 100 || mm < 0 || mm >= mh ||
        st < 1 || st > 100)
        return err_set(e, WS_ERR_INVALID,
                       "policy 'medic': need epoch >= 1, 1 <= profile < %u, 0 <= mostly_miss < "
                       "mostly_hit <= 100, 1 <= step <= 100",
                       MEDIC_CTR_MSB);
    if (in->nslots > 4 * SCHED_MAX_WARPS)
        return err_set(e, WS_ERR_INVALID, "policy 'medic': at most %u warp slots per SM",
                       4 * SCHED_MAX_WARPS);
    m->board = in->board;
    m->nslots = in->nslots;
    m->epoch_len = (uint64_t)ep;
    m->profile = (uint32_t)pr;
    m->mh_pct = (uint32_t)mh;
    m->mm_nominal = m->mm_pct = (uint32_t)mm;
    m->bypass = param_int(p, "bypass") != 0;
    m->tune = param_int(p, "tune") != 0;
    m->retype = param_int(p, "retype") != 0;
    m->per_warp = param_int(p, "per_warp") != 0;
    m->step = (uint32_t)st;
    m->st_bits = 22u * in->nslots; /* two 10-bit counters and a 2-bit type (Section 6.5) */
    return WS_OK;
}

/* The type of hits out of acc accesses under boundary mm (percent). */
static uint8_t medic_type(const struct medic *m, uint32_t hits, uint32_t acc)
{
    if (acc == 0)
        return MEDIC_UNKNOWN;
    if (hits == acc)
        return MEDIC_ALL_HIT;
    if (hits == 0)
        return MEDIC_ALL_MISS;
    if (100u * hits >= m->mh_pct * acc)
        return MEDIC_MOSTLY_HIT;
    if (100u * hits <= m->mm_pct * acc)
        return MEDIC_MOSTLY_MISS;
    return MEDIC_BALANCED;
}

static uint32_t medic_tag_of(const struct medic *m, const struct medic_warp *w)
{
    uint32_t tag = w->type;
    if (m->bypass && (w->type == MEDIC_MOSTLY_MISS || w->type == MEDIC_ALL_MISS))
        tag |= MEDIC_TAG_BYPASS;
    return tag;
}

static void medic_publish(const struct medic *m, uint32_t slot)
{
    const struct medic_warp *w = &m->w[slot];
    int64_t score = w->acc ? (int64_t)(1000u * w->hits / w->acc) : -1;
    classify_publish(m->board, slot, medic_tag_of(m, w), score);
}

/* The boundary after an epoch whose read miss rate was ep_miss / ep_acc. */
static void medic_tune(struct medic *m)
{
    if (!m->ep_acc)
        return;
    uint64_t pm = 1000u * m->ep_miss / m->ep_acc;
    if (m->tune && m->have_prev) {
        int64_t delta = (int64_t)pm - (int64_t)m->prev_pm; /* per mille */
        int64_t steps = delta / (int64_t)(10 * m->step);  /* whole steps, toward zero */
        int64_t b = (int64_t)m->mm_pct - steps * (int64_t)m->step;
        if (b < 0)
            b = 0;
        if (b > (int64_t)m->mm_nominal)
            b = m->mm_nominal;
        if ((uint32_t)b < m->mm_pct)
            m->st_down++;
        else if ((uint32_t)b > m->mm_pct)
            m->st_up++;
        m->mm_pct = (uint32_t)b;
    }
    m->prev_pm = pm;
    m->have_prev = 1;
    m->ep_acc = m->ep_miss = 0;
}

/* Start a new epoch if `now` lies beyond the current one: tune, then clear
 * every warp's counters and profile again. */
static void medic_clock(struct medic *m, uint64_t now)
{
    uint64_t ep = now / m->epoch_len;
    if (ep == m->epoch)
        return;
    m->epoch = ep;
    medic_tune(m);
    m->st_resets++;
    for (uint32_t s = 0; s < m->nslots; s++) {
        struct medic_warp *w = &m->w[s];
        if (w->typed)
            w->last_type = w->type;
        w->hits = w->acc = 0;
        w->type = MEDIC_UNKNOWN;
        w->typed = 0;
        medic_publish(m, s);
    }
}

static void medic_count_type(struct medic *m, struct medic_warp *w)
{
    m->st_types[w->type]++;
    uint32_t bin = w->hits == w->acc ? MEDIC_RATIO_BINS - 1 : 10u * w->hits / w->acc;
    m->st_ratio[bin]++;
    if (w->last_type && w->last_type == w->type)
        m->st_kept++;
    else if (w->last_type)
        m->st_changed++;
}

static void medic_access(struct medic *m, const struct sched_event *ev)
{
    if (ev->slot < 0 || (uint32_t)ev->slot >= m->nslots || ev->is_write)
        return;
    m->ep_acc++;
    m->ep_miss += !ev->hit;
    struct medic_warp *w = &m->w[ev->slot];
    if (m->per_warp && w->age != ev->age)
        return; /* the warp that sent it has left the slot */
    w->hits += ev->hit ? 1u : 0u;
    w->acc++;
    if (w->acc & MEDIC_CTR_MSB) {
        w->acc >>= 1;
        w->hits >>= 1;
    }
    if (!w->typed && w->acc >= m->profile) {
        w->typed = 1;
        w->type = medic_type(m, w->hits, w->acc);
        medic_count_type(m, w);
    } else if (w->typed && m->retype) {
        w->type = medic_type(m, w->hits, w->acc);
    }
    medic_publish(m, (uint32_t)ev->slot);
}

/* The event kinds medic_event reads. */
enum { MEDIC_EVENTS = SCHED_EV_BIT(SCHED_EV_WARP_LAUNCH) | SCHED_EV_BIT(SCHED_EV_L2_ACCESS) };

static void medic_event(void *priv, const struct sched_event *ev)
{
    struct medic *m = priv;
    medic_clock(m, ev->now);
    if (ev->kind == SCHED_EV_WARP_LAUNCH && ev->slot >= 0 && (uint32_t)ev->slot < m->nslots) {
        struct medic_warp *w = &m->w[ev->slot];
        if (m->per_warp)
            *w = (struct medic_warp){.age = ev->age};
        medic_publish(m, (uint32_t)ev->slot);
    } else if (ev->kind == SCHED_EV_L2_ACCESS) {
        medic_access(m, ev);
    }
}

static uint32_t medic_tag(void *priv, const struct classify_req *r)
{
    struct medic *m = priv;
    medic_clock(m, r->now);
    if (r->slot >= m->nslots)
        return MEDIC_UNKNOWN;
    uint32_t tag = medic_tag_of(m, &m->w[r->slot]);
    m->st_req[tag & MEDIC_TYPE_MASK]++;
    m->st_req_bypass += (tag & MEDIC_TAG_BYPASS) && !r->is_store && !r->is_atomic;
    return tag;
}

static void medic_stats(void *priv, struct stats *s, uint32_t n, size_t stride)
{
    static const char *const types[MEDIC_TYPES] = {"unknown",  "all_hit",     "mostly_hit",
                                                    "balanced", "mostly_miss", "all_miss"};
    static const char *const ratio[MEDIC_RATIO_BINS] = {
        "0-10", "10-20", "20-30", "30-40", "40-50", "50-60", "60-70", "70-80", "80-90", "90-100",
        "100"};
    struct medic *m = priv;
    for (uint32_t t = 1; t < MEDIC_TYPES; t++) {
        char name[64];
        snprintf(name, sizeof name, "classify_medic_warps_%s", types[t]);
        stats_counter(s, name, "warps typed so at the end of profiling (once per warp and epoch)",
                      &m->st_types[t], n, stride);
    }
    stats_histogram(s, "classify_medic_hit_ratio",
                    "L2 read hit ratio of the warps typed, in 10 % bins (MeDiC Fig. 3)",
                    m->st_ratio, MEDIC_RATIO_BINS, ratio, n, stride);
    stats_histogram(s, "classify_medic_req_types",
                    "memory instructions by the warp type their requests carry", m->st_req,
                    MEDIC_TYPES, types, n, stride);
    stats_counter(s, "classify_medic_req_bypass",
                  "loads (not stores, not atomics) whose requests carry the bypass bit", &m->st_req_bypass, n,
                  stride);
    stats_counter(s, "classify_medic_type_kept",
                  "warps typed again after a reset with the type of their previous epoch",
                  &m->st_kept, n, stride);
    stats_counter(s, "classify_medic_type_changed",
                  "warps typed again after a reset with another type (MeDiC Fig. 6)",
                  &m->st_changed, n, stride);
    stats_counter(s, "classify_medic_boundary_down",
                  "epochs whose miss-rate rise lowered the mostly-miss boundary", &m->st_down, n,
                  stride);
    stats_counter(s, "classify_medic_boundary_up",
                  "epochs whose miss-rate fall raised the mostly-miss boundary", &m->st_up, n,
                  stride);
    stats_counter(s, "classify_medic_storage_bits",
                  "per-warp state: 22 bits per warp slot, all SMs (MeDiC Section 6.5)",
                  &m->st_bits, n, stride);
    stats_counter(s, "classify_medic_resets", "epochs that cleared the counters (per SM)",
                  &m->st_resets, n, stride);
}

CLASSIFY_POLICY(medic,
                .desc = "MeDiC warp types from per-warp L2 hit ratios (Ausavarungnirun HPCA 2016)",
                .priv_size = sizeof(struct medic), .params = medic_params, .init = medic_init,
                .tag = medic_tag, .on_event = medic_event,
                .events = MEDIC_EVENTS, .stats = medic_stats);
