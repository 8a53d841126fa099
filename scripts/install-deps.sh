#!/usr/bin/env bash
# install-deps.sh: install the Debian 12 packages warpsim needs, if missing.
# Runs apt-get as root (directly, or through sudo when it is installed); a
# normal user without sudo is told the exact command to run as root.  Prints
# one line per step; apt's full output goes to a log file that is named when
# a step fails.  Recommended packages are not installed, so libc6-dev (which
# gcc only recommends) is listed.
set -euo pipefail
# sweeps (tools/sweep): python3; reports: python3-matplotlib; the sweep tests:
# slurm-wlm and munge (a single-node Slurm), chromium (the report page); the
# clang build and the fuzz targets (scripts/fuzz.sh): clang, libclang-rt-14-dev;
# experiments/cawa's particlefilter runs (a fixed time(0)): faketime
pkgs=(gcc libc6-dev make cmake pkg-config libcmocka-dev libzstd-dev liblz4-dev
      python3 python3-matplotlib slurm-wlm munge chromium clang libclang-rt-14-dev
      faketime)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present (${pkgs[*]})"
  exit 0
fi
root_cmd="apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"

as_root=(env DEBIAN_FRONTEND=noninteractive)
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    cat >&2 <<EOF
install-deps: missing Debian packages: ${missing[*]}
install-deps: you are not root and sudo is not installed, so they cannot be installed from here.
install-deps: run this as root (for example after 'su -'), then run this script again:

    $root_cmd

EOF
    exit 1
  fi
  as_root=(sudo "${as_root[@]}")
fi

log=${WS_INSTALL_LOG:-${TMPDIR:-/tmp}/warpsim-install-deps.log}
: >"$log"
# step <description> <command...>: run one step, its output into the log
step() {
  local what=$1
  shift
  printf 'install-deps: %s ... ' "$what"
  if "$@" >>"$log" 2>&1; then
    echo done
  else
    echo failed
    echo "install-deps: '$*' failed; apt's full output is in $log" >&2
    echo "install-deps: to install by hand, run as root: $root_cmd" >&2
    exit 1
  fi
}
step "updating the package lists" "${as_root[@]}" apt-get update
step "installing ${missing[*]}" "${as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
echo "install-deps: done (apt's output: $log)"
