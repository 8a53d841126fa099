/* rand_byp.c: Rand, MeDiC's random-bypass comparison point
 * (Ausavarungnirun et al., HPCA 2016, Section 5; SPEC-policies 7.7): every
 * 100k cycles a fixed percentage of randomly chosen warps is picked, and
 * their requests carry the bypass bit (use with l2.policy=wbyp).  The paper
 * tunes the percentage per workload (an ideal upper bound); here it is the
 * parameter pct.
 * [CHOICE]s: the choice is per SM, of round(pct x slots / 100) warp slots
 * drawn without replacement (a warp that later takes a chosen slot bypasses
 * too); the draw is an xorshift generator seeded from seed and the SM index,
 * advanced once per epoch, so runs are deterministic. */
#include "policy/classify/classify.h"

#include "policy/medic_tag.h"
#include "stats/stats.h"

struct rbyp {
    uint32_t nslots, pct, chosen_n;
    uint64_t epoch_len, epoch, rng;
    int drawn;
    uint8_t chosen[4 * SCHED_MAX_WARPS];
    uint64_t st_bypass;
};

static const struct param_desc rbyp_params[] = {
    {"pct", PARAM_INT, "50", "percent of warps that bypass the L2 (MeDiC tunes it per workload)"},
    {"epoch", PARAM_INT, "100000", "cycles between new draws (MeDiC Section 5: 100k)"},
    {"seed", PARAM_INT, "1", "random seed"},
    {NULL, PARAM_INT, NULL, NULL},
};

static int rbyp_init(void *priv, const struct param_set *p, const struct classify_init *in,
                     struct err *e)
{
    struct rbyp *m = priv;
    int64_t pct = param_int(p, "pct"), ep = param_int(p, "epoch");
    if (pct < 0 || pct > 100 || ep < 1)
        return err_set(e, WS_ERR_INVALID, "policy 'rand_byp': need 0 <= pct <= 100, epoch >= 1");
    if (in->nslots > 4 * SCHED_MAX_WARPS)
        return err_set(e, WS_ERR_INVALID, "policy 'rand_byp': at most %u warp slots per SM",
                       4 * SCHED_MAX_WARPS);
    m->nslots = in->nslots;
    m->pct = (uint32_t)pct;
    m->chosen_n = (m->pct * in->nslots + 50) / 100;
    m->epoch_len = (uint64_t)ep;
    m->rng = ((uint64_t)param_int(p, "seed") * 0x9e3779b97f4a7c15ull) ^ (in->sm + 1) * 0xbf58476d1ce4e5b9ull;
    m->rng |= 1;
    return WS_OK;
}

static uint64_t rbyp_next(struct rbyp *m)
{
    m->rng ^= m->rng << 13;
    m->rng ^= m->rng >> 7;
    m->rng ^= m->rng << 17;
    return m->rng;
}

/* Draw chosen_n slots of nslots (partial Fisher-Yates). */
static void rbyp_draw(struct rbyp *m)
{
    uint32_t order[4 * SCHED_MAX_WARPS];
    for (uint32_t s = 0; s < m->nslots; s++) {
        order[s] = s;
        m->chosen[s] = 0;
    }
    for (uint32_t i = 0; i < m->chosen_n; i++) {
        uint32_t j = i + (uint32_t)(rbyp_next(m) % (m->nslots - i));
        uint32_t t = order[i];
        order[i] = order[j];
        order[j] = t;
        m->chosen[order[i]] = 1;
    }
}

static uint32_t rbyp_tag(void *priv, const struct classify_req *r)
{
    struct rbyp *m = priv;
    uint64_t ep = r->now / m->epoch_len;
    if (!m->drawn || ep != m->epoch) {
        m->drawn = 1;
        m->epoch = ep;
        rbyp_draw(m);
    }
    if (r->slot >= m->nslots || !m->chosen[r->slot])
        return MEDIC_UNKNOWN;
    m->st_bypass += !r->is_store && !r->is_atomic;
    return MEDIC_TAG_BYPASS;
}

static void rbyp_stats(void *priv, struct stats *s, uint32_t n, size_t stride)
{
    struct rbyp *m = priv;
    stats_counter(s, "classify_rand_byp_loads", "loads of the chosen warps (tagged to bypass)",
                  &m->st_bypass, n, stride);
}

CLASSIFY_POLICY(rand_byp, .desc = "Rand: a random pct of warps bypasses the L2 (MeDiC's Rand)",
                .priv_size = sizeof(struct rbyp), .params = rbyp_params, .init = rbyp_init,
                .tag = rbyp_tag, .stats = rbyp_stats);
