#!/usr/bin/env bash
# Peak resident memory of one parameter-server entry (default DORE) at ResNet-18 size: `commsim
# run` of a synthetic quadratic (d = 11,173,962, fixed compute, 2 iterations, --jobs 1) under
# /usr/bin/time -v, for every worker count and state precision asked; prints a table in GiB and
# GB with the size of one d-vector of doubles for scale. A measurement, never a test.
# Usage: bench/peak_memory.sh [--dim D] [--workers "8 32"] [--precisions "float64 float32"]
#                             [--algorithm NAME] [--iterations K]
# Env: COMMSIM (default build/bin/commsim). Needs /usr/bin/time (Debian: apt-get install time).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
commsim="${COMMSIM:-$root/build/bin/commsim}"
dim=11173962
workers="8 32"
precisions="float64 float32"
algorithm=dore
iterations=2
while [[ $# -gt 0 ]]; do
  case "$1" in
    --dim) dim="$2"; shift 2 ;;
    --workers) workers="$2"; shift 2 ;;
    --precisions) precisions="$2"; shift 2 ;;
    --algorithm) algorithm="$2"; shift 2 ;;
    --iterations) iterations="$2"; shift 2 ;;
    *) echo "peak_memory.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [[ ! -x /usr/bin/time ]]; then
  echo "peak_memory.sh: needs /usr/bin/time (Debian: apt-get install time)" >&2
  exit 1
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# scenario N PRECISION: the one-entry scenario for N workers.
scenario() {
  local entry="{\"name\": \"$algorithm\"}"
  [[ "$2" != float64 ]] && entry="{\"name\": \"$algorithm\", \"precision\": \"$2\"}"
  cat <<EOF
{
  "name": "peak_memory", "seed": 1, "workers": $1, "iterations": $iterations,
  "model": {"name": "synthetic_quadratic", "dim": $dim, "samples_per_worker": 128},
  "network": {"topology": {"name": "star", "worker_bandwidth": "1Gbps",
                           "server_bandwidth": "1Gbps"}},
  "compute": {"mode": "fixed", "seconds": "10ms"},
  "step": {"size": 0.01},
  "algorithms": [$entry]
}
EOF
}
vector_mib=$(echo "$dim * 8 / 1048576" | bc -l)
printf '%s, d = %d (one d-vector of doubles: %.1f MiB), %d iterations\n' "$algorithm" "$dim" \
  "$vector_mib" "$iterations"
printf '%-8s %-9s %12s %10s %10s\n' workers precision "peak KiB" "GiB" "GB"
for n in $workers; do
  for precision in $precisions; do
    name="n${n}_$precision"
    scenario "$n" "$precision" >"$work/$name.json"
    if ! /usr/bin/time -v -o "$work/$name.time" "$commsim" run "$work/$name.json" \
      --out "$work/$name" --jobs 1 --no-plots --quiet >"$work/$name.log" 2>&1; then
      cat "$work/$name.log" >&2
      exit 1
    fi
    kib=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/$name.time")
    printf '%-8s %-9s %12d %10.3f %10.3f\n' "$n" "$precision" "$kib" \
      "$(echo "$kib / 1048576" | bc -l)" "$(echo "$kib * 1024 / 1000000000" | bc -l)"
  done
done
