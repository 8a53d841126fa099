#!/usr/bin/env bash
# build.sh: build Rodinia CUDA programs for warpsim's experiments and generate
# their inputs.  Each program ends up runnable as OUT/<program>/prog from its
# folder OUT/<program> (a link into OUT/src), which sweep SPECs name as the
# program's dir (e.g. dir = "{rodinia}/bfs").  Writes OUT/programs.tsv: name,
# folder and default arguments of every program that built.
#
# usage: experiments/rodinia/build.sh RODINIA_CHECKOUT OUT [--only "prog prog..."]
#
# RODINIA_CHECKOUT is a work tree of github.com/yuhc/gpu-rodinia (its cuda/
# folder is read, never written).  nvcc is $NVCC (default
# /usr/local/cuda/bin/nvcc).  Nothing is downloaded; see README.md.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
usage() { sed -n '8p' "$0" | sed 's/^# //'; exit 2; }
[ $# -ge 2 ] || usage
src=$1 out=$2
shift 2
only=
while [ $# -gt 0 ]; do
    case "$1" in
    --only) [ $# -ge 2 ] || usage; only=$2; shift 2 ;;
    *) echo "build.sh: unknown option '$1'" >&2; usage ;;
    esac
done
[ -d "$src/cuda" ] || { echo "build.sh: '$src' has no cuda/ folder" >&2; exit 2; }
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
[ -x "$nvcc" ] || { echo "build.sh: no nvcc at $nvcc (set NVCC)" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)

# shellcheck source=experiments/rodinia/programs.sh
. "$here/programs.sh"

progs=$rodinia_all
[ -z "$only" ] || progs=$only
failed=0
: > "$out/programs.tsv"
for p in $progs; do
    echo "== $p: build" >&2
    if rodinia_build "$src" "$out" "$p"; then
        printf '%s\t%s\t%s\n' "$p" "$out/$p" "${args[$p]}" >> "$out/programs.tsv"
    else
        echo "build.sh: $p did not build (log: $out/log/$p.build)" >&2
        failed=1
    fi
done
exit $failed
