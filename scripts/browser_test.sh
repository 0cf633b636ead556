#!/usr/bin/env bash
# The player page in a real browser: Debian's Chromium (headless, WebGL2 through SwiftShader)
# driven by playwright-core from npm, checked against the native software renderer
# (web/test/browser.mjs says what is checked and with which tolerance). Steps: Chromium
# (scripts/setup.sh --browser), the WebAssembly module (scripts/wasm.sh), the native p2lrt tool
# (from P2L_NATIVE_BUILD, else a Release build in build-browser/), playwright-core 1.65.1 into
# the cache outside the repository (sha256 pinned), the site staged (scripts/serve.sh
# --stage-only), Haru imported from the official Cubism sample when npm can fetch it (into
# build-browser/, never the repository), then the server started, the test run and the server
# stopped.
#   scripts/browser_test.sh            artefacts (both renderers' images, differences) in build-browser/browser-test/
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

bash scripts/setup.sh --browser
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}

# The module, built or brought up to date.
bash scripts/wasm.sh > /dev/null

# The native p2lrt tool: from a build directory the caller names (P2L_NATIVE_BUILD, e.g. the
# test suite's build-test), else a Release build of its own in build-browser/.
mkdir -p build-browser
native=${P2L_NATIVE_BUILD:-build-browser}
if [[ -z "${P2L_NATIVE_BUILD:-}" ]]; then
  GENERATOR=()
  command -v ninja > /dev/null && GENERATOR=(-G Ninja)
  cmake -S . -B build-browser "${GENERATOR[@]}" -DCMAKE_BUILD_TYPE=Release > /dev/null
fi
cmake --build "$native" --target p2lrt -j 2 | grep -v "^ninja: no work to do" || true
P2LRT=$native/p2lrt
[[ -x "$P2LRT" ]] || { echo "browser_test: $P2LRT did not build" >&2; exit 1; }

# playwright-core (Apache-2.0): the browser driver alone, no browsers of its own.
PLAYWRIGHT_VERSION=1.65.1
PLAYWRIGHT_SHA256=6f5a60be62a4fddfbe7d10c448d8fbd54547da3358f2f8a04211440471ee863e
PLAYWRIGHT=$(scripts/npm_fetch.sh playwright-core "$PLAYWRIGHT_VERSION" index.mjs)
if ! echo "$PLAYWRIGHT_SHA256  $PLAYWRIGHT/playwright-core-$PLAYWRIGHT_VERSION.tgz" | sha256sum --check --status; then
  echo "browser_test: $PLAYWRIGHT/playwright-core-$PLAYWRIGHT_VERSION.tgz does not have the expected sha256 $PLAYWRIGHT_SHA256" >&2
  exit 1
fi

SITE=$(bash scripts/serve.sh --stage-only)

# Haru (Live2D's licences: never in the repository, nothing derived from it either).
HARU=()
rm -f "$SITE/haru.p2lrt"
if CORE=$(bash scripts/fetch_cubism_core.sh 2> build-browser/cubism-fetch.log); then
  MODEL=$CORE/package/characters/haru_greeter_pro_jp/runtime/haru_greeter_t03.model3.json
  if "$P2LRT" import "$MODEL" -o build-browser/haru.p2lrt > build-browser/haru-import.log 2>&1; then
    ln -sfn "$PWD/build-browser/haru.p2lrt" "$SITE/haru.p2lrt"
    HARU=(--haru haru.p2lrt)
  else
    echo "browser_test: the import of Haru failed (build-browser/haru-import.log):" >&2
    tail -3 build-browser/haru-import.log >&2
    exit 1
  fi
else
  echo "browser_test: SKIPPED (e) Haru: the Cubism Core package could not be fetched:"
  sed 's/^/  /' build-browser/cubism-fetch.log
fi

# The server, on a free port, stopped however the test ends.
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 --directory "$SITE" "$PORT" > build-browser/server.log 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2> /dev/null || true' EXIT
type=""
for _ in $(seq 1 50); do
  type=$(node -e "fetch('http://127.0.0.1:$PORT/p2l.wasm').then((r) => console.log(r.ok ? r.headers.get('content-type') : ''), () => {})")
  [[ -n "$type" ]] && break
  sleep 0.2
done
if [[ "$type" != "application/wasm" ]]; then
  echo "browser_test: the server sends p2l.wasm as \"$type\", not application/wasm" >&2
  exit 1
fi

status=0
node web/test/browser.mjs --url "http://127.0.0.1:$PORT/" --site "$SITE" --p2lrt "$P2LRT" \
  --playwright "$PLAYWRIGHT/package" --chromium "$CHROMIUM" --out build-browser/browser-test "${HARU[@]}" || status=$?

# Speech on the player page: an AudioBuffer, an <audio> element and the fake microphone
# (web/test/browser_speech.mjs; it links web/voice.js and the committed WAV into the site).
node web/test/browser_speech.mjs --url "http://127.0.0.1:$PORT/" --site "$SITE" \
  --playwright "$PLAYWRIGHT/package" --chromium "$CHROMIUM" --out build-browser/browser-test || status=$?
# --- p2lrt/pixi, the PixiJS v8 plugin (web/test/pixi.mjs): pixi.js from npm (MIT, sha256 pinned)
# staged as pixi.js/pixi.mjs next to the plugin (web/pixi/), the test page, p2l-import.wasm,
# Haru's Cubism files as they are (when fetched) and the moc3 version 6 fixture v6-all (from
# scripts/wasm.sh --test's fixtures, else made by the native build's p2l_make_moc3).
PIXI_VERSION=8.22.0
PIXI_SHA256=33a0481e8ae3eb33216c4c8db6a43722c04fa8872ca2cfc7878567fced658ca3
PIXI=$(scripts/npm_fetch.sh pixi.js "$PIXI_VERSION" package.json)
if ! echo "$PIXI_SHA256  $PIXI/pixi.js-$PIXI_VERSION.tgz" | sha256sum --check --status; then
  echo "browser_test: $PIXI/pixi.js-$PIXI_VERSION.tgz does not have the expected sha256 $PIXI_SHA256" >&2
  status=1
else
  mkdir -p "$SITE/pixi.js" "$SITE/fixtures"
  cp "$PIXI/package/dist/pixi.mjs" "$SITE/pixi.js/pixi.mjs"
  cp build-wasm/p2l-import.wasm "$SITE/p2l-import.wasm"
  ln -sfn "$PWD/web/pixi" "$SITE/pixi"
  ln -sfn "$PWD/web/test/pixi_page.html" "$SITE/pixi-test.html"
  ln -sfn "$PWD/web/test/pixi_page.js" "$SITE/pixi-test.js"
  ln -sfn "$PWD/tests/audio/data/speech_en.wav" "$SITE/pixi-speech.wav"
  PIXI_ARGS=(--wav pixi-speech.wav)
  if [[ -n "${MODEL:-}" && -f "${MODEL:-}" ]]; then
    ln -sfn "$(dirname "$MODEL")" "$SITE/haru-cubism"
    PIXI_ARGS+=(--haru "haru-cubism/$(basename "$MODEL")")
  fi
  if [[ ! -f build-wasm/fixture-mocs/v6-all.moc3 ]]; then
    cmake --build "$native" --target p2l_make_moc3 -j 2 | grep -v "^ninja: no work to do" || true
    read -r _ seed version features _ < <(grep '^v6-all ' tests/cubism/fixtures/LIST.txt)
    "$native"/tests/cubism/p2l_make_moc3 "$seed" "$SITE/fixtures/v6-all.moc3" --version "$version" --features "$features" > /dev/null
  else
    cp build-wasm/fixture-mocs/v6-all.moc3 "$SITE/fixtures/v6-all.moc3"
  fi
  [[ -f "$SITE/fixtures/v6-all.moc3" ]] && PIXI_ARGS+=(--moc3 fixtures/v6-all.moc3)
  # A Cubism 2 model.json (npm live2d-widget-model-shizuku, fetched, never committed).
  CACHE=${P2L_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/p2lrt}
  if scripts/cubism2_models.sh > /dev/null 2>&1; then
    ln -sfn "$CACHE/live2d-widget-model-shizuku-1.0.5/package/assets" "$SITE/cubism2-shizuku"
    PIXI_ARGS+=(--cubism2 cubism2-shizuku/shizuku.model.json)
  fi
  node web/test/pixi.mjs --url "http://127.0.0.1:$PORT/pixi-test.html" --playwright "$PLAYWRIGHT/package" \
    --chromium "$CHROMIUM" --out build-browser/pixi-test "${PIXI_ARGS[@]}" || status=$?
fi
# --- Cubism 2 (web/test/cubism2_pictures.mjs): npm widget models drawn by p2lrt beside the Cubism 2.1
# runtime drawing them in this Chromium (models and runtime from npm; skipped when not fetched).
if scripts/cubism2_models.sh > /dev/null 2>&1; then
  P2L_BUILD=$native CHROMIUM=$CHROMIUM bash scripts/cubism2_pictures.sh --out build-browser/cubism2-pictures || status=$?
else
  echo "browser_test: the Cubism 2 models could not be fetched: their pictures are skipped" >&2
fi
echo "browser_test: $(($(date +%s) - started)) s in all"
exit $status
