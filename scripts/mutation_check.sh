#!/usr/bin/env bash
# Mutation check: do the fast tests catch small, realistic bugs?
#
# Plants each mutant of scripts/mutants.txt (one at a time) in a private copy of the source tree,
# rebuilds it incrementally, runs the fast tests (those `ctest -LE slow` runs; the mutated module's
# own first, stopping at the first failure) and reports every mutant as
#   killed     a fast test failed (or timed out)
#   SURVIVED   every fast test passed: add a test, or mark the mutant equivalent with a reason
#   no-build   the mutant did not compile (counted as killed, listed apart: fix the mutant)
#   stale      its `find` text is no longer in the file (the code moved on: update the mutant)
#   equivalent marked in the list as unable to change behaviour (not counted)
# then the score: killed / (killed + survived + no-build).
#
# The user's tree and build/ are never touched: the copy lives in build-mutation/src and builds
# into build-mutation/src/build (Release, ccache, no benchmarks); each run first brings the copy up to
# date with the working tree (committed or not), so an interrupted run leaves nothing behind that
# the next run does not undo. The first run builds everything once; later runs rebuild only what
# changed.
#
# Usage: scripts/mutation_check.sh [--only ID[,ID...]] [--list]
#   COMMSIM_MUTATION_DIR   work folder (default <repo>/build-mutation)
#   COMMSIM_MUTATION_JOBS  build and test jobs (default: nproc)
#   COMMSIM_MUTATION_TIMEOUT_S  time limit of one test binary's fast tests (default 180)
# Run it niced on a shared machine: `nice scripts/mutation_check.sh`. Exit status 0 when every
# mutant is killed or equivalent, 1 when some survived or did not build, 2 on a setup failure.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${COMMSIM_MUTATION_DIR:-$root/build-mutation}"
jobs="${COMMSIM_MUTATION_JOBS:-$(nproc 2>/dev/null || echo 2)}"
test_timeout="${COMMSIM_MUTATION_TIMEOUT_S:-180}"
list="$root/scripts/mutants.txt"
src="$work/src"
build="$src/build"  # the same layout as <repo>/build, so ccache hits across the two
log="$work/mutation.log"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(dirname "$root")}"

only=""
list_only=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --only) only="$2"; shift 2 ;;
    --list) list_only=1; shift ;;
    *) echo "usage: $0 [--only ID[,ID...]] [--list]" >&2; exit 2 ;;
  esac
done

# The mutant list as tab-separated lines: id, file, area, equivalent-reason (checked by the helper).
mutant_tool() { python3 "$root/scripts/mutant_tool.py" "$list" "$@"; }

if [[ $list_only == 1 ]]; then
  mutant_tool list | awk -F'\t' '{printf "%-45s %s\n", $1, $3}'
  exit 0
fi

mkdir -p "$src"
: >"$log"
start_s=$(date +%s)

# ---- bring the private copy up to date with the working tree (restores any planted mutant)
sync_copy() {
  local f
  (cd "$root" && git ls-files -co --exclude-standard -z) >"$work/files.list"
  while IFS= read -r -d '' f; do
    [[ -f "$root/$f" ]] || continue
    if ! cmp -s "$root/$f" "$src/$f" 2>/dev/null; then
      mkdir -p "$(dirname "$src/$f")"
      cp "$root/$f" "$src/$f"
    fi
  done <"$work/files.list"
  # Files gone from the working tree go from the copy too (its data/ and build/ are its own).
  (cd "$src" && find . \( -path ./data -o -path ./build \) -prune -o -type f -print0) | while IFS= read -r -d '' f; do
    f="${f#./}"
    grep -qzxF -- "$f" "$work/files.list" || rm -f "$src/$f"
  done
  if [[ ! -d "$src/data" && -d "$root/data" ]]; then cp -r "$root/data" "$src/data"; fi
}
sync_copy

if [[ ! -f "$build/build.ninja" ]]; then
  launcher=()
  command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOMMSIM_BUILD_BENCH=OFF \
    "${launcher[@]}" >>"$log" 2>&1 || { echo "configure failed: see $log" >&2; exit 2; }
fi

build_all() { cmake --build "$build" -j "$jobs" "$@" >>"$log" 2>&1; }

# The fast suite, run binary by binary (one process per test binary, as `ctest -LE slow` selects
# tests but without a process per test): each binary with a filter leaving out the tests CTest
# labels slow. Prints the first failing test ("" when all pass); the module's binary goes first.
binaries=(base compression sim algorithms models analysis scenarios app)
slow_filter() {
  ctest --test-dir "$build" -N -L slow | sed -nE 's/^ *Test +#[0-9]+: ([^ ]+).*/\1/p' | paste -sd: -
}
# With a module, only that module's binary is built before its tests run (most mutants die there);
# the rest is built when they pass.
run_fast_tests() {
  local first="$1" module out status order=()
  [[ -n "$first" ]] && order=("$first")
  for module in "${binaries[@]}"; do [[ "$module" != "$first" ]] && order+=("$module"); done
  for module in "${order[@]}"; do
    local targets=("${module}_tests")
    [[ "$module" == app ]] && targets+=(commsim)  # the app tests run the program
    if [[ -n "$first" ]] && ! build_all --target "${targets[@]}"; then
      echo "no-build"
      return
    fi
    out="$(cd "$src" && timeout "$test_timeout" "$build/$module/${module}_tests" \
      --gtest_filter="-$slow" --gtest_fail_fast --gtest_brief=1 2>&1)" && status=0 || status=$?
    echo "$out" >>"$log"
    if [[ $status -ne 0 ]]; then
      local name
      name="$(grep -m1 -oE '^\[  FAILED  \] [^ ]+' <<<"$out" | awk '{print $4}' || true)"
      if [[ $status -eq 124 ]]; then name="${module}_tests timed out after ${test_timeout} s"; fi
      echo "${name:-${module}_tests exit status $status}"
      return
    fi
  done
}

echo "mutation check: building the unmutated copy in $build" | tee -a "$log"
build_all || { echo "the unmutated tree does not build: see $log" >&2; exit 2; }
slow="$(slow_filter)"
baseline="$(run_fast_tests "")"
if [[ -n "$baseline" ]]; then
  echo "the fast tests fail without any mutant ($baseline): fix that first; see $log" >&2
  exit 2
fi
echo "baseline: fast tests pass ($(($(date +%s) - start_s)) s so far)" | tee -a "$log"

killed=0; survived=0; nobuild=0; stale=0; equivalent=0
survivors=()
current=""
restore() { if [[ -n "$current" ]]; then cp "$root/$current" "$src/$current"; current=""; fi; }
trap restore EXIT
trap 'restore; exit 130' INT TERM

while IFS=$'\t' read -r id file area equiv; do
  if [[ -n "$only" && ",$only," != *",$id,"* ]]; then continue; fi
  t0=$(date +%s)
  if ! mutant_tool apply "$id" "$src" >>"$log" 2>&1; then
    stale=$((stale + 1))
    printf '%-10s %-45s %s\n' stale "$id" "$file" | tee -a "$log"
    continue
  fi
  current="$file"
  echo "---- $id ($file)" >>"$log"
  module="${file%%/*}"
  killer="$(run_fast_tests "$module")"
  restore
  if [[ "$killer" == no-build ]]; then
    nobuild=$((nobuild + 1))
    printf '%-10s %-45s %s\n' no-build "$id" "$file" | tee -a "$log"
    continue
  fi
  secs=$(($(date +%s) - t0))
  if [[ -n "$equiv" ]]; then
    equivalent=$((equivalent + 1))
    printf '%-10s %-45s %s\n' equivalent "$id" "$equiv" | tee -a "$log"
  elif [[ -n "$killer" ]]; then
    killed=$((killed + 1))
    printf '%-10s %-45s by %s (%d s)\n' killed "$id" "$killer" "$secs" | tee -a "$log"
  else
    survived=$((survived + 1))
    survivors+=("$id: $area")
    printf '%-10s %-45s %s (%d s)\n' SURVIVED "$id" "$area" "$secs" | tee -a "$log"
  fi
done < <(mutant_tool list)
build_all || true  # leave the copy's build matching the unmutated tree

counted=$((killed + survived + nobuild))
total_s=$(($(date +%s) - start_s))
{
  echo
  echo "mutants: $((counted + stale + equivalent)) ($killed killed, $survived survived," \
    "$nobuild did not build, $equivalent equivalent, $stale stale)"
  if [[ $counted -gt 0 ]]; then
    awk -v k=$((killed + nobuild)) -v n=$counted 'BEGIN { printf "score: %.1f%% (%d of %d)\n", 100 * k / n, k, n }'
  fi
  for s in "${survivors[@]}"; do echo "  survived: $s"; done
  echo "wall time: ${total_s} s; details in $log"
} | tee -a "$log"
[[ $survived -eq 0 && $nobuild -eq 0 ]]
