#!/usr/bin/env bash
# build.sh [DIR]: the optimised build of warpsim into DIR (default build/):
# Release, link-time and profile-guided optimisation (CMakeLists.txt).
#
# 1. The warpsim command is built instrumented (WS_PGO=generate).
# 2. It runs the training set: every built-in workload at size small in
#    timing mode under two presets (gtx480 with GTO, daws with LRR), a few
#    of them on two threads, and every one in functional mode (about a
#    minute on a 2-core machine).  A failing run stops the build.
# 3. Everything is built with those profiles (WS_PGO=use).
#
# Steps 1 and 2 are skipped when DIR holds the profiles of the same sources
# and compiler (DIR/pgo-sources: a hash of them).  With a compiler other than
# gcc, or WS_PGO=0 in the environment, it is a plain Release build.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
jobs=$(nproc)

plain() {
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DWS_PGO= >/dev/null
  cmake --build "$dir" -j"$jobs"
}
if [ "${WS_PGO:-1}" = 0 ]; then
  plain
  exit 0
fi

key=$({ "${CC:-cc}" --version 2>/dev/null | head -1
        find src workloads include cmake CMakeLists.txt scripts/build.sh -type f | LC_ALL=C sort |
          xargs sha1sum; } | sha1sum | cut -d' ' -f1)
if [ "$(cat "$dir/pgo-sources" 2>/dev/null)" != "$key" ]; then
  echo "build: training build (WS_PGO=generate)"
  cfg=$(cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DWS_PGO=generate)
  if ! grep -q "profile-guided optimisation, stage generate" <<<"$cfg"; then
    echo "build: no profile-guided optimisation with this compiler"
    plain
    exit 0
  fi
  rm -f "$dir/pgo-sources"
  find "$dir" -name '*.gcda' -delete
  cmake --build "$dir" -j"$jobs" --target warpsim
  echo "build: training runs (size small)"
  w=$dir/warpsim
  t0=$SECONDS
  train() {
    "$w" "$@" >/dev/null 2>&1 || { echo "build: training run failed: warpsim $*" >&2; exit 1; }
  }
  for wl in $("$w" list | awk '{print $1}'); do
    train run "$wl" --size small --config gtx480 --sched gto --threads 1
    train run "$wl" --size small --config daws --sched lrr --threads 1
    train run "$wl" --size small --mode functional
  done
  for wl in hotsp bfs srad memc; do
    train run "$wl" --size small --config gtx480 --sched lrr --threads 2
  done
  echo "build: training done ($((SECONDS - t0)) s)"
  echo "$key" >"$dir/pgo-sources"
fi
echo "build: optimised build (WS_PGO=use)"
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DWS_PGO=use >/dev/null
cmake --build "$dir" -j"$jobs"
