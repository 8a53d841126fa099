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

# cudaThreadSynchronize left CUDA in 12.0: mapped to its successor on the
# command line (the sources stay unmodified).
NV="$nvcc -cudart shared -gencode arch=compute_75,code=compute_75 -O2 -DcudaThreadSynchronize=cudaDeviceSynchronize"

# ---- build: one function per program, run in a copy of its folder ----------
b_hotspot() { $NV hotspot.cu -o prog; }
b_pathfinder() { $NV pathfinder.cu -o prog; }
# gaussian prints two cudaDeviceProp fields CUDA 13 removed: renamed to
# existing ones (printed only).
b_gaussian() { $NV -DclockRate=memoryBusWidth -DdeviceOverlap=asyncEngineCount gaussian.cu -o prog; }
b_bfs() { $NV bfs.cu -o prog; }
b_backprop() {
    gcc -O2 -c backprop.c facetrain.c imagenet.c &&
    $NV -c backprop_cuda.cu -o backprop_cuda.o &&
    $NV backprop.o facetrain.o imagenet.o backprop_cuda.o -o prog -lm
}
b_nw() { $NV needle.cu -o prog; }
b_srad_v2() { $NV srad.cu -o prog; }
b_lud() { $NV -I../common -DRD_WG_SIZE_0=16 lud.cu lud_kernel.cu ../common/common.c -o prog; }
b_kmeans() {
    gcc -O2 -c cluster.c getopt.c kmeans.c kmeans_clustering.c rmse.c &&
    $NV -c kmeans_cuda.cu -o kmeans_cuda.o &&
    $NV cluster.o getopt.o kmeans.o kmeans_clustering.o kmeans_cuda.o rmse.o -o prog -lm
}
b_nn() { $NV nn_cuda.cu -o prog && gcc -O2 hurricane_gen.c -o gen -lm; }
b_bptree() {
    gcc -O2 -c main.c util/num/num.c util/timer/timer.c &&
    $NV -c kernel/kernel_gpu_cuda_wrapper.cu -o w1.o &&
    $NV -c kernel/kernel_gpu_cuda_wrapper_2.cu -o w2.o &&
    $NV -c util/cuda/cuda.cu -o cu.o &&
    $NV main.o num.o timer.o w1.o w2.o cu.o -o prog -lm
}
b_lavaMD() {
    gcc -O2 -c main.c util/num/num.c util/timer/timer.c &&
    $NV -c kernel/kernel_gpu_cuda_wrapper.cu -o w.o &&
    $NV -c util/device/device.cu -o d.o &&
    $NV main.o num.o timer.o w.o d.o -o prog -lm
}
b_streamcluster() { $NV streamcluster_cuda_cpu.cpp streamcluster_cuda.cu streamcluster_header.cu -o prog; }
b_particlefilter() { $NV -use_fast_math ex_particle_CUDA_float_seq.cu -o prog -lm; }

# program -> source folder, build function, input preparation, arguments
declare -A dir=(
    [hotspot]=hotspot [pathfinder]=pathfinder [gaussian]=gaussian [bfs]=bfs
    [backprop]=backprop [nw]=nw [srad_v2]=srad/srad_v2 [lud]=lud/cuda
    [kmeans]=kmeans [nn]=nn [b+tree]=b+tree [lavaMD]=lavaMD
    [streamcluster]=streamcluster [particlefilter]=particlefilter)
declare -A args=(
    [hotspot]="256 2 8 temp_256 power_256 output.out"
    [pathfinder]="100000 100 20"
    [gaussian]="-s 64 -q"
    [bfs]="graph16k.txt"
    [backprop]="65536"
    [nw]="256 10"
    [srad_v2]="128 128 0 31 0 31 0.5 2"
    [lud]="-s 256 -v"
    [kmeans]="-o -i points.txt -m 4 -n 4"
    [nn]="filelist -r 5 -lat 30 -lng 90"
    [b+tree]="file keys.txt command command.txt"
    [lavaMD]="-boxes1d 4"
    [streamcluster]="3 6 16 512 512 100 none output.txt 1"
    [particlefilter]="-x 64 -y 64 -z 8 -np 1024")
# options every run of a program gets: srad_v2 reads before its array (the
# value is discarded), which faults unless such reads return zero
declare -A extra=([srad_v2]="--set oob_read_zero=1")

# output files the programs write (compared between modes like stdout)
declare -A outfile=([hotspot]=output.out [b+tree]=output.txt [streamcluster]=output.txt [nw]=result.txt)

# CTAs simulated per launch under sample.ctas: 2 waves of the default GPU
# (15 SMs x 8 CTAs of 256 threads or fewer).
sample_ctas=240
progs="hotspot pathfinder gaussian bfs backprop nw srad_v2 lud kmeans nn b+tree lavaMD streamcluster particlefilter"
[ -z "$only" ] || progs=$only

# Inputs (deterministic: awk's srand with a fixed seed).
in_hotspot() {
    awk 'BEGIN { srand(1); for (i = 0; i < 256*256; i++) printf "%.6f\n", 320 + 20*rand() }' > temp_256
    awk 'BEGIN { srand(2); for (i = 0; i < 256*256; i++) printf "%.6f\n", 0.001*rand() }' > power_256
}
in_bfs() {   # Rodinia graph format: nodes, (first edge, degree) per node, source, edges, (dest cost) per edge
    awk 'BEGIN { srand(3); n = 16384; e = 0
        for (i = 0; i < n; i++) { d[i] = 1 + int(6*rand()); s[i] = e; e += d[i] }
        print n; for (i = 0; i < n; i++) print s[i], d[i]; print 0; print e
        for (i = 0; i < n; i++) for (k = 0; k < d[i]; k++) print int(n*rand()), 1 + int(10*rand()) }' > graph16k.txt
}
in_kmeans() {
    awk 'BEGIN { srand(4); for (i = 1; i <= 512; i++) { printf "%d", i
        for (f = 0; f < 8; f++) printf " %.4f", 10*int(4*rand()) + rand(); print "" } }' > points.txt
}
in_nn() { mkdir -p data && ./gen 16384 1 >/dev/null && ls data/*.db > filelist; }
in_bptree() {
    awk 'BEGIN { srand(5); n = 4096; print n; for (i = 0; i < n; i++) print int(1000000*rand()) }' > keys.txt
    printf 'k 128\nj 128 32\n' > command.txt
}

bfn() { case "$1" in b+tree) echo b_bptree ;; *) echo "b_$1" ;; esac; }
infn() { case "$1" in b+tree) echo in_bptree ;; *) echo "in_$1" ;; esac; }

mkdir -p "$out/src" "$out/log"
jq_tot() { python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); t=d.get("totals",{})
print("\t".join(str(t.get(k,"-")) for k in sys.argv[2:]))' "$@" 2>/dev/null || echo "-"; }

tsv=$out/results.tsv
: > "$tsv"
for p in $progs; do
    d=${dir[$p]:-}
    [ -n "$d" ] || { echo "run.sh: unknown program '$p'" >&2; exit 2; }
    w=$out/src/$p
    rm -rf "$w"; mkdir -p "$w"
    # copy the program's parent folder when it has one (lud/common, srad/)
    if [ "$(dirname "$d")" = . ]; then
        cp -r "$src/cuda/$d/." "$w/"; bw=$w
    else
        cp -r "$src/cuda/$(dirname "$d")/." "$w/"; bw=$w/$(basename "$d")
    fi
    echo "== $p: build" >&2
    if ! (cd "$bw" && $(bfn "$p")) > "$out/log/$p.build" 2>&1; then
        printf '%s\tbuild-failed\n' "$p" >> "$tsv"; continue
    fi
    (cd "$bw" && if declare -F "$(infn "$p")" >/dev/null; then $(infn "$p"); fi) > "$out/log/$p.input" 2>&1
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
