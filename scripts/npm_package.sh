#!/usr/bin/env bash
# The npm package p2lrt (web/README.md): stages build-wasm/npm/package/ from web/package.json (its
# version set from the top-level CMakeLists.txt's project(p2lrt VERSION ...)), web/p2l.js and its
# typings, the player element (web/player/element.js, the player modules it imports, typings),
# build-wasm/p2l.wasm, p2l-render.wasm, p2l-import.wasm and live2dcubismcore.js (the drop-in Cubism Core, p2lrt's
# own), web/README.md, the licence and the third-party notices (from the sources' caches), then
# `npm pack`s it into build-wasm/npm/p2lrt-VERSION.tgz. Run scripts/wasm.sh first.
#
# With --test it then checks the package (about a minute; each check prints ok or FAIL, the last
# line is "N passed, M failed", the exit status is non-zero on a failure):
#   - contents: exactly the allow-list (no test files, no source maps, nothing else), no Cubism
#     files (*.moc3, *.model3.json, ... live2dcubismcore.min.js) and no file with the official
#     Core's copyright or licence text; no dependencies, no install scripts, every export there;
#   - npm install of the tarball into an empty folder, offline (--offline, a fresh npm cache);
#   - node: web/test/package_node.mjs, run from that folder, imports 'p2lrt' by name and plays
#     the example character (against web/p2l.js, and `p2lrt eval` when P2L_NATIVE_BUILD names a
#     native build directory with the p2lrt tool);
#   - browser: web/test/package_browser.mjs serves that folder on loopback and drives a page that
#     imports 'p2lrt/player' in headless Chromium; screenshots in build-wasm/npm/test/;
#   - TypeScript: web/test/pixi_types.ts, using p2lrt, p2lrt/pixi and pixi.js 8, type-checks
#     (typescript and pixi.js from npm); the PixiJS plugin's own JavaScript is at most 30,000 bytes.
#   scripts/npm_package.sh [--test] [--keep]    --keep: leave the install folder (its path is printed)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
started=$(date +%s)

test=false keep=false
for arg in "$@"; do
  case $arg in
    --test) test=true ;;
    --keep) keep=true ;;
    *) echo "usage: scripts/npm_package.sh [--test] [--keep]" >&2; exit 2 ;;
  esac
done

for built in build-wasm/p2l.wasm build-wasm/p2l-render.wasm build-wasm/p2l-import.wasm build-wasm/live2dcubismcore.js; do
  if [[ ! -f $built ]]; then
    echo "npm_package: $built is missing: run scripts/wasm.sh first" >&2
    exit 1
  fi
done
command -v npm > /dev/null || { echo "npm_package: npm is not installed (Debian: apt-get install npm)" >&2; exit 1; }

VERSION=$(sed -n 's/^project(p2lrt VERSION \([0-9][0-9.]*\).*/\1/p' CMakeLists.txt)
if [[ -z "$VERSION" ]]; then
  echo "npm_package: no project(p2lrt VERSION ...) in CMakeLists.txt" >&2
  exit 1
fi

OUT=build-wasm/npm
STAGE=$OUT/package
rm -rf "$STAGE" && mkdir -p "$STAGE"
rm -f "$OUT"/p2lrt-*.tgz

# package.json: web/package.json with the version; the version lives in CMakeLists.txt alone.
node -e '
  const fs = require("fs");
  const [from, to, version] = process.argv.slice(1);
  const json = JSON.parse(fs.readFileSync(from, "utf8"));
  if ("version" in json) { console.error(`npm_package: ${from} must not carry a version (CMakeLists.txt has it)`); process.exit(1); }
  const out = { name: json.name, version, ...json };
  fs.writeFileSync(to, JSON.stringify(out, null, 2) + "\n");
' web/package.json "$STAGE/package.json" "$VERSION"

# Every file package.json's "files" lists, from where it is made.
CACHE=${P2L_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/p2lrt}
notices() {
  # The third-party code compiled into the modules (web/CMakeLists.txt) and embedded in the
  # drop-in Core (scripts/wasm.sh), with the licence texts from the fetched sources themselves.
  local zlib=$CACHE/zlib-sync-0.1.10/package/deps/zlib/zlib.h zstd=$CACHE/zstd-napi-0.0.13/package/deps/zstd/LICENSE
  local musl=$CACHE/musl-libm-emscripten-3.1.6/COPYRIGHT fflate=$CACHE/fflate-0.8.2/package/LICENSE
  local sun=$CACHE/musl-libm-emscripten-3.1.6/__sin.c arm=$CACHE/musl-libm-emscripten-3.1.6/pow.c
  local wasi=/usr/share/doc/wasi-libc/copyright nlohmann=/usr/share/doc/nlohmann-json3-dev/copyright
  for file in "$zlib" "$zstd" "$musl" "$sun" "$arm" "$fflate" "$wasi" "$nlohmann"; do
    [[ -f $file ]] || { echo "npm_package: $file is missing (scripts/wasm.sh fetches the sources)" >&2; return 1; }
  done
  cat <<EOF
# Third-party notices

p2lrt is MIT-licensed (LICENSE). \`p2l.wasm\`, \`p2l-render.wasm\` and \`p2l-import.wasm\`, and the
WebAssembly inside \`cubism-core/live2dcubismcore.js\`, are compiled from p2lrt's sources together with the code below;
\`cubism-core/live2dcubismcore.js\` also embeds fflate's inflate.

| component | version | where | licence |
|---|---|---|---|
| zlib (inflate) | 1.3.1 | all four modules | zlib |
| Zstandard (decompressor) | 1.5.7 | all four modules | BSD-3-Clause (of its BSD/GPLv2 dual licence) |
| musl's math functions (musl 1.2.2, from Debian's emscripten 3.1.6 package): sinf, cosf, atan2f, powf, sin, cos, atan2, acos, cbrt, exp, pow, hypot and their kernels | 1.2.2 | all four modules | MIT; the functions from FreeBSD msun under Sun Microsystems' notice, exp, pow and powf Arm's (MIT) |
| musl's SHA-256 (crypt_sha256.c, from the same package) | 1.2.2 | p2l-import.wasm | public domain |
| JSON for Modern C++ (nlohmann/json, Debian's headers) | 3.11.2 | p2l-import.wasm | MIT |
| wasi-libc (Debian's build) and LLVM libc++ 19 | | all four modules | wasi-libc: MIT and others (below); libc++: Apache-2.0 WITH LLVM-exception |
| fflate (inflate) | 0.8.2 | cubism-core/live2dcubismcore.js | MIT |

No LGPL or GPL code is compiled into the modules. musl's files are built unmodified
(p2lrt's \`src/base/musl_libm/\` headers stand in for musl's internal ones and give the
functions p2lrt's own names); p2lrt's \`scripts/wasm.sh\` rebuilds the modules from them.

## zlib

\`\`\`
$(sed -n '/Copyright (C)/,/madler@/p' "$zlib")
\`\`\`

## Zstandard

\`\`\`
$(cat "$zstd")
\`\`\`

## musl

\`\`\`
$(cat "$musl")
\`\`\`

The notice the FreeBSD msun files carry (sinf, cosf, atan2f, sin, cos, atan2, acos, cbrt):

\`\`\`
$(sed -n '/====/,/====/p' "$sun" | sed -n '1,10p')
\`\`\`

The notice Arm's files carry (powf, exp, pow):

\`\`\`
$(grep -E 'Copyright|SPDX' "$arm" | sed 's/^ \* //')
\`\`\`

## JSON for Modern C++ (Debian's copyright file)

\`\`\`
$(cat "$nlohmann")
\`\`\`

## wasi-libc (Debian's copyright file)

\`\`\`
$(cat "$wasi")
\`\`\`

## fflate

\`\`\`
$(cat "$fflate")
\`\`\`
EOF
}
mapfile -t FILES < <(node -e 'for (const f of require("./web/package.json").files) console.log(f)')
for file in "${FILES[@]}"; do
  mkdir -p "$STAGE/$(dirname "$file")"
  case $file in
    p2l.wasm | p2l-render.wasm | p2l-import.wasm) cp "build-wasm/$file" "$STAGE/$file" ;;
    cubism-core/live2dcubismcore.js) cp build-wasm/live2dcubismcore.js "$STAGE/$file" ;;
    # A classic script (and CommonJS for require()): not an ES module like the rest of the package.
    cubism-core/package.json) printf '{\n  "type": "commonjs"\n}\n' > "$STAGE/$file" ;;
    THIRD_PARTY_NOTICES.md) notices > "$STAGE/$file" ;;
    *) cp "web/$file" "$STAGE/$file" ;;
  esac
done
cp web/README.md "$STAGE/README.md"
chmod -R u=rwX,go=rX "$STAGE"  # no executable bits from the build
# The licence: the repository's.
cp LICENSE "$STAGE/LICENSE"

export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false npm_config_loglevel=warn
(cd "$STAGE" && npm pack --pack-destination "$ROOT/$OUT" --json > "$ROOT/$OUT/pack.json")
TARBALL=$OUT/p2lrt-$VERSION.tgz
[[ -f $TARBALL ]] || { echo "npm_package: npm pack did not write $TARBALL" >&2; exit 1; }
echo "npm_package: $TARBALL $(stat -c %s "$TARBALL") bytes, $(tar -tzf "$TARBALL" | wc -l) files"
$test || exit 0

# ---------------------------------------------------------------------------------------------
passed=0 failed=0
check() {  # check CONDITION-STATUS MESSAGE
  if [[ $1 == 0 ]]; then echo "ok   $2"; passed=$((passed + 1)); else echo "FAIL $2"; failed=$((failed + 1)); fi
}
# Counts the ok/FAIL lines of a node test's output (and fails a crash that printed none).
count() {  # count LOG STATUS
  local ok bad
  ok=$(grep -c '^ok  ' "$1" || true) bad=$(grep -c '^FAIL' "$1" || true)
  passed=$((passed + ok)) failed=$((failed + bad))
  if [[ $2 != 0 && $bad == 0 ]]; then echo "FAIL $(basename "$1" .log) exited with $2 and reported no check"; failed=$((failed + 1)); fi
}
finish() {
  echo "npm_package: $(($(date +%s) - started)) s in all"
  echo "$passed passed, $failed failed"
  [[ $failed == 0 ]]
}

# --- contents ---
# The allow-list, on its own rather than read from package.json's "files": a file added there by
# mistake fails here until it is added to this list too.
ALLOWED=(package.json README.md LICENSE THIRD_PARTY_NOTICES.md p2l.js p2l.d.ts voice.js pixi.d.ts pixi/index.js pixi/live2d_model.js
         pixi/drawing.js pixi/motions.js pixi/source.js p2l.wasm p2l-render.wasm p2l-import.wasm
         player/element.js player/element.d.ts player/player.js player/renderer.js player/blend_modes.js player/framing.js
         player/gl_programs.js player/mesh_buffers.js player/shaders.js player/surfaces.js player/textures.js player/runtimes.js
         cubism-core/live2dcubismcore.js cubism-core/package.json)
mkdir -p "$OUT/test"
tar -tzf "$TARBALL" | sed 's|^package/||' | sort > "$OUT/test/contents.txt"
printf '%s\n' "${ALLOWED[@]}" | sort > "$OUT/test/allowed.txt"
unexpected=$(comm -23 "$OUT/test/contents.txt" "$OUT/test/allowed.txt" | tr '\n' ' ')
missing=$(comm -13 "$OUT/test/contents.txt" "$OUT/test/allowed.txt" | tr '\n' ' ')
check "$([[ -z $unexpected && -z $missing ]]; echo $?)" \
  "the package holds exactly the allow-list ($(wc -l < "$OUT/test/allowed.txt") files)${unexpected:+; not on it: $unexpected}${missing:+; missing: $missing}"
tests=$(grep -E '(^|/)(tests?|__tests__|spec|package_test)/|(^|/)[^/]*([._-](test|spec))\.[a-z0-9]+$|(^|/)test[._-][^/]*$|\.map$' "$OUT/test/contents.txt" | tr '\n' ' ' || true)
check "$([[ -z $tests ]]; echo $?)" "no test files or source maps in the package${tests:+: $tests}"
cubism=$(grep -E -i '\.moc3$|\.(model3|motion3|physics3|exp3|pose3|cdi3|userdata3)\.json$|live2dcubismcore\.min\.js$' "$OUT/test/contents.txt" | tr '\n' ' ' || true)
check "$([[ -z $cubism ]]; echo $?)" "no Cubism model files and no official Core file by name${cubism:+: $cubism}"
UNPACKED=$OUT/test/unpacked
rm -rf "$UNPACKED" && mkdir -p "$UNPACKED" && tar -xzf "$TARBALL" -C "$UNPACKED"
# The PixiJS plugin adds at most 30 KB of JavaScript (it draws with the player's modules, which
# the package has anyway).
pixi_bytes=$(cat "$UNPACKED"/package/pixi/*.js 2> /dev/null | wc -c)
check "$([[ $pixi_bytes -gt 0 && $pixi_bytes -le 30000 ]]; echo $?)" "p2lrt/pixi's own JavaScript: $pixi_bytes bytes (at most 30,000)"
# The official Core's header names its copyright holder and its licences; p2lrt's own drop-in
# and its notices name neither (checked: the words below occur in no file p2lrt ships).
official=$(grep -r -l -a -i -E 'Live2D Inc|Live2D Proprietary Software|Live2D Open Software|live2d\.com/eula' "$UNPACKED" | sed "s|^$UNPACKED/package/||" | tr '\n' ' ' || true)
check "$([[ -z $official ]]; echo $?)" "no file holds Live2D's copyright or licence text (the official Core's header)${official:+: $official}"
# Every component compiled into the modules is under a licence the MIT package may carry
# statically linked: the notices' table names no LGPL or GPL-only component.
copyleft=$(grep '^| ' "$UNPACKED/package/THIRD_PARTY_NOTICES.md" | grep -E 'LGPL|GPL-[0-9.]+(-only|-or-later)?( |$)|Lesser General' | cut -c1-60 | tr '\n' ' ' || true)
check "$([[ -z $copyleft ]]; echo $?)" "the notices list no LGPL or GPL-only component${copyleft:+: $copyleft}"
node -e '
  const fs = require("fs"), path = require("path");
  const [dir, version] = process.argv.slice(1);
  const json = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  const problems = [];
  for (const key of ["dependencies", "devDependencies", "optionalDependencies", "bundleDependencies", "bundledDependencies"])
    if (json[key] && Object.keys(json[key]).length) problems.push(`${key}: ${Object.keys(json[key]).join(", ")}`);
  // PixiJS for p2lrt/pixi alone: an optional peer, which npm never installs on its own.
  const peers = Object.keys(json.peerDependencies ?? {});
  if (peers.some((p) => p !== "pixi.js" || !json.peerDependenciesMeta?.[p]?.optional))
    problems.push(`peerDependencies other than an optional pixi.js: ${peers.join(", ")}`);
  if (json.scripts && Object.keys(json.scripts).length) problems.push(`scripts: ${Object.keys(json.scripts).join(", ")}`);
  if (json.name !== "p2lrt" || json.version !== version) problems.push(`name ${json.name} version ${json.version}`);
  const targets = [];
  const walk = (v) => typeof v === "string" ? targets.push(v) : Object.values(v).forEach(walk);
  walk(json.exports);
  for (const t of [...targets, json.main, json.types]) if (!fs.existsSync(path.join(dir, t))) problems.push(`no ${t}`);
  console.log(problems.length ? `FAIL package.json: ${problems.join("; ")}` : `ok   package.json: p2lrt ${json.version}, no dependencies (pixi.js an optional peer), no scripts, ${targets.length} export targets all present`);
' "$UNPACKED/package" "$VERSION" | tee "$OUT/test/package-json.log"
count "$OUT/test/package-json.log" 0
# What npm itself says it packs (the same list as the tarball).
npm_list=$(node -e 'const [p] = require(process.argv[1]); console.log(p.files.map((f) => f.path).sort().join("\n"))' "$ROOT/$OUT/pack.json")
check "$([[ "$npm_list" == "$(cat "$OUT/test/contents.txt")" ]]; echo $?)" \
  "npm pack --json lists the same $(wc -l < "$OUT/test/contents.txt") files ($(node -e 'const [p] = require(process.argv[1]); console.log(p.size + " bytes packed, " + p.unpackedSize + " unpacked")' "$ROOT/$OUT/pack.json"))"

# --- installed into an empty folder, offline ---
WORK=$(mktemp -d /tmp/p2lrt-npm-test.XXXXXX)
SERVER=""
cleanup() {
  [[ -n $SERVER ]] && kill "$SERVER" 2> /dev/null || true
  if $keep; then echo "npm_package: the install folder is kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
install_status=0
(cd "$WORK" && npm install --offline --no-audit --no-fund --ignore-scripts --cache "$WORK/.npm-cache" \
  "$ROOT/$TARBALL" > "$ROOT/$OUT/test/install.log" 2>&1) || install_status=$?
installed=$(node -e 'try { console.log(require(process.argv[1]).version) } catch { console.log("none") }' "$WORK/node_modules/p2lrt/package.json")
others=$(ls "$WORK/node_modules" 2> /dev/null | grep -v -x -e p2lrt -e .package-lock.json | tr '\n' ' ' || true)
check "$([[ $install_status == 0 && $installed == "$VERSION" && -z $others ]]; echo $?)" \
  "npm install --offline $TARBALL into an empty folder: p2lrt $installed, nothing else in node_modules${others:+ ($others)} (log: $OUT/test/install.log)"
rm -rf "$WORK/.npm-cache"
cp examples/character/character.p2lrt "$WORK/character.p2lrt"

# --- node ---
NATIVE=()
if [[ -n "${P2L_NATIVE_BUILD:-}" ]]; then
  if [[ -x "$P2L_NATIVE_BUILD/p2lrt" ]]; then
    NATIVE=(--native "$(realpath "$P2L_NATIVE_BUILD/p2lrt")")
  else
    echo "FAIL P2L_NATIVE_BUILD=$P2L_NATIVE_BUILD has no p2lrt tool"
    failed=$((failed + 1))
  fi
fi
MOC3=()
[[ -f build-wasm/fixture-mocs/v6-all.moc3 ]] && MOC3=(--moc3 "$ROOT/build-wasm/fixture-mocs/v6-all.moc3")
# The npm Haru (scripts/fetch_cubism_core.sh; never in the package) for the import check.
if core=$(scripts/fetch_cubism_core.sh 2> /dev/null); then
  MOC3+=(--cubism "$core/package/characters/haru_greeter_pro_jp/runtime/haru_greeter_t03.model3.json")
fi
cp web/test/package_node.mjs "$WORK/package_node.mjs"
node_status=0
(cd "$WORK" && node package_node.mjs --rig character.p2lrt --repo-js "$ROOT/web/p2l.js" --repo-wasm "$ROOT/build-wasm/p2l.wasm" \
  --version "$VERSION" "${NATIVE[@]}" "${MOC3[@]}") 2>&1 | tee "$OUT/test/node.log" || node_status=$?
count "$OUT/test/node.log" "$node_status"

# --- browser ---
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
PLAYWRIGHT_VERSION=1.65.1
PLAYWRIGHT_SHA256=6f5a60be62a4fddfbe7d10c448d8fbd54547da3358f2f8a04211440471ee863e
browser_status=0
if [[ ! -x $CHROMIUM ]]; then
  echo "FAIL no Chromium at $CHROMIUM (scripts/setup.sh --browser)"
  failed=$((failed + 1))
elif ! PLAYWRIGHT=$(scripts/npm_fetch.sh playwright-core "$PLAYWRIGHT_VERSION" index.mjs) ||
     ! echo "$PLAYWRIGHT_SHA256  $PLAYWRIGHT/playwright-core-$PLAYWRIGHT_VERSION.tgz" | sha256sum --check --status; then
  echo "FAIL playwright-core $PLAYWRIGHT_VERSION could not be fetched or does not have the expected sha256"
  failed=$((failed + 1))
else
  # The repository's player page next to the package's, for comparison.
  SITE=$(bash scripts/serve.sh --stage-only)
  ln -s "$ROOT/$SITE" "$WORK/repo-site"
  PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  python3 -m http.server --bind 127.0.0.1 --directory "$WORK" "$PORT" > "$OUT/test/server.log" 2>&1 &
  SERVER=$!
  for _ in $(seq 1 50); do
    node -e "fetch('http://127.0.0.1:$PORT/character.p2lrt').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))" && break
    sleep 0.2
  done
  node web/test/package_browser.mjs --dir "$WORK" --url "http://127.0.0.1:$PORT/" --rig character.p2lrt \
    --repo-js web/p2l.js --repo-wasm build-wasm/p2l.wasm --playwright "$PLAYWRIGHT/package" --chromium "$CHROMIUM" \
    --out "$OUT/test" 2>&1 | tee "$OUT/test/browser.log" || browser_status=$?
  count "$OUT/test/browser.log" "$browser_status"
fi

# --- TypeScript: the package's typings, the PixiJS plugin's included (docs/PIXI.md) ---
# A program using 'p2lrt', 'p2lrt/pixi' and PixiJS v8 type-checks with TypeScript's strict mode
# (web/test/pixi_types.ts, which also holds a misuse the typings must reject). TypeScript and
# pixi.js come from npm, pinned, into a folder of their own beside the offline install.
TS_DIR=$WORK/typescript
mkdir -p "$TS_DIR"
ts_status=0
(cd "$TS_DIR" && echo '{"name": "p2lrt-types-check", "private": true, "type": "module"}' > package.json &&
  npm install --no-audit --no-fund --ignore-scripts typescript@5.6.3 pixi.js@8.22.0 "$ROOT/$TARBALL" \
    > "$ROOT/$OUT/test/typescript-install.log" 2>&1) || ts_status=$?
if [[ $ts_status != 0 ]]; then
  echo "FAIL typescript and pixi.js could not be installed from npm (log: $OUT/test/typescript-install.log)"
  failed=$((failed + 1))
else
  cp web/test/pixi_types.ts "$TS_DIR/program.ts"
  tsc_out=$(cd "$TS_DIR" && node node_modules/typescript/bin/tsc --noEmit --strict --skipLibCheck --target es2022 \
    --module nodenext --moduleResolution nodenext --lib es2022,dom program.ts 2>&1) || ts_status=$?
  check "$ts_status" "a TypeScript program using p2lrt, p2lrt/pixi and pixi.js 8.22.0 type-checks (tsc 5.6.3 --strict)${tsc_out:+: $tsc_out}"
fi

finish
