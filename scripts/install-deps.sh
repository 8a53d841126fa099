#!/usr/bin/env bash
# install-deps.sh: install the Debian 12 packages warpsim needs, if missing.
# Runs apt-get as root (directly, or through sudo when available).
set -euo pipefail
pkgs=(gcc make cmake pkg-config libcmocka-dev libzstd-dev liblz4-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present (${pkgs[*]})"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq "${missing[@]}"
