#!/usr/bin/env bash
# fault.sh: what a user sees of a CUDA program whose kernel faults (issue 15):
# the program gets cudaErrorIllegalAddress (sticky), `warpsim exec` exits 1
# although the program exits 0 (--keep-status keeps the 0), one summary at exit
# with the demangled kernel and, for a -lineinfo build, the CUDA line;
# --dump-ptx writes the PTX file the message names; oob_read_zero=1 lets the
# reads return zero with a warning and a count.
# usage: tests/cuda/fault.sh <warpsim> <fault program> <the same built with -lineinfo>
set -u
ws=$1
prog=$2
prog_lines=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
check() { # check <name> <command...>: the command must succeed
  local name=$1
  shift
  if "$@"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $name"
    echo "--- stderr:"
    cat "$tmp/err"
  fi
}
# run <args...>: warpsim exec; stdout, stderr and status into $tmp/{out,err}, $rc
run() {
  # WS_PRELOAD: the sanitizer runtime the instrumented libcudart needs in an nvcc program
  env ${WS_PRELOAD:+LD_PRELOAD=$WS_PRELOAD} "$ws" exec "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
}
count() { grep -c -- "$1" "$tmp/err"; }
kernel='gather(float const\*, float\*, int, int)'            # basic regular expression
kernel_ere='gather\(float const\*, float\*, int, int\)'     # extended

for mode in functional timing; do
  run --mode $mode -- "$prog_lines" fault
  check "$mode: exit status 1" [ "$rc" = 1 ]
  check "$mode: the program saw the sticky error" grep -qx PASS "$tmp/out"
  check "$mode: one line at the fault" [ "$(count "^warpsim: cudaLaunchKernel: kernel $kernel failed: cudaErrorIllegalAddress")" = 1 ]
  check "$mode: one summary" [ "$(count '^warpsim: 1 of 5 kernel launches failed:$')" = 1 ]
  check "$mode: per kernel" grep -qx "  $kernel: 1 failed (cudaErrorIllegalAddress), 3 refused after a fault" "$tmp/err"
  check "$mode: the first in full, with the CUDA line" grep -Eq "^warpsim: the first, launch 2 \(cudaErrorIllegalAddress\): kernel '$kernel_ere' thread \([0-9]+,0,0\) block \(1,0,0\) at [^ ]*tests/cuda/fault\.cu:15 \(tu[0-9]+\.compute_75\.ptx:[0-9]+, PC [0-9]+: ld\.global\.f32\): read of 4 bytes at 0x[0-9a-f]+ " "$tmp/err"
  check "$mode: never mangled" [ "$(count '_Z6gather')" = 0 ]
  check "$mode: refused calls counted" grep -q '^warpsim: after a fault 4 CUDA calls returned' "$tmp/err"
  check "$mode: exec says why" grep -q '^warpsim exec: 1 kernel launch failed' "$tmp/err"
done

run --keep-status --mode functional -- "$prog_lines" fault
check "--keep-status: the program's 0" [ "$rc" = 0 ]
check "--keep-status: the summary all the same" [ "$(count '^warpsim: 1 of 5 kernel launches failed:$')" = 1 ]

# without -lineinfo: the PTX line, in the file --dump-ptx wrote
run --mode functional --dump-ptx "$tmp/ptx" -- "$prog" fault
check "no lineinfo: exit status 1" [ "$rc" = 1 ]
loc=$(grep -Eo "at $tmp/ptx/tu[0-9]+\.compute_75\.ptx:[0-9]+ \(PC" "$tmp/err" | head -1)
file=${loc#at }
file=${file%%:*}
line=${loc##*:}
line=${line%% *}
check "no lineinfo: names a dumped PTX file" [ -n "$loc" ] && [ -f "$file" ]
check "no lineinfo: the named line is the load" grep -q 'ld\.global\.f32' <(sed -n "${line}p" "$file")
check "no lineinfo: no --dump-ptx hint when dumped" [ "$(count 'warpsim exec --dump-ptx DIR')" = 0 ]
run --mode functional -- "$prog" fault
check "no lineinfo: hint to dump" [ "$(count 'warpsim exec --dump-ptx DIR')" = 1 ]
run --dump-ptx /proc/nonexistent/x -- "$prog" fault
check "--dump-ptx: an unusable directory is refused" [ "$rc" = 2 ]

for mode in functional timing; do
  run --mode $mode --set oob_read_zero=1 -- "$prog" zero
  check "$mode oob_read_zero: exit 0" [ "$rc" = 0 ]
  check "$mode oob_read_zero: the program's checks" grep -qx PASS "$tmp/out"
  check "$mode oob_read_zero: warning with the count" grep -q '^warpsim: warning: 16 out-of-bounds global reads returned zero' "$tmp/err"
  check "$mode oob_read_zero: no failure summary" [ "$(count 'kernel launches failed')" = 0 ]
done

echo "cuda fault: $pass passed, $fail failed"
[ "$fail" = 0 ]
