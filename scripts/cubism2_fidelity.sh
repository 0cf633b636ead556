#!/usr/bin/env bash
# p2lrt's Cubism 2 import against the Cubism 2.1 runtime (web/test/cubism2_geometry.mjs), one
# line a model: the worst vertex difference (a fraction of the canvas width), opacity, draw
# order and visibility over seeded poses. Development time: builds build/'s p2l_moc2_dump,
# fetches live2d.min.js (and, with no arguments, the npm widget models) into the cache.
#   scripts/cubism2_fidelity.sh [--poses N] [--json OUT] [MODEL.moc | FOLDER]...
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${P2L_BUILD:-build}
CACHE=${P2L_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/p2lrt}
cmake --build "$BUILD" --target p2l_moc2_dump > /dev/null
scripts/npm_fetch.sh live2dcubismcore 1.0.2 live2d.min.js > /dev/null
options=() models=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --poses|--json) options+=("$1" "$2"); shift 2 ;;
    *) if [[ -d $1 ]]; then mapfile -t -O "${#models[@]}" models < <(find "$1" -name '*.moc' | sort); else models+=("$1"); fi; shift ;;
  esac
done
if [[ ${#models[@]} -eq 0 ]]; then
  list=$(scripts/cubism2_models.sh) || { echo "cubism2_fidelity: the npm models could not be fetched" >&2; exit 3; }
  mapfile -t models <<< "$list"
fi
exec node web/test/cubism2_geometry.mjs "$CACHE/live2dcubismcore-1.0.2/package/live2d.min.js" "$BUILD/tests/cubism2/p2l_moc2_dump" \
  "${options[@]}" "${models[@]}"
