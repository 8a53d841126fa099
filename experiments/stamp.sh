#!/usr/bin/env bash
# stamp.sh: the line every experiment's results file starts with: the
# revision the warpsim binary was built from (`warpsim --version`), the date
# (UTC) and the machine (cores, memory, OS), so that committed results say
# where they came from.
# usage: experiments/stamp.sh WARPSIM
set -eu
ws=${1:?usage: experiments/stamp.sh WARPSIM}
rev=$("$ws" --version 2>/dev/null | awk '{print $2}')
os=$(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME" || uname -s)
mem=$(awk '/^MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo 2>/dev/null)
echo "Binary ${rev:-unknown} (warpsim --version), $(date -u +%Y-%m-%d), $(nproc) cores, ${mem:-? GiB}, $os."
