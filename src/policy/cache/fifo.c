/* fifo.c: first-in first-out replacement (GPGPU-Sim 'F'): the victim is the
 * candidate inserted longest ago; hits do not change the order. */
#include "policy/cache/cache_policy.h"

#include <string.h>

#include "base/log.h"

struct fifo {
    uint32_t sets, ways;
    uint64_t clock;
    uint64_t stamp[]; /* [sets * ways] insertion time */
};

static size_t fifo_priv_size(uint32_t sets, uint32_t ways)
{
    return sizeof(struct fifo) + (size_t)sets * ways * sizeof(uint64_t);
}

static int fifo_init(void *priv, const struct param_set *p, const struct cache_policy_init *in,
                     struct err *e)
{
    struct fifo *f = priv;
    (void)p;
    (void)e;
    memset(f, 0, fifo_priv_size(in->sets, in->ways));
    f->sets = in->sets;
    f->ways = in->ways;
    return WS_OK;
}

static uint32_t fifo_victim(void *priv, uint32_t set, uint64_t candidates,
                            const struct cache_access *a)
{
    struct fifo *f = priv;
    (void)a;
    if (f->ways < 64)
        candidates &= (1ull << f->ways) - 1;
    ws_assert(candidates != 0 && set < f->sets);
    const uint64_t *st = f->stamp + (size_t)set * f->ways;
    uint32_t best = (uint32_t)__builtin_ctzll(candidates);
    for (uint64_t c = candidates & (candidates - 1); c; c &= c - 1) {
        uint32_t w = (uint32_t)__builtin_ctzll(c);
        if (st[w] < st[best])
            best = w;
    }
    return best;
}

static void fifo_insert(void *priv, uint32_t set, uint32_t way, const struct cache_access *a)
{
    struct fifo *f = priv;
    (void)a;
    f->stamp[(size_t)set * f->ways + way] = ++f->clock;
}

static void fifo_hit(void *priv, uint32_t set, uint32_t way, const struct cache_access *a)
{
    (void)priv;
    (void)set;
    (void)way;
    (void)a;
}

CACHE_POLICY(fifo, .desc = "first in, first out; hits do not reorder (GPGPU-Sim F)",
             .priv_size = fifo_priv_size, .init = fifo_init, .victim = fifo_victim,
             .on_insert = fifo_insert, .on_hit = fifo_hit);
