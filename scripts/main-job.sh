#!/usr/bin/env bash
# main-job.sh: the main job: a warp-scheduler comparison on the built-in
# cache-sensitive workloads (kmn is the point-major k-means) at the DAWS
# paper's baseline (`daws` preset):
# loose round robin, greedy-then-oldest and the two-level active-set
# scheduler, each run verified against its CPU reference, IPC normalised to
# LRR with the harmonic mean.  `warpsim compare` prints one line per finished
# run, so a log shows progress as it goes.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "main job: warp schedulers lrr, gto, two_level_active on bfs, spmv_scalar, memc, gc, kmn"
echo "(size medium, daws preset): 15 runs, each verified against its CPU reference"
start=$SECONDS
status=0
build/warpsim compare bfs,spmv_scalar,memc,gc,kmn \
  --sched lrr,gto,two_level_active --config daws --size medium || status=$?
echo "main job: $((SECONDS - start)) s"
exit $status
