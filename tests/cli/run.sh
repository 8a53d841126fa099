#!/usr/bin/env bash
# run.sh: command-line behaviour of warpsim: help and version, usage errors
# with the option named, precise PTX errors, the analysis printed by `warpsim
# ptx`, what `warpsim run` prints and in which order, the policy listing.
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

# reject <name> <regex the combined output must NOT match> -- cmd...  (exit 0 wanted)
reject() {
  local name=$1 regex=$2
  shift 3
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  if [ "$rc" = 0 ] && ! grep -Eq -- "$regex" <<<"$out"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $name: exit $rc (wanted 0), output:"
    sed 's/^/    /' <<<"$out"
    echo "    (wanted no line matching: $regex)"
  fi
}

# check <name> <message> <test expression...>: one condition computed here
check() {
  local name=$1 msg=$2
  shift 2
  if "$@"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $name: $msg"
  fi
}

expect help 0 'usage: warpsim <command>' -- "$ws" --help
expect no-command 2 'usage: warpsim' -- "$ws"
expect unknown-command 2 "unknown command 'frob'" -- "$ws" frob
expect version 0 '^warpsim ([0-9A-Za-z._-]+|unknown \(not built from a git checkout\))$' -- "$ws" --version
expect help-command 0 'usage: warpsim <command>' -- "$ws" help
expect help-run 0 'usage: warpsim run <workload>' -- "$ws" help run
expect help-unknown 2 "warpsim help: unknown command 'frob'" -- "$ws" help frob
for c in list run compare ptx options policies exec profile best-swl; do
  expect "help-$c" 0 "usage: warpsim $c" -- "$ws" "$c" --help
  expect "help-command-$c" 0 "usage: warpsim $c" -- "$ws" help "$c"
done

# policies: every policy of every kind (one src/policy/<kind>/<name>.c each,
# the files the registry is generated from), with descriptions and parameters
policy_src=$(dirname "$0")/../../src/policy
listing=$("$ws" policies)
files=$(ls "$policy_src"/*/*.c | wc -l)
listed=$(grep -cE '^  [a-z0-9_]+$' <<<"$listing")
check policies-count "$listed policies listed, $files in the registry ($policy_src/*/*.c)" \
  [ "$listed" = "$files" ]
check policies-total "the total line does not say $files policies" \
  grep -qx "$files policies" <<<"$listing"
for kdir in "$policy_src"/*/; do
  kind=$(basename "$kdir")
  want=$(ls "$kdir"*.c | xargs -n1 basename | sed 's/\.c$//' | sort | xargs)
  got=$("$ws" policies "$kind" | grep -E '^  [a-z0-9_]+$' | sed 's/^  //' | sort | xargs)
  check "policies-$kind" "'warpsim policies $kind' lists '$got', the registry has '$want'" \
    [ "$got" = "$want" ]
done
expect policies-param 0 '^      active +int +default 6 +active warps per scheduler' -- "$ws" policies sched
expect policies-desc 0 '^      least recently used' -- "$ws" policies cache
expect policies-no-param 0 'no parameters' -- "$ws" policies dram
expect policies-bad-kind 2 "unknown kind 'nosuch'" -- "$ws" policies nosuch
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
expect ptx-set-hoisted 0 'phases: ' -- "$ws" ptx "$data/loops.ptx" --set ptx.hoist_loads=1
expect ptx-set-bad 2 "--set ptx.hoist_loads=7: .*invalid value '7'" -- "$ws" ptx "$data/loops.ptx" --set ptx.hoist_loads=7
expect ptx-set-malformed 2 'expected KEY=VALUE' -- "$ws" ptx "$data/loops.ptx" --set hoist
# one phase per block; at gtx480's 4-cycle SP/INT latencies and bra at issue cost 1:
# B0 = 5 x 4 + 1, B1 = 3 x 4 + 1, B2 = 4 x 4 + st 1 + ret 4
expect ptx-phases 0 'phases: 3, shortest 13, longest 21 cycles' -- "$ws" ptx "$data/loops.ptx"
expect ptx-phase-line 0 'P1 +PCs +6-9 +\(B1\), length 13' -- "$ws" ptx "$data/loops.ptx"
expect ptx-phases-config 0 'phases: 3, shortest 25, longest 41 cycles' -- "$ws" ptx "$data/loops.ptx" --config "$data/sp8.cfg"
expect ptx-bad-config 2 "warpsim ptx: --config 'nosuch'" -- "$ws" ptx "$data/loops.ptx" --config nosuch

# timing model: configuration, schedulers, statistics files, compare
expect run-timing 0 'gpu_sim_cycle +[0-9]+' -- "$ws" run vecadd --size small
expect run-timing-verifies 0 'verification  PASSED' -- "$ws" run vecadd --size small --mode timing
expect run-config-block 0 '^sm.sched = lrr$' -- "$ws" run vecadd --sched lrr --show-config
reject run-config-hidden '^sm\.sched = ' -- "$ws" run vecadd --sched lrr
# results first: verification, then statistics, then the configuration
out=$("$ws" run vecadd --show-config 2>&1)
v=$(grep -n '^verification' <<<"$out" | cut -d: -f1)
st=$(grep -n '^statistics:' <<<"$out" | cut -d: -f1)
cf=$(grep -n '^configuration:' <<<"$out" | cut -d: -f1)
check run-order "verification at line ${v:-none}, statistics ${st:-none}, configuration ${cf:-none}" \
  [ -n "$v" ] && [ -n "$st" ] && [ -n "$cf" ] && [ "$v" -lt "$st" ] && [ "$st" -lt "$cf" ]
# functional mode echoes only the keys it reads, and no timing statistics
out=$("$ws" run vecadd --mode functional --show-config 2>&1)
keys=$(sed -n '/^configuration:/,$p' <<<"$out" | grep -E '^[a-z0-9_.]+ = ' | cut -d' ' -f1 | xargs)
check run-functional-config "functional mode echoes '$keys'" \
  [ "$keys" = "mode device_memory local_memory_per_thread max_warp_insn oob_read_zero racecheck func_order func_window" ]
reject run-functional-no-timing '^statistics:|gpu_sim_cycle' -- "$ws" run vecadd --mode functional
expect run-stats-all 0 'l1d_mpki' -- "$ws" run vecadd --stats
expect run-config-preset 0 'verification  PASSED' -- "$ws" run vecadd --config daws --quiet
expect run-bad-config 2 "--config nosuch: .*neither a preset" -- "$ws" run vecadd --config nosuch
# --threads N: the same as --set threads=N, checked before anything runs
expect run-threads 0 '^threads = 3$' -- "$ws" run vecadd --threads 3 --show-config
expect run-bad-threads 2 "warpsim run: --threads: configuration key 'threads': invalid value 'x'" -- "$ws" run vecadd --threads x
expect compare-bad-threads 2 "warpsim compare: --threads: .*invalid value '2000'" -- "$ws" compare vecadd --sched gto --threads 2000
expect exec-bad-threads 2 "threads=2000: configuration key 'threads': invalid value '2000'" -- "$ws" exec --threads 2000 -- /bin/true
expect run-bad-sched 2 "unknown warp scheduler 'nosuch' \\(known: .*gto.*lrr" -- "$ws" run vecadd --sched nosuch
expect run-bad-set-value 2 "sm.count" -- "$ws" run vecadd --set sm.count=0
tmp=$(mktemp -d)
# progress: quiet off a terminal unless asked; --progress reports kernel,
# cycle, instructions and the simulation rate
reject run-no-progress 'insn/s' -- "$ws" run memc --config daws --quiet
expect run-progress 0 '^  kernel 1  cycle 65536  instructions [0-9]+  [0-9.]+ M insn/s' -- "$ws" run memc --config daws --quiet --progress
expect compare-progress 0 '^  kernel 1  cycle 65536  instructions' -- "$ws" compare memc --sched gto --config daws --progress
# on a terminal (script(1) gives the command a pseudo-terminal): redrawn in
# place with a carriage return, erased at the end; kmeans at medium runs for
# seconds, enough for the first redraw after 0.25 s
if command -v script >/dev/null; then
  script -qec "'$ws' run kmeans --size medium --config lwm --quiet" /dev/null >"$tmp/tty" 2>&1
  expect run-progress-terminal 0 $'\r  kernel [0-9]+  cycle [0-9]+  instructions [0-9]+  [0-9.]+ M insn/s' -- cat "$tmp/tty"
  expect run-progress-terminal-erased 0 $'\r {100}\r' -- cat "$tmp/tty"
fi
expect run-stats-json 0 'verification  PASSED' -- "$ws" run vecadd --quiet --stats-json "$tmp/s.json" --timeline "$tmp/t.csv"
expect stats-json-content 0 '"gpu_sim_cycle": [1-9]' -- cat "$tmp/s.json"
expect stats-json-kernels 0 '"kernels": \[' -- cat "$tmp/s.json"
expect timeline-header 0 '^cycle,.*active_warps' -- head -1 "$tmp/t.csv"
expect run-stats-json-unwritable 2 "cannot write" -- "$ws" run vecadd --quiet --stats-json "$tmp/no/such/dir.json"
rm -rf "$tmp"
expect compare-table 0 'hmean +1\.000 +[0-9.]+' -- "$ws" compare vecadd,reduce --sched gto,lrr
# one line per finished run even when output is not a terminal
expect compare-run-line 0 '^run +3/4 +reduce +gto +verified +IPC +[0-9]+\.[0-9]+' -- "$ws" compare vecadd,reduce --sched gto,lrr
expect compare-verified 0 '^all 4 runs verified against their CPU references$' -- "$ws" compare vecadd,reduce --sched gto,lrr
expect compare-bad-sched 2 "unknown warp scheduler 'nope' \\(known: " -- "$ws" compare vecadd --sched gto,nope
expect compare-no-sched 2 '--sched is required' -- "$ws" compare vecadd
expect compare-bad-workload 2 "unknown workload 'nope'" -- "$ws" compare nope --sched gto

echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
