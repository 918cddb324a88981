#!/usr/bin/env bash
# Rebuilds README.md from the sections in docs/readme/ (head first, development notes last).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root/docs/readme"
parts=(00-head.md network.md compressors.md models.md decentralized.md)
[[ -f sweeps.md ]] && parts+=(sweeps.md)
parts+=(99-dev.md)
{
  for p in "${parts[@]}"; do cat "$p"; echo; done
} > "$root/README.md.tmp"
mv "$root/README.md.tmp" "$root/README.md"
