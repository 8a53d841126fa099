/* gcaws.c: greedy criticality-aware warp scheduling (Lee, Arunkumar, Wu,
 * "CAWA", ISCA 2015, Section 3.2; SPEC-policies 8.2).  The criticality is
 * the score the SM's classifier publishes per warp (sched_view.warp_score):
 * CAWA's CPL with sm.classifier=cpl, the recorded execution time with
 * sm.classifier=caws_oracle (SPEC 9.5).  With classifier none every score is
 * 0 and gcaws is GTO.
 *
 * Each pick: the warp issued last by this unit keeps issuing while it is
 * ready (greedy); otherwise the ready warp with the highest criticality
 * issues, the oldest (smallest dynamic warp id) on ties.  greedy=0 drops the
 * greedy step: the most critical ready warp issues every cycle, which is the
 * oracle CAWS of Lee and Wu (PACT 2014) as CAWA describes it (it "does not
 * limit active warps").
 *
 * [CHOICE]s: the comparison runs across every warp of the scheduler unit,
 * not per CTA (SPEC 8.2); CAWA's "CAWA_CAWS" (CPL on top of GTO) is this
 * same policy, since gCAWS is GTO with criticality in the place of age, so
 * there is no separate file for it. */
#include "policy/sched/sched.h"

struct gcaws {
    uint32_t greedy;
};

static const struct param_desc gcaws_params[] = {
    {"greedy", PARAM_INT, "1",
     "1: keep the last issued warp while it is ready (gCAWS); 0: most critical ready warp every "
     "cycle (oracle CAWS, Lee PACT 2014)"},
    {NULL, PARAM_INT, NULL, NULL},
};

static int gcaws_init(void *priv, const struct param_set *p, const struct sched_init *in,
                      struct err *e)
{
    struct gcaws *g = priv;
    (void)in;
    int64_t greedy = param_int(p, "greedy");
    if (greedy != 0 && greedy != 1)
        return err_set(e, WS_ERR_INVALID,
                       "policy 'gcaws': parameter 'greedy' must be 0 or 1, got %lld",
                       (long long)greedy);
    g->greedy = (uint32_t)greedy;
    return WS_OK;
}

static int gcaws_pick(void *priv, const struct sched_view *v)
{
    const struct gcaws *g = priv;
    uint64_t ready = v->ready & v->valid;
    if (v->nslots < 64)
        ready &= (1ull << v->nslots) - 1;
    if (g->greedy && v->last_issued >= 0 && v->last_issued < 64 && (ready >> v->last_issued & 1))
        return v->last_issued;
    int best = -1;
    while (ready) {
        int s = __builtin_ctzll(ready);
        ready &= ready - 1;
        int64_t sc = v->warp_score ? v->warp_score[s] : 0;
        int64_t bs = best >= 0 && v->warp_score ? v->warp_score[best] : 0;
        if (best < 0 || sc > bs || (sc == bs && v->age[s] < v->age[best]))
            best = s;
    }
    return best;
}

SCHED_POLICY(gcaws,
             .desc = "greedy criticality-aware: keep the last warp, else the most critical ready "
                     "(classifier score), oldest on ties (CAWA, Lee ISCA 2015)",
             .priv_size = sizeof(struct gcaws), .params = gcaws_params, .init = gcaws_init,
             .pick = gcaws_pick);
