#!/usr/bin/env bash
# Submits a sweep as a Slurm array job (one task per point, sweep_array.sbatch) and its gather
# step (sweep_gather.sbatch), which starts when every task has ended.
# Usage: scripts/slurm/submit_sweep.sh SWEEP.json OUT [extra sbatch options for the array]
# e.g.   scripts/slurm/submit_sweep.sh scenarios/bandwidth_sweep.json results/bw --mem=16G
set -euo pipefail
if [[ $# -lt 2 ]]; then
  echo "usage: $0 SWEEP.json OUT [sbatch options for the array tasks]" >&2
  exit 2
fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
sweep="$1"
out="$2"
shift 2
points="$("${COMMSIM:-commsim}" sweep "$sweep" --count)"
array="$(sbatch --parsable --array="0-$((points - 1))" "$@" "$here/sweep_array.sbatch" "$sweep" "$out")"
gather="$(sbatch --parsable --dependency="afterany:${array%%;*}" "$here/sweep_gather.sbatch" "$sweep" "$out")"
echo "submitted: array job $array ($points points), gather job $gather -> $out/sweep.csv"
