#!/usr/bin/env bash
# run.sh: command-line behaviour of warpsim: help, usage errors with the
# option named, precise PTX errors, and the analysis printed by `warpsim ptx`.
# Usage: tests/cli/run.sh <path to warpsim>
set -u
ws=$1
data=$(dirname "$0")/data
pass=0
fail=0

# expect <name> <wanted exit status> <regex the combined output must match> -- cmd...
expect() {
  local name=$1 want=$2 regex=$3
  shift 4
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  if [ "$rc" = "$want" ] && grep -Eq -- "$regex" <<<"$out"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $name: exit $rc (wanted $want), output:"
    sed 's/^/    /' <<<"$out"
    echo "    (wanted a line matching: $regex)"
  fi
}

expect help 0 'usage: warpsim <command>' -- "$ws" --help
expect no-command 2 'usage: warpsim' -- "$ws"
expect unknown-command 2 "unknown command 'frob'" -- "$ws" frob
for c in list run compare ptx options; do
  expect "help-$c" 0 "usage: warpsim $c" -- "$ws" "$c" --help
done
expect list 0 'vecadd' -- "$ws" list
expect run-no-workload 2 'no workload given' -- "$ws" run
expect run-unknown-workload 2 "unknown workload 'nope'" -- "$ws" run nope
expect run-bad-size 2 "--size: 'huge' is not one of small, medium, large" -- "$ws" run vecadd --size huge
expect run-bad-seed 2 "--seed: 'x1' is not a non-negative integer" -- "$ws" run vecadd --seed x1
expect run-missing-value 2 'option --size needs a value' -- "$ws" run vecadd --size
expect run-unknown-option 2 "unknown option '--fast'" -- "$ws" run vecadd --fast
expect run-bad-mode 2 'mode' -- "$ws" run vecadd --mode warp9
expect run-bad-set 2 'nosuchkey' -- "$ws" run vecadd --set nosuchkey=1
expect run-set-syntax 2 'expects key=value' -- "$ws" run vecadd --set novalue
expect run-verifies 0 'verification  PASSED' -- "$ws" run vecadd --size small --mode functional
expect ptx-missing-file 1 "cannot open '.*nofile.ptx'" -- "$ws" ptx "$data/nofile.ptx"
expect ptx-bad-opcode 1 "bad_opcode.ptx:9:2: .*'frobnicate" -- "$ws" ptx "$data/bad_opcode.ptx"
expect ptx-bad-register 1 "bad_register.ptx:9:21: .*'%r7'" -- "$ws" ptx "$data/bad_register.ptx"
expect ptx-bad-label 1 "bad_label.ptx:11:12: .*'\\\$L__nowhere'" -- "$ws" ptx "$data/bad_label.ptx"
expect ptx-truncated 1 'truncated.ptx:[0-9]+:[0-9]+:' -- "$ws" ptx "$data/truncated.ptx"
expect ptx-loops 0 'L0 +header B1 \(PC 6\), PCs 6-9, depth 1' -- "$ws" ptx "$data/loops.ptx"
expect ptx-reconv 0 'PCs +0-5 .*reconverges at PC 10' -- "$ws" ptx "$data/loops.ptx"
expect ptx-params 0 'param +loopsum_param_1 +.u32 4 bytes at offset 8' -- "$ws" ptx "$data/loops.ptx"
# one phase per block; at gtx480's 4-cycle SP/INT latencies and bra at issue cost 1:
# B0 = 5 x 4 + 1, B1 = 3 x 4 + 1, B2 = 4 x 4 + st 1 + ret 4
expect ptx-phases 0 'phases: 3, shortest 13, longest 21 cycles' -- "$ws" ptx "$data/loops.ptx"
expect ptx-phase-line 0 'P1 +PCs +6-9 +\(B1\), length 13' -- "$ws" ptx "$data/loops.ptx"
expect ptx-phases-config 0 'phases: 3, shortest 25, longest 41 cycles' -- "$ws" ptx "$data/loops.ptx" --config "$data/sp8.cfg"
expect ptx-bad-config 2 "warpsim ptx: --config 'nosuch'" -- "$ws" ptx "$data/loops.ptx" --config nosuch

# timing model: configuration, schedulers, statistics files, compare
expect run-timing 0 'gpu_sim_cycle +[0-9]+' -- "$ws" run vecadd --size small
expect run-timing-verifies 0 'verification  PASSED' -- "$ws" run vecadd --size small --mode timing
expect run-config-block 0 'sm.sched = lrr' -- "$ws" run vecadd --sched lrr
expect run-config-preset 0 'verification  PASSED' -- "$ws" run vecadd --config daws --quiet
expect run-bad-config 2 "--config nosuch: .*neither a preset" -- "$ws" run vecadd --config nosuch
expect run-bad-sched 2 "unknown warp scheduler 'nosuch' \\(known: .*gto.*lrr" -- "$ws" run vecadd --sched nosuch
expect run-bad-set-value 2 "sm.count" -- "$ws" run vecadd --set sm.count=0
tmp=$(mktemp -d)
expect run-stats-json 0 'verification  PASSED' -- "$ws" run vecadd --quiet --stats-json "$tmp/s.json" --timeline "$tmp/t.csv"
expect stats-json-content 0 '"gpu_sim_cycle": [1-9]' -- cat "$tmp/s.json"
expect stats-json-kernels 0 '"kernels": \[' -- cat "$tmp/s.json"
expect timeline-header 0 '^cycle,.*active_warps' -- head -1 "$tmp/t.csv"
expect run-stats-json-unwritable 1 "cannot write" -- "$ws" run vecadd --quiet --stats-json "$tmp/no/such/dir.json"
rm -rf "$tmp"
expect compare-table 0 'hmean +1\.000 +[0-9.]+' -- "$ws" compare vecadd,reduce --sched gto,lrr
expect compare-bad-sched 2 "unknown warp scheduler 'nope' \\(known: " -- "$ws" compare vecadd --sched gto,nope
expect compare-no-sched 2 '--sched is required' -- "$ws" compare vecadd
expect compare-bad-workload 2 "unknown workload 'nope'" -- "$ws" compare nope --sched gto

echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
