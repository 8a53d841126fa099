/* phase_census.c: warps per program phase at each timeline sample
 * (phase_census.h). */
#include "timing/phase_census.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "stats/stats.h"
#include "timing/engine.h"
#include "timing/sm.h"

void phase_census_init(struct phase_census *pc, struct stats *s, uint32_t ncols)
{
    memset(pc, 0, sizeof *pc);
    if (!ncols)
        return;
    pc->ncols = ncols;
    pc->warps = xcalloc(ncols, sizeof *pc->warps);
    for (uint32_t i = 0; i < ncols; i++) {
        char name[32];
        snprintf(name, sizeof name, "phase_warps_%u", i);
        stats_timeline_column(s, name, &pc->warps[i], 1, 0);
    }
}

void phase_census_take(struct phase_census *pc, const struct sm *sms, uint32_t nsms)
{
    if (!pc->ncols)
        return;
    memset(pc->warps, 0, pc->ncols * sizeof *pc->warps);
    for (uint32_t s = 0; s < nsms; s++) {
        const struct sm *sm = &sms[s];
        const struct timing_launch *L = sm->L;
        if (!L || !L->an->phases)
            continue;
        const struct ptx_func *f = &L->m->funcs[L->k->func];
        uint32_t base = L->an->pc[f->first_pc].phase;
        if (base == PTX_NO_INDEX)
            continue;
        for (uint32_t w = 0; w < sm->nslots; w++) {
            const struct sm_warp *sw = &sm->warps[w];
            if (!sw->valid || sw->done || sw->absorbed || sw->fpc >= L->m->ninsts)
                continue;
            uint32_t col = pc->ncols - 1; /* a called .func */
            if (sw->fpc >= f->first_pc && sw->fpc - f->first_pc < f->ninsts &&
                L->an->pc[sw->fpc].phase - base < col)
                col = L->an->pc[sw->fpc].phase - base;
            pc->warps[col]++;
        }
    }
}

void phase_census_free(struct phase_census *pc)
{
    free(pc->warps);
    memset(pc, 0, sizeof *pc);
}
