#!/usr/bin/env bash
# commsim against its NumPy peer (bench/numpy_peer.py: the same SGD and DORE iterations in NumPy,
# float64, without network or bit streams): seconds per iteration of each, side by side, and the
# ratio NumPy / commsim (above 1: commsim is faster). Wall and CPU time (each process's own, user
# and system, as the scheduler counts it; bench_timing.h says why not getrusage's user time); on a
# shared machine the CPU ratio is the steadier one. Both run with commsim's allocator set-up (bench_timing.h:
# no mmap for large blocks, no heap trimming, one arena; the peer through glibc's MALLOC_*
# variables), so NumPy's temporaries reuse heap pages instead of faulting fresh ones in each
# iteration, as commsim's buffers do; COMMSIM_MMAP=1 leaves glibc's defaults to both. A
# measurement, never a test.
# Needs NumPy for the peer (Debian: apt-get install python3-numpy); the build and tests do not.
# Usage: bench/peer_compare.sh [--repeat R] [--dim D] [--workers N] [--iterations K]
#        [--algorithms sgd,dore]   (defaults: R = 1, ResNet-18 size d = 11173962, n = 8, K = 3)
# --repeat R runs the pair R times, alternated (NumPy, then commsim), and keeps each side's best
# wall and best CPU time per algorithm: on a shared machine the best of several runs is the
# steadier estimate of what each side costs when it has the memory to itself. The memcpy line is
# the first commsim run's.
# Env: PS_SIM_BENCH (default build/bench/ps_sim_bench), PYTHON (default: the first of python3,
#      /usr/bin/python3 that has NumPy).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bench="${PS_SIM_BENCH:-$root/build/bench/ps_sim_bench}"
python="${PYTHON:-}"
if [[ -z "$python" ]]; then
  for candidate in python3 /usr/bin/python3; do
    if "$candidate" -c 'import numpy' 2>/dev/null; then python="$candidate"; break; fi
  done
fi
if [[ -z "$python" ]]; then
  echo "peer_compare.sh: no python3 with NumPy (Debian: apt-get install python3-numpy)" >&2
  exit 1
fi
repeat=1
args=(--algorithms sgd,dore)  # the rest of the flags go to both sides
while [[ $# -gt 0 ]]; do
  if [[ "$1" == "--repeat" ]]; then
    [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { echo "peer_compare.sh: --repeat needs a positive count" >&2; exit 1; }
    repeat="$2"
    shift 2
  else
    args+=("$1")
    shift
  fi
done
allocator=(MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=1073741824 MALLOC_ARENA_MAX=1)
[[ -n "${COMMSIM_MMAP:-}" ]] && allocator=()
peer_runs="" ours_runs="" memcpy_line=""
for ((run = 0; run < repeat; ++run)); do
  peer_runs+="$(env "${allocator[@]}" "$python" "$root/bench/numpy_peer.py" "${args[@]}")"$'\n'
  ours="$("$bench" "${args[@]}")"
  [[ -z "$memcpy_line" ]] && memcpy_line="$(echo "$ours" | head -1)"
  # ps_sim_bench: name, threads, wall s/iter, CPU s/iter, ...; the one-thread rows (the peer is one
  # NumPy process).
  ours_runs+="$(echo "$ours" | awk '$2 == 1 && $3 ~ /^[0-9.]+$/ {print $1, $3, $4}')"$'\n'
done
echo "$memcpy_line"
[[ "$repeat" -gt 1 ]] && echo "best of $repeat alternated runs per side"
printf '%-6s %12s %12s %12s %12s %9s %9s\n' algorithm "commsim wall" "numpy wall" \
  "commsim CPU" "numpy CPU" "wall x" "CPU x"
# The best (smallest) wall and CPU of each side per algorithm, in the peer's order.
best() { awk 'NF >= 3 { if (!($1 in w) || $2 < w[$1]) w[$1] = $2; if (!($1 in c) || $3 < c[$1]) c[$1] = $3;
                if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
              END { for (i = 1; i <= n; ++i) print order[i], w[order[i]], c[order[i]] }'; }
while read -r name peer_wall peer_cpu; do
  read -r our_wall our_cpu < <(best <<< "$ours_runs" | awk -v n="$name" '$1 == n {print $2, $3}')
  awk -v n="$name" -v ow="$our_wall" -v oc="$our_cpu" -v pw="$peer_wall" -v pc="$peer_cpu" \
    'BEGIN { printf "%-6s %12.4f %12.4f %12.4f %12.4f %9.2f %9.2f\n", n, ow, pw, oc, pc, pw / ow, pc / oc }'
done < <(best <<< "$peer_runs")
