#!/usr/bin/env bash
# stats-matrix.sh: run every built-in workload (size small) under a fixed set
# of configurations, schedulers and cache/DRAM policies and write one stats
# JSON per run into OUT.  Run it with the builds before and after a change
# that must not move any number (a refactoring, a new hook with a neutral
# default) and compare with scripts/stats-compare.py OUT_BEFORE OUT_AFTER.
#
# usage: scripts/stats-matrix.sh WARPSIM OUT [--jobs N]
set -euo pipefail

[ $# -ge 2 ] || { echo "usage: scripts/stats-matrix.sh WARPSIM OUT [--jobs N]" >&2; exit 2; }
warpsim=$1
out=$2
jobs=2
[ "${3:-}" = "--jobs" ] && jobs=${4:?--jobs needs a value}
[ -x "$warpsim" ] || { echo "stats-matrix: '$warpsim' is not an executable" >&2; exit 2; }
mkdir -p "$out"

# name|options: each line is one (config, policy) point run on every workload
points=(
    "gtx480-lrr|--config gtx480 --sched lrr"
    "gtx480-gto|--config gtx480 --sched gto"
    "gtx480-2lvl|--config gtx480 --sched two_level_active:active=8 --set l1d.policy=srrip --set dram.sched=fcfs"
    "daws-gto|--config daws --sched gto --set l2.policy=brrip"
    "daws-ccws|--config daws --sched ccws"
    "daws-detected|--config daws --sched daws_detected"
    "daws-swl|--config daws --sched swl:limit=4 --set l1d.policy=ship"
    "medic-gto|--config medic --sched gto --set l2.policy=drrip"
    "cawa-fg|--config cawa --sched two_level_fg --set l1d.policy=fifo"
    "paws-oldest|--config paws --sched oldest"
    "lwm-lrr|--config lwm --sched lrr"
    "func|--mode functional"
)
workloads=$("$warpsim" list | awk '{print $1}')

jobfile=$(mktemp)
trap 'rm -f "$jobfile"' EXIT
for p in "${points[@]}"; do
    name=${p%%|*}
    opts=${p#*|}
    for w in $workloads; do
        echo "$warpsim run $w --size small $opts --stats-json $out/$name-$w.json > $out/$name-$w.txt 2>&1; echo \"exit \$?\" >> $out/$name-$w.txt"
    done
done > "$jobfile"
xargs -P "$jobs" -I{} sh -c '{}' < "$jobfile"
echo "stats-matrix: $(ls "$out"/*.json | wc -l) runs in $out"
