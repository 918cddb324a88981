#!/usr/bin/env bash
# Prints measured vs predicted for every row of validation/hardware/measured.json (see
# docs/validation.md). Runs outside CI: a few minutes. Usage:
#   validation/hardware/run.sh [build/bin/commsim] [--only GROUP,...] [--keep DIR]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
binary="${1:-$here/../../build/bin/commsim}"
shift || true
exec python3 "$here/compare.py" "$binary" "$@"
