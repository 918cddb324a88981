#!/usr/bin/env bash
# commsim's LeNet-5 against PyTorch's on the CPU (bench/torch_lenet_peer.py: the same network,
# one thread): milliseconds per training step on a batch of 32 and per evaluation of 64 test
# images, each side's, and the ratio PyTorch / commsim (above 1: commsim is faster). commsim's
# figures come from bench/models_bench (float32, its default precision). Both run in this one
# call, one after the other, so that a shared machine's load affects both alike; --repeat R
# alternates them R times and keeps each side's best. A measurement, never a test.
# Needs PyTorch for the peer (Debian: apt-get install python3-torch); the build and tests do not.
# Usage: bench/lenet_peer_compare.sh [--repeat R]   Env: MODELS_BENCH, PYTHON (/usr/bin/python3).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bench="${MODELS_BENCH:-$root/build/bench/models_bench}"
python="${PYTHON:-/usr/bin/python3}"
repeat=1
if [[ "${1:-}" == "--repeat" ]]; then
  [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { echo "lenet_peer_compare.sh: --repeat needs a count" >&2; exit 1; }
  repeat="$2"
fi
if ! "$python" -c 'import torch' 2>/dev/null; then
  echo "lenet_peer_compare.sh: $python has no PyTorch (Debian: apt-get install python3-torch)" >&2
  exit 1
fi
best() { sort -g | head -1; }
ct=() ce=() tt=() te=()
for ((i = 0; i < repeat; ++i)); do
  torch_out="$("$python" "$root/bench/torch_lenet_peer.py" --seconds 1)"
  ours="$(cd "$root" && "$bench" 1)"
  tt+=("$(awk '/torch float32 train/ {print $(NF-1)}' <<<"$torch_out")")
  te+=("$(awk '/torch float32 eval/ {print $(NF-1)}' <<<"$torch_out")")
  ct+=("$(awk '/^lenet5 .*batch +32:/ {print $5}' <<<"$ours")")
  ce+=("$(awk '/^lenet5 +evaluation/ {print $3}' <<<"$ours")")
done
t_train="$(printf '%s\n' "${tt[@]}" | best)"; t_eval="$(printf '%s\n' "${te[@]}" | best)"
c_train="$(printf '%s\n' "${ct[@]}" | best)"; c_eval="$(printf '%s\n' "${ce[@]}" | best)"
printf 'LeNet-5 training step, batch 32: PyTorch %s ms, commsim %s ms, ratio %.2f\n' \
  "$t_train" "$c_train" "$(awk -v a="$t_train" -v b="$c_train" 'BEGIN {print a / b}')"
printf 'LeNet-5 evaluation, 64 images:   PyTorch %s ms, commsim %s ms, ratio %.2f\n' \
  "$t_eval" "$c_eval" "$(awk -v a="$t_eval" -v b="$c_eval" 'BEGIN {print a / b}')"
