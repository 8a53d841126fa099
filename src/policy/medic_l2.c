/* medic_l2.c: MeDiC's L2 bypass and warp-type-aware insertion (see
 * medic_l2.h). */
#include "policy/medic_l2.h"

#include <string.h>

#include "base/log.h"
#include "policy/medic_tag.h"
#include "stats/stats.h"

static uint64_t *stamps(struct medic_l2 *m)
{
    return (uint64_t *)(m + 1);
}

static uint8_t *types(struct medic_l2 *m)
{
    return (uint8_t *)(stamps(m) + (size_t)m->sets * m->ways);
}

size_t medic_l2_size(uint32_t sets, uint32_t ways)
{
    return sizeof(struct medic_l2) + (size_t)sets * ways * (sizeof(uint64_t) + 1);
}

void medic_l2_init(struct medic_l2 *m, const struct cache_policy_init *in, int wip, int obey_tag,
                   int strict)
{
    memset(m, 0, medic_l2_size(in->sets, in->ways));
    m->sets = in->sets;
    m->ways = in->ways;
    m->wip = (uint8_t)(wip != 0);
    m->obey_tag = (uint8_t)(obey_tag != 0);
    m->strict = (uint8_t)(strict != 0);
    m->clock = m->low = MEDIC_L2_MID;
    m->st_bits = m->wip ? 2ull * in->sets * in->ways : 0;
}

/* The eviction class of a line (all lines one class without strict WIP). */
static uint32_t line_class(struct medic_l2 *m, size_t i)
{
    return m->wip && m->strict ? medic_class_of(types(m)[i]) : 1;
}

uint32_t medic_l2_victim(void *priv, uint32_t set, uint64_t candidates,
                         const struct cache_access *a)
{
    (void)a;
    struct medic_l2 *m = priv;
    if (m->ways < 64)
        candidates &= (1ull << m->ways) - 1;
    ws_assert(candidates != 0 && set < m->sets);
    size_t base = (size_t)set * m->ways;
    const uint64_t *st = stamps(m) + base;
    uint32_t best = UINT32_MAX, best_cls = 0;
    for (uint64_t c = candidates; c; c &= c - 1) {
        uint32_t w = (uint32_t)__builtin_ctzll(c);
        uint32_t cls = line_class(m, base + w);
        if (best == UINT32_MAX || cls < best_cls || (cls == best_cls && st[w] < st[best])) {
            best = w;
            best_cls = cls;
        }
    }
    m->st_victims[medic_class_of(types(m)[base + best])]++;
    return best;
}

void medic_l2_insert(void *priv, uint32_t set, uint32_t way, const struct cache_access *a)
{
    struct medic_l2 *m = priv;
    size_t i = (size_t)set * m->ways + way;
    uint32_t t = medic_type_of(a->tag);
    types(m)[i] = (uint8_t)t;
    if (m->wip && medic_class_of(t) == 0) {
        stamps(m)[i] = --m->low; /* LRU position */
        m->st_lru_inserts++;
    } else {
        stamps(m)[i] = ++m->clock;
    }
}

void medic_l2_hit(void *priv, uint32_t set, uint32_t way, const struct cache_access *a)
{
    (void)a;
    struct medic_l2 *m = priv;
    stamps(m)[(size_t)set * m->ways + way] = ++m->clock;
}

uint32_t medic_l2_place(void *priv, uint32_t set, uint64_t invalid, uint64_t valid,
                        const struct cache_access *a)
{
    struct medic_l2 *m = priv;
    if (m->obey_tag && (a->tag & (MEDIC_TAG_BYPASS | MEDIC_TAG_NOALLOC))) {
        m->st_noalloc++;
        return CACHE_NO_WAY;
    }
    if (invalid)
        return (uint32_t)__builtin_ctzll(invalid);
    return medic_l2_victim(priv, set, valid, a);
}

int medic_l2_bypass(void *priv, uint32_t set, const struct cache_access *a)
{
    (void)set;
    const struct medic_l2 *m = priv;
    return m->obey_tag && (a->tag & MEDIC_TAG_BYPASS) != 0;
}

void medic_l2_stats(void *priv, struct stats *s, uint32_t n, size_t stride)
{
    static const char *const cls[3] = {"mostly_miss", "balanced", "mostly_hit"};
    struct medic_l2 *m = priv;
    stats_counter(s, "medic_noalloc",
                  "misses refused a line by their tag (bypassing warp's write or atomic, "
                  "PCAL warp without token)",
                  &m->st_noalloc, n, stride);
    if (!m->wip)
        return;
    stats_counter(s, "wip_lru_inserts", "lines of mostly-miss warps inserted at LRU (WIP)",
                  &m->st_lru_inserts, n, stride);
    stats_counter(s, "wip_storage_bits", "type bits of every line, all slices (MeDiC Section 6.5)",
                  &m->st_bits, n, stride);
    stats_histogram(s, "wip_victims", "victims by the warp-type class of the line (WIP)",
                    m->st_victims, 3, cls, n, stride);
}
