#!/usr/bin/env bash
# sigint.sh: Ctrl-C during a kernel of a CUDA program run through `warpsim
# exec`: the runtime reports where the kernel stopped, writes the statistics
# with status "partial" and the process exits 130.
# usage: tests/cuda/sigint.sh <warpsim> <spin program built by nvcc>
set -u
set -m # job control: the background job keeps SIGINT's default action (not ignored)
ws=$1
prog=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# WS_PRELOAD: the sanitizer runtime the instrumented libcudart needs in an nvcc program
env ${WS_PRELOAD:+LD_PRELOAD=$WS_PRELOAD} "$ws" exec --progress --stats-json "$tmp/s.json" \
  -- "$prog" long >"$tmp/out" 2>"$tmp/err" &
pid=$!
# wait until the kernel runs (its first progress line), at most 120 s
for _ in $(seq 1200); do
  grep -q 'insn/s' "$tmp/err" && break
  sleep 0.1
done
# the program is warpsim exec's child (exec itself ignores SIGINT while it
# waits); found through /proc, not pkill: pkill reads every process's command
# line, which can block on a sanitizer build's huge address space
child=$(cat "/proc/$pid/task/$pid/children" 2>/dev/null)
[ -n "$child" ] && kill -INT $child
# it must stop within 60 s; otherwise kill it and fail
for _ in $(seq 600); do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
if kill -0 "$pid" 2>/dev/null; then
  kill -KILL $child
  echo "FAIL cuda sigint: the program did not stop after SIGINT"
fi
wait "$pid"
rc=$?
if [ "$rc" = 130 ] && grep -q "warpsim: interrupted: kernel 'spin(unsigned long long, unsigned int\*)' interrupted at cycle" "$tmp/err" &&
   grep -Eq "PC [0-9]+ \(line [0-9]+\)" "$tmp/err" && grep -q '^  "status": "partial",' "$tmp/s.json"; then
  echo "cuda sigint: passed"
  exit 0
fi
echo "FAIL cuda sigint: exit $rc (wanted 130)"
sed 's/^/    stderr: /' "$tmp/err" | head -8
head -3 "$tmp/s.json" 2>&1 | sed 's/^/    json: /'
exit 1
