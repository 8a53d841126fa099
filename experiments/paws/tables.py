#!/usr/bin/env python3
"""tables.py: the Phase-aware experiment's tables (Awatramani et al., PACT
2015) from `warpsim results ... --csv` of paws.toml (built-in workloads) and
paws-rodinia.toml (Rodinia programs); Markdown on stdout, the paper's numbers
beside ours.

usage: tables.py [RESULTS.csv ...] [--timelines TIMELINES.csv]...

Rows of group `main` are built-in workloads, the others Rodinia programs
(shown as `name (R)`).  A workload is type A when single-level GTO beats RR by
more than 1 %, type B when RR beats GTO by more than 1 %, and left out
otherwise (the paper reports only kernels where the two differ by more than
1 %).  Speed is instructions per cycle, the cycles being `sample_est_cycles`
where a run was sampled (equal to gpu_sim_cycle otherwise).  TIMELINES.csv
lists (workload, policy_name, dir: relative to the folder of TIMELINES.csv,
the sweep's result folder) of runs with a timeline of warps per phase
(timeline_phases), printed as Figs. 6/7; --timelines may be given once
per sweep (paws.toml's built-ins, paws-timelines.toml's programs).  Standard library only;
deterministic.

After the tables by workload come the same tables by kernel (the paper's
unit): each point's stats.json (in the sweep's points/ folder, beside the
CSV) gives every kernel's launches, summed by kernel name; kernels under
KERNEL_SHARE of their program's RR cycles are left out.
"""
import csv
import json
import os
import re
import sys

SINGLE = ["lrr", "gto", "paws"]
TWO = ["tl_rr", "tl_gto", "tl_phase"]
LABEL = {"lrr": "RR", "gto": "GTO", "paws": "PA", "tl_rr": "2L RR", "tl_gto": "2L GTO",
         "tl_phase": "2L PA"}
NAME = {"lrr": "lrr", "gto": "gto", "paws": "paws", "paws_2l:prio=rr": "tl_rr",
        "paws_2l:prio=gto": "tl_gto", "paws_2l:prio=phase": "tl_phase"}
# The paper (SPEC-policies 5.4): speedups within each level.
PAPER = {
    "A": "single: GTO +10 %, PA +9 % over RR; two-level: GTO +4 %, PA +3 % over RR",
    "B": "single: RR +9.2 %, PA +9 % over GTO (PA within 2 % of RR); two-level: RR +7 %, "
         "PA +4 % over GTO",
}
IDLE = ["sched_idle_no_inst", "sched_not_ready", "sched_pipe_stall"]
LOAD = ["load_cycles_idle", "load_cycles_alu_only", "load_cycles_mem_only",
        "load_cycles_alu_mem"]
TL_ROWS = 12  # time buckets of a warps-per-phase timeline
# [CHOICE] a kernel is typed on its own when it takes at least this share of
# its program's cycles under single-level RR (the paper types kernels: BP K1
# and K2, B+T K1 and K2, ...; the rest are too short to say anything)
KERNEL_SHARE = 0.10


def hmean(xs):
    xs = [x for x in xs if x]
    return len(xs) / sum(1.0 / x for x in xs) if xs else None


def mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def pct(x):
    return "-" if x is None else "%+.1f %%" % (100.0 * (x - 1.0))


def num(r, key):
    try:
        return float(r[key])
    except (KeyError, TypeError, ValueError):
        return None


def load(paths):
    run = {}
    for path in paths:
        with open(path) as f:
            for r in csv.DictReader(f):
                if r.get("status") != "ok" or r["policy"] not in NAME:
                    continue
                w = r["workload"] if r.get("grp", "main") == "main" else r["workload"] + " (R)"
                r["_dir"] = os.path.dirname(os.path.abspath(path))
                run[(w, NAME[r["policy"]])] = r
    return run


def speed(r):
    insn, cyc = num(r, "gpu_sim_insn"), num(r, "sample_est_cycles")
    if not cyc:
        cyc = num(r, "gpu_sim_cycle")
    return insn / cyc if insn and cyc else num(r, "gpu_ipc")


def kernel_name(mangled):
    """A kernel's name without its parameter types (_Z6gatherPKfPfii -> gather)."""
    m = re.match(r"_Z(\d+)", mangled)
    return mangled[m.end():m.end() + int(m.group(1))] if m else mangled


def by_kernel(run):
    """Rows like run's, one per (workload / kernel, policy): each kernel's
    launches summed from the point's stats.json; kernels under KERNEL_SHARE
    of their program's RR cycles are left out."""
    keys = ["gpu_sim_insn", "gpu_sim_cycle", "sample_est_cycles"] + IDLE + LOAD
    per = {}
    for (w, p), r in run.items():
        path = os.path.join(r["_dir"], "points", r["id"], "stats.json")
        try:
            with open(path) as f:
                kernels = json.load(f).get("kernels", [])
        except (OSError, ValueError):
            continue
        sums = {}
        for k in kernels:
            acc = sums.setdefault(kernel_name(k["kernel"]), dict.fromkeys(keys, 0))
            for key in keys:
                acc[key] += k["stats"].get(key, 0)
        per[(w, p)] = sums
    rows = {}
    for (w, p), sums in per.items():
        base = per.get((w, "lrr"), {})
        total = sum(v["sample_est_cycles"] for v in base.values())
        for name, acc in sums.items():
            b = base.get(name)
            if not total or not b or b["sample_est_cycles"] < KERNEL_SHARE * total:
                continue
            label = "%s / %s" % (w[:-4], name) + " (R)" if w.endswith(" (R)") \
                else "%s / %s" % (w, name)
            rows[(label, p)] = {k: str(v) for k, v in acc.items()}
    return rows


def fig9(run, wls, kind, rel, unit=""):
    print("## IPC normalised to the same level's RR (Fig. 9%s)\n" % unit)
    print("| workload | type | %s |" % " | ".join(LABEL[p] for p in SINGLE[1:] + TWO[1:]))
    print("|---|---|%s" % ("---|" * 4))
    for w in wls:
        cells = [pct(rel(w, p, "lrr")) for p in SINGLE[1:]]
        cells += [pct(rel(w, p, "tl_rr")) for p in TWO[1:]]
        print("| %s | %s | %s |" % (w, kind[w], " | ".join(cells)))
    subsets = [("all", lambda w: True), ("built-in", lambda w: not w.endswith("(R)")),
               ("Rodinia", lambda w: w.endswith("(R)"))]
    for t in ("A", "B"):
        sets = [(n, [w for w in wls if kind[w] == t and keep(w)]) for n, keep in subsets]
        if not sets[0][1]:
            print("\n**Type %s**: none.  Paper: %s" % (t, PAPER[t]))
            continue
        if not sets[1][1] or not sets[2][1]:
            sets = sets[:1]  # one kind only: "all" says it
        for sname, ws in sets:
            print("\n**Type %s, %s** (%d: %s): harmonic means" % (t, sname, len(ws), ", ".join(ws)))
            for level, ps in (("single level", SINGLE), ("two level", TWO)):
                rr, gto, pa = ps
                print("- %s: over %s %s, %s; over %s %s, %s" % (
                    level, LABEL[rr],
                    "%s %s" % (LABEL[gto], pct(hmean([rel(w, gto, rr) for w in ws]))),
                    "%s %s" % (LABEL[pa], pct(hmean([rel(w, pa, rr) for w in ws]))),
                    LABEL[gto],
                    "%s %s" % (LABEL[rr], pct(hmean([rel(w, rr, gto) for w in ws]))),
                    "%s %s" % (LABEL[pa], pct(hmean([rel(w, pa, gto) for w in ws])))))
        print("- paper: %s" % PAPER[t])


def fig12(run, wls, kind, unit=""):
    def idle(w, p):
        r = run.get((w, p))
        xs = [num(r, k) for k in IDLE] if r else [None]
        return sum(xs) if None not in xs else None

    def ratio(w, p, b):
        a, c = idle(w, p), idle(w, b)
        return a / c if a is not None and c else None

    pairs = [(p, "lrr") for p in SINGLE[1:]] + [(p, "tl_rr") for p in TWO[1:]]
    print("\n## Scheduler idle time over RR of the same level (Fig. 12%s)\n" % unit)
    print("| workload | type | %s |" % " | ".join(LABEL[p] for p, _ in pairs))
    print("|---|---|%s" % ("---|" * 4))
    for w in wls:
        print("| %s | %s | %s |" % (w, kind[w], " | ".join(pct(ratio(w, p, b)) for p, b in pairs)))
    for t in ("A", "B"):
        ws = [w for w in wls if kind[w] == t]
        if ws:
            print("| **mean, type %s** | %s | %s |" % (t, t, " | ".join(
                pct(mean([ratio(w, p, b) for w in ws])) for p, b in pairs)))
    print("\nPaper (means per type): type A single level GTO and PA 21.56 % and 21.03 % below "
          "RR, two level comparable to RR; type B GTO 13.66 % (single) and 8.73 % (two level) "
          "above RR, PA 6.8 % and 3.9 %.")


def fig10(run, wls, kind, rel, unit=""):
    # the paper shows two kernels of each type: the two with the largest GTO-RR gap
    shown = []
    for t in ("A", "B"):
        ws = [w for w in wls if kind[w] == t]
        ws.sort(key=lambda w: -abs((rel(w, "gto", "lrr") or 1.0) - 1.0))
        shown += ws[:2]
    print("\n## ALU and memory load, single level (Fig. 10%s): share of cycles\n" % unit)
    print("Two workloads of each type, those with the largest GTO-RR gap.\n")
    print("| workload | type | policy | neither | ALU only | memory only | both |")
    print("|---|---|---|---|---|---|---|")
    for w in shown:
        for p in SINGLE:
            r = run.get((w, p))
            xs = [num(r, k) for k in LOAD] if r else [None]
            if None in xs or not sum(xs):
                continue
            tot = sum(xs)
            print("| %s | %s | %s | %s |" % (w, kind[w], LABEL[p],
                                            " | ".join("%.2f" % (x / tot) for x in xs)))


def timelines(path, heading=True):
    with open(path) as f:
        pts = [r for r in csv.DictReader(f)]
    if not pts:
        return
    if heading:
        print("\n## Warps per phase over time (Figs. 6 and 7)\n")
        print("Resident warps of all 16 SMs by the phase of their next instruction "
              "(`timeline_phases`; the last column also counts later phases), averaged over "
              "%d equal spans of the run; ALU and memory: instructions in flight." % TL_ROWS)
    for r in pts:
        rows = []
        # dir is relative to the sweep's result folder, where run.sh writes the list
        with open(os.path.join(os.path.dirname(path), r["dir"], "timeline.csv")) as f:
            rows = list(csv.DictReader(f))
        if not rows:
            continue
        cols = [c for c in rows[0] if c.startswith("phase_warps_")]
        print("\n**%s, %s** (%d samples)\n" % (r["workload"], LABEL.get(r["policy_name"],
                                                r["policy_name"]), len(rows)))
        print("| cycles | %s | ALU | memory |" % " | ".join(
            "p%s" % c[len("phase_warps_"):] for c in cols))
        print("|---|%s---|---|" % ("---|" * len(cols)))
        n = len(rows)
        for b in range(TL_ROWS):
            span = rows[b * n // TL_ROWS:(b + 1) * n // TL_ROWS]
            if not span:
                continue
            avg = [sum(float(s[c]) for s in span) / len(span)
                   for c in cols + ["alu_inflight", "mem_inflight"]]
            print("| %s-%s | %s |" % (span[0]["cycle"], span[-1]["cycle"],
                                      " | ".join("%.0f" % a for a in avg)))


def figures(run, unit):
    def rel(w, p, base):
        a, b = run.get((w, p)), run.get((w, base))
        a, b = (speed(a) if a else None), (speed(b) if b else None)
        return a / b if a and b else None

    wls = sorted({w for (w, _) in run})
    kind = {}
    for w in wls:
        g = rel(w, "gto", "lrr")
        kind[w] = "A" if g and g > 1.01 else "B" if g and g < 0.99 else "-"
    fig9(run, wls, kind, rel, unit)
    fig12(run, wls, kind, unit)
    fig10(run, wls, kind, rel, unit)


def main(argv):
    paths, tls = [], []
    i = 0
    while i < len(argv):
        if argv[i] == "--timelines" and i + 1 < len(argv):
            tls.append(argv[i + 1])
            i += 2
        elif argv[i].startswith("-"):
            print(__doc__.split("\n\n")[1], file=sys.stderr)
            return 2
        else:
            paths.append(argv[i])
            i += 1
    if not paths and not tls:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    run = load(paths)
    if run:
        figures(run, "")
    kernels = by_kernel(run)
    if kernels:
        print("\n# By kernel\n")
        print("The paper types kernels, not programs.  The same tables for every kernel "
              "that takes at least %d %% of its program's cycles under RR (its launches "
              "summed), `program / kernel`.\n" % round(100 * KERNEL_SHARE))
        figures(kernels, ", by kernel")
    for n, tl in enumerate(tls):
        timelines(tl, heading=n == 0)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
