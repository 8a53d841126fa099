#!/usr/bin/env python3
"""table.py: turn run.sh's results.tsv and logs into results.md.

usage: table.py RESULTS_TSV LOG_DIR RODINIA_COMMIT STAMP_LINE

Each tsv row: program, mode, exit status, wall seconds, then the totals
kernels_launched warp_insn gpu_sim_insn gpu_sim_cycle gpu_ipc
racecheck_hazards sample_est_cycles sample_est_error_cycles ("-" when the
statistics file is missing), or program, "build-failed".
"""
import os
import re
import sys

MODES = ["functional", "racecheck", "timing", "sample-kernels", "sample-ctas"]
KEYS = ["launches", "warp", "thread", "cycles", "ipc", "hazards", "est", "bound"]
# lines that report host timers differ between runs and are not compared
TIMER = re.compile(r"time|took|\bms\b|sec|\d s\b|\d s,|execution|back:",
                   re.IGNORECASE)


def load(tsv):
    progs, rows = [], {}
    for line in open(tsv):
        f = line.rstrip("\n").split("\t")
        if f[0] not in progs:
            progs.append(f[0])
        if f[1] == "build-failed":
            rows[f[0]] = None
            continue
        r = {"rc": f[2], "wall": f[3]}
        r.update(zip(KEYS, f[4:] + ["-"] * len(KEYS)))
        rows.setdefault(f[0], {})[f[1]] = r
    return progs, rows


def output(logdir, prog, mode):
    """stdout and output file of one run, host-timer lines removed."""
    text = []
    for ext in ("out", "file"):
        path = os.path.join(logdir, "%s.%s.%s" % (prog, mode, ext))
        if os.path.exists(path):
            with open(path, errors="replace") as fh:
                text += [l for l in fh if not TIMER.search(l)]
    return text


def num(v):
    try:
        return float(v)
    except ValueError:
        return None


def main():
    tsv, logdir, commit, stamp = sys.argv[1:5]
    progs, rows = load(tsv)
    print("# Rodinia CUDA programs on warpsim\n")
    print(stamp + "\n")
    print("Rodinia: github.com/yuhc/gpu-rodinia at %s; inputs and command lines in "
          "README.md. Default configuration (`warpsim exec` with no --config).\n" % commit)
    print("Exit: functional / racecheck / timing. Same output: stdout and output file "
          "of the functional and timing runs equal, host-timer lines ignored (- when "
          "either failed). IPC is thread instructions per cycle (gpu_ipc). "
          "Instructions, cycles and IPC from the timing run; hazards from the "
          "racecheck run; wall seconds of the functional / racecheck / timing runs.\n")
    print("| program | exit F/R/T | same output | launches | warp insn | thread insn "
          "| cycles | IPC | hazards | wall s F/R/T |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for p in progs:
        r = rows[p]
        if r is None:
            print("| %s | build failed | | | | | | | | |" % p)
            continue
        g = lambda m, k: r.get(m, {}).get(k, "-")
        same = "-"
        if g("functional", "rc") == "0" and g("timing", "rc") == "0":
            same = "yes" if output(logdir, p, "functional") == output(
                logdir, p, "timing") else "no"
        ipc = num(g("timing", "ipc"))
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            p, "/".join(g(m, "rc") for m in MODES[:3]), same,
            g("timing", "launches"), g("timing", "warp"), g("timing", "thread"),
            g("timing", "cycles"), "%.1f" % ipc if ipc is not None else "-",
            g("racecheck", "hazards"), "/".join(g(m, "wall") for m in MODES[:3])))
    print("\n## Sampled simulation\n")
    print("Timing runs with `--set sample.kernels=1` (K) and `--set sample.ctas=N` (C) "
          "against the full timing run: detailed cycles (gpu_sim_cycle of the sampled "
          "run), reduction (full / detailed), estimate (sample_est_cycles), real error "
          "of the estimate against the full run's gpu_sim_cycle, and the 95 % bound "
          "(sample_est_error_cycles) relative to the full run. Only programs whose "
          "full timing run completed.\n")
    print("| program | launches | full cycles | mode | exit | detailed cycles | reduction "
          "| estimate | error | bound |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for p in progs:
        r = rows[p]
        if r is None or r.get("timing", {}).get("rc") != "0":
            continue
        full = num(r["timing"]["cycles"])
        if not full:
            continue
        for m, tag in (("sample-kernels", "K"), ("sample-ctas", "C")):
            s = r.get(m)
            if s is None:
                continue
            det, est, bnd = num(s["cycles"]), num(s["est"]), num(s["bound"])
            print("| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s |" % (
                p, r["timing"]["launches"], full, tag, s["rc"], s["cycles"],
                "%.2fx" % (full / det) if det else "-",
                s["est"], "%+.1f %%" % (100 * (est - full) / full) if est else "-",
                "%.1f %%" % (100 * bnd / full) if bnd is not None else "-"))


if __name__ == "__main__":
    main()
