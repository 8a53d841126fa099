/* energy.h: an event-energy model reported as energy_* statistics.
 *
 * It is an event model, not a circuit model: each counted event (an
 * instruction decoded, a register operand, an access of each cache level, a
 * flit, a DRAM burst or precharge) costs a fixed energy, and three powers are
 * charged per cycle (the SM pipelines by their duty, each SM with no resident
 * CTA, and a constant).  The coefficients (config keys energy.*) default to
 * GPUWattch's GTX480 model as GPGPU-Sim's power interface evaluates it
 * (gpgpu-sim_distribution 90ec339: configs/tested-cfgs/SM2_GTX480/
 * gpuwattch_gtx480.xml run through src/gpuwattch, each McPAT per-access
 * energy times the XML's fitted scaling factor; configs/README.md, "Energy"),
 * and the events are counted as GPGPU-Sim counts them for it
 * (analysis/power.h).  What GPUWattch adds beyond this, and this leaves out:
 * McPAT's leakage (GPGPU-Sim does not report it either), the 0.8 cap on the
 * pipeline duty per 500-cycle sample, the active-lane terms (0 in the GTX480
 * model), activations (GPUWattch charges precharges only), instruction-cache
 * misses at the L2 (timed here without a request).  Under sampling the
 * instruction-side counts cover the whole program, the rest only the detailed
 * part: a sampled run's energies are not comparable with a full run's.
 *
 * Statistics (nJ): energy_inst, _l1i, _l1d, _tex, _l1c, _smem, _regfile,
 * _units, _pipeline, _l2, _icnt, _dram (dynamic), _idle_sm and _constant,
 * their sums energy_dynamic_nj and energy_total_nj; energy_avg_power_w,
 * energy_insn_per_nj (thread instructions per nJ: performance per watt) and
 * energy_ipc_per_j (IPC divided by the energy: MeDiC's energy efficiency,
 * Fig. 12), plus the split counts they use (l1d_read_hits ...,
 * sm_idle_cycles). */
#ifndef WS_TIMING_ENERGY_H
#define WS_TIMING_ENERGY_H

#include "config/config.h"
#include "stats/stats.h"

/* Register the statistics; every counter they read must be registered. */
void energy_register(struct stats *s, const struct gpu_config *cfg);

#endif
