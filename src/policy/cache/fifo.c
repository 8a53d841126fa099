/* fifo.c: first-in first-out replacement (GPGPU-Sim 'F'): the victim is the
 * candidate inserted longest ago; hits do not change the order. */
#include "policy/cache/cache_policy.h"

#include "policy/stamp_util.h"

static int fifo_init(void *priv, const struct param_set *p, const struct cache_policy_init *in,
                     struct err *e)
{
    (void)p;
    (void)e;
    stamp_init(priv, in->sets, in->ways);
    return WS_OK;
}

static uint32_t fifo_victim(void *priv, uint32_t set, uint64_t candidates,
                            const struct cache_access *a)
{
    (void)a;
    return stamp_oldest(priv, set, candidates);
}

static void fifo_insert(void *priv, uint32_t set, uint32_t way, const struct cache_access *a)
{
    (void)a;
    stamp_touch(priv, set, way);
}

static void fifo_hit(void *priv, uint32_t set, uint32_t way, const struct cache_access *a)
{
    (void)priv;
    (void)set;
    (void)way;
    (void)a;
}

CACHE_POLICY(fifo, .desc = "first in, first out; hits do not reorder (GPGPU-Sim F)",
             .priv_size = stamp_priv_size, .init = fifo_init, .victim = fifo_victim,
             .on_insert = fifo_insert, .on_hit = fifo_hit);
