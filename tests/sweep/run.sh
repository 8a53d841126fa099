#!/usr/bin/env bash
# run.sh: `warpsim sweep` and `warpsim results` on a local pool: the points of
# a small SPEC (dependencies: a profile and a Best-SWL search), a failing point
# recorded with its reason, statistics identical to a direct `warpsim run`,
# nothing rerun on a second sweep, SIGINT and restart giving every point
# exactly once, the SQLite index and the CSV export; with the nvcc-built test
# programs, CUDA programs as points (equal to a direct `warpsim exec`).
# Usage: tests/sweep/run.sh <path to warpsim>
set -u
ws=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
check() { local name=$1; shift; if "$@"; then ok; else bad "$name"; fi; }

cat >"$tmp/a.toml" <<'EOF'
name = "a"
out = "out-a"
[vars]
size = "small"
[defaults]
config = "daws"
size = "{size}"
[profile]
seed = 2
[[group]]
name = "main"
workloads = ["vecadd", "reduce"]
policies = ["gto", "best_swl", "daws_profiled:profile={profile}"]
[[group]]
name = "lim"
workloads = ["reduce"]
policies = ["swl:limit={k}"]
seeds = [1, 3]
[group.params]
k = [2, 4]
[[group]]
name = "broken"
workloads = ["vecadd"]
sets = ["sm.count=0"]
label = "vecadd.broken"
EOF

# 1. the sweep: 6 + 4 + 1 runs, 2 profiles, 2 Best-SWL searches (15 points); one fails
out=$("$ws" sweep "$tmp/a.toml" -j 2 2>&1)
rc=$?
check "sweep exits 1 when a point failed (got $rc): $out" [ "$rc" = 1 ]
check "sweep names the failed point" grep -q "FAILED run vecadd .*set=sm.count=0" <<<"$out"
A=$tmp/out-a
n_ok=$(grep -l '"status": "ok"' "$A"/points/*/result.json | wc -l)
check "14 points ok (got $n_ok)" [ "$n_ok" = 14 ]
failed=$(grep -l '"status": "failed"' "$A"/points/*/result.json)
check "one failed point with a reason" grep -q '"reason": "exit status 2: .*sm.count' $failed
check "failed point keeps its log" grep -q 'sm.count' "$(dirname "$failed")/log.txt"

# 2. a point's statistics are those of a direct run
"$ws" run reduce --size small --seed 1 --config daws --sched gto --quiet --stats-json "$tmp/direct.json" >/dev/null
check "sweep statistics = direct run" python3 - "$A/json/reduce.gto.json" "$tmp/direct.json" <<'EOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
sys.exit(0 if a["totals"] == b["totals"] and a["kernels"] == b["kernels"] else 1)
EOF
check "best_swl ran at the searched K" python3 - "$A" <<'EOF'
import json, sys, glob, re
root = sys.argv[1]
k = re.search(r"best K = (\d+)", open(root + "/swl/reduce.txt").read()).group(1)
pol = json.load(open(root + "/json/reduce.best_swl.json"))["config"]["sm.sched"]
sys.exit(0 if pol == "swl:limit=" + k else 1)
EOF

# 3. a second sweep runs only the failed point again
starts=$(grep -c ' start ' "$A/events.log")
"$ws" sweep "$tmp/a.toml" -j 2 >/dev/null 2>&1
again=$(( $(grep -c ' start ' "$A/events.log") - starts ))
check "second sweep reruns only the failed point (started $again)" [ "$again" = 1 ]
check "dry run lists one missing point" grep -q '^1 of 15 points missing' <("$ws" sweep "$tmp/a.toml" --dry-run)

# 4. results: SQLite index, --where, CSV with one column per statistic
check "index has every point" [ "$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from points").fetchone()[0])' "$A/index.sqlite")" = 15 ]
csv=$("$ws" results "$tmp/a.toml" --csv --where "grp='lim' AND param_k=4")
check "csv: header then 2 runs" [ "$(wc -l <<<"$csv")" = 3 ]
check "csv: statistic columns" grep -q '^id,label,.*,param_k,status,.*gpu_sim_cycle.*gpu_ipc' <<<"$csv"
check "csv: the seeds of k=4" python3 - <<EOF
import csv, io, sys
rows = list(csv.DictReader(io.StringIO('''$csv''')))
sys.exit(0 if sorted(r["seed"] for r in rows) == ["1", "3"] and all(r["resolved_policy"] == "swl:limit=4" and float(r["gpu_ipc"]) > 0 for r in rows) else 1)
EOF
check "results --sql" grep -Eq '^vecadd,gto,[0-9]+\.[0-9]+$' <("$ws" results "$tmp/a.toml" --sql "SELECT workload, policy_name, gpu_ipc FROM points WHERE label='vecadd.gto'")
check "results: bad SQL is an error" [ "$("$ws" results "$tmp/a.toml" --where "nosuchcol=1" >/dev/null 2>&1; echo $?)" = 2 ]
check "sweep: unknown SPEC key" grep -q "unknown key 'bogus'" <(printf 'bogus = 1\n' >"$tmp/b.toml"; "$ws" sweep "$tmp/b.toml" 2>&1)

# 5. SIGINT and restart: every point done exactly once, none redone
cat >"$tmp/i.toml" <<'EOF'
name = "i"
out = "out-i"
[defaults]
config = "daws"
[[group]]
workloads = ["spmv_scalar"]
seeds = [1, 2, 3, 4, 5]
policies = ["gto", "lrr"]
EOF
I=$tmp/out-i
"$ws" sweep "$tmp/i.toml" -j 2 >"$tmp/i1.log" 2>&1 &
pid=$!
for _ in $(seq 300); do
  [ "$(cat "$I/events.log" 2>/dev/null | grep -c ' ok ')" -ge 2 ] && break
  sleep 0.1
done
kill -INT $pid
wait $pid
rc=$?
check "interrupted sweep exits 130 (got $rc)" [ "$rc" = 130 ]
first=$(grep -c ' ok ' "$I/events.log")
check "interrupted before the end ($first of 10)" [ "$first" -lt 10 ]
check "no temporary files left" [ -z "$(find "$I/points" -name '*.tmp.*')" ]
"$ws" sweep "$tmp/i.toml" -j 2 >/dev/null 2>&1
check "restart completes" [ "$(grep -l '"status": "ok"' "$I"/points/*/result.json | wc -l)" = 10 ]
check "every point ok exactly once" [ "$(awk '$2 == "ok" {print $3}' "$I/events.log" | sort | uniq -d | wc -l)" = 0 ]
check "restart ran only the missing points" [ "$(awk '$2 == "ok"' "$I/events.log" | wc -l)" = 10 ]

# 8. CUDA programs as points (tests/cuda's programs, built when nvcc is found):
# `warpsim exec` in the program's folder, statistics equal to a direct exec,
# their timelines (timeline = true), a failing program recorded with its
# reason, nothing rerun
ws_dir=$(cd "$(dirname "$ws")" && pwd)
prog_dir=$ws_dir/cuda
if [ -x "$prog_dir/spin" ]; then
  # WS_PRELOAD (sanitizer builds): the runtime the instrumented libcudart needs,
  # preloaded into the program only
  pre=
  [ -n "${WS_PRELOAD:-}" ] && pre="\"/usr/bin/env\", \"LD_PRELOAD=$WS_PRELOAD\", "
  cat >"$tmp/c.toml" <<EOF
name = "c"
out = "out-c"
[defaults]
config = "gtx480"
[[group]]
programs = [{ name = "spin", cmd = [$pre"./spin"], dir = "$prog_dir" },
            { name = "false", cmd = ["/bin/false"] }]
policies = ["gto", "lrr"]
timeline = true
EOF
  out=$("$ws" sweep "$tmp/c.toml" -j 2 2>&1)
  check "program sweep exits 1 (a program failed): $out" [ "$?" = 1 ]
  C=$tmp/out-c
  check "two program points ok" [ "$(grep -l '"status": "ok"' "$C"/points/*/result.json | wc -l)" = 2 ]
  check "program points' timelines" [ "$(grep -l '^cycle,gpu_sim_insn,' "$C"/points/*/timeline.csv | wc -l)" = 2 ]
  check "the failing program's reason" grep -q '"reason": "exit status 1' \
    $(grep -l '"status": "failed"' "$C"/points/*/result.json | head -1)
  (cd "$prog_dir" && "$ws_dir/$(basename "$ws")" exec --config gtx480 --sched lrr \
    --stats-json "$tmp/direct-exec.json" -- ${WS_PRELOAD:+env LD_PRELOAD=$WS_PRELOAD} ./spin >/dev/null)
  check "program point statistics = direct exec" python3 - "$C/json/spin.lrr.json" "$tmp/direct-exec.json" <<'EOF'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
sys.exit(0 if a["totals"] == b["totals"] and a["kernels"] == b["kernels"] else 1)
EOF
  check "results list program points" grep -q '^[0-9a-f]*,spin.gto,group1,exec,spin,' \
    <("$ws" results "$tmp/c.toml" --csv)
  "$ws" sweep "$tmp/c.toml" -j 2 >/dev/null 2>&1
  check "program points not rerun" [ "$(grep -c ' ok ' "$C/events.log")" = 2 ]
else
  echo "sweep: no CUDA test programs next to $ws (nvcc not found): program points not tested"
fi

echo "sweep: $pass passed, $fail failed"
[ "$fail" = 0 ]
