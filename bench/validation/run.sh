#!/usr/bin/env bash
# Runs every validation case in commsim, SimGrid and ns-3 and prints the error table; the table
# and a CSV go to results/validation/. Arguments go to validate.py (--help lists them), e.g.
#   bench/validation/run.sh --quick            n = 8 and messages up to 1 MB (about a minute)
#   bench/validation/run.sh --cases incast     one case
#   bench/validation/run.sh --full             also the ns-3 points above the payload budget
# Builds what is missing first: commsim (scripts/build.sh) and the reference programs (build.sh);
# then checks the reference programs against closed forms (selfcheck.py) before trusting them.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
[[ -x "$root/build/bin/commsim" ]] || "$root/scripts/build.sh"
build="${COMMSIM_VALIDATION_BUILD_DIR:-$root/build-validation}"
if [[ ! -x "$build/simgrid_net" || ! -x "$build/ns3_net" ]]; then
  "$here/build.sh"
fi
python3 "$here/selfcheck.py" --bin "$build"
exec nice python3 "$here/validate.py" --bin "$build" "$@"
