#!/usr/bin/env bash
# ptxas_regs.sh: with ptx.ptxas_regs=1 `warpsim exec` sizes every launch with
# ptxas's register counts (kernel_regs_ptxas counts them), without it with
# warpsim's estimate; a ptxas that fails is a clear error, not a fallback.
# usage: tests/cuda/ptxas_regs.sh <warpsim> <multi program built by nvcc>
# (WARPSIM_PTXAS: the ptxas beside nvcc)
set -u
ws=$1
prog=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL cuda ptxas_regs: $*"; fail=1; }
run() { env ${WS_PRELOAD:+LD_PRELOAD=$WS_PRELOAD} "$ws" exec "$@" -- "$prog" >"$tmp/out" 2>"$tmp/err"; }
counts() {
  python3 -c 'import json, sys
t = json.load(open(sys.argv[1]))["totals"]
print(t["kernels_launched"], t["kernel_regs_ptxas"], t["kernel_regs_estimated"])' "$1"
}
run --stats-json "$tmp/est.json" || no "estimate run exit $?: $(head -2 "$tmp/err")"
read -r n p e < <(counts "$tmp/est.json")
[ "$n" -gt 0 ] && [ "$p" = 0 ] && [ "$e" = "$n" ] || no "estimate run: $n launches, $p ptxas, $e estimated"
run --set ptx.ptxas_regs=1 --stats-json "$tmp/ptxas.json" ||
  no "ptxas run exit $?: $(head -2 "$tmp/err")"
grep -qx PASS "$tmp/out" || no "ptxas run: the program did not print PASS"
read -r n p e < <(counts "$tmp/ptxas.json")
[ "$n" -gt 0 ] && [ "$p" = "$n" ] && [ "$e" = 0 ] || no "ptxas run: $n launches, $p ptxas, $e estimated"
WARPSIM_PTXAS=/bin/false run --set ptx.ptxas_regs=1
rc=$?
[ "$rc" != 0 ] || no "a failing ptxas exited 0"
grep -q "ptx.ptxas_regs: /bin/false -arch=sm_75 failed" "$tmp/err" ||
  no "a failing ptxas is not named: $(head -2 "$tmp/err")"
[ $fail = 0 ] && echo PASS
exit $fail
