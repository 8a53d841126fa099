#!/usr/bin/env bash
# speed.sh: simulation speed on a fixed set of (workload, size, config).
#
#   bench/speed.sh [path/to/warpsim]
#
# For each case it runs the workload once in timing mode and once in
# functional mode and prints simulated warp instructions, thread instructions
# and cycles per wall-clock second.  The wall time includes input generation,
# the CPU reference check and PTX loading, so the figures are conservative.
set -euo pipefail
ws=${1:-build/warpsim}
cases=(
  "vecadd medium gtx480"
  "spmv_scalar medium daws"
  "bfs medium daws"
  "kmeans medium daws"
  "memc medium daws"
  "hotsp medium gtx480"
)
now() { date +%s.%N; }
printf '%-12s %-7s %-7s %-10s %12s %12s %12s %14s %14s\n' workload size config mode \
  warp_insn cycles seconds warp_insn/s gpu_sim_insn/s
for c in "${cases[@]}"; do
  read -r w size cfg <<<"$c"
  for mode in timing functional; do
    t0=$(now)
    out=$("$ws" run "$w" --size "$size" --config "$cfg" --mode "$mode" --stats)
    t1=$(now)
    winsn=$(awk '$1 == "warp_insn" {print $2; exit}' <<<"$out")
    tinsn=$(awk '$1 == "gpu_sim_insn" {print $2; exit}' <<<"$out")
    cyc=$(awk '$1 == "gpu_sim_cycle" {print $NF; exit}' <<<"$out")
    [ "$mode" = functional ] && cyc=-
    awk -v w="$w" -v s="$size" -v c="$cfg" -v m="$mode" -v wi="$winsn" -v ti="$tinsn" \
        -v cy="$cyc" -v t0="$t0" -v t1="$t1" 'BEGIN {
      d = t1 - t0
      printf "%-12s %-7s %-7s %-10s %12d %12s %12.2f %14.0f %14.0f\n", w, s, c, m, wi, cy, d, wi / d, ti / d
    }'
  done
done
