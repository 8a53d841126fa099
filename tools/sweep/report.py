"""report.py: a sweep's report from its index, as described by the SPEC's
[report] table: one self-contained HTML page (every figure inlined as SVG,
every figure's numbers as a table; no network needed) and each figure as SVG
and PDF in <report>/figures/ for a paper.  Figure types (docs/sweeps.md):
bars (normalised, with harmonic or geometric means per group), stacked
(breakdowns), lines (a statistic against a parameter) and timeline (a column
of the points' --timeline CSVs against cycles).  Plots with matplotlib.
"""
import csv
import html
import io
import math
import os
import re
import sqlite3

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


plt.rcParams.update({"svg.hashsalt": "warpsim", "svg.fonttype": "none", "font.size": 9,
                     "figure.dpi": 100, "axes.spines.top": False, "axes.spines.right": False})
COLORS = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3",
          "#8c8c8c", "#ccb974", "#64b5cd"]
TYPES = ("bars", "stacked", "lines", "timeline")


class ReportError(Exception):
    pass


def hmean(xs):
    xs = [x for x in xs if x is not None]
    return len(xs) / sum(1.0 / x for x in xs) if xs and all(x > 0 for x in xs) else None


def gmean(xs):
    xs = [x for x in xs if x is not None]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs and all(x > 0 for x in xs) else None


class Data:
    def __init__(self, store):
        self.store = store
        self.db = sqlite3.connect(store.index_path())
        self.db.row_factory = sqlite3.Row

    def rows(self, where):
        q = "SELECT * FROM points WHERE kind IN ('run', 'exec') AND status = 'ok'"
        if where:
            q += " AND (%s)" % where
        try:
            rows = [dict(r) for r in self.db.execute(q + " ORDER BY ord")]
        except sqlite3.Error as e:
            raise ReportError("where '%s': %s" % (where, e))
        if not rows:
            raise ReportError("no done run matches '%s' (warpsim sweep first)" % (where or ""))
        for r in rows:
            r["stats"] = dict(self.db.execute("SELECT name, value FROM stats WHERE id = ?", (r["id"],)).fetchall())
        return rows


def _val(row, col):
    if col in row:
        return row[col]
    if col in row["stats"]:
        return row["stats"][col]
    raise ReportError("no column or statistic '%s'" % col)


def _order(values, wanted):
    seen = []
    for v in values:
        if v not in seen:
            seen.append(v)
    if wanted:
        return [v for v in wanted if v in seen]
    return seen


def _label(fig, v):
    return fig.get("labels", {}).get(str(v), str(v))


def fig_bars(fig, data):
    """Normalised bars: x categories (grouped), one bar per series, and the
    mean of each group; returns (matplotlib figure, table header, rows)."""
    rows = data.rows(fig.get("where"))
    x, series, stat = fig.get("x", "workload"), fig.get("series", "policy_name"), fig.get("stat", "gpu_ipc")
    val = {(_val(r, x), _val(r, series)): _val(r, stat) for r in rows}
    ser = _order([_val(r, series) for r in rows], fig.get("order"))
    cats = _order([_val(r, x) for r in rows], None)
    groups = fig.get("groups") or {"all": cats}
    base = fig.get("baseline")
    mean_name = fig.get("mean", "hmean")
    mean = {"hmean": hmean, "gmean": gmean}.get(mean_name)
    if mean is None:
        raise ReportError("mean '%s' is not hmean or gmean" % mean_name)

    def norm(c, s):
        v = val.get((c, s))
        if base is None:
            return v
        b = val.get((c, base))
        return v / b if v is not None and b else None
    xs, labels, table = [], [], []
    heights = {s: [] for s in ser}
    pos = 0.0
    for g, members in groups.items():
        members = [c for c in members if c in cats]
        for c in members + ["%s %s" % ("HM" if mean_name == "hmean" else "GM", g)]:
            is_mean = c not in members
            vals = [mean([norm(m, s) for m in members]) if is_mean else norm(c, s) for s in ser]
            for s, v in zip(ser, vals):
                heights[s].append(v)
            xs.append(pos)
            labels.append(c)
            table.append([c] + vals)
            pos += 1
        pos += 0.6
    w = 0.8 / max(len(ser), 1)
    f, ax = plt.subplots(figsize=(max(6, 0.5 * len(xs) + 2), 3.2))
    for i, s in enumerate(ser):
        ax.bar([p - 0.4 + w * (i + 0.5) for p in xs], [h or 0 for h in heights[s]], w,
               label=_label(fig, s), color=COLORS[i % len(COLORS)])
    if base is not None:
        ax.axhline(1.0, color="black", linewidth=0.6)
    ax.set_xticks(xs)
    ax.set_xticklabels(labels, rotation=45, ha="right")
    ax.set_ylabel(fig.get("ylabel", stat + (" / " + _label(fig, base) if base else "")))
    ax.legend(ncol=min(len(ser), 5), fontsize=8, frameon=False, loc="upper center",
              bbox_to_anchor=(0.5, 1.18))
    return f, [x] + [_label(fig, s) for s in ser], table


def fig_stacked(fig, data):
    """One bar per (x, series) stacked by `stats`, as fractions of their sum
    when normalise (the default)."""
    rows = data.rows(fig.get("where"))
    x, series = fig.get("x", "workload"), fig.get("series", "policy_name")
    stats = fig.get("stats")
    if not stats:
        raise ReportError("a stacked figure needs stats = [...]")
    ser = _order([_val(r, series) for r in rows], fig.get("order"))
    cats = _order([_val(r, x) for r in rows], None)
    by = {(_val(r, x), _val(r, series)): r for r in rows}
    bars, labels, table = [], [], []
    for c in cats:
        for s in ser:
            r = by.get((c, s))
            if r is None:
                continue
            vals = [_val(r, st) or 0 for st in stats]
            tot = sum(vals)
            if fig.get("normalise", True) and tot:
                vals = [v / tot for v in vals]
            bars.append(vals)
            labels.append("%s %s" % (c, _label(fig, s)))
            table.append([c, _label(fig, s)] + vals)
    f, ax = plt.subplots(figsize=(max(6, 0.32 * len(bars) + 2), 3.4))
    bottom = [0.0] * len(bars)
    for i, st in enumerate(stats):
        h = [b[i] for b in bars]
        ax.bar(range(len(bars)), h, 0.8, bottom=bottom, label=_label(fig, st), color=COLORS[i % len(COLORS)])
        bottom = [a + b for a, b in zip(bottom, h)]
    ax.set_xticks(range(len(bars)))
    ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=7)
    ax.set_ylabel(fig.get("ylabel", "fraction" if fig.get("normalise", True) else "count"))
    ax.legend(ncol=min(len(stats), 5), fontsize=8, frameon=False, loc="upper center",
              bbox_to_anchor=(0.5, 1.18))
    return f, [x, series] + [_label(fig, s) for s in stats], table


def fig_lines(fig, data):
    """`stat` against the numeric column `x`, one line per `series`."""
    rows = data.rows(fig.get("where"))
    x, series, stat = fig["x"], fig.get("series", "workload"), fig.get("stat", "gpu_ipc")
    ser = _order([_val(r, series) for r in rows], fig.get("order"))
    f, ax = plt.subplots(figsize=(6, 3.2))
    table = []
    for i, s in enumerate(ser):
        pts = sorted((float(_val(r, x)), _val(r, stat)) for r in rows if _val(r, series) == s)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", markersize=3,
                label=_label(fig, s), color=COLORS[i % len(COLORS)])
        table += [[_label(fig, s), p[0], p[1]] for p in pts]
    ax.set_xlabel(fig.get("xlabel", x))
    ax.set_ylabel(fig.get("ylabel", stat))
    ax.legend(fontsize=8, frameon=False)
    return f, [series, x, stat], table


def fig_timeline(fig, data):
    """A column of each point's --timeline CSV against cycles."""
    rows = data.rows(fig.get("where"))
    col = fig.get("column", "active_warps")
    f, ax = plt.subplots(figsize=(6, 3.2))
    table = []
    for i, r in enumerate(rows):
        path = os.path.join(data.store.out, r["dir"], "timeline.csv")
        try:
            with open(path) as fh:
                recs = list(csv.DictReader(fh))
        except OSError:
            raise ReportError("%s has no timeline (set timeline = true in its group)" % r["label"])
        if recs and col not in recs[0]:
            raise ReportError("timeline of %s has no column '%s'" % (r["label"], col))
        xs = [int(t["cycle"]) for t in recs]
        ys = [float(t[col]) for t in recs]
        ax.plot(xs, ys, linewidth=1, label=r["label"], color=COLORS[i % len(COLORS)])
        table.append([r["label"], len(recs), max(ys) if ys else None, sum(ys) / len(ys) if ys else None])
    ax.set_xlabel("cycle")
    ax.set_ylabel(fig.get("ylabel", col))
    ax.legend(fontsize=7, frameon=False)
    return f, ["point", "samples", "max " + col, "mean " + col], table


def _svg(f):
    buf = io.StringIO()
    f.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    text = buf.getvalue()
    return text[text.index("<svg"):]


def _cell(v):
    if v is None:
        return "n/a"
    if isinstance(v, float):
        return "%.3f" % v
    return html.escape(str(v))


def write(spec, store, outdir):
    rep = spec.report
    figs = rep.get("figure", [])
    if not figs:
        print("warpsim report: the SPEC has no [[report.figure]]")
        return 2
    os.makedirs(os.path.join(outdir, "figures"), exist_ok=True)
    data = Data(store)
    counts = dict(data.db.execute("SELECT status, COUNT(*) FROM points GROUP BY status").fetchall())
    parts = []
    for n, fig in enumerate(figs, 1):
        kind = fig.get("type")
        if kind not in TYPES:
            print("warpsim report: figure %d: type '%s' is not one of %s" % (n, kind, ", ".join(TYPES)))
            return 2
        try:
            f, header, table = globals()["fig_" + kind](fig, data)
        except (ReportError, KeyError) as e:
            print("warpsim report: figure %d (%s): %s" % (n, fig.get("title", kind), e))
            return 2
        name = fig.get("name") or "fig%d-%s" % (n, re.sub(r"[^a-z0-9]+", "-", fig.get("title", kind).lower()).strip("-")[:40])
        f.savefig(os.path.join(outdir, "figures", name + ".svg"), bbox_inches="tight", metadata={"Date": None})
        f.savefig(os.path.join(outdir, "figures", name + ".pdf"), bbox_inches="tight",
                  metadata={"CreationDate": None})
        svg = _svg(f)
        plt.close(f)
        rows = "".join("<tr>%s</tr>" % "".join("<td>%s</td>" % _cell(v) for v in r) for r in table)
        parts.append(
            '<section class="figure" id="%s"><h2>%s</h2>%s\n<figure>%s<figcaption>%s</figcaption></figure>'
            '<details><summary>numbers</summary><table><tr>%s</tr>%s</table></details></section>' % (
                html.escape(name), html.escape(fig.get("title", name)),
                "<p>%s</p>" % html.escape(fig["caption"]) if fig.get("caption") else "",
                svg, html.escape("figures/%s.svg, .pdf" % name),
                "".join("<th>%s</th>" % html.escape(str(h)) for h in header), rows))
    title = rep.get("title", "warpsim sweep %s" % spec.name)
    page = PAGE % {
        "title": html.escape(title),
        "summary": html.escape("%d points: %s.  Results in %s." % (
            sum(counts.values()), ", ".join("%d %s" % (v, k) for k, v in sorted(counts.items())),
            store.out)),
        "binary": html.escape(store.binary[:16]),
        "body": "\n".join(parts)}
    with open(os.path.join(outdir, "index.html.tmp"), "w") as fh:
        fh.write(page)
    os.replace(os.path.join(outdir, "index.html.tmp"), os.path.join(outdir, "index.html"))
    print("wrote %s (%d figures; SVG and PDF in %s)" % (
        os.path.join(outdir, "index.html"), len(figs), os.path.join(outdir, "figures")))
    return 0


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>%(title)s</title>
<style>
body { font-family: sans-serif; max-width: 1100px; margin: 1em auto; color: #222; }
h2 { font-size: 1.1em; margin-top: 2em; }
figure { margin: 0; } figure svg { max-width: 100%%; height: auto; }
figcaption { font-size: 0.8em; color: #666; }
table { border-collapse: collapse; font-size: 0.8em; }
td, th { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
</style></head>
<body><h1>%(title)s</h1><p>%(summary)s  Binary SHA-256 %(binary)s&hellip;</p>
%(body)s
</body></html>
"""
