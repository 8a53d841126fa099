/* sched_util.c: mask helpers shared by the warp schedulers (sched.h). */
#include "policy/sched/sched.h"

int sched_oldest(const struct sched_view *v, uint64_t set)
{
    int best = -1;
    uint64_t best_age = UINT64_MAX;
    if (v->nslots < 64)
        set &= (1ull << v->nslots) - 1;
    while (set) {
        int s = __builtin_ctzll(set);
        set &= set - 1;
        if (best < 0 || v->age[s] < best_age) {
            best = s;
            best_age = v->age[s];
        }
    }
    return best;
}

int sched_round_robin(uint64_t set, uint32_t nslots, uint32_t start)
{
    if (nslots < 64)
        set &= (1ull << nslots) - 1;
    if (!set)
        return -1;
    if (nslots)
        start %= nslots;
    uint64_t upper = start < 64 ? set & (~0ull << start) : 0;
    return __builtin_ctzll(upper ? upper : set);
}
