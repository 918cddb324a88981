#!/usr/bin/env bash
# Regenerates the example plots under docs/: mean time per iteration vs bandwidth (the ResNet-18-size
# bandwidth sweep), loss vs wire bits (the DORE convex scenario) and a screenshot of the quickstart's
# report.html. Resumes an interrupted sweep.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
./commsim sweep scenarios/bandwidth_sweep.json --out results/bandwidth_sweep
./commsim run scenarios/dore_convex.json --out results/dore_convex
for ext in png svg; do
  cp results/bandwidth_sweep/plots/time_per_iteration.$ext docs/time_per_iteration_vs_bandwidth.$ext
  cp results/dore_convex/plots/loss_vs_bits.$ext docs/loss_vs_bits.$ext
done
# A screenshot of the quickstart's report.html (headless Chromium, as in the browser test).
./commsim run scenarios/quickstart.json --out results/quickstart
./commsim report results/quickstart
profile="$(mktemp -d)"
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$profile" --hide-scrollbars --window-size=1100,1400 \
  --screenshot="$root/docs/report_screenshot.png" "file://$root/results/quickstart/report.html"
rm -rf "$profile"
echo "docs/: time_per_iteration_vs_bandwidth.{png,svg}, loss_vs_bits.{png,svg}, report_screenshot.png"
