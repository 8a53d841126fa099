/* lrr.c: loose round robin (SPEC-policies 2.1, GPGPU-Sim "lrr").  The
 * candidate order starts at the warp after the last one this unit issued and
 * wraps around; unready warps are skipped ("loose", Narasiman MICRO 2011
 * slides).  When nothing issues, last_issued does not move, so the next cycle
 * starts from the same place. */
#include "policy/sched/sched.h"

static int lrr_pick(void *priv, const struct sched_view *v)
{
    (void)priv;
    uint32_t start = v->last_issued < 0 ? 0 : (uint32_t)v->last_issued + 1;
    return sched_round_robin(v->ready & v->valid, v->nslots, start);
}

SCHED_POLICY(lrr, .desc = "loose round robin from the warp after the last issued (GPGPU-Sim lrr)",
             .priv_size = 0, .pick = lrr_pick);
