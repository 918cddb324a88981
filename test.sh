#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite through CTest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"$root/scripts/bootstrap.sh"
"$root/scripts/build.sh"
"$root/build/bin/commsim" data build --quiet
cd "$root/build"
ctest --output-on-failure -j "$(nproc 2>/dev/null || echo 2)" "$@"

# AddressSanitizer/UBSan pass over the bit coding and the compressors' decoders: truncated and
# corrupted messages must fail with DecodeError, never read out of bounds. Only algorithms_tests is
# built (build-asan/), so this stays at a couple of minutes on 2 cores. COMMSIM_SKIP_ASAN=1 skips it.
if [[ "${COMMSIM_SKIP_ASAN:-0}" != 1 ]]; then
  asan="$root/build-asan"
  if [[ ! -f "$asan/build.ninja" ]]; then
    launcher=()
    command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    cmake -S "$root" -B "$asan" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOMMSIM_SANITIZE=ON \
      -DCOMMSIM_BUILD_BENCH=OFF "${launcher[@]}" >"$asan.configure.log" 2>&1 \
      || { cat "$asan.configure.log" >&2; exit 1; }
  fi
  log="$(mktemp)"
  if ! cmake --build "$asan" -j "$(nproc 2>/dev/null || echo 2)" --target algorithms_tests >"$log" 2>&1; then
    grep -v '^\[' "$log" | head -200 >&2
    rm -f "$log"
    exit 1
  fi
  rm -f "$log"
  echo "ASan/UBSan: bit coding and compressor decode tests"
  cd "$root"
  ASAN_OPTIONS=abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "$asan/algorithms/algorithms_tests" --gtest_brief=1 \
    --gtest_filter='BitIo*:Elias*:Golomb*:ZigZag*:Arithmetic*:VectorSourceCode*:*Contract*:BlockTernary*:Qsgd*:TopK*:RandK*:ScaledSign*:Dithered*'
fi
