#!/usr/bin/env bash
# Fetches the official Cubism Core 4.2.2 (npm live2dcubismcore@1.0.2: the Core as JavaScript
# and the Haru sample model) into a cache OUTSIDE the repository and prints its folder.
# Its licences (Live2D Proprietary Software License, Free Material License) forbid shipping
# it: nothing it contains, and nothing derived from the model, may enter the repository.
#   scripts/fetch_cubism_core.sh    -> prints e.g. /root/.cache/p2lrt/live2dcubismcore-1.0.2
set -euo pipefail
exec "$(dirname "$0")/npm_fetch.sh" live2dcubismcore 1.0.2 live2dcubismcore.min.js
