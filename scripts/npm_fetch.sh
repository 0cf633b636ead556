#!/usr/bin/env bash
# Fetches one npm package into the cache OUTSIDE the repository (once) and prints its folder.
# Used for what tests need but the repository must never contain (the Cubism Core and its
# Haru model, Cubism's Web Framework): see the scripts that call it for each licence.
# npm verifies the tarball against the registry's integrity hash.
#   scripts/npm_fetch.sh PACKAGE VERSION FILE   FILE: a path inside the package that shows
#                                               the fetch is complete
set -euo pipefail
PACKAGE=$1 VERSION=$2 CHECK=$3
CACHE=${P2L_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/p2lrt}
DEST="$CACHE/$PACKAGE-$VERSION"
if [[ ! -f "$DEST/package/$CHECK" ]]; then
  if ! command -v npm > /dev/null; then
    echo "npm_fetch: npm is not installed (Debian: apt-get install npm)" >&2
    exit 3
  fi
  rm -rf "$DEST.partial" && mkdir -p "$DEST.partial"
  if ! (cd "$DEST.partial" && npm pack "$PACKAGE@$VERSION" --silent > /dev/null 2> npm.log); then
    echo "npm_fetch: npm could not fetch $PACKAGE@$VERSION (registry unreachable?):" >&2
    tail -3 "$DEST.partial/npm.log" >&2
    exit 3
  fi
  tar -xzf "$DEST.partial/$PACKAGE-$VERSION.tgz" -C "$DEST.partial"
  rm -rf "$DEST" && mv "$DEST.partial" "$DEST"
fi
echo "$DEST"
