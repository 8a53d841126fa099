#!/usr/bin/env bash
# sampling.sh: the error of sampled simulation against full simulation.
#
#   bench/sampling.sh [--size S] [--config C] [--ctas N] [path/to/warpsim]
#
# For every built-in workload it runs the full timing simulation, kernel-level
# sampling (sample.kernels=1) and intra-kernel sampling (sample.ctas=N,
# default 256), and prints for each sampled run: the launches and CTAs it
# estimated, the cycles it simulated in detail (and the reduction against the
# full run), its estimate of the total cycles with the 95 % bound, and the
# real error of the estimate (= the error of the IPC, the instruction counts
# being exact).  "in" says whether the real error lies within the bound.
set -euo pipefail
size=medium
cfg=gtx480
ctas=256
while [ $# -gt 0 ]; do
  case $1 in
    --size) size=$2; shift 2 ;;
    --config) cfg=$2; shift 2 ;;
    --ctas) ctas=$2; shift 2 ;;
    -*) echo "sampling.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
ws=${1:-build/warpsim}
stat() { awk -v k="$1" '$1 == k && $2 == "=" {print $NF; exit}' <<<"$2"; }
printf '%-12s %-8s %8s %10s %10s %8s %10s %10s %8s %8s %8s %3s\n' workload mode launches \
  skipped full_cyc detailed reduct estimate bound% error% ipc_err% in
for w in $("$ws" list | awk 'NR > 1 {print $1}'); do
  full=$("$ws" run "$w" --size "$size" --config "$cfg" --stats)
  fc=$(stat gpu_sim_cycle "$full")
  for mode in kernels ctas; do
    if [ $mode = kernels ]; then set=sample.kernels=1; else set=sample.ctas=$ctas; fi
    out=$("$ws" run "$w" --size "$size" --config "$cfg" --set "$set" --stats)
    awk -v w="$w" -v m="$mode" -v fc="$fc" -v l="$(stat kernels_launched "$out")" \
        -v sl="$(stat sample_skipped_launches "$out")" -v sc="$(stat sample_skipped_ctas "$out")" \
        -v dc="$(stat gpu_sim_cycle "$out")" -v est="$(stat sample_est_cycles "$out")" \
        -v b="$(stat sample_est_error_cycles "$out")" 'BEGIN {
      err = (est - fc) / fc * 100
      ipc = (fc / est - 1) * 100
      skipped = m == "kernels" ? sl : sc
      printf "%-12s %-8s %8d %10d %10d %8d %9.1fx %10d %8.1f %8.1f %8.1f %3s\n", w, m, l, skipped,
             fc, dc, fc / dc, est, b / fc * 100, err, ipc, (est - fc <= b && fc - est <= b) ? "yes" : "no"
    }'
  done
done
