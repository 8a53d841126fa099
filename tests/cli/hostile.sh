#!/usr/bin/env bash
# hostile.sh: hostile inputs to the warpsim command (issue 16): each must be
# refused at the door with a message on stderr naming the option or file,
# the expected exit status, and nothing run (stdout empty for usage errors).
# Usage: tests/cli/hostile.sh <path to warpsim>
set -u
ws=$1
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# refuse <name> <wanted exit status> <regex stderr must match> -- cmd...
# stdout must be empty: the refusal comes before any run starts.
refuse() {
  local name=$1 want=$2 regex=$3
  shift 4
  local rc
  timeout 60 "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" = "$want" ] && grep -Eq -- "$regex" "$tmp/err" && [ ! -s "$tmp/out" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $name: exit $rc (wanted $want)"
    sed 's/^/    stdout: /' "$tmp/out" | head -5
    sed 's/^/    stderr: /' "$tmp/err" | head -5
    echo "    (wanted stderr matching: $regex, stdout empty)"
  fi
}

# ---- input files: no devices, FIFOs or directories ----
refuse ptx-dev-zero 1 "cannot read '/dev/zero': not a regular file" -- "$ws" ptx /dev/zero
refuse ptx-directory 1 "not a regular file \\(a directory\\)" -- "$ws" ptx "$tmp"
refuse config-dev-zero 2 "--config /dev/zero: .*cannot read '/dev/zero': not a regular file" \
  -- "$ws" run vecadd --config /dev/zero

# ---- PTX the simulator must refuse ----
ptxhead=$'.version 9.0\n.target sm_75\n.address_size 64\n'
printf '%s.const .b32 c;\n.visible .entry k()\n{\n .reg .b32 %%r<2>;\n mov.u32 %%r1, 1;\n st.const.u32 [c], %%r1;\n ret;\n}\n' \
  "$ptxhead" >"$tmp/stconst.ptx"
refuse ptx-st-const 1 "stconst.ptx:9:4: read-only state space for a store or atomic: '.const'" \
  -- "$ws" ptx "$tmp/stconst.ptx"
printf '%s.global .texref t;\n.visible .entry k()\n{\n ret;\n}\n' "$ptxhead" >"$tmp/texref.ptx"
refuse ptx-texref 1 "texref.ptx:4:9: legacy texture, surface and sampler references .* use texture and surface objects: '.texref'" \
  -- "$ws" ptx "$tmp/texref.ptx"
printf '%s.visible .entry k(.param .b8 p[4294967295])\n{\n ret;\n}\n' "$ptxhead" >"$tmp/bigparam.ptx"
refuse ptx-param-limit 1 "kernel parameters take 4294967295 bytes, more than CUDA's limit of 32764" \
  -- "$ws" ptx "$tmp/bigparam.ptx"

# ---- numeric keys have ranges ----
refuse clock-tiny 2 "'clock.core': invalid value '1e-300' \\(allowed: a number from 1 to 100000\\)" \
  -- "$ws" run vecadd --set clock.core=1e-300
refuse sm-count-huge 2 "'sm.count': invalid value '100000' \\(allowed: an integer from 1 to 1024\\)" \
  -- "$ws" run vecadd --set sm.count=100000

# ---- cross-key rules, scheduler parameters, profiles: checked before the run ----
refuse sm-threads-33 2 "sm.threads = 33 is not a multiple of 32" -- "$ws" run vecadd --set sm.threads=33
refuse two-level-active-0 2 "policy 'two_level_active': parameter 'active' must be 1..64, got 0" \
  -- "$ws" run vecadd --sched two_level_active:active=0
refuse swl-limit-0 2 "policy 'swl': parameter 'limit' must be >= 1, got 0" \
  -- "$ws" run vecadd --sched swl:limit=0
refuse compare-swl-limit-0 2 "policy 'swl': parameter 'limit' must be >= 1" \
  -- "$ws" compare vecadd --sched gto,swl:limit=0
refuse profile-missing 2 "$tmp/none.prof: cannot open load profile" \
  -- "$ws" run vecadd --sched "daws_profiled:profile=$tmp/none.prof"
echo "garbage" >"$tmp/garbage.prof"
refuse profile-garbage 2 "garbage.prof:1: not a warpsim load profile" \
  -- "$ws" run vecadd --sched "daws_profiled:profile=$tmp/garbage.prof"
refuse profile-directory 2 "not a regular file \\(a directory\\)" \
  -- "$ws" run vecadd --sched "daws_profiled:profile=$tmp"
refuse exec-swl-limit-0 2 "warpsim exec: policy 'swl': parameter 'limit' must be >= 1" \
  -- "$ws" exec --sched swl:limit=0 -- true
refuse exec-sm-threads-33 2 "sm.threads = 33 is not a multiple of 32" \
  -- "$ws" exec --set sm.threads=33 -- true
# GPGPU-Sim cache strings with impossible geometry
cfg=$(dirname "$0")/../../configs/gtx480-gpgpusim.config
sed 's/^-gpgpu_cache:dl1 .*/-gpgpu_cache:dl1 3:128:4,L:L:m:N:H,A:32:8,8/' "$cfg" >"$tmp/sets3.config"
refuse gpgpusim-sets-3 2 "l1d.sets = 3 is not a power of two" -- "$ws" run vecadd --config "$tmp/sets3.config"
sed 's/^-gpgpu_cache:dl1 .*/-gpgpu_cache:dl1 1048576:128:64,L:L:m:N:L,A:32:8,8/' "$cfg" >"$tmp/huge.config"
refuse gpgpusim-huge-cache 2 "l1d.sets x l1d.assoc = 67108864 lines, more than the limit" \
  -- "$ws" run vecadd --config "$tmp/huge.config"
printf -- '-gpgpu_n_mem 6\n-gpgpu_dram_timing_opt "nbk=16:CCD=2:\n   CL=12\n' >"$tmp/quote.config"
refuse gpgpusim-open-quote 2 "quote.config:2:24: quoted value has no closing" \
  -- "$ws" run vecadd --config "$tmp/quote.config"
# options warpsim does not model are named, one warning each, and the run goes on
if "$ws" run vecadd --config "$cfg" >"$tmp/out" 2>"$tmp/err" &&
   grep -q "warning: .*gtx480-gpgpusim.config: GPGPU-Sim options not modelled" "$tmp/err" &&
   grep -q "warning:   -gpgpu_shmem_warp_parts 2$" "$tmp/err" && grep -q PASSED "$tmp/out"; then
  pass=$((pass + 1))
else
  fail=$((fail + 1))
  echo "FAIL gpgpusim-ignored-warning"
  sed 's/^/    stderr: /' "$tmp/err" | head -5
fi

# ---- output files: checked before the run, written atomically with a status ----
refuse stats-json-unwritable 2 "--stats-json: cannot write '$tmp/no/dir/s.json'" \
  -- "$ws" run vecadd --stats-json "$tmp/no/dir/s.json"
refuse timeline-unwritable 2 "--timeline: cannot write '$tmp/no/dir/t.csv'" \
  -- "$ws" run vecadd --timeline "$tmp/no/dir/t.csv"
refuse exec-stats-unwritable 2 "--stats-json: cannot write '$tmp/no/dir/s.json'" \
  -- "$ws" exec --stats-json "$tmp/no/dir/s.json" -- true
refuse exec-timeline-unwritable 2 "--timeline: cannot write '$tmp/no/dir/t.csv'" \
  -- "$ws" exec --timeline "$tmp/no/dir/t.csv" -- true
refuse exec-dump-ptx-missing-parent 2 "--dump-ptx $tmp/no/dir: No such file or directory" \
  -- "$ws" exec --dump-ptx "$tmp/no/dir" -- true
: >"$tmp/plain"
refuse exec-dump-ptx-not-a-dir 2 "--dump-ptx $tmp/plain: not a directory" \
  -- "$ws" exec --dump-ptx "$tmp/plain" -- true

# check <name> <wanted exit status> <regex a file must match> <file> -- cmd...
check() {
  local name=$1 want=$2 regex=$3 file=$4
  shift 5
  local rc
  timeout 60 "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" = "$want" ] && grep -Eq -- "$regex" "$file" && ! ls "$file".tmp-* >/dev/null 2>&1; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $name: exit $rc (wanted $want); $file:"
    head -4 "$file" 2>&1 | sed 's/^/    /'
    sed 's/^/    stderr: /' "$tmp/err" | head -5
    echo "    (wanted $file matching: $regex, no temporary file left)"
  fi
}
check stats-complete 0 '^  "status": "complete",' "$tmp/s.json" \
  -- "$ws" run vecadd --quiet --stats-json "$tmp/s.json"
check stats-failed 1 '"status_reason": "WS_ERR_DEADLOCK: kernel .vecadd. exceeded the limit of 10 warp' \
  "$tmp/s.json" -- "$ws" run vecadd --quiet --set max_warp_insn=10 --stats-json "$tmp/s.json"
check stats-failed-status 1 '^  "status": "failed",' "$tmp/s.json" \
  -- "$ws" run vecadd --quiet --set max_warp_insn=10 --stats-json "$tmp/s.json"
# exec: a program that exits 0 without writing the statistics asked for fails
echo stale >"$tmp/e.json"
check exec-stats-lost 1 '^stale$' "$tmp/e.json" -- "$ws" exec --stats-json "$tmp/e.json" -- true
grep -q 'was not written with status "complete"' "$tmp/err" && pass=$((pass + 1)) ||
  { fail=$((fail + 1)); echo "FAIL exec-stats-lost-message"; cat "$tmp/err"; }
echo stale >"$tmp/e.csv"
check exec-timeline-lost 1 '^stale$' "$tmp/e.csv" -- "$ws" exec --timeline "$tmp/e.csv" -- true
grep -q "the timeline $tmp/e.csv was not written" "$tmp/err" && pass=$((pass + 1)) ||
  { fail=$((fail + 1)); echo "FAIL exec-timeline-lost-message"; cat "$tmp/err"; }

# ---- Ctrl-C: where every warp is, partial statistics, exit 130 ----
"$ws" run bfs --size large --quiet --stats-json "$tmp/int.json" >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 2
kill -INT "$pid"
wait "$pid"
rc=$?
if [ "$rc" = 130 ] && grep -Eq "interrupted at cycle [0-9]+ \([0-9]+ of 4096 CTAs dispatched\)" "$tmp/err" &&
   grep -Eq "^  SM [0-9]+ slot [0-9]+ \(CTA slot [0-9]+, warp [0-9]+\): PC [0-9]+ \(line [0-9]+\)" "$tmp/err" &&
   grep -q '^  "status": "partial",' "$tmp/int.json" && grep -q '"gpu_sim_cycle": [1-9]' "$tmp/int.json"; then
  pass=$((pass + 1))
else
  fail=$((fail + 1))
  echo "FAIL sigint: exit $rc (wanted 130)"
  head -5 "$tmp/err" | sed 's/^/    stderr: /'
  head -3 "$tmp/int.json" 2>&1 | sed 's/^/    json: /'
fi

# the same in functional mode: where it stopped (CTA, warp, PC, line), partial statistics;
# lud's kernels run for tens of seconds at size large (kmeans's for about one, after
# which the SIGINT would fall into its CPU reference and be ignored)
"$ws" run lud --mode functional --size large --quiet --stats-json "$tmp/intf.json" \
  >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 2
kill -INT "$pid"
wait "$pid"
rc=$?
if [ "$rc" = 130 ] &&
   grep -Eq "^warpsim run: interrupted: kernel 'lud_[a-z]+' interrupted after [0-9]+ warp instructions: CTA \([0-9]+,[0-9]+,0\) of [0-9]+, warp [0-9]+ at PC [0-9]+ \(line [0-9]+\)" "$tmp/err" &&
   grep -q '^  "status": "partial",' "$tmp/intf.json"; then
  pass=$((pass + 1))
else
  fail=$((fail + 1))
  echo "FAIL sigint-functional: exit $rc (wanted 130)"
  head -5 "$tmp/out" "$tmp/err" | sed 's/^/    /'
fi

echo "cli hostile: $pass passed, $fail failed"
[ "$fail" = 0 ]
