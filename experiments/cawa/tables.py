#!/usr/bin/env python3
"""tables.py: the CAWA experiment's tables beside the paper's numbers (Lee,
Arunkumar, Wu, ISCA 2015: Fig. 7, 9, 10, 11), from the statistics JSON files
that cawa.toml's sweep links under OUT/json/<workload>.<policy>.json.

usage: tables.py --dir OUT"""
import argparse
import json
import math
import os

WORKLOADS = ["bfs", "kmeans", "ndl", "srad", "backp"]
SENSITIVE = ["bfs", "kmeans", "ndl", "srad"]  # the paper's sensitive set, as far as we have it


def load(out, wl, pol):
    path = os.path.join(out, "json", f"{wl}.{pol}.json")
    try:
        with open(path) as f:
            return json.load(f)["totals"]
    except (OSError, ValueError, KeyError):
        return None


def ipc(t):
    return t["gpu_sim_insn"] / t["gpu_sim_cycle"] if t and t.get("gpu_sim_cycle") else None


def hmean(xs):
    xs = [x for x in xs if x]
    return len(xs) / sum(1 / x for x in xs) if xs else None


def fmt(x, digits=2):
    return "-" if x is None else f"{x:.{digits}f}"


def speedup_table(out, title, pols, paper):
    print(f"### {title}\n")
    print("| workload | " + " | ".join(pols) + " |")
    print("|---|" + "---|" * len(pols))
    cols = {p: [] for p in pols}
    for wl in WORKLOADS:
        base = ipc(load(out, wl, "lrr"))
        row = []
        for p in pols:
            v = ipc(load(out, wl, p))
            s = v / base if v and base else None
            cols[p].append((wl, s))
            row.append(fmt(s))
        print(f"| {wl} | " + " | ".join(row) + " |")
    for name, members in (("Sens (hmean)", SENSITIVE), ("all (hmean)", WORKLOADS)):
        vals = [fmt(hmean([s for wl, s in cols[p] if wl in members])) for p in pols]
        print(f"| {name} | " + " | ".join(vals) + " |")
    print("| paper, Sens | " + " | ".join(paper.get(p, "") for p in pols) + " |\n")


def stat_table(out, title, pols, stats, paper_note):
    print(f"### {title}\n")
    print("| workload | " + " | ".join(f"{p}: {s}" for p in pols for s in stats) + " |")
    print("|---|" + "---|" * (len(pols) * len(stats)))
    for wl in WORKLOADS:
        row = []
        for p in pols:
            t = load(out, wl, p)
            for s in stats:
                row.append(fmt(t.get(s) if t else None, 3))
        print(f"| {wl} | " + " | ".join(row) + " |")
    print(f"\n{paper_note}\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    a = ap.parse_args()
    speedup_table(a.dir, "Fig. 9: speedup over RR",
                  ["gto", "two_level", "caws_oracle", "gcaws", "cawa"],
                  {"gto": "1.16", "two_level": "0.98", "cawa": "1.23"})
    speedup_table(a.dir, "Fig. 10: CACP beneath RR, GTO, two-level (speedup over RR)",
                  ["lrr_cacp", "gto", "gto_cacp", "two_level", "two_level_cacp"],
                  {"lrr_cacp": "CACP adds 2-16.5%"})
    stat_table(a.dir, "Fig. 11: critical-warp L1D hit rate", ["lrr", "cawa"],
               ["l1d_tagged_read_hit_rate"],
               "Paper: CAWA raises it 2.46x on average over RR (7.22x on kmeans).")
    stat_table(a.dir, "Fig. 7: CPL accuracy under RR", ["lrr"],
               ["classify_cpl_accuracy", "classify_cpl_slowest_accuracy"],
               "Paper: 73% on average.")
    stat_table(a.dir, "Critical lines evicted without reuse, L1D MPKI, disparity under RR",
               ["lrr"], ["l1d_tagged_evicted_unused_share", "l1d_mpki", "cta_disparity_avg"],
               "Paper: 44.3% of critical lines evicted unused; disparity 45% average, "
               "70% maximum (srad_1).")


if __name__ == "__main__":
    main()
