#!/usr/bin/env bash
# Configures (once) and builds into build/ (or $COMMSIM_BUILD_DIR). Quiet unless something fails.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${COMMSIM_BUILD_DIR:-$root/build}"
jobs="$(nproc 2>/dev/null || echo 2)"
if [[ ! -f "$build/build.ninja" ]]; then
  launcher=()
  command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "$@" >"$build.configure.log" 2>&1 \
    || { cat "$build.configure.log" >&2; exit 1; }
fi
log="$(mktemp)"
if ! cmake --build "$build" -j "$jobs" >"$log" 2>&1; then
  grep -v '^\[' "$log" | head -200 >&2
  rm -f "$log"
  exit 1
fi
rm -f "$log"
