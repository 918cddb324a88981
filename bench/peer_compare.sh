#!/usr/bin/env bash
# commsim against its NumPy peer (bench/numpy_peer.py: the same SGD and DORE iterations in NumPy,
# float64, without network or bit streams): seconds per iteration of each, side by side, and the
# ratio NumPy / commsim (above 1: commsim is faster). Wall and user CPU time; on a shared machine
# the CPU ratio is the steadier one. Both run with commsim's allocator set-up (bench_timing.h:
# no mmap for large blocks, no heap trimming, one arena; the peer through glibc's MALLOC_*
# variables), so NumPy's temporaries reuse heap pages instead of faulting fresh ones in each
# iteration, as commsim's buffers do; COMMSIM_MMAP=1 leaves glibc's defaults to both. A
# measurement, never a test.
# Needs NumPy for the peer (Debian: apt-get install python3-numpy); the build and tests do not.
# Usage: bench/peer_compare.sh [--dim D] [--workers N] [--iterations K]   (defaults: ResNet-18
#        size d = 11173962, n = 8, K = 3)
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
args=(--algorithms sgd,dore "$@")
allocator=(MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=1073741824 MALLOC_ARENA_MAX=1)
[[ -n "${COMMSIM_MMAP:-}" ]] && allocator=()
peer="$(env "${allocator[@]}" "$python" "$root/bench/numpy_peer.py" "${args[@]}")"
ours="$("$bench" "${args[@]}")"
echo "$ours" | head -1
printf '%-6s %12s %12s %12s %12s %9s %9s\n' algorithm "commsim wall" "numpy wall" \
  "commsim CPU" "numpy CPU" "wall x" "CPU x"
while read -r name peer_wall peer_cpu; do
  # ps_sim_bench: name, threads, wall s/iter, CPU s/iter, ...; the one-thread row (the peer is
  # one NumPy process).
  read -r our_wall our_cpu < <(echo "$ours" | awk -v n="$name" '$1 == n && $2 == 1 {print $3, $4}')
  awk -v n="$name" -v ow="$our_wall" -v oc="$our_cpu" -v pw="$peer_wall" -v pc="$peer_cpu" \
    'BEGIN { printf "%-6s %12.4f %12.4f %12.4f %12.4f %9.2f %9.2f\n", n, ow, pw, oc, pc, pw / ow, pc / oc }'
done <<< "$peer"
