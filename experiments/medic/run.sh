#!/usr/bin/env bash
# run.sh: the MeDiC experiment (Ausavarungnirun et al., HPCA 2016) on warpsim.
# Runs the Figure 11 points at --config medic (medic.toml) on the built-in
# workloads and, given a Rodinia checkout, on the paper's Rodinia programs
# (built into OUT/rodinia by experiments/rodinia/build.sh; spec.py), prints
# the tables of Figures 11 and 13-15 and the warp-type mix beside Table II
# (tables.py) into experiments/medic/results-<size>.md and writes the report.
#
# usage: experiments/medic/run.sh [RODINIA_CHECKOUT] [--size S] [--warpsim PATH] [--out DIR] [--jobs N] [--commit SHA]
#
# RODINIA_CHECKOUT is a work tree of github.com/yuhc/gpu-rodinia (its cuda/
# folder is read, never written); --commit names its commit when it is not a
# git work tree.  Nothing is downloaded.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
usage() { sed -n '9p' "$0" | sed 's/^# //' >&2; exit 2; }
src=
case "${1:-}" in ''|--*) ;; *) src=$1; shift ;; esac
size=medium
warpsim=$root/build/warpsim
out=
jobs=1
rev=
while [ $# -gt 0 ]; do
    case "$1" in
    --size|--warpsim|--out|--jobs|--commit)
        [ $# -ge 2 ] || { echo "run.sh: $1 needs a value" >&2; exit 2; } ;;
    esac
    case "$1" in
    --size) size=$2; shift 2 ;;
    --warpsim) warpsim=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --commit) rev=$2; shift 2 ;;
    *) usage ;;
    esac
done
case "$size" in small|medium|large) ;; *) echo "run.sh: bad --size '$size'" >&2; exit 2 ;; esac
case "$jobs" in ''|*[!0-9]*|0) echo "run.sh: bad --jobs '$jobs'" >&2; exit 2 ;; esac
[ -x "$warpsim" ] || { echo "run.sh: no warpsim binary at $warpsim (use --warpsim PATH)" >&2; exit 2; }
if [ -n "$src" ] && [ ! -d "$src/cuda" ]; then
    echo "run.sh: '$src' has no cuda/ folder" >&2; usage
fi
[ -n "$out" ] || out=$here/out-$size
mkdir -p "$out"
out=$(cd "$out" && pwd)
spec=$here/medic.toml
vars=(--set-var "size=$size" --out "$out")
rodinia_line="Rodinia: not run (no checkout given): built-in workloads only."
if [ -n "$src" ]; then
    [ -n "$rev" ] || rev=$(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)
    progs=$(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import spec
print(" ".join(n for n, _ in spec.PROGRAMS))' "$here")
    "$here/../rodinia/build.sh" "$src" "$out/rodinia" --only "$progs" || {
        echo "run.sh: some Rodinia programs did not build (logs in $out/rodinia/log)" >&2
        exit 1
    }
    WARPSIM_PTXAS=$("$here/../ptxas.sh") || exit 2
    export WARPSIM_PTXAS
    spec=$out/medic-rodinia.toml
    python3 "$here/spec.py" "$here/medic.toml" >"$spec"
    vars+=(--set-var "rodinia=$out/rodinia")
    rodinia_line="Rodinia: github.com/yuhc/gpu-rodinia at $rev (programs and inputs: experiments/medic/spec.py). $("$here/../ptxas.sh" --line)"
fi
"$warpsim" sweep "$spec" "${vars[@]}" --jobs "$jobs" || {
    echo "run.sh: some points failed; see warpsim sweep status $spec ${vars[*]} -v" >&2
    exit 1
}
res=$here/results-$size.md
# the stamp (binary, date, machine) and the Rodinia commit under the title line
stamp=$("$here/../stamp.sh" "$warpsim")
{
    printf '# MeDiC on warpsim: %s size\n\n%s\n\n%s\n\n' "$size" "$stamp" "$rodinia_line"
    python3 "$here/tables.py" "$out/index.sqlite"
} >"$res"
cat "$res"
"$warpsim" report "$spec" "${vars[@]}" >&2
echo "wrote $res (runs in $out)" >&2
