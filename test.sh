#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite through CTest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"$root/scripts/bootstrap.sh"
"$root/scripts/build.sh"
"$root/build/bin/commsim" data build --quiet
cd "$root/build"
ctest --output-on-failure -j "$(nproc 2>/dev/null || echo 2)" "$@"

# Sanitizer stage (scripts/fuzz.sh --ci): one clang build with AddressSanitizer + UBSan in
# build-fuzz/ serves the unit tests of the modules that read untrusted input (sim, algorithms,
# models, scenarios, analysis: text and CSV files, bit coding, decoders, data files, scenario and
# sweep files) and the libFuzzer drivers; every corpus input runs once, then every driver is
# fuzzed from a fixed seed for a share of COMMSIM_FUZZ_BUDGET seconds (default 60). Any crash, hang, leak or sanitizer report fails.
# COMMSIM_SKIP_SANITIZERS=1 (or the older COMMSIM_SKIP_ASAN=1) skips the stage.
if [[ "${COMMSIM_SKIP_SANITIZERS:-${COMMSIM_SKIP_ASAN:-0}}" != 1 ]]; then
  "$root/scripts/fuzz.sh" --ci
fi
