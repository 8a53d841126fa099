#!/usr/bin/env python3
"""stats-compare.py: compare two folders written by scripts/stats-matrix.sh.

Every statistic present in the first folder's JSON files (totals and
per-kernel snapshots) must have the same value in the second; statistics that
only the second has are listed as additions (new counters are allowed), and
configuration keys are ignored (a new key changes the echo, not a result).
The verification line of every run must match too.  Exit 0 when identical.

usage: scripts/stats-compare.py BEFORE_DIR AFTER_DIR
"""
import json
import os
import sys


def verification(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return [l.rstrip("\n") for l in f if l.startswith(("verification", "exit "))]
    except FileNotFoundError:
        return ["<missing>"]


def compare_dicts(where, a, b, diffs, added):
    for k, v in a.items():
        if k not in b:
            diffs.append(f"{where}: '{k}' missing (was {v})")
        elif isinstance(v, dict) and isinstance(b[k], dict):
            compare_dicts(f"{where} {k}", v, b[k], diffs, added)  # kernel snapshots nest
        elif b[k] != v:
            diffs.append(f"{where}: '{k}' {v} -> {b[k]}")
    for k in b:
        if k not in a:
            added.add(k)


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    before, after = sys.argv[1], sys.argv[2]
    diffs, added = [], set()
    names = sorted(n for n in os.listdir(before) if n.endswith(".json"))
    if not names:
        print(f"stats-compare: no JSON files in {before}", file=sys.stderr)
        return 2
    for n in names:
        pa, pb = os.path.join(before, n), os.path.join(after, n)
        if not os.path.exists(pb):
            diffs.append(f"{n}: missing in {after}")
            continue
        with open(pa) as f:
            a = json.load(f)
        with open(pb) as f:
            b = json.load(f)
        compare_dicts(f"{n} totals", a.get("totals", {}), b.get("totals", {}), diffs, added)
        ka, kb = a.get("kernels", []), b.get("kernels", [])
        if len(ka) != len(kb):
            diffs.append(f"{n}: {len(ka)} kernel snapshots -> {len(kb)}")
        for i, (x, y) in enumerate(zip(ka, kb)):
            compare_dicts(f"{n} kernel {i}", x, y, diffs, added)
        txt = n[:-5] + ".txt"
        va, vb = verification(os.path.join(before, txt)), verification(os.path.join(after, txt))
        if va != vb:
            diffs.append(f"{txt}: {va} -> {vb}")
    for d in diffs[:50]:
        print(d)
    if len(diffs) > 50:
        print(f"... {len(diffs) - 50} more differences")
    if added:
        print("new statistics (allowed): " + ", ".join(sorted(added)))
    print(f"stats-compare: {len(names)} runs, {len(diffs)} differences")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
