/* oldest.c: oldest-first (SPEC-policies 2.3; GPGPU-Sim's "oldest" ordering):
 * GTO without the greedy first entry, i.e. always the ready warp with the
 * smallest dynamic warp id. */
#include "policy/sched/sched.h"

static int oldest_pick(void *priv, const struct sched_view *v)
{
    (void)priv;
    return sched_oldest(v, v->ready & v->valid);
}

SCHED_POLICY(oldest, .desc = "oldest ready warp first (GPGPU-Sim oldest ordering)",
             .priv_size = 0, .pick = oldest_pick);
