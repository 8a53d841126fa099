#!/usr/bin/env bash
# timeline.sh: `warpsim exec --timeline FILE` writes the timeline of a CUDA
# program (a row per timeline_interval cycles, across all its launches) at
# exit, with the phase columns timeline_phases asks for (an unwritable path:
# tests/cli/hostile.sh).
# usage: tests/cuda/timeline.sh <warpsim> <multi program built by nvcc>
set -u
ws=$1
prog=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL cuda timeline: $*"; fail=1; }
# WS_PRELOAD: the sanitizer runtime the instrumented libcudart needs in an nvcc program
env ${WS_PRELOAD:+LD_PRELOAD=$WS_PRELOAD} "$ws" exec --timeline "$tmp/t.csv" \
  --stats-json "$tmp/s.json" --set timeline_interval=100 --set timeline_phases=2 \
  -- "$prog" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 0 ] || no "exit $rc (wanted 0): $(head -3 "$tmp/err")"
grep -qx PASS "$tmp/out" || no "the program did not print PASS"
[ -s "$tmp/t.csv" ] || { no "no timeline written"; exit 1; }
# rows 0, 100, ... up to the run's last cycle; gpu_sim_insn never falls and its
# last value lies past the first launch's count (the rows cover both launches)
python3 - "$tmp/t.csv" "$tmp/s.json" <<'PY' || fail=1
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1])))
stats = json.load(open(sys.argv[2]))
head, body = rows[0], [[int(v) for v in r] for r in rows[1:]]
bad = []
if head[:2] != ["cycle", "gpu_sim_insn"] or head[-2:] != ["phase_warps_0", "phase_warps_1"]:
    bad.append("header %s" % head)
cycles = stats["totals"]["gpu_tot_sim_cycle"]
if [r[0] for r in body] != list(range(0, cycles + 1, 100)):
    bad.append("cycle column %s for %d cycles" % ([r[0] for r in body][:5], cycles))
insn = [r[1] for r in body]
if insn != sorted(insn):
    bad.append("gpu_sim_insn falls: %s" % insn)
first = stats["kernels"][0]["stats"]["gpu_sim_insn"]
total = stats["totals"]["gpu_sim_insn"]
if len(stats["kernels"]) < 2 or not first < insn[-1] <= total:
    bad.append("last gpu_sim_insn %d not in (%d, %d]" % (insn[-1], first, total))
for b in bad:
    print("FAIL cuda timeline:", b)
sys.exit(1 if bad else 0)
PY
[ "$fail" = 0 ] && echo "cuda timeline: passed"
exit $fail
