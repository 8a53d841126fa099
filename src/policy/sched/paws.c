/* paws.c: single-level Phase-aware warp scheduling (Awatramani, Zhu,
 * Zambreno, Rover, "Phase Aware Warp Scheduling: Mitigating Effects of Phase
 * Behavior in GPGPU Applications", PACT 2015; SPEC-policies 5.2).
 *
 * Every ready warp is a candidate (single level).  The warp whose next
 * instruction has the smallest phase distance (cycles to the end of its
 * phase, src/analysis/phase.h, saturating at 512 as the paper's 9-bit opcode
 * extension) issues; ties go to the oldest warp (smallest dynamic warp id).
 * Distances come from the kernel's facts (sched_kernel.phase: the SM's
 * issue-to-writeback latencies, long-latency instructions at their issue
 * cost [CHOICE, SPEC 5.1]).  Before the first kernel starts, or for a PC
 * outside the table, a warp counts as 512 (the farthest). */
#include "policy/sched/sched.h"

#include "analysis/phase.h"
#include "ptx/ir.h"

struct paws {
    const struct pc_phase *phase; /* of the running kernel, NULL before one starts */
    uint32_t ninsts;
};

/* The event kinds paws_on_event reads. */
enum { PAWS_EVENTS = SCHED_EV_BIT(SCHED_EV_KERNEL_START) };

static void paws_on_event(void *priv, const struct sched_event *ev)
{
    struct paws *p = priv;
    if (ev->kind == SCHED_EV_KERNEL_START && ev->kernel) {
        p->phase = ev->kernel->phase;
        p->ninsts = ev->kernel->m ? ev->kernel->m->ninsts : 0;
    }
}

static uint32_t paws_dist(const struct paws *p, uint32_t pc)
{
    if (!p->phase || pc >= p->ninsts)
        return PHASE_SATURATE;
    uint32_t d = p->phase[pc].dist;
    return d > PHASE_SATURATE ? PHASE_SATURATE : d;
}

static int paws_pick(void *priv, const struct sched_view *v)
{
    const struct paws *p = priv;
    uint64_t ready = v->ready & v->valid;
    int best = -1;
    uint32_t best_d = 0;
    while (ready) {
        int s = __builtin_ctzll(ready);
        ready &= ready - 1;
        uint32_t d = paws_dist(p, v->pc[s]);
        if (best < 0 || d < best_d || (d == best_d && v->age[s] < v->age[best])) {
            best = s;
            best_d = d;
        }
    }
    return best;
}

SCHED_POLICY(paws,
             .desc = "phase-aware single level: smallest phase distance first, oldest on ties "
                     "(Awatramani PACT 2015)",
             .priv_size = sizeof(struct paws), .pick = paws_pick, .on_event = paws_on_event,
             .events = PAWS_EVENTS);
