#!/usr/bin/env bash
# Shows that a real client, unchanged, works with a replacement Cubism Core: pixi-live2d-display
# 0.4.0 (its cubism4 bundle holds Cubism's Web Framework) on pixi.js 6.5.10 drives npm's Haru
# over the official Core 4.2.2 and over CORE_JS, in node frame by frame (pixi_frames.mjs: motions,
# physics, pose, expressions, eye blink, breath for 10 s at 60 Hz; compared by compare_frames.mjs)
# and in headless Chromium as pictures (pixi_pictures.sh).
#   tests/dropin/run.sh CORE_JS [OUTDIR] [--no-pictures]
# OUTDIR: default ~/.cache/p2lrt/dropin-run (outside the repository: the recordings and pictures
# are derived from Haru). Environment: FRAMES_OPTIONS (pixi_frames.mjs, e.g. "--seconds 10 --fps
# 60 --seed 1"), COMPARE_OPTIONS (compare_frames.mjs, e.g. "--vertex-tol 1e-5 --param-tol 1e-5
# --opacity-tol 1e-5"), SCREENSHOT_OPTIONS (pixi_screenshot.mjs, e.g. "--frames 270 --size
# 512x768"), DIFF_OPTIONS (diff_pictures.mjs), CHROMIUM (default /usr/bin/chromium).
# Exit status: 0 both checks pass, 1 one fails, 2 bad arguments, 77 node, npm, Chromium or a
# package cannot be had (nothing run).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pictures=1 args=()
for a in "$@"; do
  if [[ $a == --no-pictures ]]; then pictures=0; else args+=("$a"); fi
done
if [[ ${#args[@]} -lt 1 || ${#args[@]} -gt 2 ]]; then
  echo "usage: tests/dropin/run.sh CORE_JS [OUTDIR] [--no-pictures]" >&2
  exit 2
fi
if [[ ! -f ${args[0]} ]]; then echo "dropin: no Core file ${args[0]}" >&2; exit 2; fi
candidate=$(realpath "${args[0]}")
out=${args[1]:-${P2L_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/p2lrt}/dropin-run}
started=$EPOCHREALTIME
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f s", b - a }'; }

if (( pictures )); then fetched=$("$here/fetch.sh" --browser); else fetched=$("$here/fetch.sh"); fi
status=$?
(( status == 0 )) || exit $status
eval "$fetched"
mkdir -p "$out"
echo "dropin: official Core $OFFICIAL_CORE; candidate $candidate; output in $out"

packages=(--model "$MODEL" --pixi "$PIXI_DIR" --display "$DISPLAY_DIR")
frames_status=0
# shellcheck disable=SC2086
for which in official candidate; do
  core=$OFFICIAL_CORE
  [[ $which == candidate ]] && core=$candidate
  t=$EPOCHREALTIME
  if ! node "$here/pixi_frames.mjs" "$core" "$out/$which.bin" "${packages[@]}" ${FRAMES_OPTIONS:-} > "$out/$which.log" 2>&1; then
    echo "dropin: FAIL: pixi_frames.mjs on the $which Core ($core):" >&2
    tail -15 "$out/$which.log" >&2
    frames_status=1
  else
    grep '^pixi_frames: [0-9]* frames' "$out/$which.log"
  fi
  echo "dropin: $which recording: $(since "$t")"
done
if (( frames_status == 0 )); then
  # shellcheck disable=SC2086
  node "$here/compare_frames.mjs" "$out/official.bin" "$out/candidate.bin" --json "$out/compare.json" ${COMPARE_OPTIONS:-} || frames_status=1
fi

pictures_status=0
if (( pictures )); then
  t=$EPOCHREALTIME
  # shellcheck disable=SC2086
  "$here/pixi_pictures.sh" "$OFFICIAL_CORE" "$candidate" "$out/pictures" ${SCREENSHOT_OPTIONS:-} | grep -v '^pixi_screenshot: frame ' || pictures_status=1
  echo "dropin: pictures: $(since "$t")"
else
  echo "dropin: pictures skipped (--no-pictures)"
fi

verdict() { if (( $1 )); then echo FAIL; else echo PASS; fi; }
if (( pictures )); then pictures_verdict=$(verdict $pictures_status); else pictures_verdict=skipped; fi
echo "dropin: frames $(verdict $frames_status), pictures $pictures_verdict; $(since "$started") in all"
(( frames_status == 0 && pictures_status == 0 ))
