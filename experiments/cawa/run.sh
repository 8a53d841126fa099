#!/usr/bin/env bash
# run.sh: the CAWA experiment (Lee, Arunkumar, Wu, ISCA 2015) on warpsim.
# Runs record.toml (RR runs that record each warp's execution time for the
# oracle CAWS), then cawa.toml (RR, GTO, two-level, gCAWS, CACP beneath each,
# CAWA, oracle CAWS at --config cawa) on the built-in workloads; given a
# Rodinia checkout, builds the Table 2 programs (experiments/rodinia/build.sh)
# into OUT/rodinia-build and runs record-rodinia.toml and cawa-rodinia.toml
# on them.  Where nvcc is found ($NVCC, default /usr/local/cuda/bin/nvcc;
# --no-kmeans-tex skips it) it also runs kmeans_tex/run.sh (Rodinia's kmeans
# data flow, our own program, whatever --size) into OUT/kmeans_tex.  Prints the
# tables (tables.py, kmeans_tex/tables.py), writes them to
# experiments/cawa/results-<size>.md and the report (warpsim report) under
# the output folder.
#
# usage: experiments/cawa/run.sh [RODINIA_CHECKOUT] [--size S] [--warpsim PATH] [--out DIR] [--jobs N] [--commit SHA] [--rebuild] [--no-kmeans-tex]
#
# RODINIA_CHECKOUT is a work tree of github.com/yuhc/gpu-rodinia (read only;
# nothing is downloaded); without it only the built-in workloads run.
# --commit names its commit when it is not a git work tree.  The programs
# built by an earlier run in OUT are reused unless --rebuild (nvcc's output
# differs from build to build, and a new executable reruns its points).  The
# particle filter runs under faketime (Debian package faketime,
# scripts/install-deps.sh) so that its time(0) seed is the same every run.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

size=small
warpsim=
out=
jobs=2
rev=
rebuild=0
kmeans_tex=1

usage() {
    sed -n 's/^# usage: /usage: /p' "$0"
    exit 2
}
rodinia=
case "${1:-}" in -*|'') ;; *) rodinia=$1; shift ;; esac
while [ $# -gt 0 ]; do
    case "$1" in
    --size|--warpsim|--out|--jobs|--commit)
        [ $# -ge 2 ] || { echo "run.sh: $1 needs a value" >&2; usage; } ;;
    esac
    case "$1" in
    --size) size=$2; shift 2 ;;
    --warpsim) warpsim=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --commit) rev=$2; shift 2 ;;
    --rebuild) rebuild=1; shift ;;
    --no-kmeans-tex) kmeans_tex=0; shift ;;
    -h|--help) usage ;;
    *) echo "run.sh: unknown option '$1'" >&2; usage ;;
    esac
done
case "$size" in small|medium|large) ;; *) echo "run.sh: bad --size '$size'" >&2; exit 2 ;; esac
case "$jobs" in ''|*[!0-9]*|0) echo "run.sh: bad --jobs '$jobs'" >&2; exit 2 ;; esac
[ -n "$warpsim" ] || warpsim=$root/build/warpsim
[ -x "$warpsim" ] || { echo "run.sh: no warpsim binary (use --warpsim PATH)" >&2; exit 2; }
warpsim=$(cd "$(dirname "$warpsim")" && pwd)/$(basename "$warpsim")
[ -n "$out" ] || out=$here/out-$size
mkdir -p "$out/oracle"
out=$(cd "$out" && pwd)
case "$out" in *,*) echo "run.sh: the output path may not contain a comma" >&2; exit 2 ;; esac

# Table 2's programs (experiments/rodinia/programs.sh names): sensitive bfs,
# b+tree, nw (needle), srad_v1, streamcluster (small), heartwall; non-sensitive
# backprop, particlefilter, pathfinder, streamcluster (mid).  kmeans does not
# build (texture references): the built-in kmeans stands for it; heartwall
# tracks one frame of a generated video (README).
rodinia_progs="bfs b+tree nw srad_v1 streamcluster heartwall backprop particlefilter pathfinder"
rvars=()
rodinia_line=
if [ -n "$rodinia" ]; then
    [ -d "$rodinia/cuda" ] || { echo "run.sh: '$rodinia' has no cuda/ folder" >&2; usage; }
    ft=$(command -v faketime) ||
        { echo "run.sh: faketime is not installed (scripts/install-deps.sh)" >&2; exit 2; }
    [ -n "$rev" ] || rev=$(git -C "$rodinia" rev-parse HEAD 2>/dev/null || echo unknown)
    built=1
    for p in $rodinia_progs; do
        cut -f1 "$out/rodinia-build/programs.tsv" 2>/dev/null | grep -qxF "$p" || built=0
    done
    if [ "$built" = 0 ] || [ "$rebuild" = 1 ]; then
        "$here/../rodinia/build.sh" "$rodinia" "$out/rodinia-build" --only "$rodinia_progs"
    else
        echo "run.sh: reusing the programs in $out/rodinia-build (--rebuild to build them again)" >&2
    fi
    rvars=(--set-var "rodinia=$out/rodinia-build" --set-var "oracle_dir=$out/oracle"
           --set-var "faketime=$ft")
    rodinia_line="Rodinia: github.com/yuhc/gpu-rodinia at $rev, built with experiments/rodinia/build.sh (nvcc $("${NVCC:-/usr/local/cuda/bin/nvcc}" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'))."
    WARPSIM_PTXAS=$("$here/../ptxas.sh") || exit 2
    export WARPSIM_PTXAS
    rodinia_line="$rodinia_line $("$here/../ptxas.sh" --line)"
fi

vars=(--set-var "size=$size" --set-var "oracle_dir=$out/oracle")
"$warpsim" sweep "$here/record.toml" "${vars[@]}" --out "$out/record" --jobs "$jobs"
"$warpsim" sweep "$here/cawa.toml" "${vars[@]}" --out "$out" --jobs "$jobs"
tab=(--dir "$out")
if [ -n "$rodinia" ]; then
    "$warpsim" sweep "$here/record-rodinia.toml" "${rvars[@]}" --out "$out/rodinia/record" \
        --jobs "$jobs"
    "$warpsim" sweep "$here/cawa-rodinia.toml" "${rvars[@]}" --out "$out/rodinia" --jobs "$jobs"
    tab+=(--rodinia "$out/rodinia")
fi
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
[ -x "$nvcc" ] || kmeans_tex=0
if [ "$kmeans_tex" = 1 ] &&
    ! "$here/kmeans_tex/run.sh" --warpsim "$warpsim" --out "$out/kmeans_tex" --jobs "$jobs" \
        --results "$out/kmeans_tex/results.md" >&2; then
    echo "run.sh: kmeans_tex/run.sh failed; results-$size.md leaves its tables out" >&2
    kmeans_tex=0
fi
res=$here/results-$size.md
{
    printf '# CAWA on warpsim: size %s, --config cawa\n\n' "$size"
    printf 'Generated by `experiments/cawa/run.sh%s --size %s` (tables.py). %s %s\n\n' \
        "${rodinia:+ RODINIA_CHECKOUT}" "$size" "$("$here/../stamp.sh" "$warpsim")" "$rodinia_line"
    python3 "$here/tables.py" "${tab[@]}"
    if [ "$kmeans_tex" = 1 ]; then
        printf '\n# kmeans through the texture path (kmeans_tex/run.sh, kmeans_tex built with nvcc %s)\n\n' \
            "$("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
        python3 "$here/kmeans_tex/tables.py" "$out/kmeans_tex"
    fi
} >"$res"
cat "$res"
"$warpsim" report "$here/cawa.toml" "${vars[@]}" --out "$out" >&2
