#!/usr/bin/env bash
# gen-ptx.sh: regenerate the committed PTX of every CUDA kernel source in
# workloads/, tests/ptx/ and tests/unit/ (the programs in tests/cuda/ are
# built whole by CMake instead).
#
#   scripts/gen-ptx.sh          rewrite each X.ptx next to its X.cu
#   scripts/gen-ptx.sh --check  regenerate into a temporary folder and fail if
#                               any committed X.ptx differs
#
# The exact command used for every file (run from the file's folder):
#   nvcc -ptx -arch=sm_75 -O3 -o X.ptx X.cu
# NVCC may name the compiler (default: nvcc on PATH, then /usr/local/cuda/bin).
set -euo pipefail
cd "$(dirname "$0")/.."
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$nvcc" ] || { echo "gen-ptx: nvcc not found (set NVCC)"; exit 2; }
check=0
[ "${1:-}" = "--check" ] && check=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
count=0
while IFS= read -r cu; do
  dir=$(dirname "$cu")
  base=$(basename "$cu" .cu)
  out="$tmp/$base.ptx"
  (cd "$dir" && "$nvcc" -ptx -arch=sm_75 -O3 -o "$out" "$base.cu")
  count=$((count + 1))
  if [ $check = 1 ]; then
    if ! cmp -s "$out" "$dir/$base.ptx"; then
      echo "gen-ptx: $dir/$base.ptx differs from what nvcc now produces from $base.cu"
      status=1
    fi
  else
    cp "$out" "$dir/$base.ptx"
  fi
done < <(find workloads tests/ptx tests/unit -name '*.cu' | sort)
echo "gen-ptx: $count CUDA file(s) $([ $check = 1 ] && echo checked || echo regenerated)"
exit $status
