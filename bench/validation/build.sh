#!/usr/bin/env bash
# Builds the validation suite's reference programs (simgrid_net, ns3_net) into build-validation/.
# Installs what they need when missing: Debian's libsimgrid-dev (SimGrid 3.32) and libns3-dev
# (ns-3.37), plus python3 for the harness. Never run by scripts/build.sh, the bootstrap or CI.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${COMMSIM_VALIDATION_BUILD_DIR:-$root/build-validation}"

packages=(cmake g++ ninja-build pkg-config nlohmann-json3-dev libsimgrid-dev libns3-dev python3)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "validation/build.sh: installing ${missing[*]}" >&2
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq >/dev/null
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [[ ! -f "$build/build.ninja" ]]; then
  launcher=()
  command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" \
    >"$build.configure.log" 2>&1 || { cat "$build.configure.log" >&2; exit 1; }
fi
log="$(mktemp)"
if ! cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" >"$log" 2>&1; then
  grep -v '^\[' "$log" | head -200 >&2
  rm -f "$log"
  exit 1
fi
rm -f "$log"
echo "validation programs: $build/simgrid_net $build/ns3_net"
