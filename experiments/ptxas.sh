#!/usr/bin/env bash
# ptxas.sh: the ptxas whose register counts size the CTAs of an experiment's
# CUDA programs (ptx.ptxas_regs=1, docs/cuda.md): $WARPSIM_PTXAS, else ptxas
# on PATH, else /usr/local/cuda/bin/ptxas.  Prints its path, or with --line
# the sentence a results file carries about it; fails when there is none.
# usage: experiments/ptxas.sh [--line]
set -eu
p=${WARPSIM_PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
[ -x "$p" ] || { echo "ptxas.sh: no ptxas at '$p' (set WARPSIM_PTXAS)" >&2; exit 2; }
case "${1:-}" in
'') echo "$p" ;;
--line) echo "Registers per thread from ptxas $("$p" --version | sed -n 's/.*release \([0-9.]*\), V\([0-9.]*\).*/\2/p') (ptx.ptxas_regs=1)." ;;
*) sed -n 's/^# usage: /usage: /p' "$0" >&2; exit 2 ;;
esac
