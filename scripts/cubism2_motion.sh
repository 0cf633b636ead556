#!/usr/bin/env bash
# Cubism 2 motions as p2lrt plays them against the Cubism 2.1 runtime (web/test/cubism2_motion.mjs):
# every motion of each model.json at 60 Hz with its hair physics and pose, then each expression
# over the first idle motion; every parameter and every pose part at every frame. Fetches
# live2d.min.js, the official Cubism 2 framework (npm live2d-widget) and, with no models named,
# the npm widget packages into the cache; builds
# build/'s p2l_motion_trace unless --trace names one.
#   scripts/cubism2_motion.sh [--check] [--json OUT] [--markdown] [--trace P2L_MOTION_TRACE] [MODEL.model.json | FOLDER]...
# --markdown: a table row per model.json at the end (docs/IMPORT.md's tables).
# --check (ctest cubism2_motion_vs_runtime): exits 1 when a motion is off by more than 1e-3 of
# a parameter's range outside the listed ties; 77 (skipped) when the packages cannot be fetched.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${P2L_BUILD:-build}
CACHE=${P2L_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/p2lrt}
options=() models=() trace="" check=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --json) options+=("$1" "$2"); shift 2 ;;
    --check) options+=("$1"); check=1; shift ;;
    --markdown) options+=("$1"); shift ;;
    --trace) trace=$2; shift 2 ;;
    *) if [[ -d $1 ]]; then mapfile -t -O "${#models[@]}" models < <(find "$1" \( -name '*.model.json' -o -name model.json \) | sort); else models+=("$1"); fi; shift ;;
  esac
done
unfetched=3
((check)) && unfetched=77
scripts/npm_fetch.sh live2dcubismcore 1.0.2 live2d.min.js > /dev/null || exit $unfetched
# The official Cubism 2 framework's source, as the live2d-widget package (npm) carries it: its
# pose and expressions are the truth for p2lrt's (run at test time, never copied).
framework=$(scripts/npm_fetch.sh live2d-widget 3.1.4 src/lib/_Live2DFramework.official.js) || exit $unfetched
options+=(--framework "$framework/package/src/lib/_Live2DFramework.official.js" --expressions)
if [[ ${#models[@]} -eq 0 ]]; then
  scripts/cubism2_models.sh > /dev/null || { echo "cubism2_motion: the npm models could not be fetched" >&2; exit $unfetched; }
  mapfile -t models < <(find "$CACHE" -path '*live2d-widget-model-*' -name '*.model.json' | sort)
fi
if [[ -z $trace ]]; then
  cmake --build "$BUILD" --target p2l_motion_trace > /dev/null
  trace=$BUILD/tests/cubism_motion/p2l_motion_trace
fi
exec node web/test/cubism2_motion.mjs "$CACHE/live2dcubismcore-1.0.2/package/live2d.min.js" "$trace" "${options[@]}" "${models[@]}"
