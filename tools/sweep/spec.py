"""spec.py: reads a sweep SPEC (TOML) and expands it into points.

A point is one warpsim invocation: a `run` of a built-in workload or an
`exec` of a CUDA program (statistics JSON), a `profile` (DAWS load profile)
or a `best-swl` search (text).  Runs may depend on a
profile point ({profile} in a policy) or on a best-swl point (the policy
`best_swl`, which runs swl:limit=K at the search's best K).  Points with the
same inputs are one point (same key) with several labels.  See docs/sweeps.md.
"""
import itertools
import os
import re
import tomllib

from store import file_sha256

KINDS = ("run", "exec", "profile", "best-swl")
SIZES = ("small", "medium", "large")
_VAR = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


class SpecError(Exception):
    pass


def subst(text, env, where):
    """Replace {name} in text by env[name]; unknown names are an error."""
    def one(m):
        if m.group(1) not in env:
            raise SpecError("%s: unknown name {%s} in '%s'" % (where, m.group(1), text))
        return str(env[m.group(1)])
    return _VAR.sub(one, str(text))


def _list(table, plural, singular, default, where):
    if plural in table and singular in table:
        raise SpecError("%s: give '%s' or '%s', not both" % (where, plural, singular))
    v = table.get(plural, table.get(singular, default))
    v = v if isinstance(v, list) else [v]
    if not v:
        raise SpecError("%s: '%s' is empty" % (where, plural))
    return v


class Point:
    """One simulation; `inputs` is everything its result depends on except
    the binary (added by the store when hashing)."""

    def __init__(self, kind, inputs, labels, group, params, deps, policy_name):
        self.kind = kind
        self.inputs = inputs
        self.labels = labels
        self.group = group
        self.params = params
        self.deps = deps          # {"profile": Point} / {"best_swl": Point}
        self.policy_name = policy_name
        self.key = None           # set by Store.assign_keys

    def describe(self):
        i = self.inputs
        if self.kind == "exec":
            s = "exec %s (%s)" % (i["workload"], " ".join(i["program"]))
        else:
            s = "%s %s size=%s seed=%s" % (self.kind, i["workload"], i["size"], i["seed"])
        if self.kind != "profile":
            s += " config=%s" % i["config"]
        if i.get("policy"):
            s += " policy=%s" % i["policy"]
        if i.get("sets"):
            s += " set=" + ",".join(i["sets"])
        return s


class Spec:
    def __init__(self, path, overrides=None):
        self.path = os.path.abspath(path)
        self.dir = os.path.dirname(self.path)
        try:
            with open(self.path, "rb") as f:
                data = tomllib.load(f)
        except OSError as e:
            raise SpecError("cannot read %s: %s" % (path, e.strerror))
        except tomllib.TOMLDecodeError as e:
            raise SpecError("%s: %s" % (path, e))
        known = {"name", "out", "vars", "defaults", "profile", "group", "report"}
        for k in data:
            if k not in known:
                raise SpecError("%s: unknown key '%s' (known: %s)" % (path, k, ", ".join(sorted(known))))
        self.name = data.get("name", os.path.splitext(os.path.basename(path))[0])
        self.overrides = dict(overrides or {})
        self.vars = self._vars(data.get("vars", {}), self.overrides)
        self.out = os.path.join(self.dir, subst(data.get("out", "sweep-out"), self.vars, "out"))
        self.defaults = data.get("defaults", {})
        self.profile_seed = data.get("profile", {}).get("seed")
        self.report = data.get("report", {})
        groups = data.get("group", [])
        if not groups:
            raise SpecError("%s: no [[group]] of points" % path)
        self.points = []
        self._by_inputs = {}
        for gi, g in enumerate(groups):
            self._expand(g, gi)

    def _program(self, p, where, env):
        """A CUDA program: { name, cmd = [executable, args...], dir }.  Its
        result depends on the executable and on every argument that names a
        file (relative to dir), so their contents are part of the inputs."""
        if not isinstance(p, dict) or not isinstance(p.get("name"), str) or not p["name"]:
            raise SpecError("%s: a program is a table with a name and cmd" % where)
        cmd = p.get("cmd")
        if not isinstance(cmd, list) or not cmd or not all(isinstance(a, str) for a in cmd):
            raise SpecError("%s: program %s: cmd must be a non-empty list of strings"
                            % (where, p["name"]))
        for k in p:
            if k not in ("name", "cmd", "dir"):
                raise SpecError("%s: program %s: unknown key '%s' (known: name, cmd, dir)"
                                % (where, p["name"], k))
        cwd = os.path.join(self.dir, subst(p.get("dir", "."), env, where))
        argv = [subst(a, env, where) for a in cmd]
        exe = os.path.join(cwd, argv[0])
        if not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
            raise SpecError("%s: program %s: %s is not an executable file"
                            % (where, p["name"], exe))
        files = {}
        for a in argv:
            f = os.path.join(cwd, a)
            if os.path.isfile(f):
                files[a] = file_sha256(f)
        return {"workload": p["name"], "program": argv, "files_sha256": files,
                "_dir": os.path.abspath(cwd)}

    def _vars(self, declared, overrides):
        for k in overrides:
            if k not in declared:
                raise SpecError("--set-var %s: the SPEC declares no such variable (vars: %s)"
                                % (k, ", ".join(sorted(declared)) or "none"))
        env = {}
        for k, v in declared.items():      # in order: later vars may use earlier
            env[k] = subst(overrides.get(k, v), env, "vars." + k)
        return env

    def _add(self, kind, inputs, label, group, params, deps, policy_name):
        ident = repr(sorted((k, repr(v)) for k, v in inputs.items())) + repr(
            sorted((k, d.ident) for k, d in deps.items()))
        p = self._by_inputs.get(ident)
        if p is None:
            p = Point(kind, inputs, [], group, params, deps, policy_name)
            p.ident = ident
            self._by_inputs[ident] = p
            self.points.append(p)
        if label and label not in p.labels:
            p.labels.append(label)
        return p

    def _expand(self, g, gi):
        where = "group %d" % (gi + 1)
        known = {"name", "workloads", "workload", "programs", "sizes", "size",
                 "seeds", "seed", "configs", "config", "policies", "policy", "sets",
                 "params", "label", "timeline"}
        for k in g:
            if k not in known:
                raise SpecError("%s: unknown key '%s'" % (where, k))
        d = self.defaults
        name = g.get("name", "group%d" % (gi + 1))
        env0 = dict(self.vars)
        if "programs" in g:
            if "workloads" in g or "workload" in g:
                raise SpecError("%s: give workloads or programs, not both" % where)
            progs = g["programs"] if isinstance(g["programs"], list) else [g["programs"]]
            if not progs:
                raise SpecError("%s: 'programs' is empty" % where)
            wls = [self._program(p, where, env0) for p in progs]
        else:
            wls = _list(g, "workloads", "workload", d.get("workloads"), where)
        for w in wls:
            if not isinstance(w, (str, dict)) or not w:
                raise SpecError("%s: workload %r is not a name" % (where, w))
        sizes = [subst(s, env0, where) for s in _list(g, "sizes", "size", d.get("size", "small"), where)]
        for s in sizes:
            if s not in SIZES:
                raise SpecError("%s: size '%s' is not one of %s" % (where, s, ", ".join(SIZES)))
        seeds = _list(g, "seeds", "seed", d.get("seed", 1), where)
        for s in seeds:
            if not isinstance(s, int) or s < 0:
                raise SpecError("%s: seed %r is not a non-negative integer" % (where, s))
        configs = _list(g, "configs", "config", d.get("config", "default"), where)
        policies = _list(g, "policies", "policy", d.get("policy", "gto"), where)
        sets = g.get("sets", d.get("sets", []))
        params = g.get("params", {})
        for k, v in params.items():
            if not isinstance(v, list) or not v:
                raise SpecError("%s: params.%s must be a non-empty list" % (where, k))
        timeline = bool(g.get("timeline", False))
        pnames = list(params)
        combos = list(itertools.product(*[params[k] for k in pnames])) or [()]
        if "programs" in g:         # a program has no size or seed of ours
            sizes, seeds = [None], [None]
        for target, size, seed, config, combo, pol in itertools.product(
                wls, sizes, seeds, configs, combos, policies):
            prog = target if isinstance(target, dict) else None
            if prog:
                target = prog["workload"]
            env = dict(env0, size=size, seed=seed, group=name, workload=target)
            env.update(zip(pnames, [str(c) for c in combo]))
            if isinstance(pol, dict):
                pname, pspec = pol.get("name"), pol.get("spec")
                if not pname or not pspec:
                    raise SpecError("%s: a policy table needs name and spec" % where)
            else:
                pspec = pol
                pname = pol.split(":", 1)[0]
            env["policy"] = pname
            cfg = subst(config, env, where)
            cfgpath = os.path.join(self.dir, cfg)
            cfg_in = {"config": cfg}
            if os.path.isfile(cfgpath):
                with open(cfgpath, "rb") as f:
                    cfg_in = {"config": cfg, "config_text": f.read().decode(),
                              "_config_path": os.path.abspath(cfgpath)}
            base = {"workload": target, "size": size, "seed": seed}
            sets_r = [subst(s, env, where) for s in sets]
            deps = {}
            pspec_r = subst(pspec, dict(env, profile="{profile}"), where)
            if prog:
                if pspec_r == "best_swl" or "{profile}" in pspec_r:
                    raise SpecError("%s: program %s: best_swl and {profile} need a built-in "
                                    "workload" % (where, target))
                inputs = dict(prog, **cfg_in, policy=pspec_r, sets=sets_r)
                if timeline:
                    inputs["timeline"] = True
                label = subst(g.get("label", "{workload}.{policy}" + "".join(
                    ".%s{%s}" % (k, k) for k in pnames)), env, where)
                self._add("exec", inputs, label, name, dict(zip(pnames, combo)), {}, pname)
                continue
            if pspec_r == "best_swl":
                deps["best_swl"] = self._add(
                    "best-swl", dict(base, **cfg_in, sets=sets_r),
                    "%s" % target if len(sizes) == 1 else "%s-%s" % (target, size),
                    name, {}, {}, None)
            if "{profile}" in pspec_r:
                pseed = self.profile_seed if self.profile_seed is not None else seed
                deps["profile"] = self._add(
                    "profile", {"workload": target, "size": size, "seed": pseed},
                    "%s-%s" % (target, size), name, {}, {}, None)
            inputs = dict(base, **cfg_in, policy=pspec_r, sets=sets_r)
            if timeline:
                inputs["timeline"] = True
            label = subst(g.get("label", "{workload}.{policy}" + "".join(
                ".%s{%s}" % (k, k) for k in pnames)), env, where)
            self._add("run", inputs, label, name, dict(zip(pnames, combo)), deps, pname)
