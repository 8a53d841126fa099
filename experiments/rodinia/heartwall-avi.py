#!/usr/bin/env python3
"""heartwall-avi.py: write an uncompressed 8-bit grey AVI that Rodinia's
heartwall reads (its AVI/avilib.c: a RIFF 'AVI ' file with a 'vids' stream
header, a BITMAPINFOHEADER giving width and height, and a 'movi' list of
'00db' chunks of width x height bytes; without an idx1 index avilib scans the
chunks).  Rodinia's own data set (a heart ultrasound video) is not in git.

Each frame is a dark field with two bright elliptic rings around the
points heartwall tracks (its inner endocardium and outer epicardium points
lie within rows 250-545, columns 155-460 of the frame), with speckle noise;
the rings swell and shrink by a few pixels from frame to frame like a beating
wall.  The frame is 656 pixels wide and 744 high (CAWA's Table 2: a 656x744
grey AVI).  Deterministic: Python's random with a fixed seed.

usage: heartwall-avi.py OUT.avi [FRAMES]   (default 5 frames)"""
import math
import random
import struct
import sys

WIDTH, HEIGHT = 656, 744
CENTRE = (385.0, 310.0)  # row, column: the middle of heartwall's points
ENDO = (115.0, 95.0)     # ring radii (rows, columns)
EPI = (155.0, 160.0)


def frame(rng, k):
    swell = 1.0 + 0.04 * math.sin(2 * math.pi * k / 8)
    out = bytearray(WIDTH * HEIGHT)
    for r in range(HEIGHT):
        # avilib stores the image bottom-up (heartwall flips it back)
        row = HEIGHT - 1 - r
        dr = (row - CENTRE[0])
        base = r * WIDTH
        for c in range(WIDTH):
            dc = (c - CENTRE[1])
            v = 30.0
            for ry, rx, level in ((ENDO[0], ENDO[1], 200.0), (EPI[0], EPI[1], 160.0)):
                d = math.sqrt((dr / (ry * swell)) ** 2 + (dc / (rx * swell)) ** 2)
                if abs(d - 1.0) < 0.08:
                    v = max(v, level)
            v *= 0.6 + 0.8 * rng.random()
            out[base + c] = min(255, int(v))
    return bytes(out)


def chunk(tag, data):
    pad = b"\0" if len(data) % 2 else b""
    return tag + struct.pack("<I", len(data)) + data + pad


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip().splitlines()[-1])
    frames = int(sys.argv[2]) if len(sys.argv) == 3 else 5
    if frames < 1:
        sys.exit("heartwall-avi.py: FRAMES must be at least 1")
    rng = random.Random(8)
    size = WIDTH * HEIGHT
    # stream header: type, handler, flags, priority+language, initial frames,
    # scale, rate (fps = rate / scale), start, length (frames), buffer size,
    # quality, sample size, frame rectangle
    strh = struct.pack("<4s4sIHHIIIIIIIIhhhh", b"vids", b"DIB ", 0, 0, 0, 0, 1, 25, 0,
                       frames, size, 0, 0, 0, 0, WIDTH, HEIGHT)
    # BITMAPINFOHEADER: 8-bit, uncompressed
    strf = struct.pack("<IiiHHIIiiII", 40, WIDTH, HEIGHT, 1, 8, 0, size, 0, 0, 256, 0)
    strl = b"LIST" + struct.pack("<I", 4 + len(chunk(b"strh", strh)) + len(chunk(b"strf", strf))) \
        + b"strl" + chunk(b"strh", strh) + chunk(b"strf", strf)
    avih = struct.pack("<IIIIIIIIII4I", 40000, size * 25, 0, 0x10, frames, 0, 1, size,
                       WIDTH, HEIGHT, 0, 0, 0, 0)
    hdrl_body = b"hdrl" + chunk(b"avih", avih) + strl
    hdrl = b"LIST" + struct.pack("<I", len(hdrl_body)) + hdrl_body
    movi_body = b"movi" + b"".join(chunk(b"00db", frame(rng, k)) for k in range(frames))
    movi = b"LIST" + struct.pack("<I", len(movi_body)) + movi_body
    body = b"AVI " + hdrl + movi
    with open(sys.argv[1], "wb") as f:
        f.write(b"RIFF" + struct.pack("<I", len(body)) + body)


if __name__ == "__main__":
    main()
