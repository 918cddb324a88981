#!/usr/bin/env bash
# Checks that every C++ source of the repository is formatted as .clang-format says (Google style,
# 100 columns). Registered as the ctest `clang_format`, so ./test.sh fails on a difference.
#   scripts/format_check.sh          list the files that differ (exit 1), or exit 0
#   clang-format -i FILE ...         reformat them
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
if ! command -v clang-format >/dev/null 2>&1; then
  echo "format_check: clang-format is not installed (scripts/bootstrap.sh installs it)" >&2
  exit 1
fi
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.cc' '*.h')
else
  mapfile -t files < <(find algorithms analysis app base bench compression models mpi python records scenarios sim \
    -name '*.cc' -o -name '*.h' | sort)
fi
# One clang-format for every file; each difference is reported as "FILE:LINE:COL: error: ...".
mapfile -t differ < <(clang-format --dry-run -Werror "${files[@]}" 2>&1 |
  sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: .*/\1/p' | sort -u)
if ((${#differ[@]} > 0)); then
  echo "format_check: ${#differ[@]} file(s) differ from .clang-format; fix with:" >&2
  printf '  clang-format -i %s\n' "${differ[@]}" >&2
  exit 1
fi
echo "format_check: ${#files[@]} files formatted"
