#!/usr/bin/env bash
# run.sh: the MeDiC experiment (Ausavarungnirun et al., HPCA 2016) on warpsim.
# Runs the sweep medic.toml (the Figure 11 points at --config medic), prints
# the tables of Figures 11 and 13-15 and the warp-type mix (tables.py) into
# experiments/medic/results-<size>.md and writes the report (warpsim report).
#
# usage: experiments/medic/run.sh [--size S] [--warpsim PATH] [--out DIR] [--jobs N]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
size=medium
warpsim=$root/build/warpsim
out=
jobs=2
while [ $# -gt 0 ]; do
    case "$1" in
    --size|--warpsim|--out|--jobs)
        [ $# -ge 2 ] || { echo "run.sh: $1 needs a value" >&2; exit 2; } ;;
    esac
    case "$1" in
    --size) size=$2; shift 2 ;;
    --warpsim) warpsim=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    *) sed -n '8p' "$0" | sed 's/^# //' >&2; exit 2 ;;
    esac
done
case "$size" in small|medium|large) ;; *) echo "run.sh: bad --size '$size'" >&2; exit 2 ;; esac
case "$jobs" in ''|*[!0-9]*|0) echo "run.sh: bad --jobs '$jobs'" >&2; exit 2 ;; esac
[ -x "$warpsim" ] || { echo "run.sh: no warpsim binary at $warpsim (use --warpsim PATH)" >&2; exit 2; }
[ -n "$out" ] || out=$here/out-$size
vars=(--set-var "size=$size" --out "$out")
"$warpsim" sweep "$here/medic.toml" "${vars[@]}" --jobs "$jobs" || {
    echo "run.sh: some points failed; see warpsim sweep status $here/medic.toml ${vars[*]} -v" >&2
    exit 1
}
res=$here/results-$size.md
# the stamp (binary, date, machine) under the title line
stamp=$("$here/../stamp.sh" "$warpsim")
python3 "$here/tables.py" "$out/index.sqlite" |
    awk -v s="$stamp" 'NR == 1 {print; print ""; print s; next} {print}' >"$res"
cat "$res"
"$warpsim" report "$here/medic.toml" "${vars[@]}" >&2
echo "wrote $res (runs in $out)" >&2
