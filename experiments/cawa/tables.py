#!/usr/bin/env python3
"""tables.py: the CAWA experiment's tables beside the paper's numbers (Lee,
Arunkumar, Wu, ISCA 2015: Fig. 7, 9, 10, 11, 12), from the statistics JSON
files that cawa.toml's sweep links under OUT/json/<workload>.<policy>.json
and, with --rodinia, cawa-rodinia.toml's under RODINIA_OUT/json.

usage: tables.py --dir OUT [--rodinia RODINIA_OUT]"""
import argparse
import json
import math
import os

BUILTIN = ["bfs", "kmeans", "ndl", "srad", "backp", "tpacf"]
BUILTIN_SENS = ["bfs", "kmeans", "ndl", "srad"]
# Table 2 as Rodinia programs (cawa-rodinia.toml names); kmeans (Sens) and tpacf
# (Non-sens, Parboil's) are the built-ins
PROG_SENS = ["bfs64k", "b+tree", "needle", "srad_1", "sc_small", "heartwall"]
PROG_NONSENS = ["backprop", "particle", "pathfinder", "sc_mid"]
DIRS = {}  # workload -> the sweep folder holding its json/
# ratios shown as '-' when their denominator is 0 (nothing was measured)
DENOM = {"classify_cpl_crit_rank": "classify_cpl_rank_samples"}


def load(out, wl, pol):
    path = os.path.join(DIRS.get(wl, out), "json", f"{wl}.{pol}.json")
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


def workloads():
    return BUILTIN + [w for w in PROG_SENS + PROG_NONSENS if w in DIRS]


def sets():
    """(row name, members) of the harmonic means."""
    out = [("built-in Sens (hmean)", BUILTIN_SENS), ("built-in all (hmean)", BUILTIN)]
    if DIRS:
        sens = PROG_SENS + ["kmeans"]
        nonsens = PROG_NONSENS + ["tpacf"]
        out += [("Table 2 Sens (hmean)", sens), ("Table 2 Non-sens (hmean)", nonsens),
                ("Table 2 all (hmean)", sens + nonsens)]
    return out


def speedup_table(out, title, pols, paper):
    print(f"### {title}\n")
    print("| workload | " + " | ".join(pols) + " |")
    print("|---|" + "---|" * len(pols))
    cols = {p: [] for p in pols}
    for wl in workloads():
        base = ipc(load(out, wl, "lrr"))
        row = []
        for p in pols:
            v = ipc(load(out, wl, p))
            s = v / base if v and base else None
            cols[p].append((wl, s))
            row.append(fmt(s))
        print(f"| {wl} | " + " | ".join(row) + " |")
    for name, members in sets():
        vals = [fmt(hmean([s for wl, s in cols[p] if wl in members])) for p in pols]
        print(f"| {name} | " + " | ".join(vals) + " |")
    print("| paper, Sens | " + " | ".join(paper.get(p, "") for p in pols) + " |\n")


def stat_table(out, title, pols, stats, paper_note):
    print(f"### {title}\n")
    print("| workload | " + " | ".join(f"{p}: {s}" for p in pols for s in stats) + " |")
    print("|---|" + "---|" * (len(pols) * len(stats)))
    for wl in workloads():
        row = []
        for p in pols:
            t = load(out, wl, p)
            for s in stats:
                v = t.get(s) if t else None
                if t and s in DENOM and not t.get(DENOM[s]):
                    v = None
                row.append(fmt(v, 3))
        print(f"| {wl} | " + " | ".join(row) + " |")
    print(f"\n{paper_note}\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--rodinia", help="cawa-rodinia.toml's output folder")
    a = ap.parse_args()
    if a.rodinia:
        DIRS.update({w: a.rodinia for w in PROG_SENS + PROG_NONSENS})
    speedup_table(a.dir, "Fig. 9: speedup over RR",
                  ["gto", "two_level", "two_level_fg", "caws_oracle", "gcaws", "cawa"],
                  {"gto": "1.16", "two_level": "0.98", "cawa": "1.23"})
    speedup_table(a.dir, "Fig. 10: CACP beneath RR, GTO, two-level (speedup over RR)",
                  ["lrr_cacp", "gto", "gto_cacp", "two_level", "two_level_cacp"],
                  {"lrr_cacp": "CACP adds 2-16.5%"})
    stat_table(a.dir, "Fig. 11: critical-warp L1D hit rate", ["lrr", "cawa"],
               ["l1d_tagged_read_hit_rate"],
               "Paper: CAWA raises it 2.46x on average over RR (7.22x on kmeans).")
    stat_table(a.dir, "Fig. 12: scheduling rank of the CTA's most critical warp",
               ["lrr", "gto", "gcaws", "cawa"], ["classify_cpl_crit_rank"],
               "Mean over 1000-cycle intervals of the rank, by instructions issued in the "
               "interval, of the warp CPL calls most critical in its CTA among the CTA's "
               "warps: 0 = it issued least, 1 = most, 0.5 = an even share. Paper (Fig. 12, "
               "one bfs CTA of 16 warps): under gCAWS the critical warp holds a higher "
               "priority and issues more often than under RR.")
    stat_table(a.dir, "Fig. 7: CPL accuracy under RR", ["lrr"],
               ["classify_cpl_slowest_frequency", "classify_cpl_accuracy",
                "classify_cpl_slowest_accuracy"],
               "Paper: 73% on average, counted as the first column: how often the periodic "
               "prediction called the CTA's slowest warp slow (one prediction per 1000 "
               "cycles).")
    stat_table(a.dir, "Critical lines evicted without reuse, L1D MPKI, disparity under RR",
               ["lrr"], ["l1d_tagged_evicted_unused_share", "l1d_mpki", "cta_disparity_avg"],
               "Paper: 44.3% of critical lines evicted unused; disparity 45% average, "
               "70% maximum (srad_1).")


if __name__ == "__main__":
    main()
