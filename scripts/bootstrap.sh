#!/usr/bin/env bash
# Installs what commsim needs and is missing, then fetches and converts the data sets once.
# Idempotent and quiet when everything is already present. Run as root (or with sudo available).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/lib.sh"

# clang + libclang-rt-dev (libFuzzer, sanitizer runtimes) + llvm (llvm-symbolizer for readable
# reports): the sanitizer and fuzzing stage, scripts/fuzz.sh.
packages=(cmake g++ ninja-build libboost-graph-dev libeigen3-dev nlohmann-json3-dev libfmt-dev
          libcli11-dev zlib1g-dev libgtest-dev libgmock-dev libbenchmark-dev gnuplot-nox ca-certificates
          librandom123-dev  # Philox4x32 oracle of base/counter_rng_test.cc
          chromium fonts-dejavu-core  # chromium: the report.html browser test
          clang libclang-rt-dev llvm
          clang-format  # scripts/format_check.sh, the ctest clang_format
          libopenmpi-dev openmpi-bin  # `mpirun commsim sweep` (mpi/) and its tests
          pybind11-dev python3-dev python3-numpy python3-pandas python3-pytest)  # python/, docs/python.md
command -v npm >/dev/null 2>&1 || packages+=(npm)
install_missing bootstrap "${packages[@]}"

"$root/scripts/fetch_data.sh"
