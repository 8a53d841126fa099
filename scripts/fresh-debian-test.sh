#!/usr/bin/env bash
# fresh-debian-test.sh: the README's two commands on a bare Debian 12, as a
# newcomer meets them.  Builds a minbase Debian 12 root with debootstrap (no
# CUDA toolkit, no compiler, no sudo), copies the working tree into it and:
#   1. as a normal user without sudo, runs scripts/setup.sh and expects it to
#      stop with exit 1 and the exact command to run as root;
#   2. as root, runs scripts/setup.sh, then scripts/test.sh, timing both.
# Needs root and the debootstrap package on the host, and Debian's archive
# (MIRROR overrides debootstrap's default).  Takes 15-30 minutes, mostly
# downloads, dpkg and the two builds, so it is run by hand before a release
# and after any change to scripts/ or to the packages the build needs, not on
# every CI run.
#
# usage: scripts/fresh-debian-test.sh [DIR]      (default: build-fresh-debian)
# DIR/root is the Debian root (removed and made anew on every run, left in
# place afterwards for inspection); DIR/*.log hold each step's output.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
dir=$(realpath -m "${1:-build-fresh-debian}")
root=$dir/root

[ "$(id -u)" -eq 0 ] || { echo "fresh-debian-test: must run as root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null ||
  { echo "fresh-debian-test: needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }

mounted=()
cleanup() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount "${mounted[i]}" 2>/dev/null || true; done
}
trap cleanup EXIT
now() { date +%s; }
say() { echo "fresh-debian-test: $*"; }
# timed <name> <log> <command...>: run a step, its output into DIR/<log>
timed() {
  local name=$1 log=$dir/$2 t0 rc
  shift 2
  t0=$(now)
  set +e
  "$@" >"$log" 2>&1
  rc=$?
  set -e
  say "$name: exit $rc after $(($(now) - t0)) s (output: $log)"
  return $rc
}

mkdir -p "$dir"
if [ -d "$root" ]; then
  say "removing the previous root $root"
  umount -R "$root"/proc "$root"/sys 2>/dev/null || true
  rm -rf "$root"
fi
timed "debootstrap (minbase bookworm)" debootstrap.log \
  debootstrap --variant=minbase bookworm "$root" ${MIRROR:-}

# the working tree as git sees it (tracked and untracked, not ignored files)
copy_tree() {
  mkdir -p "$1"
  git -C "$src" ls-files -z --cached --others --exclude-standard |
    tar -C "$src" --null --no-recursion -T - -cf - | tar -xf - -C "$1"
}
mount -t proc proc "$root/proc" && mounted+=("$root/proc")
mount -t sysfs sys "$root/sys" && mounted+=("$root/sys")
cp /etc/resolv.conf "$root/etc/resolv.conf"
chroot "$root" useradd -m -s /bin/bash newcomer
user=$(chroot "$root" id -u newcomer):$(chroot "$root" id -g newcomer)
copy_tree "$root/home/newcomer/warpsim"
chroot "$root" chown -R "$user" /home/newcomer/warpsim
copy_tree "$root/root/warpsim"

status=0
# 1. a normal user without sudo: a clear message and the command to run as root
if timed "setup.sh as a normal user" nosudo.log \
  chroot --userspec="$user" "$root" env HOME=/home/newcomer \
  bash -c 'cd ~/warpsim && scripts/setup.sh'; then
  say "FAIL: setup.sh as a normal user without sudo succeeded"
  status=1
elif grep -q "run this as root" "$dir/nosudo.log" &&
  grep -q "apt-get install -y --no-install-recommends" "$dir/nosudo.log"; then
  say "no-sudo message:"
  sed 's/^/    /' "$dir/nosudo.log"
else
  say "FAIL: the no-sudo message is missing from $dir/nosudo.log"
  status=1
fi

# 2. root: the README's two commands
timed "scripts/setup.sh as root" setup.log \
  chroot "$root" env HOME=/root bash -c 'cd ~/warpsim && scripts/setup.sh' || status=1
timed "scripts/test.sh as root" test.log \
  chroot "$root" env HOME=/root bash -c 'cd ~/warpsim && scripts/test.sh' || status=1
say "setup.sh, last lines:"
tail -n 12 "$dir/setup.log" | sed 's/^/    /'
say "test.sh, summaries:"
grep -E 'tests passed|tests failed|passed, |skipped|^== ' "$dir/test.log" | sed 's/^/    /' || true
if [ $status = 0 ]; then say "PASSED"; else say "FAILED"; fi
exit $status
