#!/usr/bin/env bash
# Installs what commsim needs and is missing, then fetches and converts the data sets once.
# Idempotent and quiet when everything is already present. Run as root (or with sudo available).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# clang + libclang-rt-dev (libFuzzer, sanitizer runtimes) + llvm (llvm-symbolizer for readable
# reports): the sanitizer and fuzzing stage, scripts/fuzz.sh.
packages=(cmake g++ ninja-build libboost-graph-dev libeigen3-dev nlohmann-json3-dev libfmt-dev
          libcli11-dev zlib1g-dev libgtest-dev libgmock-dev libbenchmark-dev gnuplot-nox ca-certificates
          chromium fonts-dejavu-core  # chromium: the report.html browser test
          clang libclang-rt-dev llvm
          libopenmpi-dev openmpi-bin)  # `mpirun commsim sweep` (mpi/) and its tests
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
command -v npm >/dev/null 2>&1 || missing+=(npm)
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}" >&2
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq >/dev/null
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

"$root/scripts/fetch_data.sh"
