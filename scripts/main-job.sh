#!/usr/bin/env bash
# main-job.sh: the main job on the built-in workloads.  Today (functional
# core only) it runs every built-in workload at medium size and verifies it
# against its CPU reference; it becomes the scheduler comparison once the
# timing model lands.
set -euo pipefail
cd "$(dirname "$0")/.."
ws=build/warpsim
status=0
for w in $("$ws" list | awk '{print $1}'); do
  echo "== $w"
  "$ws" run "$w" --size medium --mode functional || status=1
done
exit $status
