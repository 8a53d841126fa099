/* medic_reuse.c: MeDiC-reuse (Ausavarungnirun et al., HPCA 2016, Section
 * 6.4, Figure 16; SPEC-policies 7): MeDiC's L2 (warp-type bypass and
 * insertion, as the policy medic) with a Bloom filter of recently evicted
 * line addresses, the Evicted-Address Filter of Seshadri et al. (PACT 2012;
 * src/policy/evicted_filter.h), that overrides the bypass: a read of a
 * bypassing warp (mostly-miss or all-miss) whose line is in the filter was
 * evicted from the L2 too early, so it has high reuse and takes the L2
 * instead (bank queue, lookup, and a line on a miss).  The paper finds it
 * 16.1 % slower than MeDiC: MeDiC already keeps the high-reuse lines of
 * mostly-hit warps, and the filter's false positives let low-reuse lines in.
 * With sm.classifier=medic and dram.sched=wms this is the whole of
 * MeDiC-reuse.
 * [CHOICE]s (the paper gives one paragraph): only evicted lines enter the
 * filter, as in EAF (a bypassed read never had a line, so it does not); the
 * filter holds as many addresses as the slice has lines, bits_per_addr (8)
 * bits each, as the policy eaf; an overriding read is looked up at arrival
 * and again when its miss allocates (a clear in between leaves it without a
 * line, as a bypassed read); its line is inserted as a balanced warp's (at
 * MRU, the middle victim class of WIP: the filter says it is reused, its
 * warp's type says little else); the rest is the policy medic
 * (src/policy/medic_l2.h). */
#include "policy/cache/cache_policy.h"

#include "policy/evicted_filter.h"
#include "policy/medic_l2.h"
#include "policy/medic_tag.h"
#include "stats/stats.h"

/* After the medic_l2 block: this policy's own state. */
struct reuse_ext {
    uint64_t st_overrides;     /* bypassing reads sent through the L2 by the filter */
    uint64_t st_allocs;        /* lines allocated for them */
    /* then addr[sets * ways] (uint64_t) and the filter */
};

static const struct param_desc medic_reuse_params[] = {
    {"strict", PARAM_INT, "1",
     "1: victims by type class first, LRU within (SPEC 7.4); 0: LRU, type sets insertion only"},
    {"bits_per_addr", PARAM_INT, "8", "Bloom filter bits per tracked address (as eaf)"},
    {NULL, PARAM_INT, NULL, NULL},
};

static size_t base_size(uint32_t sets, uint32_t ways)
{
    return (medic_l2_size(sets, ways) + 7) / 8 * 8;
}

static struct reuse_ext *ext(void *priv)
{
    const struct medic_l2 *m = priv;
    return (struct reuse_ext *)((char *)priv + base_size(m->sets, m->ways));
}

static uint64_t *line_addr(void *priv)
{
    return (uint64_t *)(ext(priv) + 1);
}

static struct evicted_filter *filter(void *priv)
{
    const struct medic_l2 *m = priv;
    return (struct evicted_filter *)(line_addr(priv) + (size_t)m->sets * m->ways);
}

/* priv_size cannot see the parameters: room for up to 64 bits per address */
static size_t medic_reuse_size(uint32_t sets, uint32_t ways)
{
    uint64_t lines = (uint64_t)sets * ways;
    return base_size(sets, ways) + sizeof(struct reuse_ext) + lines * sizeof(uint64_t) +
           evicted_filter_size(lines, 64);
}

static int medic_reuse_init(void *priv, const struct param_set *p,
                            const struct cache_policy_init *in, struct err *e)
{
    int64_t per = param_int(p, "bits_per_addr");
    if (per < 1 || per > 64)
        return err_set(e, WS_ERR_INVALID, "policy 'medic_reuse': need 1 <= bits_per_addr <= 64");
    medic_l2_init(priv, in, 1, 1, param_int(p, "strict") != 0);
    struct reuse_ext *x = ext(priv);
    x->st_overrides = x->st_allocs = 0;
    uint64_t lines = (uint64_t)in->sets * in->ways;
    for (uint64_t i = 0; i < lines; i++)
        line_addr(priv)[i] = 0;
    evicted_filter_init(filter(priv), lines, (uint64_t)per);
    return WS_OK;
}

/* A bypassing warp's access whose line the filter says was evicted early. */
static int reused(void *priv, const struct cache_access *a)
{
    return (a->tag & MEDIC_TAG_BYPASS) && evicted_filter_test(filter(priv), a->line_addr);
}

static int medic_reuse_bypass(void *priv, uint32_t set, const struct cache_access *a)
{
    if (!medic_l2_bypass(priv, set, a))
        return 0;
    if (!reused(priv, a))
        return 1;
    ext(priv)->st_overrides++;
    return 0;
}

static uint32_t medic_reuse_place(void *priv, uint32_t set, uint64_t invalid, uint64_t valid,
                                  const struct cache_access *a)
{
    if (a->is_write || !reused(priv, a))
        return medic_l2_place(priv, set, invalid, valid, a);
    ext(priv)->st_allocs++;
    if (invalid)
        return (uint32_t)__builtin_ctzll(invalid);
    return medic_l2_victim(priv, set, valid, a);
}

static void medic_reuse_insert(void *priv, uint32_t set, uint32_t way,
                               const struct cache_access *a)
{
    const struct medic_l2 *m = priv;
    line_addr(priv)[(size_t)set * m->ways + way] = a->line_addr;
    struct cache_access b = *a;
    if (!a->is_write && reused(priv, a))
        b.tag = (a->tag & ~MEDIC_TYPE_MASK) | MEDIC_BALANCED;
    medic_l2_insert(priv, set, way, &b);
}

static void medic_reuse_evict(void *priv, uint32_t set, uint32_t way, int was_reused)
{
    (void)was_reused;
    const struct medic_l2 *m = priv;
    evicted_filter_add(filter(priv), line_addr(priv)[(size_t)set * m->ways + way]);
}

static void medic_reuse_stats(void *priv, struct stats *s, uint32_t n, size_t stride)
{
    medic_l2_stats(priv, s, n, stride);
    struct reuse_ext *x = ext(priv);
    stats_counter(s, "medic_reuse_overrides",
                  "reads of bypassing warps sent through the L2: line in the evicted-address "
                  "filter (MeDiC-reuse)",
                  &x->st_overrides, n, stride);
    stats_counter(s, "medic_reuse_allocs", "lines allocated for such reads (MeDiC-reuse)",
                  &x->st_allocs, n, stride);
    stats_counter(s, "medic_reuse_filter_clears", "times the filter filled up and was cleared",
                  &filter(priv)->clears, n, stride);
}

CACHE_POLICY(medic_reuse,
             .desc = "MeDiC L2 with an evicted-address filter overriding the bypass (MeDiC-reuse, "
                     "HPCA 2016)",
             .priv_size = medic_reuse_size, .params = medic_reuse_params,
             .init = medic_reuse_init, .victim = medic_l2_victim, .on_insert = medic_reuse_insert,
             .on_hit = medic_l2_hit, .on_evict = medic_reuse_evict, .place = medic_reuse_place,
             .bypass = medic_reuse_bypass, .stats = medic_reuse_stats);
