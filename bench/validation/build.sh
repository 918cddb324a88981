#!/usr/bin/env bash
# Builds the validation suite's reference programs (simgrid_net, ns3_net) into build-validation/.
# Installs what they need when missing: Debian's libsimgrid-dev (SimGrid 3.32) and libns3-dev
# (ns-3.37), plus python3 for the harness. Never run by scripts/build.sh, the bootstrap or CI.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${COMMSIM_VALIDATION_BUILD_DIR:-$root/build-validation}"
source "$root/scripts/lib.sh"

install_missing validation/build.sh cmake g++ ninja-build pkg-config nlohmann-json3-dev \
  libsimgrid-dev libns3-dev python3
cmake_build "$here" "$build" -DCMAKE_BUILD_TYPE=Release
echo "validation programs: $build/simgrid_net $build/ns3_net"
