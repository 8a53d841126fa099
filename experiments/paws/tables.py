#!/usr/bin/env python3
"""tables.py: the Phase-aware experiment's tables (Awatramani et al., PACT
2015) from `warpsim results experiments/paws/paws.toml --csv` (stdin or a
file); Markdown on stdout, the paper's numbers beside ours.

A kernel is type A when single-level GTO beats RR by more than 1 %, type B
when RR beats GTO by more than 1 %, and left out otherwise (the paper reports
only kernels where the two differ by more than 1 %).  Standard library only;
deterministic.
"""
import csv
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
    "B": "single: RR +9.2 %, PA +9 % over GTO; two-level: RR +7 %, PA +4 % over GTO",
}
IDLE = ["sched_idle_no_inst", "sched_not_ready", "sched_pipe_stall"]
LOAD = ["load_cycles_idle", "load_cycles_alu_only", "load_cycles_mem_only",
        "load_cycles_alu_mem"]


def hmean(xs):
    xs = [x for x in xs if x]
    return len(xs) / sum(1.0 / x for x in xs) if xs else None


def pct(x):
    return "-" if x is None else "%+.1f %%" % (100.0 * (x - 1.0))


def main():
    src = open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin
    run = {}
    for r in csv.DictReader(src):
        if r.get("status") == "ok" and r["policy"] in NAME:
            run[(r["workload"], NAME[r["policy"]])] = r

    def stat(w, p, key):
        r = run.get((w, p))
        try:
            return float(r[key]) if r else None
        except (KeyError, ValueError):
            return None

    def rel(w, p, base):
        a, b = stat(w, p, "gpu_ipc"), stat(w, base, "gpu_ipc")
        return a / b if a and b else None

    wls = sorted({w for (w, _) in run})
    kind = {}
    for w in wls:
        g = rel(w, "gto", "lrr")
        kind[w] = "A" if g and g > 1.01 else "B" if g and g < 0.99 else "-"

    print("## IPC normalised to the same level's RR (Fig. 9)\n")
    print("| workload | type | %s |" % " | ".join(LABEL[p] for p in SINGLE[1:] + TWO[1:]))
    print("|---|---|%s" % ("---|" * 4))
    for w in wls:
        cells = [pct(rel(w, p, "lrr")) for p in SINGLE[1:]]
        cells += [pct(rel(w, p, "tl_rr")) for p in TWO[1:]]
        print("| %s | %s | %s |" % (w, kind[w], " | ".join(cells)))
    for t in ("A", "B"):
        ws = [w for w in wls if kind[w] == t]
        if not ws:
            continue
        base_s, base_t = ("lrr", "tl_rr") if t == "A" else ("gto", "tl_gto")
        print("\n**Type %s** (%s): harmonic means over %s" % (t, ", ".join(ws),
              "RR" if t == "A" else "GTO"))
        print("- single level: %s" % ", ".join(
            "%s %s" % (LABEL[p], pct(hmean([rel(w, p, base_s) for w in ws])))
            for p in SINGLE if p != base_s))
        print("- two level: %s" % ", ".join(
            "%s %s" % (LABEL[p], pct(hmean([rel(w, p, base_t) for w in ws])))
            for p in TWO if p != base_t))
        print("- paper: %s" % PAPER[t])

    print("\n## Scheduler idle time over RR of the same level (Fig. 12)\n")
    print("| workload | type | %s |" % " | ".join(LABEL[p] for p in SINGLE[1:] + TWO[1:]))
    print("|---|---|%s" % ("---|" * 4))
    for w in wls:
        def idle(p):
            xs = [stat(w, p, k) for k in IDLE]
            return sum(xs) if None not in xs else None
        cells = []
        for p, b in [(p, "lrr") for p in SINGLE[1:]] + [(p, "tl_rr") for p in TWO[1:]]:
            a, c = idle(p), idle(b)
            cells.append(pct(a / c) if a is not None and c else "-")
        print("| %s | %s | %s |" % (w, kind[w], " | ".join(cells)))
    print("\nPaper, type A single level: GTO and PA 21.56 % and 21.03 % below RR; type B: "
          "GTO 13.66 % (single) and 8.73 % (two-level) above RR, PA 6.8 % and 3.9 %.")

    print("\n## ALU and memory load, single level (Fig. 10): share of cycles\n")
    print("| workload | type | policy | neither | ALU only | memory only | both |")
    print("|---|---|---|---|---|---|---|")
    for w in wls:
        for p in SINGLE:
            xs = [stat(w, p, k) for k in LOAD]
            if None in xs or not sum(xs):
                continue
            tot = sum(xs)
            print("| %s | %s | %s | %s |" % (w, kind[w], LABEL[p],
                                            " | ".join("%.2f" % (x / tot) for x in xs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
