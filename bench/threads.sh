#!/usr/bin/env bash
# threads.sh: speed-up of the parallel engine by host thread count.
#
#   bench/threads.sh [path/to/warpsim] [max threads]
#
# For each case it runs the workload in timing mode with --threads 1 .. N
# (forced: every cycle runs the parallel phase; default N = the machine's
# cores) and prints wall-clock seconds, CPU seconds, the speed-up over one
# thread and whether the statistics JSON matched the one-thread run (it must;
# docs/parallel.md).  Wall time includes input generation, the CPU reference
# and PTX loading, which stay serial.  The figures depend on the load of the
# machine: the cases are run one at a time, and `uptime` is printed before
# and after so a loaded host can be recognised.
set -euo pipefail
ws=${1:-build/warpsim}
max=${2:-$(nproc)}
cases=(
  "hotsp medium gtx480 gto"
  "srad medium gtx480 gto"
  "kmn medium daws gto"
  "spmv_scalar medium daws gto"
  "bfs medium daws gto"
)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "host: $(nproc) cores; $(uptime)"
printf '%-12s %-7s %-7s %7s %9s %9s %8s %6s\n' workload size config threads wall_s cpu_s speedup stats
for c in "${cases[@]}"; do
  read -r w size cfg sched <<<"$c"
  base=
  for n in $(seq 1 "$max"); do
    /usr/bin/time -f '%e %U %S' -o "$tmp/time" "$ws" run "$w" --size "$size" --config "$cfg" \
      --sched "$sched" --threads "$n" --quiet --stats-json "$tmp/$n.json" > /dev/null
    read -r wall usr sys < "$tmp/time"
    [ -n "$base" ] || base=$wall
    grep -v '^ *"threads": ' "$tmp/$n.json" > "$tmp/$n.cmp"
    same=yes
    cmp -s "$tmp/1.cmp" "$tmp/$n.cmp" || same=DIFFER
    awk -v w="$w" -v s="$size" -v c="$cfg" -v n="$n" -v wall="$wall" -v cpu="$(echo "$usr + $sys" | bc)" \
        -v b="$base" -v same="$same" 'BEGIN {
      printf "%-12s %-7s %-7s %7d %9.2f %9.2f %7.2fx %6s\n", w, s, c, n, wall, cpu, b / wall, same
    }'
  done
done
echo "host after: $(uptime)"
