#!/usr/bin/env bash
# hitrate.sh: where CAWA's critical-warp L1D hit rate (Fig. 11) goes, step by
# step, on built-in workloads at --config cawa.  For each workload:
#   cpl     the CPL classifier under lrr and gcaws, with the L1D policy
#           lru, cacp with one partition of all 16 ways and threshold 0
#           (every fill "critical": SHiP insertion and SRRIP only, "cacp16"),
#           cacp (8 + 8 ways, CAWA) and lru with 8 ways (half the L1D,
#           "lru8");
#   oracle  one fixed critical set: the warps whose execution time in an lrr
#           run (recorded first) is above their CTA's median tag their
#           requests (caws_oracle), under lrr with lru and with cacp.
# Prints one row per run: cycles, L1D hit rate, critical-warp hit rate
# (l1d_tagged_read_hit_rate), share of fills into the critical ways, share
# of all hits and of critical-warp hits on lines in the critical ways, and
# the CCBP counters raised / lowered.
#
# usage: experiments/cawa/hitrate.sh [--size S] [--warpsim PATH] [--out DIR] [WORKLOAD...]
#
# Default workloads: bfs kmeans srad backp.  Runs one simulation at a time.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
size=small
warpsim=$root/build/warpsim
out=
usage() {
    sed -n '17p' "$0" | sed 's/^# //'
    exit 2
}
while [ $# -gt 0 ]; do
    case "$1" in
    --size|--warpsim|--out)
        [ $# -ge 2 ] || { echo "hitrate.sh: $1 needs a value" >&2; usage; } ;;
    esac
    case "$1" in
    --size) size=$2; shift 2 ;;
    --warpsim) warpsim=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) usage ;;
    -*) echo "hitrate.sh: unknown option '$1'" >&2; usage ;;
    *) break ;;
    esac
done
case "$size" in small|medium|large) ;; *) echo "hitrate.sh: bad --size '$size'" >&2; exit 2 ;; esac
[ -x "$warpsim" ] || { echo "hitrate.sh: no warpsim binary at '$warpsim' (use --warpsim PATH)" >&2; exit 2; }
[ $# -gt 0 ] || set -- bfs kmeans srad backp
[ -n "$out" ] || out=$here/hitrate-$size
mkdir -p "$out"

# run NAME WORKLOAD ARGS...: one simulation, its statistics in OUT/NAME.json
run() {
    local name=$1 w=$2
    shift 2
    if ! "$warpsim" run "$w" --size "$size" --config cawa --threads 1 --quiet \
            --stats-json "$out/$name.json" "$@" >"$out/$name.log" 2>&1; then
        echo "hitrate.sh: $w ($name) failed, see $out/$name.log" >&2
        exit 1
    fi
}

rows=()
for w in "$@"; do
    for s in lrr gcaws; do
        for p in lru cacp16 cacp lru8; do
            case "$p" in
            lru) pol=(--set l1d.policy=lru) ;;
            cacp16) pol=(--set "l1d.policy=cacp:crit_ways=16,threshold=0") ;;
            cacp) pol=(--set l1d.policy=cacp) ;;
            lru8) pol=(--set l1d.policy=lru --set l1d.assoc=8) ;;
            esac
            run "$w.cpl.$s.$p" "$w" --sched "$s" --set sm.classifier=cpl "${pol[@]}"
            rows+=("$w cpl $s $p")
        done
    done
    run "$w.record" "$w" --sched lrr --set "sm.classifier=caws_oracle:record=$out/$w.crit"
    for p in lru cacp; do
        run "$w.oracle.lrr.$p" "$w" --sched lrr \
            --set "sm.classifier=caws_oracle:oracle=$out/$w.crit" --set "l1d.policy=$p"
        rows+=("$w oracle lrr $p")
    done
done

python3 - "$out" "$size" "${rows[@]}" <<'EOF'
import json, sys

out, size, rows = sys.argv[1], sys.argv[2], sys.argv[3:]
print(f"critical-warp L1D hit rate, size {size}, --config cawa")
print("| workload | tags | sched | L1D | cycles | L1D hit rate | crit. hit rate "
      "| fills to crit. ways | hits in crit. ways | crit. hits in crit. ways "
      "| CCBP raised / lowered |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for row in rows:
    w, tags, s, p = row.split()
    t = json.load(open(f"{out}/{w}.{tags}.{s}.{p}.json"))["totals"]
    share = lambda n, d: "-" if f"l1d_{d}" not in t or not t[f"l1d_{d}"] \
        else "%.3f" % (t[f"l1d_{n}"] / t[f"l1d_{d}"])
    ccbp = "-" if "l1d_cacp_ccbp_raised" not in t else \
        "%d / %d" % (t["l1d_cacp_ccbp_raised"], t["l1d_cacp_ccbp_lowered"])
    print(f"| {w} | {tags} | {s} | {p} | {t['gpu_tot_sim_cycle']} "
          f"| {t['l1d_hits'] / t['l1d_accesses']:.3f} | {t['l1d_tagged_read_hit_rate']:.3f} "
          f"| {share('cacp_fills_critical', 'cacp_fills')} "
          f"| {share('cacp_hits_critical_ways', 'cacp_hits')} "
          f"| {share('cacp_critical_hits_critical_ways', 'cacp_critical_hits')} | {ccbp} |")
EOF
