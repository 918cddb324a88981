#!/usr/bin/env bash
# Wall time of the 13-point bandwidth sweep (scenarios/bandwidth_sweep.json: six PS algorithms,
# 8 workers, one iteration per point) at 1 and 2 MPI ranks x 1 and 2 --jobs per rank, side by
# side, each from an empty output folder; checks that every sweep.csv is byte-identical to the
# first. A measurement, never a test.
# Usage: bench/sweep_ranks.sh [DIM]   (default 11173962, ResNet-18 size; a smaller DIM is faster)
# Env: COMMSIM (default build/bin/commsim), MPIRUN_ARGS (extra mpirun options).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
commsim="${COMMSIM:-$root/build/bin/commsim}"
dim="${1:-11173962}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The shipped sweep with d replaced.
python3 "$root/bench/reduced_sweep.py" "$root/scenarios/bandwidth_sweep.json" "$dim" "$work/sweep.json"
mpirun_cmd=(mpirun --oversubscribe --allow-run-as-root --mca btl self,vader
            --mca btl_vader_single_copy_mechanism none --bind-to none ${MPIRUN_ARGS:-})
printf '%-8s %-6s %10s  %s\n' ranks jobs wall_s sweep.csv
first=""
for ranks in 1 2; do
  for jobs in 1 2; do
    out="$work/r${ranks}_j${jobs}"
    launch=()
    ((ranks > 1)) && launch=("${mpirun_cmd[@]}" -n "$ranks")
    start=$(date +%s.%N)
    "${launch[@]}" "$commsim" sweep "$work/sweep.json" --out "$out" --jobs "$jobs" --no-plots \
      --quiet >/dev/null
    end=$(date +%s.%N)
    same="first"
    if [[ -n "$first" ]]; then
      cmp -s "$first" "$out/sweep.csv" && same="identical" || same="DIFFERENT"
    else
      first="$out/sweep.csv"
    fi
    printf '%-8s %-6s %10.1f  %s\n' "$ranks" "$jobs" "$(awk "BEGIN { print $end - $start }")" "$same"
  done
done
echo "(d = $dim; $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg))"
