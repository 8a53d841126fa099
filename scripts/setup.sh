#!/usr/bin/env bash
# setup.sh: on a fresh Debian 12 machine, install what is missing, build
# warpsim (build/) and run the main job.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
echo
scripts/main-job.sh
