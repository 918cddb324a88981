#!/usr/bin/env bash
# Fuzzing and the sanitizer build: libFuzzer drivers (every *_fuzz.cc) and the unit tests of the
# modules that read untrusted input, built once with clang, AddressSanitizer and UBSan into
# build-fuzz/ (or $COMMSIM_FUZZ_BUILD_DIR).
#
#   scripts/fuzz.sh [TARGET|all] [SECONDS]   fuzz TARGET (default: all, one after another) for
#                                           SECONDS each (default 600); stops at the first finding
#   scripts/fuzz.sh --list                  the targets (a driver <name>_fuzz.cc is target <name>)
#   scripts/fuzz.sh --ci                    test.sh's stage: build, unit tests and every corpus
#                                           input under the sanitizers (ctest), then every target
#                                           fuzzed from a fixed seed, COMMSIM_FUZZ_BUDGET seconds
#                                           (default 60) shared by all targets, 2 at a time
#
# Inputs that reach new code are kept in build-fuzz/corpus/TARGET/ between runs; findings (crash,
# timeout, leak, out-of-memory, sanitizer report) are written to build-fuzz/artifacts/TARGET-*.
# The repository corpus of a target is <module>/fuzz_corpus/TARGET/ beside its driver: seeds plus
# one regression file per fixed finding; CTest (fuzz_corpus.TARGET) runs every file in it.
#
# A finding, step by step (F = build-fuzz/fuzz/TARGET_fuzz, A = the artifact file):
#   reproduce   F A                      (prints the sanitizer report or the exception text)
#   minimise    F -minimize_crash=1 -max_total_time=60 -exact_artifact_path=/tmp/min A
#   keep        cp /tmp/min <module>/fuzz_corpus/TARGET/regress-<what-it-catches>
#   then fix the code until `F <module>/fuzz_corpus/TARGET/regress-...` passes, and commit both.
# To fold a long run's new coverage into the repository corpus (keeps it small):
#   F -merge=1 <module>/fuzz_corpus/TARGET build-fuzz/corpus/TARGET
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/lib.sh"
build="${COMMSIM_FUZZ_BUILD_DIR:-$root/build-fuzz}"
jobs="$(nproc 2>/dev/null || echo 2)"
# Per input: 25 s (sanitizers, two shared cores) and 2.5 GB; larger inputs are cut by the drivers.
fuzz_flags=(-timeout=25 -rss_limit_mb=2560 -max_len=16384 -print_final_stats=1)

configure_and_build() {
  CXX=clang++ cmake_build "$root" "$build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS_RELEASE=-O1 -DCOMMSIM_FUZZ=ON -DCOMMSIM_BUILD_BENCH=OFF
}

targets() {
  for f in "$build"/fuzz/*_fuzz; do
    [[ -x "$f" ]] && basename "$f" _fuzz
  done
}

# The repository corpus of a target: <module>/fuzz_corpus/<target>, found from its driver.
repo_corpus() {
  local driver
  driver="$(cd "$root" && find algorithms analysis app base compression models scenarios sim -name "$1_fuzz.cc" | head -1)"
  [[ -n "$driver" ]] || { echo "fuzz.sh: no driver $1_fuzz.cc" >&2; exit 1; }
  echo "$root/${driver%%/*}/fuzz_corpus/$1"
}

# fuzz TARGET SECONDS [extra libFuzzer flags]: work corpus first (new inputs go there), then the
# repository corpus (read only).
fuzz() {
  local target="$1" seconds="$2"
  shift 2
  mkdir -p "$build/corpus/$target" "$build/artifacts"
  "$build/fuzz/${target}_fuzz" "${fuzz_flags[@]}" -max_total_time="$seconds" \
    -artifact_prefix="$build/artifacts/$target-" "$@" \
    "$build/corpus/$target" "$(repo_corpus "$target")"
}

ci() {
  configure_and_build
  echo "sanitizers: unit tests and fuzz corpora (ctest in ${build#"$root"/})"
  local tests_failed=0
  (cd "$build" && ASAN_OPTIONS=abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --output-on-failure -j "$jobs") || tests_failed=1
  local list=() budget="${COMMSIM_FUZZ_BUDGET:-60}"
  mapfile -t list < <(targets)
  local lanes=$((jobs < 2 ? 1 : 2))
  local per=$((budget * lanes / ${#list[@]}))
  echo "fuzzing ${#list[@]} targets, ${per} s each, ${lanes} at a time, seed 1"
  rm -rf "$build/ci"
  mkdir -p "$build/ci"
  local lane pids=()
  for ((lane = 0; lane < lanes; ++lane)); do
    (
      failed=0
      for ((i = lane; i < ${#list[@]}; i += lanes)); do
        t="${list[$i]}"
        mkdir -p "$build/ci/corpus-$t"
        if "$build/fuzz/${t}_fuzz" "${fuzz_flags[@]}" -seed=1 -max_total_time="$per" \
            -artifact_prefix="$build/ci/$t-" "$build/ci/corpus-$t" "$(repo_corpus "$t")" \
            >"$build/ci/$t.log" 2>&1; then
          echo "  $t: $(grep -o 'stat::number_of_executed_units: [0-9]*' "$build/ci/$t.log" | \
            awk '{print $2}') inputs, no finding"
        else
          echo "fuzz target $t: FINDING (log: $build/ci/$t.log)" >&2
          grep -v -E '^#[0-9]+|^INFO:|NEW_FUNC|^stat::' "$build/ci/$t.log" | tail -40 >&2
          failed=1
        fi
      done
      exit "$failed"
    ) &
    pids+=($!)
  done
  local failed="$tests_failed"
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  return "$failed"
}

case "${1:-all}" in
  --ci) ci ;;
  --list) configure_and_build && targets ;;
  -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' ;;
  *)
    configure_and_build
    seconds="${2:-600}"
    if [[ "${1:-all}" == all ]]; then
      for t in $(targets); do fuzz "$t" "$seconds"; done
    else
      [[ -x "$build/fuzz/$1_fuzz" ]] || { echo "fuzz.sh: unknown target $1 (see --list)" >&2; exit 1; }
      fuzz "$1" "$seconds"
    fi
    ;;
esac
