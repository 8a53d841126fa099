"""store.py: where a sweep's points live on disk, their keys, and the SQLite
index of every point.

OUT/points/<id>/ holds one point: point.json (inputs), log.txt, its output
(stats.json, profile.prof or search.txt) and result.json, written last and
atomically (temporary file + rename): a point is done when result.json says
status "ok".  <id> is the first 16 hex digits of the key, the SHA-256 of the
binary's SHA-256, the kind, the inputs and the keys of the points it depends
on.  OUT/events.log gets one appended line per start and end of a point.
"""
import hashlib
import json
import os
import socket
import sqlite3
import time

OUTPUT = {"run": "stats.json", "exec": "stats.json", "profile": "profile.prof",
          "best-swl": "search.txt"}
KEY_STATS = ["gpu_sim_cycle", "gpu_sim_insn", "gpu_ipc", "l1d_miss_rate", "l2_miss_rate"]


def file_sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def write_atomic(path, text):
    tmp = "%s.tmp.%d" % (path, os.getpid())
    with open(tmp, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


class Store:
    def __init__(self, out, warpsim):
        self.out = out
        self.warpsim = warpsim
        self.binary = file_sha256(warpsim)

    def assign_keys(self, points):
        """Keys in dependency order (a point's deps come before it)."""
        for p in points:
            self._key(p)

    def _key(self, p):
        if p.key is None:
            doc = {"binary": self.binary, "kind": p.kind,
                   "inputs": {k: v for k, v in p.inputs.items() if not k.startswith("_")},
                   "deps": {n: self._key(d) for n, d in sorted(p.deps.items())}}
            p.key = hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()
            p.id = p.key[:16]
        return p.key

    def dir(self, p):
        return os.path.join(self.out, "points", p.id)

    def output(self, p):
        return os.path.join(self.dir(p), OUTPUT[p.kind])

    def result(self, p):
        return read_json(os.path.join(self.dir(p), "result.json"))

    def done(self, p):
        r = self.result(p)
        return r is not None and r.get("status") == "ok"

    def event(self, what, p, extra=""):
        line = "%s %s %s %s:%d %s\n" % (time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                        what, p.id, socket.gethostname(), os.getpid(), extra)
        fd = os.open(os.path.join(self.out, "events.log"), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line.encode())
        finally:
            os.close(fd)

    def link_labels(self, points):
        """OUT/json/<label>.json, OUT/prof/<label>.prof, OUT/swl/<label>.txt:
        symbolic links to the outputs of done points, under their labels."""
        sub = {"run": ("json", ".json"), "exec": ("json", ".json"), "profile": ("prof", ".prof"),
               "best-swl": ("swl", ".txt")}
        for p in points:
            if not self.done(p):
                continue
            d, ext = sub[p.kind]
            os.makedirs(os.path.join(self.out, d), exist_ok=True)
            for label in p.labels:
                link = os.path.join(self.out, d, label + ext)
                target = os.path.relpath(self.output(p), os.path.dirname(link))
                if os.path.islink(link) and os.readlink(link) == target:
                    continue
                tmp = link + ".tmp.%d" % os.getpid()
                os.symlink(target, tmp)
                os.replace(tmp, link)

    # ---- the SQLite index -------------------------------------------------

    def index_path(self):
        return os.path.join(self.out, "index.sqlite")

    def sync_index(self, spec, points, states=None):
        """Rewrite OUT/index.sqlite: one row per point of the SPEC (inputs,
        status, key statistics) and every total statistic of done runs; the
        label links of done points too."""
        os.makedirs(self.out, exist_ok=True)
        self.link_labels(points)
        db = sqlite3.connect(self.index_path(), timeout=60)
        try:
            with db:
                db.executescript(SCHEMA)
                db.execute("DELETE FROM points")
                db.execute("DELETE FROM stats")
                for order, p in enumerate(points):
                    self._index_point(db, spec, p, order, states)
        finally:
            db.close()

    def _index_point(self, db, spec, p, order, states):
        r = self.result(p) or {}
        status = r.get("status", "pending")
        if states and status == "pending" and p.id in states:
            status = states[p.id]
        i = p.inputs
        row = {"id": p.id, "key": p.key, "ord": order, "sweep": spec.name, "grp": p.group,
               "kind": p.kind, "label": p.labels[0] if p.labels else None,
               "labels": " ".join(p.labels), "workload": i.get("workload"),
               "size": i.get("size"), "seed": i.get("seed"), "config": i.get("config"),
               "policy": i.get("policy"), "policy_name": p.policy_name,
               "sets": " ".join(i.get("sets", [])), "params": json.dumps(p.params, sort_keys=True),
               "status": status, "exit_code": r.get("exit_code"), "reason": r.get("reason"),
               "wall_s": r.get("wall_s"), "resolved_policy": r.get("policy"),
               "best_k": r.get("best_k"), "dir": os.path.relpath(self.dir(p), self.out)}
        for k, v in p.params.items():
            row["param_" + k] = v
        totals = {}
        if status == "ok" and p.kind in ("run", "exec"):
            totals = (read_json(self.output(p)) or {}).get("totals", {})
        for k in KEY_STATS:
            row[k] = totals.get(k)
        cols = [c for c in row if not c.startswith("param_")]
        params = [c for c in row if c.startswith("param_")]
        for c in params:
            have = [x[1] for x in db.execute("PRAGMA table_info(points)")]
            if c not in have:
                db.execute('ALTER TABLE points ADD COLUMN "%s"' % c)
        cols += params
        db.execute("INSERT INTO points (%s) VALUES (%s)" % (
            ", ".join('"%s"' % c for c in cols), ", ".join("?" * len(cols))), [row[c] for c in cols])
        db.executemany("INSERT INTO stats (id, name, value) VALUES (?, ?, ?)",
                       [(p.id, k, v) for k, v in totals.items() if isinstance(v, (int, float))])


SCHEMA = """
CREATE TABLE IF NOT EXISTS points (
  id TEXT PRIMARY KEY, key TEXT, ord INTEGER, sweep TEXT, grp TEXT, kind TEXT,
  label TEXT, labels TEXT, workload TEXT, size TEXT, seed INTEGER,
  config TEXT, policy TEXT, policy_name TEXT, resolved_policy TEXT, sets TEXT,
  params TEXT, status TEXT, exit_code INTEGER, reason TEXT, wall_s REAL,
  best_k INTEGER, dir TEXT, gpu_sim_cycle INTEGER, gpu_sim_insn INTEGER,
  gpu_ipc REAL, l1d_miss_rate REAL, l2_miss_rate REAL);
CREATE TABLE IF NOT EXISTS stats (
  id TEXT, name TEXT, value, PRIMARY KEY (id, name));
"""
