/* frfcfs.c: first-ready first-come-first-served DRAM scheduling (Rixner et
 * al., ISCA 2000; GPGPU-Sim's FR-FCFS, SPEC-policies 1.4).
 *
 * Ranking only: among the requests whose bank can take a command, a request
 * to its bank's open row (a row hit) goes first, oldest first; if there is
 * none, the oldest bank-ready request goes, and the controller opens its row.
 * GPGPU-Sim bins each bank's requests by row and, once a row is adopted,
 * serves that bin until it is empty, including requests that arrive for the
 * same row meanwhile, with no cap on the streak.  The bank's open row is that
 * bin here: as long as requests to the open row remain they outrank every
 * miss of that bank, so the streak and its unbounded length are the same. */
#include "policy/dram/dram_sched.h"

static int frfcfs_pick(void *priv, const struct dram_view *v)
{
    (void)priv;
    return dram_pick_frfcfs(v);
}

DRAM_POLICY(frfcfs, .desc = "row hits first, then oldest (Rixner ISCA 2000; GPGPU-Sim FR-FCFS)",
            .priv_size = 0, .pick = frfcfs_pick);
