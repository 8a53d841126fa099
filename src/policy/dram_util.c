/* dram_util.c: helpers shared by DRAM scheduling policies (dram_sched.h). */
#include "policy/dram/dram_sched.h"

int dram_pick_frfcfs(const struct dram_view *v)
{
    int hit = -1, any = -1;
    for (uint32_t i = 0; i < v->n; i++) {
        uint32_t b = v->bank[i];
        if (b >= v->n_banks || !v->bank_ready[b])
            continue;
        if (v->open_row[b] >= 0 && (uint64_t)v->open_row[b] == v->row[i]) {
            if (hit < 0 || v->arrival[i] < v->arrival[hit])
                hit = (int)i;
        } else if (any < 0 || v->arrival[i] < v->arrival[any]) {
            any = (int)i;
        }
    }
    return hit >= 0 ? hit : any;
}
