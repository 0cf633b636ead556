#!/usr/bin/env bash
# Cubism 2 models drawn by p2lrt beside the Cubism 2.1 runtime drawing them with WebGL in headless
# Chromium (web/test/cubism2_pictures.mjs): shizuku, Epsilon2.1 (masks), tsumiki and gf (additive
# blends) at their defaults, and z16 with its body outside its keys, unless models are named.
# Pictures into OUT (default build/cubism2-pictures/): NAME.runtime.png, NAME.p2lrt.png and
# NAME.side.png (the runtime left). Development time: Chromium (scripts/setup.sh --browser),
# playwright-core and the npm widget models into the cache; nothing of them enters the repository.
#   scripts/cubism2_pictures.sh [--out DIR] [MODEL.model.json[@{"PARAM":value}]...]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${P2L_BUILD:-build}
CACHE=${P2L_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/p2lrt}
out=build/cubism2-pictures
if [[ ${1:-} == --out ]]; then out=$2; shift 2; fi
bash scripts/setup.sh --browser > /dev/null
cmake --build "$BUILD" --target p2lrt > /dev/null
scripts/npm_fetch.sh live2dcubismcore 1.0.2 live2d.min.js > /dev/null
PLAYWRIGHT=$(scripts/npm_fetch.sh playwright-core 1.65.1 index.mjs)
scripts/cubism2_models.sh > /dev/null
models=("$@")
if [[ ${#models[@]} -eq 0 ]]; then
  m=$CACHE/live2d-widget-model
  models=("$m-shizuku-1.0.5/package/assets/shizuku.model.json" "$m-epsilon2_1-1.0.5/package/assets/Epsilon2.1.model.json"
          "$m-tsumiki-1.0.5/package/assets/tsumiki.model.json" "$m-gf-1.0.5/package/assets/Gantzert_Felixander.model.json"
          "$m-z16-1.0.5/package/assets/z16.model.json@{\"PARAM_BODY_ANGLE_Z\":-10,\"PARAM_ANGLE_X\":20}")
fi
exec node web/test/cubism2_pictures.mjs --runtime "$CACHE/live2dcubismcore-1.0.2/package/live2d.min.js" --p2lrt "$BUILD/p2lrt" \
  --playwright "$PLAYWRIGHT/package" --chromium "${CHROMIUM:-/usr/bin/chromium}" --out "$out" "${models[@]}"
