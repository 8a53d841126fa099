/* cache.c: tag array with reserve-on-miss state and MSHR table; replacement
 * through the configured cache policy. */
#include "timing/cache.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/log.h"
#include "policy/registry.h"

int cache_prepare(const struct cache_geometry *g, const struct cache_policy_ops **ops,
                  struct param_set *ps, const char *what, struct err *e)
{
    if (g->sets == 0 || g->assoc == 0 || g->line == 0)
        return err_set(e, WS_ERR_INVALID, "%s: sets, line and assoc must be positive", what);
    if (g->line & (g->line - 1))
        return err_set(e, WS_ERR_INVALID, "%s: line size %u is not a power of two", what,
                       g->line);
    if (g->assoc > 64)
        return err_set(e, WS_ERR_INVALID, "%s: associativity %u exceeds 64", what, g->assoc);
    if (registry_cache(g->policy, ops, ps, e) != WS_OK)
        return err_prefix(e, "%s.policy: ", what);
    return WS_OK;
}

size_t cache_priv_stride(const struct cache_geometry *g, const struct cache_policy_ops *ops)
{
    size_t psz = ops->priv_size ? ops->priv_size(g->sets, g->assoc) : 0;
    return (psz + 15) / 16 * 16 + (psz ? 0 : 16);
}

int cache_init(struct cache *c, const struct cache_geometry *g,
               const struct cache_policy_ops *ops, const struct param_set *ps, void *priv,
               uint32_t instance, const char *what, struct err *e)
{
    memset(c, 0, sizeof *c);
    c->ops = ops;
    c->sets = g->sets;
    c->assoc = g->assoc;
    c->index = strcmp(g->index, "ccws_hash") == 0 ? CACHE_INDEX_CCWS_HASH
               : strcmp(g->index, "fermi") == 0   ? CACHE_INDEX_FERMI
                                                  : CACHE_INDEX_LINEAR;
    while ((1u << c->line_shift) < g->line)
        c->line_shift++;
    size_t n = (size_t)g->sets * g->assoc;
    c->tag = xcalloc(n, sizeof *c->tag);
    c->state = xcalloc(n, 1);
    c->dirty = xcalloc(n, 1);
    c->reused = xcalloc(n, 1);
    c->owner_slot = xcalloc(n, sizeof *c->owner_slot);
    c->owner_age = xcalloc(n, sizeof *c->owner_age);
    c->fill_tag = xcalloc(n, sizeof *c->fill_tag);
    c->priv = priv;
    struct cache_policy_init in = {.sets = g->sets, .ways = g->assoc, .instance = instance,
                                   .seed = 0x5eed0000ull + instance};
    if (c->ops->init && c->ops->init(c->priv, ps, &in, e) != WS_OK) {
        cache_fini(c);
        return err_prefix(e, "%s.policy: ", what);
    }
    return WS_OK;
}

void cache_fini(struct cache *c)
{
    free(c->tag);
    free(c->state);
    free(c->dirty);
    free(c->reused);
    free(c->owner_slot);
    free(c->owner_age);
    free(c->fill_tag);
    memset(c, 0, sizeof *c);
}

int cache_probe(const struct cache *c, uint32_t set, uint64_t tag, uint32_t *way)
{
    size_t base = (size_t)set * c->assoc;
    for (uint32_t w = 0; w < c->assoc; w++) {
        if (c->state[base + w] != CACHE_INVALID && c->tag[base + w] == tag) {
            *way = w;
            return c->state[base + w] == CACHE_VALID ? CACHE_HIT : CACHE_HIT_RESERVED;
        }
    }
    return CACHE_MISS;
}

void cache_touch(struct cache *c, uint32_t set, uint32_t way, const struct cache_access *a)
{
    c->reused[(size_t)set * c->assoc + way] = 1;
    if (c->ops->on_hit)
        c->ops->on_hit(c->priv, set, way, a);
}

int cache_bypass(struct cache *c, uint32_t set, const struct cache_access *a)
{
    return c->ops->bypass ? c->ops->bypass(c->priv, set, a) : 0;
}

int cache_allocate(struct cache *c, uint32_t set, uint64_t tag, const struct cache_access *a,
                   uint32_t *way, struct cache_victim *v)
{
    size_t base = (size_t)set * c->assoc;
    uint64_t cand = 0, inval = 0;
    memset(v, 0, sizeof *v);
    for (uint32_t w = 0; w < c->assoc; w++) {
        uint8_t s = c->state[base + w];
        if (s == CACHE_INVALID)
            inval |= 1ull << w;
        if (s == CACHE_VALID)
            cand |= 1ull << w;
    }
    if (!inval && !cand)
        return CACHE_ALLOC_BUSY;
    uint32_t w;
    if (c->ops->place) {
        w = c->ops->place(c->priv, set, inval, cand, a);
        if (w == CACHE_NO_WAY)
            return CACHE_ALLOC_REFUSED;
        ws_assert(w < c->assoc && ((inval | cand) >> w & 1));
    } else if (inval) {
        w = (uint32_t)__builtin_ctzll(inval);
    } else {
        w = c->ops->victim(c->priv, set, cand, a);
        ws_assert(w < c->assoc && (cand >> w & 1));
    }
    if (cand >> w & 1) {
        size_t i = base + w;
        v->valid = 1;
        v->dirty = c->dirty[i];
        v->tag = c->tag[i];
        v->owner_slot = c->owner_slot[i];
        v->owner_age = c->owner_age[i];
        v->reused = c->reused[i];
        v->fill_tag = c->fill_tag[i];
        if (c->ops->on_evict)
            c->ops->on_evict(c->priv, set, w, c->reused[i]);
    }
    size_t i = base + w;
    c->tag[i] = tag;
    c->state[i] = CACHE_RESERVED;
    c->dirty[i] = 0;
    c->reused[i] = 0;
    c->owner_slot[i] = a->warp;
    c->owner_age[i] = a->warp_age;
    c->fill_tag[i] = a->tag;
    if (c->ops->on_insert)
        c->ops->on_insert(c->priv, set, w, a);
    *way = w;
    return 0;
}

void cache_fill(struct cache *c, uint32_t set, uint32_t way)
{
    size_t i = (size_t)set * c->assoc + way;
    ws_assert(c->state[i] == CACHE_RESERVED);
    c->state[i] = CACHE_VALID;
}

uint32_t cache_set_index(const struct cache *c, uint64_t line)
{
    /* with a power-of-two set count, % and / are a mask and a shift (three
     * 64-bit divisions per access otherwise) */
    uint64_t m = c->sets - 1;
    int pow2 = (c->sets & m) == 0;
    switch (c->index) {
    case CACHE_INDEX_CCWS_HASH:
        if (pow2)
            return (uint32_t)(((line & m) + 7 * (line >> __builtin_ctz(c->sets))) & m);
        return (uint32_t)((line % c->sets + 7 * (line / c->sets)) % c->sets);
    case CACHE_INDEX_FERMI: {
        uint64_t a = line << c->line_shift;
        uint32_t lower = (uint32_t)(line & 0x1f);
        uint32_t upper = (uint32_t)((a & 0xe000) >> 13 | (a & 0x20000) >> 14 | (a & 0x80000) >> 15);
        uint32_t set = lower ^ upper;
        if (c->sets == 64)
            set |= (uint32_t)((a & 0x1000) >> 7);
        return set;
    }
    default:
        return (uint32_t)(pow2 ? line & m : line % c->sets);
    }
}

uint64_t cache_invalidate_all(struct cache *c)
{
    uint64_t n = 0;
    for (uint32_t set = 0; set < c->sets; set++)
        for (uint32_t way = 0; way < c->assoc; way++)
            if (c->state[(size_t)set * c->assoc + way] == CACHE_VALID) {
                cache_invalidate(c, set, way);
                n++;
            }
    return n;
}

void cache_invalidate(struct cache *c, uint32_t set, uint32_t way)
{
    size_t i = (size_t)set * c->assoc + way;
    if (c->state[i] == CACHE_VALID && c->ops->on_evict)
        c->ops->on_evict(c->priv, set, way, c->reused[i]);
    c->state[i] = CACHE_INVALID;
    c->dirty[i] = 0;
}

void mshr_init(struct mshr_table *m, uint32_t entries, uint32_t max_merge)
{
    memset(m, 0, sizeof *m);
    m->entries = entries ? entries : 1;
    m->max_merge = max_merge ? max_merge : 1;
    m->line = xcalloc(m->entries, sizeof *m->line);
    m->valid = xcalloc(m->entries, 1);
    m->ntargets = xcalloc(m->entries, sizeof *m->ntargets);
    m->way = xcalloc(m->entries, sizeof *m->way);
    m->targets = xcalloc((size_t)m->entries * m->max_merge, sizeof *m->targets);
}

void mshr_fini(struct mshr_table *m)
{
    free(m->line);
    free(m->valid);
    free(m->ntargets);
    free(m->way);
    free(m->targets);
    memset(m, 0, sizeof *m);
}

int mshr_find(const struct mshr_table *m, uint64_t line)
{
    for (uint32_t i = 0; i < m->entries; i++)
        if (m->valid[i] && m->line[i] == line)
            return (int)i;
    return -1;
}

int mshr_full(const struct mshr_table *m) { return m->used == m->entries; }

uint32_t mshr_alloc(struct mshr_table *m, uint64_t line, uint32_t way)
{
    for (uint32_t i = 0; i < m->entries; i++) {
        if (!m->valid[i]) {
            m->valid[i] = 1;
            m->line[i] = line;
            m->way[i] = way;
            m->ntargets[i] = 0;
            m->used++;
            return i;
        }
    }
    panic("mshr_alloc on a full table");
}

void mshr_add(struct mshr_table *m, uint32_t i, uint32_t target)
{
    ws_assert(m->valid[i] && m->ntargets[i] < m->max_merge);
    m->targets[(size_t)i * m->max_merge + m->ntargets[i]++] = target;
}

void mshr_release(struct mshr_table *m, uint32_t i)
{
    ws_assert(m->valid[i]);
    m->valid[i] = 0;
    m->ntargets[i] = 0;
    m->used--;
}
