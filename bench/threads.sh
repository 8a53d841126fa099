#!/usr/bin/env bash
# threads.sh: speed-up of the parallel engine by host thread count.
#
#   bench/threads.sh [--repeat R] [path/to/warpsim] [max threads | list such as 1,2,4,8] [workload ...]
#
# For each case (or each named workload) it runs the workload in timing mode
# with --threads 1 .. N (forced: every cycle runs the parallel phase; default
# N = the machine's cores) or with each count of the list, then with the
# default (threads 0: the engine measures and picks serial or parallel
# cycles), and prints wall-clock seconds, CPU seconds, the speed-up over the
# first count and whether the statistics JSON matched the first run (it must;
# docs/parallel.md).  Wall time includes input generation, the CPU reference
# and PTX loading, which stay serial.  The figures depend on the load of the
# machine: the cases are run one at a time, each count R times (default 3)
# keeping the least wall time (and the CPU time of that run), and the load
# average is printed before and after so a loaded host can be recognised.
set -euo pipefail
reps=3
if [ "${1:-}" = --repeat ]; then
  reps=${2:?--repeat needs a value}
  shift 2
fi
case $reps in '' | *[!0-9]* | 0) echo "threads.sh: --repeat needs a count of 1 or more" >&2; exit 2 ;; esac
ws=${1:-build/warpsim}
counts=${2:-$(nproc)}
case $counts in
  *,*) counts=${counts//,/ } ;;
  *) counts=$(seq 1 "$counts") ;;
esac
counts="$counts 0"
cases=(
  "hotsp medium gtx480 gto"
  "srad medium gtx480 gto"
  "kmn medium daws gto"
  "spmv_scalar medium daws gto"
  "bfs medium daws gto"
)
TIMEFORMAT='%R %U %S' # bash's time: wall, user and system seconds
load() { cat /proc/loadavg; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "host: $(nproc) cores; load $(load)"
echo "speed-up: wall time of the first count over this one; threads 0: the default"
printf '%-12s %-7s %-7s %7s %9s %9s %8s %6s\n' workload size config threads wall_s cpu_s speedup stats
only=" ${*:3} "
for c in "${cases[@]}"; do
  read -r w size cfg sched <<<"$c"
  [ "$only" = "  " ] || [[ $only == *" $w "* ]] || continue
  base=
  first=
  for n in $counts; do
    wall=
    for ((r = 0; r < reps; r++)); do
      { time "$ws" run "$w" --size "$size" --config "$cfg" --sched "$sched" --threads "$n" \
          --quiet --stats-json "$tmp/$n.json" > /dev/null 2> "$tmp/err"; } 2> "$tmp/time" ||
        { cat "$tmp/err" >&2; exit 1; }
      read -r t u s < "$tmp/time"
      if [ -z "$wall" ] || awk -v a="$t" -v b="$wall" 'BEGIN { exit !(a < b) }'; then
        wall=$t usr=$u sys=$s
      fi
    done
    [ -n "$base" ] || base=$wall
    [ -n "$first" ] || first=$n
    grep -v '^ *"threads": ' "$tmp/$n.json" > "$tmp/$n.cmp"
    same=yes
    cmp -s "$tmp/$first.cmp" "$tmp/$n.cmp" || same=DIFFER
    awk -v w="$w" -v s="$size" -v c="$cfg" -v n="$n" -v wall="$wall" -v usr="$usr" -v sys="$sys" \
        -v b="$base" -v same="$same" 'BEGIN {
      printf "%-12s %-7s %-7s %7d %9.2f %9.2f %7.2fx %6s\n", w, s, c, n, wall, usr + sys, b / wall, same
    }'
  done
done
echo "host after: load $(load)"
