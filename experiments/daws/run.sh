#!/usr/bin/env bash
# run.sh: the DAWS experiment (Rogers et al., MICRO 2013) on warpsim.
# Profiles every workload on seed 2, runs it on seed 1 under GTO, Best-SWL,
# CCWS, Profiled-DAWS and Detected-DAWS at --config daws (one stats JSON per
# run), sweeps kAssocFactor, then prints the paper's tables (tables.py) and
# writes them to experiments/daws/results-<size>.md.
#
# usage: experiments/daws/run.sh [--size S] [--sweep-size S] [--warpsim PATH]
#                                [--out DIR] [--jobs N]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

size=medium
sweep_size=
warpsim=
out=
jobs=2
cmdline="experiments/daws/run.sh $*"

usage() {
    sed -n '8,9p' "$0" | sed 's/^# //'
    exit 2
}
while [ $# -gt 0 ]; do
    case "$1" in
    --size|--sweep-size|--warpsim|--out|--jobs)
        [ $# -ge 2 ] || { echo "run.sh: $1 needs a value" >&2; usage; } ;;
    esac
    case "$1" in
    --size) size=$2; shift 2 ;;
    --sweep-size) sweep_size=$2; shift 2 ;;
    --warpsim) warpsim=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    -h|--help) usage ;;
    *) echo "run.sh: unknown option '$1'" >&2; usage ;;
    esac
done
case "$size" in small|medium|large) ;; *) echo "run.sh: bad --size '$size'" >&2; exit 2 ;; esac
[ -n "$sweep_size" ] || sweep_size=$size
case "$sweep_size" in small|medium|large) ;; *) echo "run.sh: bad --sweep-size '$sweep_size'" >&2; exit 2 ;; esac
case "$jobs" in ''|*[!0-9]*|0) echo "run.sh: bad --jobs '$jobs'" >&2; exit 2 ;; esac
if [ -z "$warpsim" ]; then
    for c in "$root/build/warpsim" "$root/build-exp/warpsim"; do
        [ -x "$c" ] && { warpsim=$c; break; }
    done
fi
if [ -z "$warpsim" ] || [ ! -x "$warpsim" ]; then
    echo "run.sh: no warpsim binary (use --warpsim PATH)" >&2
    exit 2
fi
warpsim=$(cd "$(dirname "$warpsim")" && pwd)/$(basename "$warpsim")
[ -n "$out" ] || out=$root/experiments/daws/out-$size
mkdir -p "$out"
out=$(cd "$out" && pwd)

sensitive="bfs memc spmv_scalar gc kmn"  # KMN: point-major k-means (intra-warp locality)
insensitive="ndl backp hotsp lud srad"
all="$sensitive $insensitive"
factors="0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1.0"

# Everything runs inside the out dir so that profile paths are short and
# relative (the policy spec limits them to 63 characters) and the recorded
# configurations do not depend on where the repository lives.
cd "$out"
mkdir -p prof json swl logs
start=$(date +%s)

# run_jobs FILE: run each line of FILE (a shell command) with $jobs in
# parallel; fail if any failed.
run_jobs() {
    local n
    n=$(wc -l <"$1")
    echo "== $n runs ($jobs at a time)" >&2
    if ! xargs -P "$jobs" -I{} -d '\n' sh -c '{}' <"$1"; then
        echo "run.sh: some runs failed; see $out/logs/" >&2
        exit 1
    fi
}
# job NAME SIZE SPEC: one warpsim run writing json/NAME.json, log in logs/.
job() {
    local name=$1 wl=$2 sz=$3 spec=$4
    printf '%s run %s --size %s --seed 1 --config daws --sched %s --quiet --stats-json json/%s.json >logs/%s.log 2>&1 || { echo "FAILED: %s" >&2; exit 1; }\n' \
        "$warpsim" "$wl" "$sz" "$spec" "$name" "$name" "$name"
}

# Phase 1: profiles (functional, seed 2: a different input, as in the paper).
: >jobs1.txt
for w in $all; do
    for sz in $size $sweep_size; do
        printf '%s profile %s --size %s --seed 2 -o prof/%s-%s.prof >logs/prof-%s-%s.log 2>&1 || { echo "FAILED: profile %s" >&2; exit 1; }\n' \
            "$warpsim" "$w" "$sz" "$w" "$sz" "$w" "$sz" "$w"
    done
done >>jobs1.txt
sort -u jobs1.txt -o jobs1.txt
run_jobs jobs1.txt

# Phase 2: Best-SWL sweeps (longest first), the five policies, the
# kAssocFactor sweep and SPMV-vector.
: >jobs2.txt
for w in $all; do
    printf '%s best-swl %s --size %s --seed 1 --config daws >swl/%s.txt 2>logs/swl-%s.log || { echo "FAILED: best-swl %s" >&2; exit 1; }\n' \
        "$warpsim" "$w" "$size" "$w" "$w" "$w" >>jobs2.txt
done
for w in $all; do
    job "$w.gto" "$w" "$size" gto
    job "$w.ccws" "$w" "$size" ccws
    job "$w.daws_profiled" "$w" "$size" "daws_profiled:profile=prof/$w-$size.prof"
    job "$w.daws_detected" "$w" "$size" daws_detected
done >>jobs2.txt
for w in $sensitive; do
    [ "$sweep_size" = "$size" ] || job "$w.ccws.$sweep_size" "$w" "$sweep_size" ccws
    for f in $factors; do
        job "$w.daws_detected.af$f.$sweep_size" "$w" "$sweep_size" "daws_detected:assoc_factor=$f"
        job "$w.daws_profiled.af$f.$sweep_size" "$w" "$sweep_size" \
            "daws_profiled:profile=prof/$w-$sweep_size.prof,assoc_factor=$f"
    done
done >>jobs2.txt
job spmv_vector.gto spmv_vector "$size" gto >>jobs2.txt
run_jobs jobs2.txt

# Phase 3: the best SWL limit of each workload, with statistics.
: >jobs3.txt
for w in $all; do
    k=$(sed -n 's/^best K = \([0-9]*\).*/\1/p' "swl/$w.txt")
    [ -n "$k" ] || { echo "run.sh: no best K in swl/$w.txt" >&2; exit 1; }
    job "$w.best_swl" "$w" "$size" "swl:limit=$k"
done >>jobs3.txt
run_jobs jobs3.txt

end=$(date +%s)
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$root" status --porcelain -- src workloads include 2>/dev/null)" ]; then
    commit="$commit (with uncommitted changes in src/, workloads/ or include/)"
fi
res=$root/experiments/daws/results-$size.md
python3 "$here/tables.py" --dir "$out" --size "$size" --sweep-size "$sweep_size" \
    --commit "$commit" --date "$(date -u +%Y-%m-%d)" --command "$cmdline" >"$res"
cat "$res"
echo "wrote $res (runs in $out, $((end - start)) s)" >&2
