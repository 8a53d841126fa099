#!/usr/bin/env bash
# threads.sh: the parallel engine is deterministic: a built-in workload (size
# small; every one when none is named) under one configuration and scheduler
# writes the same JSON
# statistics with 1, 2 and 3 host threads (threads forced, so the parallel
# cycle runs every cycle; docs/parallel.md), and the same timeline CSV and
# printed results.  Only the echo of the threads key may differ.
# WS_THREAD_COUNTS lists the thread counts compared with 1 (default "2 3"; the
# sanitizer builds compare 3 only: their job is memory safety, determinism at
# every count is the optimised build's).
# Usage: tests/parallel/threads.sh <path to warpsim> <config preset> <scheduler> [workload]
set -u
ws=$1
config=$2
sched=$3
workloads=${4:-$("$ws" list | awk '{print $1}')}
counts=${WS_THREAD_COUNTS:-2 3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
runs=0
for w in $workloads; do
  for n in 1 $counts; do
    "$ws" run "$w" --size small --config "$config" --sched "$sched" --threads "$n" \
      --quiet --stats-json "$tmp/$w-$n.json" --timeline "$tmp/$w-$n.csv" \
      > "$tmp/$w-$n.txt" 2>&1
    rc=$?
    if [ "$rc" != 0 ]; then
      echo "FAIL $w --threads $n: exit status $rc"
      sed 's/^/    /' "$tmp/$w-$n.txt"
      fail=$((fail + 1))
      continue
    fi
    runs=$((runs + 1))
    grep -v '^ *"threads": ' "$tmp/$w-$n.json" > "$tmp/$w-$n.cmp"
  done
  for n in $counts; do
    [ -f "$tmp/$w-1.cmp" ] && [ -f "$tmp/$w-$n.cmp" ] || continue
    if ! cmp -s "$tmp/$w-1.cmp" "$tmp/$w-$n.cmp"; then
      echo "FAIL $w: statistics at --threads $n differ from --threads 1:"
      diff "$tmp/$w-1.cmp" "$tmp/$w-$n.cmp" | head -20 | sed 's/^/    /'
      fail=$((fail + 1))
    fi
    if ! cmp -s "$tmp/$w-1.csv" "$tmp/$w-$n.csv"; then
      echo "FAIL $w: timeline at --threads $n differs from --threads 1"
      fail=$((fail + 1))
    fi
    if ! cmp -s "$tmp/$w-1.txt" "$tmp/$w-$n.txt"; then
      echo "FAIL $w: output at --threads $n differs from --threads 1"
      fail=$((fail + 1))
    fi
  done
done
[ "$runs" -ge 2 ] || { echo "FAIL: no run of $workloads finished"; exit 1; }
echo "threads.sh $config $sched $workloads: $runs runs, $fail failures"
[ "$fail" = 0 ]
