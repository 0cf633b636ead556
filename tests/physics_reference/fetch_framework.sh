#!/usr/bin/env bash
# Fetches Cubism's Web Framework as the npm package pixi-live2d-display-lipsyncpatch bundles
# it (dist/cubism4.es.js: CubismPhysics with Fps, input caches, interpolation and
# Stabilization) into a cache OUTSIDE the repository and prints the bundle's path. The
# Framework is under the Live2D Open Software License: nothing of it enters the repository.
#   tests/physics_reference/fetch_framework.sh
#     -> e.g. /root/.cache/p2lrt/pixi-live2d-display-lipsyncpatch-0.5.0-ls-8/package/dist/cubism4.es.js
set -euo pipefail
dest=$("$(dirname "$0")/../../scripts/npm_fetch.sh" pixi-live2d-display-lipsyncpatch 0.5.0-ls-8 dist/cubism4.es.js)
echo "$dest/package/dist/cubism4.es.js"
