#!/usr/bin/env bash
# run.sh: Rodinia CUDA programs, built unmodified with nvcc against warpsim's
# replacement libcudart and run through `warpsim exec` in functional mode,
# functional mode with the shared-memory race check, timing mode, and timing
# under kernel-level and intra-kernel sampling.  Writes experiments/rodinia/results.md
# (or --results FILE).
#
# usage: experiments/rodinia/run.sh RODINIA_CHECKOUT [--warpsim PATH] [--out DIR]
#                                   [--results FILE] [--only "prog prog..."]
#                                   [--commit SHA]
#
# RODINIA_CHECKOUT is a work tree of github.com/yuhc/gpu-rodinia (its cuda/
# folder is read, never written: sources are copied into DIR/src); --commit
# names its commit when it is not a git work tree.  Nothing is downloaded.
# Inputs are generated here (see README.md).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
src=${1:-}
[ -n "$src" ] && shift
warpsim=
out=
results=$here/results.md
only=
rev=
usage() { sed -n '8,10p' "$0" | sed 's/^# //'; exit 2; }
[ -n "$src" ] && [ -d "$src/cuda" ] || { echo "run.sh: '$src' has no cuda/ folder" >&2; usage; }
while [ $# -gt 0 ]; do
    case "$1" in
    --warpsim|--out|--results|--only|--commit) [ $# -ge 2 ] || usage ;;
    esac
    case "$1" in
    --warpsim) warpsim=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --results) results=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --commit) rev=$2; shift 2 ;;
    *) echo "run.sh: unknown option '$1'" >&2; usage ;;
    esac
done
[ -n "$warpsim" ] || warpsim=$root/build/warpsim
[ -x "$warpsim" ] || { echo "run.sh: no warpsim binary at $warpsim" >&2; exit 2; }
warpsim=$(cd "$(dirname "$warpsim")" && pwd)/$(basename "$warpsim")
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
[ -x "$nvcc" ] || { echo "run.sh: no nvcc at $nvcc (set NVCC)" >&2; exit 2; }
[ -n "$out" ] || out=$(mktemp -d /tmp/rodinia-ws.XXXXXX)
mkdir -p "$out"
out=$(cd "$out" && pwd)
[ -n "$rev" ] || rev=$(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)

# shellcheck source=experiments/rodinia/programs.sh
. "$here/programs.sh"

# CTAs simulated per launch under sample.ctas: 2 waves of the default GPU
# (15 SMs x 8 CTAs of 256 threads or fewer).
sample_ctas=240
progs=$rodinia_all
[ -z "$only" ] || progs=$only

mkdir -p "$out/log"
jq_tot() { python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); t=d.get("totals",{})
print("\t".join(str(t.get(k,"-")) for k in sys.argv[2:]))' "$@" 2>/dev/null || echo "-"; }

tsv=$out/results.tsv
: > "$tsv"
for p in $progs; do
    [ -n "${dir[$p]:-}" ] || { echo "run.sh: unknown program '$p'" >&2; exit 2; }
    echo "== $p: build" >&2
    if ! rodinia_build "$src" "$out" "$p"; then
        printf '%s\tbuild-failed\n' "$p" >> "$tsv"; continue
    fi
    bw=$out/$p
    for m in functional racecheck timing sample-kernels sample-ctas; do
        case $m in
        functional) set -- --mode functional ;;
        racecheck) set -- --mode functional --set racecheck=1 ;;
        timing) set -- ;;
        sample-kernels) set -- --set sample.kernels=1 ;;
        sample-ctas) set -- --set sample.ctas=$sample_ctas ;;
        esac
        echo "== $p: $m" >&2
        t0=$(date +%s.%N)
        (cd "$bw" && timeout 600 "$warpsim" exec ${extra[$p]:-} "$@" --stats-json "$out/log/$p.$m.json" -- ./prog ${args[$p]}) \
            > "$out/log/$p.$m.out" 2> "$out/log/$p.$m.err"
        rc=$?
        t1=$(date +%s.%N)
        f=${outfile[$p]:-}
        if [ -n "$f" ] && [ -f "$bw/$f" ]; then mv "$bw/$f" "$out/log/$p.$m.file"; fi
        printf '%s\t%s\t%s\t%.1f\t%s\n' "$p" "$m" "$rc" "$(echo "$t1 - $t0" | bc)" \
            "$(jq_tot "$out/log/$p.$m.json" kernels_launched warp_insn gpu_sim_insn gpu_sim_cycle gpu_ipc racecheck_hazards sample_est_cycles sample_est_error_cycles)" >> "$tsv"
    done
done
echo "run.sh: logs in $out" >&2
python3 "$here/table.py" "$tsv" "$out/log" "$rev" "$("$root/experiments/stamp.sh" "$warpsim")" > "$results"
echo "run.sh: wrote $results" >&2
