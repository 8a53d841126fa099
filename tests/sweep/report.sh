#!/usr/bin/env bash
# report.sh: `warpsim report` on a small sweep: SVG and PDF of every figure,
# and the HTML page loaded in headless Chromium with no network: every figure
# laid out with a non-empty size (checked by a script appended to a copy of
# the page, read back with --dump-dom), no console message, a screenshot
# (kept in $WARPSIM_REPORT_SCREENSHOT when set).  A page with a console
# error must be caught (control).  Exit 77 (skipped) when chromium or
# matplotlib cannot be installed (scripts/install-deps.sh).
# Usage: tests/sweep/report.sh <path to warpsim>
set -u
ws=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
have() { command -v chromium >/dev/null && /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; }
if ! have; then
  [ "$(id -u)" = 0 ] && "$root/scripts/install-deps.sh" >/dev/null 2>&1
  have || { echo "report: SKIPPED (chromium or python3-matplotlib cannot be installed)"; exit 77; }
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
check() { local name=$1; shift; if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $name"; fi; }

cat >"$tmp/r.toml" <<'EOF'
name = "r"
out = "out"
[defaults]
config = "daws"
[[group]]
name = "main"
workloads = ["vecadd", "reduce", "bfs"]
policies = ["gto", "lrr", "swl:limit={k}"]
[group.params]
k = [4]
[[group]]
name = "lim"
workloads = ["bfs"]
policies = ["swl:limit={k}"]
label = "{workload}.k{k}"
timeline = true
[group.params]
k = [1, 2, 8]
[report]
title = "report test"
[[report.figure]]
type = "bars"
title = "IPC normalised to GTO"
where = "grp = 'main'"
baseline = "gto"
groups = { regular = ["vecadd", "reduce"], irregular = ["bfs"] }
labels = { gto = "GTO", lrr = "LRR", swl = "SWL-4" }
[[report.figure]]
type = "bars"
title = "IPC, geometric mean"
where = "grp = 'main'"
mean = "gmean"
[[report.figure]]
type = "stacked"
title = "Scheduler cycles"
where = "grp = 'main'"
stats = ["sched_issued", "sched_idle_no_inst", "sched_not_ready", "sched_pipe_stall", "sched_held_back"]
[[report.figure]]
type = "stacked"
title = "L1D hits and misses"
where = "grp = 'main'"
stats = ["l1d_hits", "l1d_misses"]
normalise = false
[[report.figure]]
type = "lines"
title = "IPC against the warp limit"
where = "grp = 'lim'"
x = "param_k"
[[report.figure]]
type = "timeline"
title = "Active warps"
where = "grp = 'lim'"
column = "active_warps"
EOF
"$ws" sweep "$tmp/r.toml" -j 2 >/dev/null 2>&1
out=$("$ws" report "$tmp/r.toml" 2>&1)
check "report written: $out" grep -q 'wrote .*index.html (6 figures' <<<"$out"
R=$tmp/out/report
check "6 SVG and 6 PDF figures" [ "$(ls "$R"/figures/*.svg | wc -l)$(ls "$R"/figures/*.pdf | wc -l)" = 66 ]
check "PDFs are PDF" [ "$(head -c 5 "$(ls "$R"/figures/*.pdf | head -1)")" = "%PDF-" ]
check "page loads nothing from the network" [ -z "$(grep -Eo '(src|href)="(https?:)?//' "$R/index.html")" ]
check "means in the bars' table" grep -q '<td>HM regular</td>' "$R/index.html"
check "geometric mean" grep -q '<td>GM all</td>' "$R/index.html"

# chromium_load PAGE: --dump-dom into $tmp/dom.html, log into $tmp/log.txt
chromium_load() {
  timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$(mktemp -d -p "$tmp")" --enable-logging=stderr --v=0 \
    --dump-dom "file://$1" >"$tmp/dom.html" 2>"$tmp/log.txt"
}
probe='<script>
var figs = document.querySelectorAll("section.figure figure svg"), n = 0;
figs.forEach(function (s) { var r = s.getBoundingClientRect(), b = s.getBBox();
  if (r.width > 100 && r.height > 100 && b.width > 0 && s.querySelectorAll("path").length > 3) n++; });
document.body.setAttribute("data-figures", figs.length);
document.body.setAttribute("data-rendered", n);
</script>'
python3 -c 'import sys; print(open(sys.argv[1]).read().replace("</body>", sys.argv[2] + "</body>"), end="")' \
  "$R/index.html" "$probe" >"$R/probe.html"
chromium_load "$R/probe.html"
check "chromium: 6 figures, all rendered" grep -q 'data-figures="6" data-rendered="6"' "$tmp/dom.html"
check "chromium: no console message" [ -z "$(grep -E 'CONSOLE|Uncaught' "$tmp/log.txt")" ]
sed 's#</body>#<script>console.error("broken")</script></body>#' "$R/index.html" >"$R/bad.html"
chromium_load "$R/bad.html"
check "control: a console error is seen" grep -q 'CONSOLE.*broken' "$tmp/log.txt"
shot=${WARPSIM_REPORT_SCREENSHOT:-$tmp/shot.png}
timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$(mktemp -d -p "$tmp")" --hide-scrollbars --window-size=1200,2600 \
  --screenshot="$shot" "file://$R/index.html" >/dev/null 2>&1
check "screenshot taken" [ "$(stat -c %s "$shot" 2>/dev/null || echo 0)" -gt 50000 ]

echo "report: $pass passed, $fail failed"
[ "$fail" = 0 ]
