#!/usr/bin/env bash
# setup.sh: on a fresh Debian 12 machine, install what is missing, build
# warpsim (build/) and run the main job.  One line per step; the build's
# full output goes to build/setup-build.log (its end is shown on failure).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
scripts/install-deps.sh
mkdir -p build
log=build/setup-build.log
printf 'setup: building build/warpsim ... '
t0=$SECONDS
if scripts/build.sh build >"$log" 2>&1; then
  echo "done ($((SECONDS - t0)) s)"
else
  echo failed
  tail -n 30 "$log" >&2
  echo "setup: the build failed; its full output is in $log" >&2
  exit 1
fi
echo
scripts/main-job.sh
echo
echo "setup: done in $(((SECONDS - start + 30) / 60)) min; build/warpsim is ready (build/warpsim help)"
