/* wms.c: MeDiC's warp-type-aware memory scheduler, WMS (Ausavarungnirun et
 * al., HPCA 2016, Section 4.4; SPEC-policies 7.5): each channel keeps two
 * request queues; a request whose tag says its warp is mostly-hit or all-hit
 * (the "mostly-hit bit", from sm.classifier=medic) goes to the high-priority
 * queue, every other to the low one; FR-FCFS inside each queue, and the high
 * queue always first (the controller serves the low queue only when nothing
 * in the high queue can be served now).  [CHOICE] (SPEC 7.5): each queue
 * holds the configured dram_queue requests (the paper leaves the split
 * open).  A write-back queues in the class of the miss that evicted it. */
#include "policy/dram/dram_sched.h"

#include "policy/medic_tag.h"

static uint32_t wms_queues(void *priv, uint32_t dram_queue, uint32_t *cap)
{
    (void)priv;
    cap[0] = cap[1] = dram_queue;
    return 2;
}

static uint32_t wms_queue_of(void *priv, uint32_t tag)
{
    (void)priv;
    return medic_high_priority(tag) ? 0 : 1;
}

static int wms_pick(void *priv, const struct dram_view *v)
{
    (void)priv;
    return dram_pick_frfcfs(v);
}

DRAM_POLICY(wms, .desc = "two queues, mostly-hit warps' first, FR-FCFS in each (MeDiC WMS)",
            .priv_size = 0, .pick = wms_pick, .queues = wms_queues, .queue_of = wms_queue_of);
