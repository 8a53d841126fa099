/* gto.c: greedy-then-oldest (SPEC-policies 2.2; GPGPU-Sim "gto", used as the
 * baseline by Rogers et al. MICRO 2012/2013).  The last warp that issued keeps
 * priority while it is ready; otherwise the oldest ready warp (smallest
 * dynamic warp id) issues. */
#include "policy/sched/sched.h"

static int gto_pick(void *priv, const struct sched_view *v)
{
    (void)priv;
    uint64_t ready = v->ready & v->valid;
    if (v->last_issued >= 0 && v->last_issued < 64 && (ready >> v->last_issued & 1))
        return v->last_issued;
    return sched_oldest(v, ready);
}

SCHED_POLICY(gto, .desc = "greedy then oldest: keep the last issued warp, else the oldest ready "
                          "(GPGPU-Sim gto; Rogers MICRO 2012)",
             .priv_size = 0, .pick = gto_pick);
