#!/usr/bin/env bash
# run.sh: the DAWS experiment (Rogers et al., MICRO 2013) on warpsim.
# Runs the sweep daws.toml (profiles on seed 2; GTO, Best-SWL, CCWS,
# Profiled-DAWS and Detected-DAWS on seed 1 at --config daws; the kAssocFactor
# sweep), prints the paper's tables (tables.py), writes them to
# experiments/daws/results-<size>.md and writes the report (warpsim report).
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

# The points are the sweep daws.toml (warpsim sweep: a local pool of --jobs
# processes; a rerun runs only what is missing).  Each point runs inside the
# out dir, so profile paths in the policy specs are relative.
start=$(date +%s)
vars=(--set-var "size=$size" --set-var "sweep_size=$sweep_size" --out "$out")
"$warpsim" sweep "$here/daws.toml" "${vars[@]}" --jobs "$jobs" || {
    echo "run.sh: some points failed; see warpsim sweep status $here/daws.toml ${vars[*]} -v" >&2
    exit 1
}
end=$(date +%s)
# the revision the binary was built from (`warpsim --version`), which is what
# the numbers depend on whatever the checkout holds now, the date and the machine
res=$root/experiments/daws/results-$size.md
python3 "$here/tables.py" --dir "$out" --size "$size" --sweep-size "$sweep_size" \
    --stamp "$("$here/../stamp.sh" "$warpsim")" --command "$cmdline" >"$res"
cat "$res"
"$warpsim" report "$here/daws.toml" "${vars[@]}" >&2
echo "wrote $res (runs in $out, $((end - start)) s)" >&2
