#!/usr/bin/env python3
"""warpsim_sweep.py: `warpsim sweep`, `warpsim results` and `warpsim report`.

The C `warpsim` command executes this script (python3, standard library
only; the report also needs matplotlib) with WARPSIM set to its own path.
docs/sweeps.md describes the SPEC, the result store and the index.
"""
import argparse
import csv
import os
import sqlite3
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from spec import Spec, SpecError  # noqa: E402
from store import Store  # noqa: E402
import runner  # noqa: E402


class Progress:
    """Progress lines on stderr: rewritten in place on a terminal; when not
    on a terminal only failures and the summary, unless --progress."""

    def __init__(self, force):
        self.tty = sys.stderr.isatty()
        self.show = self.tty or force
        self.pending = False

    def __call__(self, text, transient=False):
        if transient:
            if not self.show:
                return
            if self.tty:
                sys.stderr.write("\r\033[K" + text)
                self.pending = True
                sys.stderr.flush()
                return
        if self.pending:
            sys.stderr.write("\r\033[K")
            self.pending = False
        sys.stderr.write(text + "\n")
        sys.stderr.flush()


def load(args):
    overrides = {}
    for a in args.set_var or []:
        if "=" not in a:
            raise SpecError("--set-var expects name=value, got '%s'" % a)
        k, v = a.split("=", 1)
        overrides[k] = v
    spec = Spec(args.spec, overrides)
    if args.out:
        spec.out = os.path.abspath(args.out)
    ws = args.warpsim or os.environ.get("WARPSIM")
    if not ws or not os.access(ws, os.X_OK):
        raise SpecError("no warpsim binary (run through `warpsim sweep`, or give --warpsim PATH)")
    os.makedirs(spec.out, exist_ok=True)
    store = Store(spec.out, os.path.abspath(ws))
    store.assign_keys(spec.points)
    return spec, store


def common(p):
    p.add_argument("spec", help="the sweep description (TOML)")
    p.add_argument("--set-var", action="append", metavar="NAME=VALUE",
                   help="override a variable of the SPEC's [vars]; repeatable")
    p.add_argument("--out", help="result folder (default: the SPEC's `out`)")
    p.add_argument("--warpsim", help=argparse.SUPPRESS)


def cmd_sweep(argv):
    if argv[:1] == ["status"]:
        return cmd_status(argv[1:])
    ap = argparse.ArgumentParser(prog="warpsim sweep", description=(
        "Run every missing point of SPEC: a local pool of --jobs processes, or one "
        "Slurm job array per dependency level with --slurm (every argument after "
        "--slurm goes to sbatch).  `warpsim sweep status SPEC` shows what is done."))
    common(ap)
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                    help="local processes (default: the CPUs)")
    ap.add_argument("--dry-run", action="store_true", help="list the missing points; run nothing")
    ap.add_argument("--progress", action="store_true", help="progress lines even when not on a terminal")
    ap.add_argument("--array-limit", type=int, default=16,
                    help="Slurm: at most this many array tasks at once (default 16)")
    slurm_args = None
    if "--slurm" in argv:
        k = argv.index("--slurm")
        argv, slurm_args = argv[:k], argv[k + 1:]
    args = ap.parse_args(argv)
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    spec, store = load(args)
    missing = [p for p in spec.points if not store.done(p)]
    if args.dry_run:
        for p in missing:
            print("%s  %s" % (p.id, p.describe()))
        print("%d of %d points missing" % (len(missing), len(spec.points)))
        return 0
    if slurm_args is not None:
        import slurm
        return slurm.submit(spec, store, missing, slurm_args, args.array_limit)
    prog = Progress(args.progress)
    prog("sweep %s: %d points, %d done, %d to run on %d processes; results in %s" % (
        spec.name, len(spec.points), len(spec.points) - len(missing), len(missing),
        args.jobs, spec.out))
    try:
        total, failed = runner.Pool(store, args.jobs, prog).run(spec.points)
    except runner.Interrupted:
        store.sync_index(spec, spec.points)
        prog("sweep interrupted: finished points are kept; run the same command to go on")
        return 130
    store.sync_index(spec, spec.points)
    prog("sweep %s: %d run, %d failed; index %s" % (spec.name, total, failed, store.index_path()))
    return 1 if failed else 0


def cmd_status(argv):
    ap = argparse.ArgumentParser(prog="warpsim sweep status", description=(
        "Count the points of SPEC that are done, running, queued, failed and "
        "pending, from the results and from squeue/sacct for submitted points."))
    common(ap)
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per point not done")
    args = ap.parse_args(argv)
    spec, store = load(args)
    import slurm
    states = slurm.states(store)
    counts = {}
    rows = []
    for p in spec.points:
        r = store.result(p)
        st = r["status"] if r else states.get(p.id, "pending")
        if r and r["status"] != "ok" and p.id in states and states[p.id] in ("running", "queued"):
            st = states[p.id]
        counts[st] = counts.get(st, 0) + 1
        if st != "ok":
            rows.append("%-10s %s  %s%s" % (st, p.id, p.describe(),
                                            "  (%s)" % r.get("reason") if r and r.get("reason") else ""))
    order = ["ok", "running", "queued", "failed", "pending"]
    print("%s: %d points: %s" % (spec.name, len(spec.points), ", ".join(
        "%d %s" % (counts[k], "done" if k == "ok" else k)
        for k in order + sorted(set(counts) - set(order)) if k in counts)))
    if args.verbose:
        print("\n".join(rows))
    store.sync_index(spec, spec.points, states)
    return 0


def cmd_results(argv):
    ap = argparse.ArgumentParser(prog="warpsim results", description=(
        "Query the index of SPEC's points (OUT/index.sqlite, refreshed first).  "
        "--where takes an SQL condition on the points table (columns: id, grp, kind, "
        "label, workload, size, seed, config, policy, policy_name, status, param_<name>, "
        "gpu_ipc, ...; statistics by name in --stats)."))
    common(ap)
    ap.add_argument("--where", help="SQL condition, e.g. \"workload='bfs' AND policy_name='gto'\"")
    ap.add_argument("--stats", help="comma-separated statistics (default: key statistics; "
                    "with --csv: every statistic)")
    ap.add_argument("--all-kinds", action="store_true", help="include profile and best-swl points")
    ap.add_argument("--csv", action="store_true", help="CSV: one row per run, one column per statistic")
    ap.add_argument("--sql", help="run this SQL on the index instead; print rows as CSV")
    args = ap.parse_args(argv)
    spec, store = load(args)
    store.sync_index(spec, spec.points)
    db = sqlite3.connect(store.index_path())
    try:
        return _results(db, args)
    except sqlite3.Error as e:
        print("warpsim results: SQL error: %s" % e, file=sys.stderr)
        return 2
    finally:
        db.close()


def _results(db, args):
    w = csv.writer(sys.stdout, lineterminator="\n")
    if args.sql:
        cur = db.execute(args.sql)
        w.writerow([d[0] for d in cur.description])
        w.writerows(cur)
        return 0
    cond = [] if args.all_kinds else ["kind IN ('run', 'exec')"]
    if args.where:
        cond.append("(%s)" % args.where)
    where = " WHERE " + " AND ".join(cond) if cond else ""
    pcols = [r[1] for r in db.execute("PRAGMA table_info(points)") if r[1].startswith("param_")]
    inputs = ["id", "label", "grp", "kind", "workload", "size", "seed", "config", "policy",
              "resolved_policy"] + pcols + ["status"]
    if args.stats:
        stats = [s.strip() for s in args.stats.split(",") if s.strip()]
    elif args.csv:
        stats = _stat_names(db, where)
    else:
        stats = ["gpu_ipc", "gpu_sim_cycle", "l1d_miss_rate"]
    rows = db.execute("SELECT %s FROM points%s ORDER BY ord" % (
        ", ".join('"%s"' % c for c in inputs), where)).fetchall()
    table = []
    for r in rows:
        vals = dict(db.execute("SELECT name, value FROM stats WHERE id = ?", (r[0],)))
        table.append(list(r) + [vals.get(s) for s in stats])
    header = inputs + stats
    if args.csv:
        w.writerow(header)
        w.writerows(table)
        return 0
    show = [h for h in header if h not in ("id", "grp", "kind", "config", "policy")]
    idx = [header.index(h) for h in show]
    cells = [show] + [[_fmt(t[i]) for i in idx] for t in table]
    widths = [max(len(c[j]) for c in cells) for j in range(len(show))]
    for c in cells:
        print("  ".join(x.ljust(widths[j]) for j, x in enumerate(c)).rstrip())
    print("(%d runs)" % len(table))
    return 0


def _stat_names(db, where):
    names = []
    seen = set()
    for (pid,) in db.execute("SELECT id FROM points%s ORDER BY ord" % where).fetchall():
        for (n,) in db.execute("SELECT name FROM stats WHERE id = ? ORDER BY rowid", (pid,)):
            if n not in seen:
                seen.add(n)
                names.append(n)
    return names


def _fmt(x):
    if x is None:
        return "-"
    if isinstance(x, float):
        return "%.4f" % x
    return str(x)


def cmd_report(argv):
    ap = argparse.ArgumentParser(prog="warpsim report", description=(
        "Write OUT/report/index.html (self-contained: figures inlined as SVG) and "
        "every figure as SVG and PDF in OUT/report/figures/, from SPEC's [report]."))
    common(ap)
    ap.add_argument("-o", "--output", help="report folder (default OUT/report)")
    args = ap.parse_args(argv)
    spec, store = load(args)
    store.sync_index(spec, spec.points)
    import report
    return report.write(spec, store, args.output or os.path.join(spec.out, "report"))


def cmd_task(argv):
    """Internal: one Slurm array task (slurm.py submits it)."""
    import slurm
    return slurm.task(argv)


def main():
    cmds = {"sweep": cmd_sweep, "results": cmd_results, "report": cmd_report, "_task": cmd_task}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        print("usage: warpsim_sweep.py sweep|results|report ...", file=sys.stderr)
        return 2
    try:
        return cmds[sys.argv[1]](sys.argv[2:])
    except SpecError as e:
        print("warpsim %s: %s" % (sys.argv[1], e), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
