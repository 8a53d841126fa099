#!/usr/bin/env python3
"""tables.py: the large-warp / two-level experiment's tables (Narasiman et
al., MICRO 2011) from `warpsim results experiments/lwm/lwm.toml --csv`
(stdin or a file); Markdown on stdout, the slides' numbers beside ours.

Standard library only; the output depends only on the CSV, so it is
deterministic.
"""
import csv
import sys

# The slides (SPEC-policies 6.1-6.3): speedups over round robin on one core.
PAPER = {"tl": "+9.9 %", "lwm": "+7.9 %", "lwm_tl": "+19.1 %"}
# Our kernels for the slides' 12 benchmarks; the others (gc, memc,
# spmv_scalar, backp, srad, lud, vecadd) are warpsim's own.
SLIDES = {"blackjack", "decrypt", "sort", "viterbi", "bfs", "kmeans", "ndl", "hotsp", "reduce",
          "histo", "matmul", "blackscholes"}


def hmean(xs):
    xs = [x for x in xs if x]
    return len(xs) / sum(1.0 / x for x in xs) if xs else None


def pct(x):
    return "-" if x is None else "%+.1f %%" % (100.0 * (x - 1.0))


def num(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def main():
    src = open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin
    rows = [r for r in csv.DictReader(src) if r.get("status") == "ok"]
    run = {}
    for r in rows:
        tl = r["policy"].startswith("two_level_fg")
        if r["grp"] == "main-warp":
            key = "tl" if tl else "rr"
        elif r["grp"] == "main-lwm":
            key = "lwm_tl" if tl else "lwm"
        elif r["grp"] == "fetch-group":
            key = "g" + r["param_g"]
        elif r["grp"] == "warp-size":
            key = "rows" + r["param_rows"]
        else:
            continue
        run[(r["workload"], key)] = r
    wls = sorted({w for (w, k) in run if k == "rr"})
    # the sweep runs a point once: fetch group 8 is main-warp's two-level run
    for (w, k) in list(run):
        if k == "tl" and any(kk.startswith("g") and ww == w for (ww, kk) in run):
            run.setdefault((w, "g8"), run[(w, k)])

    def ipc(w, k):
        r = run.get((w, k))
        return num(r["gpu_ipc"]) if r else None

    def speedup(w, k):
        a, b = ipc(w, k), ipc(w, "rr")
        return a / b if a and b else None

    print("## IPC over round robin (32-thread warps), one core\n")
    print("| workload | RR IPC | two-level | LWM | LWM + two-level |")
    print("|---|---|---|---|---|")
    for w in wls:
        print("| %s | %.3f | %s | %s | %s |" % (w, ipc(w, "rr") or 0, pct(speedup(w, "tl")),
                                             pct(speedup(w, "lwm")), pct(speedup(w, "lwm_tl"))))
    print("| harmonic mean | | %s | %s | %s |" % tuple(
        pct(hmean([speedup(w, k) for w in wls])) for k in ("tl", "lwm", "lwm_tl")))
    print("| harmonic mean, the slides' benchmarks | | %s | %s | %s |" % tuple(
        pct(hmean([speedup(w, k) for w in wls if w in SLIDES])) for k in ("tl", "lwm", "lwm_tl")))
    print("| slides | | %s | %s | %s |\n" % (PAPER["tl"], PAPER["lwm"], PAPER["lwm_tl"]))

    print("## SIMD utilisation (active lanes per issued (sub-)warp / 32)\n")
    print("| workload | RR | LWM | sub-warps per large-warp instruction |")
    print("|---|---|---|---|")
    for w in wls:
        a, b = run.get((w, "rr")), run.get((w, "lwm"))
        print("| %s | %s | %s | %s |" % (
            w, a["simd_utilisation"][:5] if a else "-", b["simd_utilisation"][:5] if b else "-",
            b["lwm_subwarps_per_insn"][:5] if b else "-"))

    for title, prefix, unit in (("Fetch-group size (two-level, 32-thread warps)", "g", "warps"),
                                ("Large-warp size (LWM, round robin)", "rows", "rows of 32")):
        keys = sorted({k for (_, k) in run if k.startswith(prefix) and k[len(prefix):].isdigit()},
                      key=lambda k: int(k[len(prefix):]))
        ws = sorted({w for (w, k) in run if k in keys})
        if not keys:
            continue
        print("\n## %s: harmonic-mean IPC over round robin\n" % title)
        print("| %s | %s |" % (unit, " | ".join(k[len(prefix):] for k in keys)))
        print("|---|%s" % ("---|" * len(keys)))
        print("| speedup | %s |" % " | ".join(
            pct(hmean([speedup(w, k) for w in ws])) for k in keys))
    return 0


if __name__ == "__main__":
    sys.exit(main())
