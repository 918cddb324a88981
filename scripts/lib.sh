# Shell functions shared by the scripts (sourced, not run): scripts/bootstrap.sh, build.sh,
# fuzz.sh and bench/validation/build.sh.

# install_missing WHO PACKAGE...: apt-installs the Debian packages that are not installed yet
# (quietly, through sudo unless root); WHO names the caller in the one line it prints.
install_missing() {
  local who="$1" p
  shift
  local missing=()
  for p in "$@"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  echo "$who: installing ${missing[*]}" >&2
  local sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
}

# cmake_build SOURCE BUILD [CMAKE_ARG...]: configures BUILD from SOURCE once (Ninja, ccache when
# installed, the CMAKE_ARGs; the log in BUILD.configure.log), then builds it on every core.
# Quiet unless something fails: then prints the errors and exits 1. Two calls on one BUILD (e.g.
# two scripts/fuzz.sh at once) take turns on BUILD.lock instead of building the tree together.
cmake_build() {
  local source="$1" build="$2" lock_fd
  shift 2
  exec {lock_fd}>"$build.lock"
  flock "$lock_fd"
  if [[ ! -f "$build/build.ninja" ]]; then
    local launcher=()
    command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    cmake -S "$source" -B "$build" -G Ninja "${launcher[@]}" "$@" >"$build.configure.log" 2>&1 \
      || { cat "$build.configure.log" >&2; exit 1; }
  fi
  local log
  log="$(mktemp)"
  if ! cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" >"$log" 2>&1; then
    grep -v '^\[' "$log" | head -200 >&2
    rm -f "$log"
    exit 1
  fi
  rm -f "$log"
  exec {lock_fd}>&-
}
