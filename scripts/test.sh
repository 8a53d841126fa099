#!/usr/bin/env bash
# test.sh: the whole test suite.  Builds warpsim twice, optimised (build/, by
# scripts/build.sh as scripts/setup.sh does) and with AddressSanitizer +
# UndefinedBehaviorSanitizer (build-asan/), and runs every CTest test in
# both.  Installs missing Debian packages first.  Tests that cannot run here
# (no nvcc) are reported as skipped, with the reason printed when the build
# is configured.  The last line counts both builds:
# "N passed, M failed, K skipped".  When clang is installed, a clang build
# with ASan + UBSan (build-clang/) and its tests run too, so the code stays
# warning-free under both compilers and clean under both compilers'
# sanitizers (the parallel engine's determinism tests are left out there), then
# a 15-second run of each libFuzzer target (scripts/fuzz.sh, build-fuzz/); they
# count in the last line.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=$(nproc)
scripts/build.sh build
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DWS_SANITIZE=ON >/dev/null
cmake --build build-asan -j"$jobs"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
status=0
passed=0
failed=0
skipped=0
# tests <label> <build dir> [ctest option...]: ctest there; counts its results
tests() {
  local label=$1 dir=$2 log=$2/Testing/test-sh.log p f s
  shift 2
  echo "== tests ($label)"
  mkdir -p "$dir/Testing"
  (cd "$dir" && ctest --output-on-failure -j"$jobs" "$@") | tee "$log" || status=1
  p=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .* Passed +[0-9.]+ sec' "$log" || true)
  s=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*\*\*\*Skipped' "$log" || true)
  f=$(($(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: ' "$log" || true) - p - s))
  echo "$label: $p passed, $f failed, $s skipped"
  if [ "$s" != 0 ]; then
    echo "  skipped: $(grep -oE '#[0-9]+: [^ ]+ .*\*\*\*Skipped' "$log" | awk '{print $2}' | sort | xargs)" \
      "(the configure step printed why)"
  fi
  passed=$((passed + p))
  failed=$((failed + f))
  skipped=$((skipped + s))
}
tests "optimised build" build
tests "sanitizer build" build-asan
builds="both builds"
clang=$(command -v clang || true)
if [ -n "$clang" ]; then
  # with clang's ASan + UBSan: its warnings and its sanitizers' view (the
  # fuzzers', scripts/fuzz.sh), the shared libcudart included
  echo "== clang sanitizer build ($("$clang" --version | head -1))"
  CC=$clang cmake -S . -B build-clang -DCMAKE_BUILD_TYPE=Debug -DWS_SANITIZE=ON >/dev/null
  cmake --build build-clang -j"$jobs" || status=1
  # the parallel engine's tests (a third of the sanitizer builds' test time) run
  # in the two gcc builds only: what they add under a sanitizer is the same code
  echo "== clang sanitizer build: parallel/threads/* left out (run in the gcc builds)"
  tests "clang sanitizer build" build-clang -E '^parallel/threads/'
  builds="all three builds"
  # a short run of every libFuzzer target (scripts/fuzz.sh); each counts as a test
  echo "== fuzz smoke run (scripts/fuzz.sh --time 15)"
  fuzz_rc=0
  fuzz_out=$(scripts/fuzz.sh --time 15) || fuzz_rc=$?
  echo "$fuzz_out"
  if [ "$fuzz_rc" = 77 ]; then
    skipped=$((skipped + 1))
  else
    passed=$((passed + $(grep -c 'no crash$' <<<"$fuzz_out" || true)))
    failed=$((failed + $(grep -c 'FAILED' <<<"$fuzz_out" || true)))
    [ "$fuzz_rc" = 0 ] || status=1
  fi
else
  echo "== clang not installed: the clang build and the fuzz smoke run are left out"
fi
echo "== $builds"
echo "$passed passed, $failed failed, $skipped skipped"
exit $status
