#!/usr/bin/env bash
# Wall time of a sweep (default the 13-point scenarios/bandwidth_sweep.json: six PS algorithms,
# 8 workers, one iteration per point) with trajectory reuse (the default: each algorithm learns
# once, the other 12 points re-time its trajectory) and with --no-reuse (every point learns), in
# one run, from empty output folders; prints both, their ratio, and whether the two sweep.csv are
# byte-identical. A measurement, never a test.
# Usage: bench/sweep_reuse.sh [DIM] [JOBS] [SWEEP]   (default 11173962, ResNet-18 size; a smaller
#        DIM is faster; JOBS = --jobs, default 1; SWEEP a shipped sweep file, default
#        scenarios/bandwidth_sweep.json; scenarios/deploy_resnet18_bandwidth_sweep.json times the
#        parameter-server and collective entries)
# Env: COMMSIM (default build/bin/commsim).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
commsim="${COMMSIM:-$root/build/bin/commsim}"
dim="${1:-11173962}"
jobs="${2:-1}"
sweep="${3:-$root/scenarios/bandwidth_sweep.json}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The shipped sweep with d replaced.
python3 "$root/bench/reduced_sweep.py" "$sweep" "$dim" "$work/sweep.json"
# run NAME [flags]: one sweep into $work/NAME; prints the wall seconds.
run() {
  local name="$1"
  shift
  local start end
  start=$(date +%s.%N)
  if ! "$commsim" sweep "$work/sweep.json" --out "$work/$name" --jobs "$jobs" --no-plots --quiet \
    "$@" >"$work/$name.log" 2>&1; then
    cat "$work/$name.log" >&2
    exit 1
  fi
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
echo "$(basename "$sweep"): d = $dim, --jobs $jobs"
reuse_s=$(run reuse)
full_s=$(run full --no-reuse)
grep "trajectory reuse" "$work/reuse.log" || true
same="DIFFERENT"
cmp -s "$work/reuse/sweep.csv" "$work/full/sweep.csv" && same="identical"
printf '%-12s %10s\n' mode wall_s
printf '%-12s %10.2f\n' reuse "$reuse_s" no-reuse "$full_s"
printf 'ratio no-reuse / reuse: %.1fx; sweep.csv %s\n' "$(echo "$full_s / $reuse_s" | bc -l)" "$same"
