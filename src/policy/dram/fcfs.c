/* fcfs.c: first-come first-served DRAM scheduling (GPGPU-Sim's FIFO
 * scheduler; the open-row FCFS memory of the Narasiman MICRO 2011 baseline,
 * SPEC-policies 6.4).  With blocking=1 (default) requests are served strictly
 * in arrival order: the oldest request is served once its bank is ready and
 * nothing else may pass it.  With blocking=0 the oldest request among the
 * ready banks is served. */
#include "policy/dram/dram_sched.h"

struct fcfs {
    int blocking;
};

static const struct param_desc fcfs_params[] = {
    {"blocking", PARAM_INT, "1",
     "1: head of line only (GPGPU-Sim FIFO); 0: oldest among bank-ready requests"},
    {NULL, PARAM_INT, NULL, NULL},
};

static int fcfs_init(void *priv, const struct param_set *p, uint32_t n_banks, struct err *e)
{
    struct fcfs *f = priv;
    (void)n_banks;
    int64_t b = param_int(p, "blocking");
    if (b != 0 && b != 1)
        return err_set(e, WS_ERR_INVALID,
                       "policy 'fcfs': parameter 'blocking' must be 0 or 1, got %lld",
                       (long long)b);
    f->blocking = (int)b;
    return WS_OK;
}

static int fcfs_bank_ready(const struct dram_view *v, uint32_t i)
{
    return v->bank[i] < v->n_banks && v->bank_ready[v->bank[i]];
}

static int fcfs_pick(void *priv, const struct dram_view *v)
{
    const struct fcfs *f = priv;
    int blocking = f ? f->blocking : 1;
    int best = -1;
    for (uint32_t i = 0; i < v->n; i++) {
        if (best >= 0 && v->arrival[i] >= v->arrival[best])
            continue;
        if (!blocking && !fcfs_bank_ready(v, i))
            continue;
        best = (int)i;
    }
    if (best >= 0 && !fcfs_bank_ready(v, (uint32_t)best))
        return -1;
    return best;
}

DRAM_POLICY(fcfs, .desc = "first come first served (GPGPU-Sim FIFO DRAM scheduler)",
            .priv_size = sizeof(struct fcfs), .params = fcfs_params, .init = fcfs_init,
            .pick = fcfs_pick);
