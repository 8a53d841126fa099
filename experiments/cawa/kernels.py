#!/usr/bin/env python3
"""kernels.py: CAWA's speedup kernel by kernel, to see where a program's
speedup over RR comes from (the paper's kmeans 3.13x: experiments/cawa/
README.md, "kmeans").  Each built-in workload runs at --config cawa with the
CPL classifier under lrr (RR), gto and CAWA (gcaws with the cacp L1D); the
table gives, per kernel name (launches summed), the cycles under RR, each
scheduler's speedup over RR, the kernel's share of RR's cycles and the L1D
miss rates.  Runs one simulation at a time.

usage: kernels.py [--size S] [--warpsim PATH] [--out DIR] [WORKLOAD ...]
(default workload: kmeans)"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
POINTS = [("rr", ["--sched", "lrr"]), ("gto", ["--sched", "gto"]),
          ("cawa", ["--sched", "gcaws", "--set", "l1d.policy=cacp"])]


def run(warpsim, out, size, w, name, args):
    path = os.path.join(out, f"{w}.{size}.{name}.json")
    cmd = [warpsim, "run", w, "--size", size, "--config", "cawa", "--threads", "1",
           "--quiet", "--set", "sm.classifier=cpl", "--stats-json", path] + args
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit(f"kernels.py: {' '.join(cmd)} failed:\n{r.stderr}")
    with open(path) as f:
        return json.load(f)


def by_kernel(d):
    """cycles, L1D misses and accesses per kernel name, plus the whole run's"""
    k = {}
    for snap in d["kernels"]:
        s = snap["stats"]
        c = k.setdefault(snap["kernel"], [0, 0, 0])
        c[0] += s["gpu_sim_cycle"]
        c[1] += s["l1d_misses"]
        c[2] += s["l1d_accesses"]
    t = d["totals"]
    k["(all)"] = [t["gpu_sim_cycle"], t["l1d_misses"], t["l1d_accesses"]]
    return k


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split("usage: ")[1])
    ap.add_argument("--size", default="medium", choices=["small", "medium", "large"])
    ap.add_argument("--warpsim", default=os.path.join(HERE, "..", "..", "build", "warpsim"))
    ap.add_argument("--out", default=None)
    ap.add_argument("workloads", nargs="*", default=["kmeans"])
    a = ap.parse_args()
    if not os.access(a.warpsim, os.X_OK):
        sys.exit(f"kernels.py: no warpsim binary at '{a.warpsim}' (use --warpsim PATH)")
    out = a.out or os.path.join(HERE, f"kernels-{a.size}")
    os.makedirs(out, exist_ok=True)
    print(f"speedup over RR by kernel, size {a.size}, --config cawa, CPL classifier\n")
    print("| workload | kernel | launches | RR cycles | share of RR | GTO | CAWA "
          "| L1D miss rate RR / GTO / CAWA |")
    print("|---|---|---|---|---|---|---|---|")
    for w in a.workloads:
        runs = {name: run(a.warpsim, out, a.size, w, name, args) for name, args in POINTS}
        ks = {name: by_kernel(d) for name, d in runs.items()}
        launches = {}
        for snap in runs["rr"]["kernels"]:
            launches[snap["kernel"]] = launches.get(snap["kernel"], 0) + 1
        total = ks["rr"]["(all)"][0]
        for kern, rr in ks["rr"].items():
            sp = [rr[0] / ks[p][kern][0] for p in ("gto", "cawa")]
            miss = " / ".join(f"{ks[p][kern][1] / max(ks[p][kern][2], 1):.3f}"
                              for p in ("rr", "gto", "cawa"))
            print(f"| {w} | {kern} | {launches.get(kern, len(runs['rr']['kernels']))} "
                  f"| {rr[0]} | {rr[0] / total:.2f} | {sp[0]:.2f} | {sp[1]:.2f} | {miss} |")


if __name__ == "__main__":
    main()
