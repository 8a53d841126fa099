#!/usr/bin/env bash
# gen-ptx.sh: regenerate the committed PTX of every CUDA kernel source in
# workloads/, tests/ptx/ and tests/unit/ (the programs in tests/cuda/ are
# built whole by CMake instead).
#
#   scripts/gen-ptx.sh          rewrite each X.ptx next to its X.cu (and, for a
#                               workload, X.regs: each kernel's registers per
#                               thread from ptxas)
#   scripts/gen-ptx.sh --check  regenerate into a temporary folder and fail if
#                               any committed X.ptx or X.regs differs
#
# The exact commands used for every file (run from the file's folder):
#   nvcc -ptx -arch=sm_75 -O3 -o X.ptx X.cu
#   ptxas -arch=sm_75 -v X.ptx -o /dev/null     (workloads: "Used N registers")
# NVCC may name the compiler (default: nvcc on PATH, then /usr/local/cuda/bin).
set -euo pipefail
cd "$(dirname "$0")/.."
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$nvcc" ] || { echo "gen-ptx: nvcc not found (set NVCC)"; exit 2; }
ptxas=$(dirname "$nvcc")/ptxas
[ -x "$ptxas" ] || { echo "gen-ptx: ptxas not found next to $nvcc"; exit 2; }
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
  files=("$base.ptx")
  if [ "${dir#workloads/}" != "$dir" ]; then
    # a workload's registers per thread, as ptxas reports them for the PTX's
    # target (GPGPU-Sim reads "Used N registers" the same way)
    {
      echo "# registers per thread: ptxas -arch=sm_75 on $base.ptx (scripts/gen-ptx.sh)"
      "$ptxas" -arch=sm_75 -v "$out" -o /dev/null 2>&1 |
        awk '/Compiling entry function/ { k = $7; gsub(/\047/, "", k) }
             /Used [0-9]+ registers/ && k != "" { print k, $5; k = "" }'
    } >"$tmp/$base.regs"
    files+=("$base.regs")
  fi
  for f in "${files[@]}"; do
    if [ $check = 1 ]; then
      if ! cmp -s "$tmp/$f" "$dir/$f"; then
        echo "gen-ptx: $dir/$f differs from what nvcc/ptxas now produce from $base.cu"
        status=1
      fi
    else
      cp "$tmp/$f" "$dir/$f"
    fi
  done
done < <(find workloads tests/ptx tests/unit -name '*.cu' | sort)
echo "gen-ptx: $count CUDA file(s) $([ $check = 1 ] && echo checked || echo regenerated)"
exit $status
