#!/usr/bin/env bash
# speed.sh: simulation speed and peak memory on a fixed set of (workload,
# size, config).
#
#   bench/speed.sh [path/to/warpsim] [--threads-max N] [--repeat R] [--ctas N]
#                  [--markdown]
#
# Each case runs in functional mode and in timing mode (and, when the binary
# has a --threads option, in timing mode for every thread count 2..N, N = the
# machine's cores unless --threads-max says otherwise), then in timing mode
# under kernel-level sampling (sample.kernels=1) and intra-kernel sampling
# (sample.ctas=N, default 256; docs/sampling.md), each R times (default
# 3), keeping the least CPU time and the least wall time of the R runs: other
# work on the host only ever slows a run down, so the fastest is the one it
# disturbed least.  Rates are simulated instructions per CPU-second (user +
# system time of the process, which a loaded machine disturbs far less than
# wall time); the CPU time includes input generation, the CPU reference check
# and PTX loading, so the figures are conservative.  Columns:
#   warp_insn, thr_insn       simulated warp / thread instructions
#   func Mthr/s               functional mode, M thread instructions per CPU-s
#   tim Mwarp/s, tim Mthr/s   timing mode on 1 thread
#   tN speed-up               timing mode on N threads: wall time on 1 thread /
#                             wall time on N ("-": the binary has no --threads)
#   tim/func                  timing CPU time / functional CPU time
#   ker Mthr/s, cta Mthr/s    sampled timing mode (kernel-level, intra-kernel)
#                             on 1 thread, M thread instructions per CPU-s
#   ker x, cta x              its reduction: full cycles / cycles simulated in
#                             detail (1.0: nothing was skipped)
#   ker err%, cta err%        error of its cycle estimate (sample_est_cycles)
#                             against the full timing run's cycles
#   RSS func, RSS tim         peak resident set size in MB
# --markdown prints the same table as Markdown (README's Speed table is made
# from it).
set -euo pipefail
ws=build/warpsim
tmax=$(nproc 2>/dev/null || echo 1)
md=0
reps=3
ctas=256
while [ $# -gt 0 ]; do
    case $1 in
    --threads-max) tmax=${2:?--threads-max needs a value}; shift 2 ;;
    --markdown) md=1; shift ;;
    --repeat) reps=${2:?--repeat needs a value}; shift 2 ;;
    --ctas) ctas=${2:?--ctas needs a value}; shift 2 ;;
    -*) echo "speed.sh: unknown option '$1'" >&2; exit 2 ;;
    *) ws=$1; shift ;;
    esac
done
case $reps in '' | *[!0-9]* | 0) echo "speed.sh: --repeat needs a count of 1 or more" >&2; exit 2 ;; esac
case $ctas in '' | *[!0-9]* | 0) echo "speed.sh: --ctas needs a count of 1 or more" >&2; exit 2 ;; esac
[ -x "$ws" ] || { echo "speed.sh: '$ws' is not an executable" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "speed.sh: needs /usr/bin/time (Debian: apt-get install time)" >&2; exit 2; }
cases=(
  "vecadd medium gtx480"
  "spmv_scalar medium daws"
  "bfs medium daws"
  "kmeans medium daws"
  "memc medium daws"
  "hotsp medium gtx480"
  "srad medium gtx480"
  "backp medium gtx480"
)
has_threads=0
"$ws" run --help 2>&1 | grep -q -- '--threads' && has_threads=1
# sampled mode needs a binary that knows the sample.* keys (older ones: "-")
has_sample=0
case $("$ws" options 2>/dev/null) in *sample.kernels*) has_sample=1 ;; esac
tlist=()
for ((n = 2; n <= tmax; n++)); do tlist+=("$n"); done

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
# run ARGS...: sets out, cpu (user + system seconds), wall (seconds) and rss
# (MB), the least cpu and wall of $reps runs (the statistics are the same in each)
run() {
    local i u s kb w
    cpu='' wall=''
    for ((i = 0; i < reps; i++)); do
        out=$(/usr/bin/time -f '%U %S %M %e' -o "$tmp" "$ws" run "$@" --stats)
        read -r u s kb w < "$tmp"
        cpu=$(awk -v u="$u" -v s="$s" -v m="$cpu" 'BEGIN { c = u + s; if (m != "" && m < c) c = m; printf "%.3f", c }')
        wall=$(awk -v w="$w" -v m="$wall" 'BEGIN { if (m != "" && m < w) w = m; print w }')
    done
    rss=$(awk -v k="$kb" 'BEGIN { printf "%.0f", k / 1024 }')
}
stat() { awk -v k="$1" '$1 == k {print ($2 == "=" ? $3 : $2); exit}' <<<"$out"; }
rate() { awk -v n="$1" -v t="$2" 'BEGIN { if (t > 0) printf "%.2f", n / t / 1e6; else print "-" }'; }

head=(workload config warp_insn thr_insn "func Mthr/s" "tim Mwarp/s" "tim Mthr/s")
for n in "${tlist[@]}"; do head+=("t$n speed-up"); done
head+=("tim/func" "ker Mthr/s" "ker x" "ker err%" "cta Mthr/s" "cta x" "cta err%" "RSS func" "RSS tim")
ntail=9 # columns after the thread counts
if [ "$md" = 1 ]; then
    (IFS='|'; echo "|${head[*]}|")
    sep="|"; for _ in "${head[@]}"; do sep+="---|"; done; echo "$sep"
else
    printf '%-12s %-7s %10s %11s %11s %11s %11s' "${head[@]:0:7}"
    for n in "${tlist[@]}"; do printf ' %11s' "t$n speed-up"; done
    printf ' %8s' "${head[@]: -$ntail}"
    echo
fi
for c in "${cases[@]}"; do
    read -r w size cfg <<<"$c"
    run "$w" --size "$size" --config "$cfg" --mode functional
    fcpu=$cpu frss=$rss
    one=()
    [ "$has_threads" = 1 ] && one=(--threads 1)
    run "$w" --size "$size" --config "$cfg" --mode timing "${one[@]}"
    winsn=$(stat warp_insn) tinsn=$(stat gpu_sim_insn)
    row=("$w" "$cfg" "$winsn" "$tinsn" "$(rate "$tinsn" "$fcpu")" "$(rate "$winsn" "$cpu")"
         "$(rate "$tinsn" "$cpu")")
    tcpu=$cpu trss=$rss twall=$wall fcyc=$(stat gpu_sim_cycle)
    for n in "${tlist[@]}"; do
        if [ "$has_threads" = 1 ]; then
            run "$w" --size "$size" --config "$cfg" --mode timing --threads "$n"
            row+=("$(awk -v a="$twall" -v b="$wall" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')")
        else
            row+=("-")
        fi
    done
    row+=("$(awk -v a="$tcpu" -v b="$fcpu" 'BEGIN { printf "%.1f", a / b }')")
    for smp in sample.kernels=1 "sample.ctas=$ctas"; do
        if [ "$has_sample" = 0 ]; then
            row+=("-" "-" "-")
            continue
        fi
        run "$w" --size "$size" --config "$cfg" --mode timing "${one[@]}" --set "$smp"
        row+=("$(rate "$tinsn" "$cpu")"
              "$(awk -v f="$fcyc" -v d="$(stat gpu_sim_cycle)" 'BEGIN { printf "%.1f", (d > 0 ? f / d : 0) }')"
              "$(awk -v f="$fcyc" -v e="$(stat sample_est_cycles)" 'BEGIN { if (e == "") print "-"; else printf "%+.1f", (e - f) / f * 100 }')")
    done
    row+=("$frss" "$trss")
    if [ "$md" = 1 ]; then
        (IFS='|'; echo "|${row[*]}|")
    else
        printf '%-12s %-7s %10s %11s %11s %11s %11s' "${row[@]:0:7}"
        for ((i = 7; i < ${#row[@]} - ntail; i++)); do printf ' %11s' "${row[$i]}"; done
        printf ' %8s' "${row[@]: -$ntail}"
        echo
    fi
done
