#!/usr/bin/env bash
# slurm.sh: `warpsim sweep --slurm` on a real single-node Slurm.  As root,
# starts a single-node Slurm in a temporary folder (scripts/slurm-local.sh:
# munged if not running, slurmctld and slurmd), submits a small sweep
# as held job arrays, cancels one array task, releases the rest, resubmits,
# and checks that every point is present exactly once and that nothing done
# was run again.  Stops what it started.  Exit 77 (skipped) when not root or
# when Slurm/munge cannot be installed (scripts/install-deps.sh).
# Usage: tests/sweep/slurm.sh <path to warpsim>
set -u
ws=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ "$(id -u)" != 0 ]; then
  echo "slurm: SKIPPED (needs root to start slurmctld, slurmd and munged)"
  exit 77
fi
need() { command -v sbatch && command -v slurmctld && command -v slurmd && command -v munged; } >/dev/null
if ! need; then
  "$root/scripts/install-deps.sh" >/dev/null 2>&1
  need || { echo "slurm: SKIPPED (slurm-wlm and munge cannot be installed)"; exit 77; }
fi

tmp=$(mktemp -d /tmp/warpsim-slurm.XXXXXX)
# shellcheck source=scripts/slurm-local.sh
. "$root/scripts/slurm-local.sh"
cleanup() {
  slurm_local_stop "$tmp"
  rm -rf "$tmp"
}
trap cleanup EXIT
pass=0
fail=0
check() { local name=$1; shift; if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $name"; fi; }
die() { echo "slurm: FAIL: $*"; tail -5 "$tmp"/*.log 2>/dev/null; exit 1; }

slurm_local_start "$tmp" 2>"$tmp/start.err" || die "$(cat "$tmp/start.err")"

cat >"$tmp/s.toml" <<'EOF'
name = "slurmtest"
out = "out"
[defaults]
config = "daws"
[profile]
seed = 2
[[group]]
workloads = ["vecadd", "reduce"]
policies = ["gto", "lrr", "daws_profiled:profile={profile}"]
EOF
O=$tmp/out
wait_queue() {
  for _ in $(seq 240); do
    [ -z "$(squeue -h 2>/dev/null)" ] && return 0
    sleep 0.5
  done
  die "jobs still queued: $(squeue 2>&1)"
}

# submit held, cancel one task of the first array, release
sub=$("$ws" sweep "$tmp/s.toml" --array-limit 2 --slurm --hold 2>&1) || die "submission failed: $sub"
check "two job arrays (profiles, then runs)" [ "$(grep -c '^submitted job array' <<<"$sub")" = 2 ]
read -r job0 job1 < <(python3 -c 'import json,sys; print(*json.load(open(sys.argv[1]))["jobs"])' "$O/slurm/sub-0.json")
vid=$("$ws" results "$tmp/s.toml" --sql "SELECT id FROM points WHERE label='vecadd.lrr'" | tail -1)
victim=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["levels"][0].index(sys.argv[2]))' "$O/slurm/sub-0.json" "$vid")
check "status while held" grep -q "8 queued" <("$ws" sweep status "$tmp/s.toml")
scancel "${job0}_${victim}"
scontrol release "$job0" "$job1" >/dev/null
wait_queue
st=$("$ws" sweep status "$tmp/s.toml")
check "status after the cancelled task: $st" grep -Eq '^slurmtest: 8 points: 7 done, 1 (cancelled|pending)' <<<"$st"
ok1=$(grep -c ' ok ' "$O/events.log")

# resubmit: only what is missing
sub2=$("$ws" sweep "$tmp/s.toml" --slurm 2>&1) || die "resubmission failed: $sub2"
check "resubmission submits 1 point: $sub2" grep -q 'submitted job array [0-9]*: 1 points (level 0)' <<<"$sub2"
wait_queue
st=$("$ws" sweep status "$tmp/s.toml")
check "every point done: $st" grep -q '^slurmtest: 8 points: 8 done$' <<<"$st"
check "each point ok exactly once" [ "$(awk '$2 == "ok" {print $3}' "$O/events.log" | sort | uniq -d | wc -l)" = 0 ]
check "8 ok in all, $ok1 before the resubmission" [ "$(grep -c ' ok ' "$O/events.log")" = 8 ]
check "nothing left to submit" grep -q 'nothing to submit' <("$ws" sweep "$tmp/s.toml" --slurm 2>&1)

# the same numbers as a direct run
"$ws" run reduce --size small --seed 1 --config daws --sched lrr --quiet --stats-json "$tmp/direct.json" >/dev/null
check "Slurm point = direct run" python3 - "$O/json/reduce.lrr.json" "$tmp/direct.json" <<'EOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
sys.exit(0 if a["totals"] == b["totals"] else 1)
EOF

echo "slurm: $pass passed, $fail failed"
[ "$fail" = 0 ]
