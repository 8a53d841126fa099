/* none.c: no classification: every memory request carries tag 0 and every
 * warp's published tag and score stay 0 (the default, sm.classifier = none). */
#include "policy/classify/classify.h"

static uint32_t none_tag(void *priv, const struct classify_req *r)
{
    (void)priv;
    (void)r;
    return 0;
}

CLASSIFY_POLICY(none, .desc = "no classification: every memory request carries tag 0",
                .tag = none_tag);
