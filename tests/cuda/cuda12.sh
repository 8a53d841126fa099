#!/bin/sh
# cuda12.sh: checks that a program of tests/cuda built "the CUDA 12 way"
# (cmake/runtime.cmake: nvcc --compress-mode=speed, linked against
# build/lib/libcudart.so.12) is what it claims: it needs libcudart.so.12, its
# CUDA imports carry the libcudart.so.12 version node, and the PTX in its
# .nv_fatbin is LZ4-compressed (flag 0x2000, CUDA 11/12's format) -- then runs
# it under `warpsim exec` in the given mode, which must print PASS.
# usage: cuda12.sh WARPSIM PROGRAM MODE        (77 = skipped: no readelf/objcopy/python3)
# WS_PRELOAD: a library to preload into warpsim and the program (sanitizer builds)
set -eu
warpsim=$1 prog=$2 mode=$3
for tool in readelf objcopy python3; do
  command -v $tool >/dev/null 2>&1 || { echo "skipped: $tool not found"; exit 77; }
done
readelf -d "$prog" | grep -q 'NEEDED.*\[libcudart\.so\.12\]' ||
  { echo "FAIL: $prog does not need libcudart.so.12"; exit 1; }
if readelf --dyn-syms -W "$prog" | grep -E ' UND (__)?cuda' | grep -qv '@libcudart\.so\.12'; then
  echo "FAIL: $prog imports CUDA symbols from another version node"; exit 1
fi
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
objcopy -O binary --only-section=.nv_fatbin "$prog" "$tmp"
python3 - "$tmp" <<'PY' || exit 1
import struct, sys
d = open(sys.argv[1], 'rb').read()
off, ptx, lz4 = 0, 0, 0
while off + 16 <= len(d):
    magic, _, hsize, body = struct.unpack_from('<IHHQ', d, off)
    if magic != 0xBA55ED50:
        off += 8
        continue
    e = off + hsize
    while e + 64 <= off + hsize + body:
        kind, _, esize, psize = struct.unpack_from('<HHIQ', d, e)
        flags = struct.unpack_from('<Q', d, e + 0x28)[0]
        if kind == 1:
            ptx += 1
            lz4 += bool(flags & 0x2000)
        e += esize + psize
    off += hsize + body
if ptx == 0 or lz4 != ptx:
    print("FAIL: %d PTX entries, %d of them LZ4-compressed" % (ptx, lz4))
    sys.exit(1)
print("%d PTX entries, all LZ4-compressed" % ptx)
PY
# WS_PRELOAD (sanitizer builds): the ASan runtime, for warpsim and the program only
if [ -n "${WS_PRELOAD:-}" ]; then
  LD_PRELOAD=$WS_PRELOAD exec "$warpsim" exec --mode "$mode" -- "$prog"
fi
exec "$warpsim" exec --mode "$mode" -- "$prog"
