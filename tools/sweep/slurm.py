"""slurm.py: a sweep's missing points as Slurm job arrays, and their state.

`submit` writes OUT/slurm/sub-<n>.json (the SPEC, the binary and the point ids
of each dependency level) and submits one job array per level (`sbatch
--array=0-<m-1>%<limit>`, level L+1 after level L with afterany).  Each array
task runs `warpsim_sweep.py _task PLAN LEVEL INDEX`, which runs its point with
runner.run_point, the local pool's code path.  A point whose task was
cancelled has no result and is submitted again by the next `sweep --slurm`.
"""
import json
import os
import shlex
import subprocess
import sys

from spec import Spec, SpecError
from store import Store, read_json, write_atomic
import runner


def _levels(store, missing):
    level = {}

    def lv(p):
        if p.id not in level:
            level[p.id] = max([lv(d) + 1 for d in p.deps.values() if not store.done(d)] or [0])
        return level[p.id]
    out = []
    for p in missing:
        L = lv(p)
        while len(out) <= L:
            out.append([])
        out[L].append(p.id)
    return out


def submit(spec, store, missing, sbatch_args, limit):
    if not missing:
        print("%s: every point is done; nothing to submit" % spec.name)
        return 0
    sdir = os.path.join(store.out, "slurm")
    os.makedirs(sdir, exist_ok=True)
    n = len([f for f in os.listdir(sdir) if f.startswith("sub-") and f.endswith(".json")])
    plan_path = os.path.join(sdir, "sub-%d.json" % n)
    plan = {"spec": spec.path, "vars": spec.overrides, "out": store.out,
            "warpsim": store.warpsim, "binary": store.binary,
            "levels": _levels(store, missing), "jobs": []}
    tool = os.path.join(os.path.dirname(os.path.abspath(__file__)), "warpsim_sweep.py")
    write_atomic(plan_path, json.dumps(plan, indent=1) + "\n")
    prev = None
    for L, ids in enumerate(plan["levels"]):
        wrap = "exec %s %s _task %s %d $SLURM_ARRAY_TASK_ID" % (
            shlex.quote(sys.executable), shlex.quote(tool), shlex.quote(plan_path), L)
        argv = ["sbatch", "--parsable", "--array=0-%d%%%d" % (len(ids) - 1, limit),
                "--job-name=warpsim-%s" % spec.name,
                "--output=%s" % os.path.join(sdir, "sub%d-L%d-%%a.out" % (n, L))]
        if prev:
            argv.append("--dependency=afterany:%s" % prev)
        argv += sbatch_args + ["--wrap", wrap]
        try:
            r = subprocess.run(argv, capture_output=True, text=True)
        except OSError as e:
            print("warpsim sweep: cannot run sbatch: %s" % e.strerror, file=sys.stderr)
            return 1
        if r.returncode != 0:
            print("warpsim sweep: sbatch failed: %s" % r.stderr.strip(), file=sys.stderr)
            return 1
        prev = r.stdout.strip().split(";")[0]
        plan["jobs"].append(prev)
        write_atomic(plan_path, json.dumps(plan, indent=1) + "\n")
        print("submitted job array %s: %d points (level %d)" % (prev, len(ids), L))
    return 0


def task(argv):
    if len(argv) != 3:
        print("usage: warpsim_sweep.py _task PLAN LEVEL INDEX", file=sys.stderr)
        return 2
    plan = read_json(argv[0])
    if plan is None:
        print("warpsim sweep task: cannot read %s" % argv[0], file=sys.stderr)
        return 2
    pid = plan["levels"][int(argv[1])][int(argv[2])]
    try:
        spec = Spec(plan["spec"], plan["vars"])
    except SpecError as e:
        print("warpsim sweep task: %s" % e, file=sys.stderr)
        return 2
    store = Store(plan["out"], plan["warpsim"])
    if store.binary != plan["binary"]:
        print("warpsim sweep task: %s changed since the submission" % plan["warpsim"], file=sys.stderr)
        return 1
    store.assign_keys(spec.points)
    p = next((q for q in spec.points if q.id == pid), None)
    if p is None:
        print("warpsim sweep task: point %s is no longer in the SPEC" % pid, file=sys.stderr)
        return 1
    r = runner.run_point(store, p)
    print("%s %s: %s" % (p.id, p.describe(), r["status"]))
    return 0 if r["status"] == "ok" else 1


def _run(argv):
    try:
        r = subprocess.run(argv, capture_output=True, text=True)
    except OSError:
        return None
    return r.stdout if r.returncode == 0 else None


def states(store):
    """{point id: "running" | "queued" | "cancelled" | ...} for submitted
    points, from squeue (live tasks) and sacct (ended ones, where it works);
    later submissions win."""
    sdir = os.path.join(store.out, "slurm")
    if not os.path.isdir(sdir):
        return {}
    plans = []
    for f in os.listdir(sdir):
        if f.startswith("sub-") and f.endswith(".json"):
            plan = read_json(os.path.join(sdir, f))
            if plan:
                plans.append((int(f[4:-5]), plan))
    plans.sort()
    task_of = {}                     # "job_index" -> point id
    for _, plan in plans:
        for job, ids in zip(plan["jobs"], plan["levels"]):
            for i, pid in enumerate(ids):
                task_of["%s_%d" % (job, i)] = pid
    jobs = ",".join(j for _, plan in plans for j in plan["jobs"])
    if not jobs:
        return {}
    st = {}
    acct = _run(["sacct", "-n", "-P", "-X", "-j", jobs, "-o", "JobID,State"])
    for line in (acct or "").splitlines():
        jid, _, state = line.partition("|")
        if jid in task_of:
            st[task_of[jid]] = state.split()[0].lower() if state else "unknown"
    queue = _run(["squeue", "-h", "-r", "-j", jobs, "-o", "%i %T"])
    for line in (queue or "").splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] in task_of:
            st[task_of[parts[0]]] = "running" if parts[1] in ("RUNNING", "COMPLETING") else "queued"
    return st
