#!/usr/bin/env bash
# fuzz.sh: build the libFuzzer targets of tests/fuzz with clang (ASan + UBSan,
# build-fuzz/) and run each for a while on seed corpora taken from the
# repository.  A crash, sanitizer report, leak or 60-second input stops that target and
# leaves the input in build-fuzz/artifacts/; the script then exits 1.
#
# usage: scripts/fuzz.sh [--time SECONDS] [--target ptx|launch|fatbin|config]...
#   --time S    seconds per target (default 15: the smoke run of scripts/test.sh;
#               an hour-long run: --time 3600)
#   --target T  only these targets (repeatable; default all four)
# Exit 77 when clang or its libFuzzer runtime is missing (nothing was run).
set -euo pipefail
cd "$(dirname "$0")/.."

secs=15
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
  --time) secs=${2:?--time needs seconds}; shift 2 ;;
  --target) targets+=("${2:?--target needs a name}"); shift 2 ;;
  -h|--help) sed -n '6,10p' "$0" | sed 's/^# //'; exit 0 ;;
  *) echo "fuzz.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(ptx launch fatbin config)
for t in "${targets[@]}"; do
  case "$t" in ptx|launch|fatbin|config) ;; *) echo "fuzz.sh: unknown target '$t'" >&2; exit 2 ;; esac
done

if ! command -v clang >/dev/null ||
   ! echo 'int LLVMFuzzerTestOneInput(const char *d, long n){(void)d;(void)n;return 0;}' |
     clang -x c -fsanitize=fuzzer - -o /dev/null 2>/dev/null; then
  echo "fuzz.sh: clang with libFuzzer not found (Debian: clang libclang-rt-14-dev): skipped"
  exit 77
fi

b=build-fuzz
CC=clang cmake -S . -B $b -DWS_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build $b -j"$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null

# seed corpora: the repository's PTX, fatbinaries and configurations
seeds=$b/seeds
rm -rf "$seeds"
mkdir -p "$seeds"/{ptx,fatbin,config} $b/artifacts
cp workloads/*/*.ptx tests/ptx/*.ptx "$seeds/ptx/"
find tests -name '*.ptx' -not -path 'tests/ptx/*' -exec cp {} "$seeds/ptx/" \;
cp tests/cuda/fixtures/*.fatbin "$seeds/fatbin/"
i=0
for f in configs/*.config; do   # even first byte: the GPGPU-Sim importer
  { printf '\0'; cat "$f"; } > "$seeds/config/gpgpusim-$i"; i=$((i + 1))
done
for f in configs/*.cfg; do      # odd first byte: key=value lines
  { printf '\1'; sed 's/ *= */=/' "$f"; } > "$seeds/config/keys-$i"; i=$((i + 1))
done

status=0
for t in "${targets[@]}"; do
  corpus=$b/corpus/$t
  mkdir -p "$corpus"
  seed_dir=$seeds/$t
  [ "$t" = launch ] && seed_dir=$seeds/ptx
  [ "$t" = ptx ] && seed_dir=$seeds/ptx
  log=$b/fuzz-$t.log
  if ASAN_OPTIONS=detect_leaks=1 "$b/fuzz_$t" -max_total_time="$secs" -timeout=60 \
      -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 \
      -artifact_prefix="$b/artifacts/$t-" "$corpus" "$seed_dir" >"$log" 2>&1; then
    runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo '?')
    cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || echo '?')
    echo "fuzz $t: ${secs} s, $runs executions, coverage $cov edges, no crash"
  else
    status=1
    echo "fuzz $t: FAILED (log $log):"
    grep -E 'ERROR|SUMMARY|Test unit written|==[0-9]+==' "$log" | head -10 | sed 's/^/  /'
  fi
done
exit $status
