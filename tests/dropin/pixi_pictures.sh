#!/usr/bin/env bash
# Two Cores under the same unchanged client in a real browser: pixi_screenshot.mjs draws Haru
# with pixi.js + pixi-live2d-display over CORE_A and over CORE_B (headless Chromium, WebGL through
# SwiftShader, playwright-core), then diff_pictures.mjs compares the two pictures per pixel
# (mean, 99th percentile and maximum of the per-channel absolute differences) and writes
# OUTDIR/diff.png and OUTDIR/side_by_side.png (A | B | difference).
#   tests/dropin/pixi_pictures.sh CORE_A CORE_B OUTDIR [pixi_screenshot options, e.g. --frames 270 --size 512x768]
# DIFF_OPTIONS (environment): diff_pictures.mjs's limits, e.g. "--max-mean 0.05 --max-p99 1 --max 255".
# Exit status: diff_pictures.mjs's (0 within the limits, 1 beyond), 77 when node, npm, Chromium or
# a package is missing, another non-zero when a page fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [[ $# -lt 3 ]]; then
  echo "usage: tests/dropin/pixi_pictures.sh CORE_A CORE_B OUTDIR [pixi_screenshot options]" >&2
  exit 2
fi
core_a=$(realpath "$1") core_b=$(realpath "$2") out=$3
shift 3
status=0
fetched=$("$here/fetch.sh" --browser) || { status=$?; exit $status; }
eval "$fetched"
mkdir -p "$out"
common=(--model "$MODEL" --pixi "$PIXI_DIR" --display "$DISPLAY_DIR" --playwright "$PLAYWRIGHT_DIR" --chromium "$CHROMIUM" "$@")
node "$here/pixi_screenshot.mjs" "$core_a" "$out/a.png" "${common[@]}"
node "$here/pixi_screenshot.mjs" "$core_b" "$out/b.png" "${common[@]}"
# shellcheck disable=SC2086
node "$here/diff_pictures.mjs" "$out/a.png" "$out/b.png" "$out" ${DIFF_OPTIONS:-}
