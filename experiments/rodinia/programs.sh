# programs.sh: the Rodinia programs warpsim's experiments run, sourced by
# build.sh and run.sh.  For each program: its folder in the checkout's cuda/,
# its build (nvcc against warpsim's replacement libcudart, sources unmodified),
# its generated input and its default command line.  Needs $nvcc.
# shellcheck shell=bash

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
# srad_v1: main.cu includes its kernels and helpers
b_srad_v1() { $NV main.cu -o prog; }
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
# heartwall: its AVI reader (AVI/) compiled with gcc, as its makefile does
b_heartwall() {
    gcc -O2 -c AVI/avilib.c AVI/avimod.c &&
    $NV -I./AVI main.cu avilib.o avimod.o -o prog -lm
}
b_streamcluster() { $NV streamcluster_cuda_cpu.cpp streamcluster_cuda.cu streamcluster_header.cu -o prog; }
b_particlefilter() { $NV -use_fast_math ex_particle_CUDA_float_seq.cu -o prog -lm; }
# cfd includes the CUDA samples' helper_cuda.h and helper_timer.h, which the
# checkout ships in hybridsort/ ($src is the checkout, set by rodinia_build);
# their device-choice helpers (unused by cfd) read two cudaDeviceProp fields
# CUDA 13 removed, renamed to existing ones as for gaussian.
b_cfd() {
    $NV -I"$src/cuda/hybridsort" -DclockRate=memoryBusWidth -DcomputeMode=asyncEngineCount \
        euler3d.cu -o prog
}
b_dwt2d() {
    $NV -I. main.cu dwt.cu components.cu dwt_cuda/fdwt53.cu dwt_cuda/fdwt97.cu \
        dwt_cuda/common.cu dwt_cuda/rdwt97.cu dwt_cuda/rdwt53.cu -o prog
}

# program -> source folder, default arguments
declare -A dir=(
    [hotspot]=hotspot [pathfinder]=pathfinder [gaussian]=gaussian [bfs]=bfs
    [backprop]=backprop [nw]=nw [srad_v1]=srad/srad_v1 [srad_v2]=srad/srad_v2 [lud]=lud/cuda
    [kmeans]=kmeans [nn]=nn [b+tree]=b+tree [lavaMD]=lavaMD
    [streamcluster]=streamcluster [particlefilter]=particlefilter [heartwall]=heartwall
    [cfd]=cfd [dwt2d]=dwt2d)
declare -A args=(
    [hotspot]="256 2 8 temp_256 power_256 output.out"
    [pathfinder]="100000 100 20"
    [gaussian]="-s 64 -q"
    [bfs]="graph16k.txt"
    [backprop]="65536"
    [nw]="256 10"
    [srad_v1]="2 0.5 502 458"
    [srad_v2]="128 128 0 31 0 31 0.5 2"
    [lud]="-s 256 -v"
    [kmeans]="-o -i points.txt -m 4 -n 4"
    [nn]="filelist -r 5 -lat 30 -lng 90"
    [b+tree]="file keys.txt command command.txt"
    [lavaMD]="-boxes1d 4"
    [streamcluster]="3 6 16 512 512 100 none output.txt 1"
    [particlefilter]="-x 64 -y 64 -z 8 -np 1024"
    [heartwall]="test.avi 1"
    [cfd]="mesh.domn"
    [dwt2d]="rgb.raw -d 512x512 -f -5 -l 3")
# options every run of a program gets: srad_v2 reads before its array (the
# value is discarded), which faults unless such reads return zero
declare -A extra=([srad_v2]="--set oob_read_zero=1")

# output files the programs write (compared between modes like stdout)
declare -A outfile=([hotspot]=output.out [b+tree]=output.txt [streamcluster]=output.txt [nw]=result.txt)

# Inputs (deterministic: awk's srand with a fixed seed).
in_hotspot() {
    awk 'BEGIN { srand(1); for (i = 0; i < 256*256; i++) printf "%.6f\n", 320 + 20*rand() }' > temp_256
    awk 'BEGIN { srand(2); for (i = 0; i < 256*256; i++) printf "%.6f\n", 0.001*rand() }' > power_256
    # 512x512 (Rodinia's own run script's size; experiments/medic)
    awk 'BEGIN { srand(1); for (i = 0; i < 512*512; i++) printf "%.6f\n", 320 + 20*rand() }' > temp_512
    awk 'BEGIN { srand(2); for (i = 0; i < 512*512; i++) printf "%.6f\n", 0.001*rand() }' > power_512
}
gen_graph() {   # N FILE: Rodinia graph format: nodes, (first edge, degree) per node, source, edges, (dest cost) per edge
    awk -v n="$1" 'BEGIN { srand(3); e = 0
        for (i = 0; i < n; i++) { d[i] = 1 + int(6*rand()); s[i] = e; e += d[i] }
        print n; for (i = 0; i < n; i++) print s[i], d[i]; print 0; print e
        for (i = 0; i < n; i++) for (k = 0; k < d[i]; k++) print int(n*rand()), 1 + int(10*rand()) }' > "$2"
}
# graph64k.txt: the node count of CAWA's Table 2 (experiments/cawa; experiments/medic too)
in_bfs() { gen_graph 16384 graph16k.txt && gen_graph 65536 graph64k.txt; }
in_kmeans() {
    awk 'BEGIN { srand(4); for (i = 1; i <= 512; i++) { printf "%d", i
        for (f = 0; f < 8; f++) printf " %.4f", 10*int(4*rand()) + rand(); print "" } }' > points.txt
}
in_nn() {
    mkdir -p data && ./gen 16384 1 >/dev/null && ls data/*.db > filelist
    # 524288 records in hurricane_gen's format, deterministic (hurricane_gen seeds
    # with the time); for experiments/medic: filelist512k
    awk 'BEGIN { srand(6); split("ALBERTO BERYL CHRIS DEBBY ERNESTO FLORENCE GORDON HELENE ISAAC JOYCE KIRK LESLIE MICHAEL NADINE OSCAR PATTY RAFAEL SANDY TONY VALERIE WILLIAM", nm, " ")
        for (i = 0; i < 524288; i++)
            printf "%4d %2d %2d %2d %2d %-9s %5.1f %5.1f %4d %4d\n", 1950 + int(55*rand()), 1 + int(12*rand()),
                1 + int(28*rand()), 6*int(4*rand()), 1 + int(28*rand()), nm[1 + int(21*rand())],
                7 + 63*rand(), 358*rand(), 10 + int(155*rand()), int(900*rand()) }' > records512k.db
    echo records512k.db > filelist512k
}
in_bptree() {
    awk 'BEGIN { srand(5); n = 4096; print n; for (i = 0; i < n; i++) print int(1000000*rand()) }' > keys.txt
    printf 'k 128\nj 128 32\n' > command.txt
    # CAWA's Table 2 size (one million keys), fewer queries (experiments/cawa)
    awk 'BEGIN { srand(6); n = 1000000; print n; for (i = 0; i < n; i++) print int(100000000*rand()) }' > keys1m.txt
    printf 'k 1024\nj 1024 256\n' > command1m.txt
    printf 'k 1536\nj 1536 32\n' > command_paws.txt   # the Phase-aware experiment's
}
# srad_v1 reads a 502x458 grey PGM (P2) from ../../../data/srad/image.pgm,
# i.e. DIR/data/srad: a smooth bright disc on a darker field with
# multiplicative speckle, the kind of ultrasound image the program filters
in_srad_v1() {
    mkdir -p ../../../data/srad
    awk 'BEGIN { srand(7); r = 502; c = 458; print "P2"; print c, r; print 255
        for (i = 0; i < r; i++) { line = ""
            for (j = 0; j < c; j++) { d = sqrt((i - 250)^2 + (j - 230)^2)
                v = (d < 150 ? 180 : 70) * (0.6 + 0.8*rand()); if (v > 255) v = 255
                line = line int(v) " " }
            print line } }' > ../../../data/srad/image.pgm
}

# heartwall: a generated 656x744 grey AVI of 5 frames (heartwall-avi.py;
# Rodinia's ultrasound video is not in git); $here is experiments/rodinia
in_heartwall() { python3 "$here/heartwall-avi.py" test.avi 5; }
# cfd: a structured 96x96 mesh (9216 cells: 48 blocks of 192 threads, three
# per SM of the paws preset, as the paper's CFD) in euler3d's format: the cell
# count, then per cell its area and, for each of 4 faces, the neighbour
# (1-based; 0 a wall, -1 the far field) and the face normal (x y z).
in_cfd() {
    awk 'BEGIN { n = 96; print n*n
        for (y = 0; y < n; y++) for (x = 0; x < n; x++) {
            l = x > 0 ? y*n + x : -1; r = x < n-1 ? y*n + x + 2 : -1
            d = y > 0 ? (y-1)*n + x + 1 : 0; u = y < n-1 ? (y+1)*n + x + 1 : 0
            printf "1.0 %d -1 0 0 %d 1 0 0 %d 0 -1 0 %d 0 1 0\n", l, r, d, u } }' > mesh.domn
}
# dwt2d reads ../../data/dwt2d/NAME (from its folder: OUT/data/dwt2d) as raw
# 8-bit RGB of the -d size: a 512x512 gradient with noise.
in_dwt2d() {
    mkdir -p ../../data/dwt2d
    LC_ALL=C awk 'BEGIN { srand(6); for (y = 0; y < 512; y++) for (x = 0; x < 512; x++)
        for (c = 0; c < 3; c++) printf "%c", (x + y + 40*c + int(32*rand())) % 256 }' \
        > ../../data/dwt2d/rgb.raw
}

bfn() { case "$1" in b+tree) echo b_bptree ;; *) echo "b_$1" ;; esac; }
infn() { case "$1" in b+tree) echo in_bptree ;; *) echo "in_$1" ;; esac; }


# the programs, in the order results list them
rodinia_all="hotspot pathfinder gaussian bfs backprop nw srad_v1 srad_v2 lud kmeans nn b+tree lavaMD streamcluster particlefilter heartwall"
# added for the Phase-aware experiment (not yet in run.sh's results.md)
rodinia_paws="cfd dwt2d"

# rodinia_build SRC OUT PROG: copy PROG's folder of SRC/cuda into OUT/src/PROG,
# build it there, generate its input and link OUT/PROG to the folder the program
# runs in.  The build's and the input's output go to OUT/log/PROG.{build,input}.
# Returns non-zero when the program is unknown or does not build.
rodinia_build() {
    local src=$1 out=$2 p=$3 d w bw
    d=${dir[$p]:-}
    [ -n "$d" ] || { echo "unknown Rodinia program '$p'" >&2; return 2; }
    w=$out/src/$p
    rm -rf "$w" "${out:?}/$p"; mkdir -p "$w" "$out/log"
    # copy the program's parent folder when it has one (lud/common, srad/)
    if [ "$(dirname "$d")" = . ]; then
        cp -r "$src/cuda/$d/." "$w/"; bw=$w
    else
        cp -r "$src/cuda/$(dirname "$d")/." "$w/"; bw=$w/$(basename "$d")
    fi
    (cd "$bw" && $(bfn "$p")) > "$out/log/$p.build" 2>&1 || return 1
    (cd "$bw" && if declare -F "$(infn "$p")" >/dev/null; then $(infn "$p"); fi) > "$out/log/$p.input" 2>&1
    ln -s "${bw#"$out"/}" "$out/$p"
}
