#!/usr/bin/env bash
# slurm-local.sh: a single-node Slurm on this machine, for the Slurm test and
# for running a sweep's job arrays here (`warpsim sweep SPEC --slurm`).  As
# root: starts munged (unless one runs), slurmctld and slurmd with a minimal
# slurm.conf in DIR (this machine as the only node, its CPUs,
# proctrack/linuxproc, no cgroup, ports 16817/16818, or $SLURM_LOCAL_PORT and
# the next one, so that a second cluster can run beside the test's) and waits
# for the node.
#
#   scripts/slurm-local.sh start DIR   start; prints `export SLURM_CONF=DIR/slurm.conf`
#   scripts/slurm-local.sh stop DIR    stop what start started
#
# Sourced (tests/sweep/slurm.sh), it defines slurm_local_start DIR and
# slurm_local_stop DIR, which return non-zero with a message on stderr.

# slurm_local_start DIR: DIR exists and is empty or ours; sets SLURM_CONF
slurm_local_start() {
  local dir=$1
  chmod 755 "$dir"
  rm -f "$dir/started-munge"
  if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    [ -s /etc/munge/munge.key ] || { echo "slurm-local: no /etc/munge/munge.key" >&2; return 1; }
    mkdir -p /run/munge && chown munge:munge /run/munge
    runuser -u munge -- munged || { echo "slurm-local: munged did not start" >&2; return 1; }
    : >"$dir/started-munge"
    munge -n | unmunge >/dev/null 2>&1 || { echo "slurm-local: munge does not work" >&2; return 1; }
  fi
  local node cpus port=${SLURM_LOCAL_PORT:-16817}
  node=$(hostname -s)
  cpus=$(nproc)
  mkdir -p "$dir/state" "$dir/spool"
  cat >"$dir/slurm.conf" <<EOF
ClusterName=warpsimlocal
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$dir/slurm.conf
  slurmctld -i -f "$SLURM_CONF" || { echo "slurm-local: slurmctld did not start" >&2; return 1; }
  slurmd -f "$SLURM_CONF" || { echo "slurm-local: slurmd did not start" >&2; return 1; }
  for _ in $(seq 60); do
    sinfo -h -o %t 2>/dev/null | grep -Eq '^(idle|mix|alloc)' && return 0
    sleep 0.5
  done
  echo "slurm-local: the node did not come up: $(sinfo 2>&1)" >&2
  return 1
}

# slurm_local_stop DIR: stops the daemons (and munged if start started it)
slurm_local_stop() {
  local dir=$1 f
  for f in "$dir/slurmd.pid" "$dir/slurmctld.pid"; do
    [ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null
  done
  [ -e "$dir/started-munge" ] && [ -s /run/munge/munged.pid ] &&
    kill "$(cat /run/munge/munged.pid)" 2>/dev/null
  sleep 0.5
  return 0
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -u
  case "${1:-}:${2:-}" in
  start:?*)
    [ "$(id -u)" = 0 ] || { echo "slurm-local: needs root" >&2; exit 2; }
    mkdir -p "$2" && dir=$(cd "$2" && pwd) || exit 2
    slurm_local_start "$dir" || exit 1
    echo "export SLURM_CONF=$dir/slurm.conf" ;;
  stop:?*) slurm_local_stop "$(cd "$2" && pwd)" ;;
  *) sed -n '8,9p' "$0" | sed 's/^# //' >&2; exit 2 ;;
  esac
fi
