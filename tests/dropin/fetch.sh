#!/usr/bin/env bash
# Fetches what the drop-in harness needs into the cache OUTSIDE the repository (scripts/npm_fetch.sh;
# nothing fetched, nor anything derived from the Core, the model or the Framework, may enter the
# repository) and prints it as shell assignments, for run.sh and pixi_pictures.sh to eval:
#   OFFICIAL_CORE  the official Cubism Core 4.2.2 (npm live2dcubismcore@1.0.2, Live2D Proprietary
#                  Software License) and MODEL, its Haru (Free Material License)
#   PIXI_DIR       pixi.js 6.5.10 (MIT)
#   DISPLAY_DIR    pixi-live2d-display 0.4.0 (MIT; its dist/cubism4.js bundles Cubism's Web
#                  Framework, Live2D Open Software License)
#   PLAYWRIGHT_DIR playwright-core 1.65.1 (Apache-2.0), with --browser only
# Each tarball is checked against a pinned sha256 (npm checks the registry's integrity hash too).
#   tests/dropin/fetch.sh [--browser]    exit 77 (with a message on stderr) when node, npm, a
#                                        package or, with --browser, Chromium is missing
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
skip() { echo "dropin: SKIPPED: $*" >&2; exit 77; }
command -v node > /dev/null || skip "node is not installed (Debian: apt-get install nodejs)"
command -v npm > /dev/null || skip "npm is not installed (Debian: apt-get install npm)"
if [[ ${1:-} == --browser ]]; then
  CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
  [[ -x $CHROMIUM ]] || skip "Chromium is not installed at $CHROMIUM (scripts/setup.sh --browser; or set CHROMIUM)"
fi
fetch() {  # NAME VERSION CHECK_FILE SHA256 -> the package folder
  local dir
  dir=$("$root/scripts/npm_fetch.sh" "$1" "$2" "$3" 2> "${TMPDIR:-/tmp}/p2lrt-dropin-fetch.$$") ||
    skip "npm could not fetch $1@$2: $(tail -2 "${TMPDIR:-/tmp}/p2lrt-dropin-fetch.$$" | tr '\n' ' ')"
  rm -f "${TMPDIR:-/tmp}/p2lrt-dropin-fetch.$$"
  if ! echo "$4  $dir/$1-$2.tgz" | sha256sum --check --status; then
    echo "dropin: $dir/$1-$2.tgz does not have the expected sha256 $4" >&2
    exit 1
  fi
  echo "$dir/package"
}
out() { printf '%s=%q\n' "$1" "$2"; }
core=$(fetch live2dcubismcore 1.0.2 live2dcubismcore.min.js 72371443775d19e135e5c8d67179c280c0755ed08c44fc85a6a37433d063919c)
out OFFICIAL_CORE "$core/live2dcubismcore.min.js"
out MODEL "$core/characters/haru_greeter_pro_jp/runtime/haru_greeter_t03.model3.json"
out PIXI_DIR "$(fetch pixi.js 6.5.10 dist/browser/pixi.js f7830312c02742e1a29a31ac3ff3fdf3b264d8a772a0678b9a07a3b6d77474a0)"
out DISPLAY_DIR "$(fetch pixi-live2d-display 0.4.0 dist/cubism4.js 60831e21bf7e53c0dc81a780fe2f5ba5157f790f316ab692de2d66b622d7dab5)"
if [[ ${1:-} == --browser ]]; then
  out PLAYWRIGHT_DIR "$(fetch playwright-core 1.65.1 index.mjs 6f5a60be62a4fddfbe7d10c448d8fbd54547da3358f2f8a04211440471ee863e)"
  out CHROMIUM "$CHROMIUM"
fi
