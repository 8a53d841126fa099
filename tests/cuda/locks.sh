#!/bin/sh
# locks.sh: every exported entry point of the CUDA runtime (a function whose
# definition starts with RT_EXPORT in src/runtime/cudart*.c) must take the
# runtime lock first (RT_LOCK(); as its first statement, see src/runtime/rt.h):
# calls from several host threads are serialized.  Prints the functions that
# lack it and fails; the unsupported stubs (cudart_stubs.c, macro-generated)
# touch only per-thread state and are exempt.
# usage: locks.sh SOURCE_DIR
set -eu
src=${1:-.}/src/runtime
bad=$(awk '
  /^RT_EXPORT/ { sig = $0; want = 1; next }
  want == 1 && $0 == "{" { want = 2; next }
  want == 2 { if ($0 !~ /^    RT_LOCK\(\);$/) print FILENAME ": " sig; want = 0; next }
  ' "$src"/cudart*.c)
n=$(grep -h -c '^RT_EXPORT' "$src"/cudart*.c | awk '{ s += $1 } END { print s }')
if [ -n "$bad" ]; then
  echo "entry points without RT_LOCK():"
  echo "$bad"
  exit 1
fi
echo "all $n entry points take the runtime lock"
