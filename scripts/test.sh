#!/usr/bin/env bash
# test.sh: the whole test suite.  Builds warpsim twice, optimised (build/) and
# with AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/), and runs
# every CTest test in both.  Installs missing Debian packages first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=$(nproc)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DWS_SANITIZE=ON >/dev/null
cmake --build build-asan -j"$jobs"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
status=0
echo "== tests (optimised build)"
(cd build && ctest --output-on-failure -j"$jobs") || status=1
echo "== tests (sanitizer build)"
(cd build-asan && ctest --output-on-failure -j"$jobs") || status=1
exit $status
