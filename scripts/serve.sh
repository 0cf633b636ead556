#!/usr/bin/env bash
# Serves the player page (web/index.html) on http://127.0.0.1:PORT/ with the bundled example
# character. The site is staged in build-wasm/site/: links to web/index.html, web/player/ and
# web/p2l.js (edits show on reload), a copy of build-wasm/p2l.wasm (so that a relink of the
# module does not break a page being served), and examples/character/character.p2lrt.
# Builds the module first when it is missing (scripts/wasm.sh).
#   scripts/serve.sh [PORT]          default port 8765
#   scripts/serve.sh --stage-only    stages the site and exits (scripts/browser_test.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SITE=build-wasm/site

stage_only=false
PORT=8765
if [[ "${1:-}" == "--stage-only" ]]; then
  stage_only=true
elif [[ -n "${1:-}" ]]; then
  PORT=$1
fi

if [[ ! -f build-wasm/p2l.wasm ]]; then
  echo "serve: build-wasm/p2l.wasm is missing; building it (scripts/wasm.sh)"
  bash scripts/wasm.sh
fi

mkdir -p "$SITE"
for item in index.html player p2l.js p2l.d.ts voice.js; do
  ln -sfn "$ROOT/web/$item" "$SITE/$item"
done
ln -sfn "$ROOT/examples/character/character.p2lrt" "$SITE/character.p2lrt"
# Copied through a temporary name: the copy in the site is always a whole module.
cp build-wasm/p2l.wasm "$SITE/.p2l.wasm.partial"
mv -f "$SITE/.p2l.wasm.partial" "$SITE/p2l.wasm"

if $stage_only; then
  echo "$SITE"
  exit 0
fi
echo "serve: http://127.0.0.1:$PORT/ (the site is $SITE; ?rig=URL loads another rig)"
cd "$SITE"
# python3's http.server sends .wasm as application/wasm and .js as text/javascript (the
# module script and WebAssembly.compile need those types); .p2lrt goes as octet-stream.
exec python3 -m http.server --bind 127.0.0.1 "$PORT"
