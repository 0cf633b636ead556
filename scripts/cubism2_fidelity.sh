#!/usr/bin/env bash
# p2lrt's Cubism 2 import against the Cubism 2.1 runtime (web/test/cubism2_geometry.mjs), one
# line a model: the worst vertex difference (a fraction of the canvas width), opacity, draw
# order and visibility over seeded poses. Fetches live2d.min.js (and, with no arguments, the npm
# widget models) into the cache; builds build/'s p2l_moc2_dump unless --dump names one.
#   scripts/cubism2_fidelity.sh [--poses N] [--json OUT] [--check] [--dump P2L_MOC2_DUMP] [MODEL.moc | FOLDER]...
# --check (ctest cubism2_geometry_vs_runtime): exits 1 when a model is off by more than 1e-5 of
# the width or 1e-6 in opacity, or differs in a draw order or in what is drawn; 77 (skipped)
# when the packages cannot be fetched.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${P2L_BUILD:-build}
CACHE=${P2L_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/p2lrt}
options=() models=() dump="" check=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --poses|--json) options+=("$1" "$2"); shift 2 ;;
    --check) options+=("$1"); check=1; shift ;;
    --dump) dump=$2; shift 2 ;;
    *) if [[ -d $1 ]]; then mapfile -t -O "${#models[@]}" models < <(find "$1" -name '*.moc' | sort); else models+=("$1"); fi; shift ;;
  esac
done
unfetched=3
((check)) && unfetched=77
scripts/npm_fetch.sh live2dcubismcore 1.0.2 live2d.min.js > /dev/null || exit $unfetched
if [[ ${#models[@]} -eq 0 ]]; then
  list=$(scripts/cubism2_models.sh) || { echo "cubism2_fidelity: the npm models could not be fetched" >&2; exit $unfetched; }
  mapfile -t models <<< "$list"
fi
if [[ -z $dump ]]; then
  cmake --build "$BUILD" --target p2l_moc2_dump > /dev/null
  dump=$BUILD/tests/cubism2/p2l_moc2_dump
fi
exec node web/test/cubism2_geometry.mjs "$CACHE/live2dcubismcore-1.0.2/package/live2d.min.js" "$dump" \
  "${options[@]}" "${models[@]}"
