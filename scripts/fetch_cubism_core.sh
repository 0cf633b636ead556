#!/usr/bin/env bash
# Fetches the official Cubism Core 4.2.2 (npm live2dcubismcore@1.0.2: the Core as JavaScript
# and the Haru sample model) into a cache OUTSIDE the repository and prints its folder.
# Its licences (Live2D Proprietary Software License, Free Material License) forbid shipping
# it: nothing it contains, and nothing derived from the model, may enter the repository.
# npm verifies the tarball against the registry's integrity hash.
#   scripts/fetch_cubism_core.sh    -> prints e.g. /root/.cache/p2lrt/live2dcubismcore-1.0.2
set -euo pipefail
VERSION=1.0.2
CACHE=${P2L_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/p2lrt}
DEST="$CACHE/live2dcubismcore-$VERSION"
if [[ ! -f "$DEST/package/live2dcubismcore.min.js" ]]; then
  if ! command -v npm > /dev/null; then
    echo "fetch_cubism_core: npm is not installed (Debian: apt-get install npm)" >&2
    exit 3
  fi
  rm -rf "$DEST.partial" && mkdir -p "$DEST.partial"
  if ! (cd "$DEST.partial" && npm pack "live2dcubismcore@$VERSION" --silent > /dev/null 2> npm.log); then
    echo "fetch_cubism_core: npm could not fetch live2dcubismcore@$VERSION (registry unreachable?):" >&2
    tail -3 "$DEST.partial/npm.log" >&2
    exit 3
  fi
  tar -xzf "$DEST.partial/live2dcubismcore-$VERSION.tgz" -C "$DEST.partial"
  rm -rf "$DEST" && mv "$DEST.partial" "$DEST"
fi
echo "$DEST"
