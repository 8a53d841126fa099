"""runner.py: runs one point (the same function for the local pool and for a
Slurm array task) and the local pool of N processes.

A point runs the ordinary `warpsim run|profile|best-swl` command with
OUT as its working directory, so its numbers are those of a direct run.  Its
output goes to a temporary file renamed into place on success; result.json
(status ok or failed, exit code, reason, wall time) is written last.  An
interrupted point (SIGINT/SIGTERM to the sweep) leaves no result and runs
again next time.
"""
import glob
import json
import os
import re
import signal
import subprocess
import threading
import time

from store import read_json, write_atomic


class Interrupted(Exception):
    pass


def command(store, p, out_tmp):
    """argv of the point's warpsim command; None and a reason if a
    dependency is not done."""
    i = p.inputs
    ws = store.warpsim
    config = i.get("_config_path", i.get("config"))
    resolved = {}
    if p.kind == "profile":
        return [ws, "profile", i["workload"], "--size", i["size"], "--seed", str(i["seed"]),
                "-o", out_tmp], resolved, None
    sets = []
    for s in i.get("sets", []):
        sets += ["--set", s]
    if p.kind == "best-swl":
        return [ws, "best-swl", i["workload"], "--size", i["size"], "--seed", str(i["seed"]),
                "--config", config] + sets, resolved, None
    timeline = os.path.join(store.dir(p), "timeline.csv")
    if p.kind == "exec":            # runs in the program's folder: absolute paths
        tail = ["--timeline", os.path.abspath(timeline)] if i.get("timeline") else []
        return [ws, "exec", "--config", config, "--sched", i["policy"]] + sets + [
                "--stats-json", os.path.abspath(os.path.join(store.out, out_tmp))] + tail + [
                "--"] + i["program"], resolved, None
    policy = i["policy"]
    for name, dep in p.deps.items():
        r = store.result(dep)
        if r is None or r.get("status") != "ok":
            return None, resolved, "dependency %s (%s) is %s" % (
                dep.id, dep.kind, "failed" if r else "not done")
        if name == "profile":
            policy = policy.replace("{profile}", os.path.relpath(store.output(dep), store.out))
        else:
            policy = "swl:limit=%d" % r["best_k"]
    resolved["policy"] = policy
    tail = ["--stats-json", out_tmp]
    if i.get("timeline"):
        tail += ["--timeline", os.path.relpath(timeline, store.out)]
    return [ws, "run", i["workload"], "--size", i["size"], "--seed", str(i["seed"]),
            "--config", config, "--sched", policy] + sets + ["--quiet"] + tail, resolved, None


def _reason(rc, log):
    if rc < 0:
        try:
            return "killed by signal %s" % signal.Signals(-rc).name
        except ValueError:
            return "killed by signal %d" % -rc
    last = ""
    try:
        with open(log, errors="replace") as f:
            for line in f:
                if line.strip():
                    last = line.strip()
    except OSError:
        pass
    return "exit status %d%s" % (rc, ": " + last[:300] if last else "")


def _remove_tmp(tmp):
    """Remove the point's temporary output and any temporary file a killed
    warpsim left beside it (it writes through PATH.tmp-XXXXXX, renamed into
    place only when complete)."""
    for f in [tmp] + glob.glob(glob.escape(tmp) + ".tmp-*"):
        if os.path.exists(f):
            os.unlink(f)


def run_point(store, p, stop=None, procs=None):
    """Run point p unless done; returns its result dict.  `stop` (an Event)
    and `procs` (a set guarded by the caller's lock) let a pool interrupt it."""
    r = store.result(p)
    if r is not None and r.get("status") == "ok":
        return r
    d = store.dir(p)
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):
        if ".tmp." in f or f == "result.json":
            os.unlink(os.path.join(d, f))
    write_atomic(os.path.join(d, "point.json"), json.dumps(
        {"key": p.key, "kind": p.kind, "labels": p.labels, "group": p.group, "params": p.params,
         "inputs": {k: v for k, v in p.inputs.items() if not k.startswith("_")},
         "deps": {n: dep.id for n, dep in p.deps.items()}, "binary_sha256": store.binary},
        indent=1, sort_keys=True) + "\n")
    final = store.output(p)
    tmp = "%s.tmp.%d" % (final, os.getpid())
    argv, resolved, blocked = command(store, p, os.path.relpath(tmp, store.out))
    log = os.path.join(d, "log.txt")
    t0 = time.time()
    store.event("start", p)
    if blocked:
        with open(log, "w") as f:
            f.write(blocked + "\n")
        res = {"status": "failed", "exit_code": None, "reason": blocked}
    else:
        with open(log, "w") as logf:
            logf.write("$ " + " ".join(argv) + "\n")
            logf.flush()
            stdout = open(tmp, "w") if p.kind == "best-swl" else logf
            try:
                proc = subprocess.Popen(argv, cwd=p.inputs.get("_dir", store.out),
                                        stdout=stdout, stderr=logf,
                                        stdin=subprocess.DEVNULL)
                if procs is not None:
                    procs.add(proc)
                try:
                    rc = proc.wait()
                finally:
                    if procs is not None:
                        procs.discard(proc)
            finally:
                if stdout is not logf:
                    stdout.close()
        if stop is not None and stop.is_set():
            _remove_tmp(tmp)
            store.event("interrupted", p)
            raise Interrupted()
        res = _check(p, rc, tmp, log)
        if res["status"] == "ok":
            os.replace(tmp, final)
        _remove_tmp(tmp)
    res.update(key=p.key, kind=p.kind, wall_s=round(time.time() - t0, 3),
               command=argv, host=os.uname().nodename, **resolved)
    write_atomic(os.path.join(d, "result.json"), json.dumps(res, indent=1, sort_keys=True) + "\n")
    store.event(res["status"], p, res.get("reason") or "")
    return res


def _check(p, rc, tmp, log):
    if rc != 0:
        return {"status": "failed", "exit_code": rc, "reason": _reason(rc, log)}
    if not os.path.exists(tmp):
        return {"status": "failed", "exit_code": rc, "reason": "no output written"}
    res = {"status": "ok", "exit_code": 0, "reason": None}
    if p.kind in ("run", "exec"):
        doc = read_json(tmp)
        if doc is None or "totals" not in doc:
            return {"status": "failed", "exit_code": rc, "reason": "statistics JSON unreadable"}
        if doc.get("status", "complete") != "complete":
            return {"status": "failed", "exit_code": rc,
                    "reason": "statistics JSON status '%s'" % doc.get("status")}
    elif p.kind == "best-swl":
        with open(tmp) as f:
            m = re.search(r"^best K = (\d+)", f.read(), re.M)
        if not m:
            return {"status": "failed", "exit_code": rc, "reason": "no 'best K' line"}
        res["best_k"] = int(m.group(1))
    return res


class Pool:
    """Runs points on N local processes, dependencies first.  SIGINT or
    SIGTERM stops it: running commands are killed and leave no result."""

    def __init__(self, store, jobs, progress):
        self.store = store
        self.jobs = jobs
        self.progress = progress
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.procs = _ProcSet(self.lock)

    def _signal(self, signum, frame):
        self.stop.set()
        self.procs.kill_all()

    def run(self, points):
        from concurrent.futures import ThreadPoolExecutor, wait, FIRST_COMPLETED
        todo = [p for p in points if not self.store.done(p)]
        n_total, n_done, n_failed = len(todo), 0, 0
        old = {s: signal.signal(s, self._signal) for s in (signal.SIGINT, signal.SIGTERM)}
        state = {}          # id -> "ok" / "failed" for points finished here
        running = {}
        # gates (profiles, searches) first, then the runs, in SPEC order
        pending = sorted(todo, key=lambda p: p.kind in ("run", "exec"))
        t0 = time.time()
        try:
            with ThreadPoolExecutor(max_workers=self.jobs) as ex:
                while (pending or running) and not self.stop.is_set():
                    for p in list(pending):
                        if len(running) >= self.jobs:
                            break
                        if all(self.store.done(d) or state.get(d.id) == "failed"
                               for d in p.deps.values()):
                            pending.remove(p)
                            running[ex.submit(run_point, self.store, p, self.stop, self.procs)] = p
                    if not running:
                        break
                    finished, _ = wait(list(running), timeout=0.5, return_when=FIRST_COMPLETED)
                    for f in finished:
                        p = running.pop(f)
                        try:
                            r = f.result()
                        except Interrupted:
                            continue
                        state[p.id] = r["status"]
                        n_done += 1
                        if r["status"] != "ok":
                            n_failed += 1
                            self.progress("FAILED %s: %s (log %s)" % (
                                p.describe(), r.get("reason"),
                                os.path.join(self.store.dir(p), "log.txt")))
                        self.progress(_eta(n_done, n_failed, n_total, t0), transient=True)
                if self.stop.is_set():
                    self.procs.kill_all()
        finally:
            for s, h in old.items():
                signal.signal(s, h)
        if self.stop.is_set():
            raise Interrupted()
        return n_total, n_failed


def _eta(done, failed, total, t0):
    el = time.time() - t0
    left = el / done * (total - done) if done else 0
    return "%d/%d points done%s, %.0f s elapsed, about %.0f s left" % (
        done, total, " (%d failed)" % failed if failed else "", el, left)


class _ProcSet:
    def __init__(self, lock):
        self.lock = lock
        self.items = set()

    def add(self, p):
        with self.lock:
            self.items.add(p)

    def discard(self, p):
        with self.lock:
            self.items.discard(p)

    def kill_all(self):
        with self.lock:
            for p in self.items:
                if p.poll() is None:
                    p.terminate()
