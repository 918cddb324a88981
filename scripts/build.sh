#!/usr/bin/env bash
# Configures (once) and builds into build/ (or $COMMSIM_BUILD_DIR). Quiet unless something fails.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/lib.sh"
cmake_build "$root" "${COMMSIM_BUILD_DIR:-$root/build}" -DCMAKE_BUILD_TYPE=Release "$@"
