#!/usr/bin/env bash
# Builds the WebAssembly modules build-wasm/p2l.wasm (no software renderer; budget 345,000
# bytes) and build-wasm/p2l-render.wasm from a fresh Debian machine: installs the toolchain
# (scripts/setup.sh --wasm), fetches the decoders' sources from npm and musl's math from
# Debian's emscripten package into the cache outside the repository and checks them, builds, and
# reports the modules' sizes. With --test it then checks p2l.wasm in node: its size against the
# budget, web/p2l.js on the example character, and the module against the native build -
# random rigs and the Cubism fixtures imported (tests/wasm/make_wasm_cases.cpp) bit for bit,
# the original's vectors accepted or refused. P2L_NATIVE_BUILD names a native build directory to use (else build-wasm-cases/).
#   scripts/wasm.sh [--test [COUNT]]
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh --wasm

# zlib 1.3.1 (inflate) and zstd 1.5.7 (decompressor) as C sources: npm carries them in these
# packages; npm verifies each tarball against the registry, and we pin its sha256 too.
verify() {
  local dir=$1 tarball=$2 sum=$3
  if ! echo "$sum  $dir/$tarball" | sha256sum --check --status; then
    echo "wasm: $dir/$tarball does not have the expected sha256 $sum" >&2
    exit 1
  fi
}
ZSTD=$(scripts/npm_fetch.sh zstd-napi 0.0.13 deps/zstd/lib/zstd.h)
verify "$ZSTD" zstd-napi-0.0.13.tgz 5b76defc67c808989c5f3920e14f662d6318b84b8d53ac3e94b99463d8d65e76
ZLIB=$(scripts/npm_fetch.sh zlib-sync 0.1.10 deps/zlib/inflate.c)
verify "$ZLIB" zlib-sync-0.1.10.tgz bd2180fc18426cf464ecab1321bb31a1af81c36b927a28cdb26c3a56f302f2b6
if [[ "$(dirname "$ZSTD")" != "$(dirname "$ZLIB")" ]]; then
  echo "wasm: the two packages landed in different caches" >&2
  exit 1
fi

# musl's math functions, as the native build has them (src/base/libm.hpp).
MUSL_MATH=$(scripts/fetch_musl_math.sh)

GENERATOR=()
command -v ninja > /dev/null && GENERATOR=(-G Ninja)
cmake -S web -B build-wasm "${GENERATOR[@]}" -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/wasi-clang.cmake" \
  -DCMAKE_BUILD_TYPE=MinSizeRel -DP2L_DECODERS="$(dirname "$ZSTD")" -DP2L_MUSL_MATH="$MUSL_MATH" > /dev/null
cmake --build build-wasm -j 2

# p2l.wasm is the runtime without the software renderer (browsers draw with WebGL);
# p2l-render.wasm adds it. The budget applies to p2l.wasm.
for wasm in build-wasm/p2l.wasm build-wasm/p2l-render.wasm build-wasm/p2l-import.wasm; do
  bytes=$(stat -c %s "$wasm")
  gz=$(gzip -9 -c "$wasm" | wc -c)
  imports=$(node -e "const m=new WebAssembly.Module(require('fs').readFileSync('$wasm'));
    const i=WebAssembly.Module.imports(m); console.log(i.length ? i.map(x=>x.module+'.'+x.name).join(' ') : 'none')")
  exports=$(node -e "const m=new WebAssembly.Module(require('fs').readFileSync('$wasm'));
    console.log(WebAssembly.Module.exports(m).filter(x=>/^p2li?_/.test(x.name)).length)")
  echo "wasm: $wasm $bytes bytes ($((bytes / 1024)) KiB), gzip -9 $gz bytes ($((gz / 1024)) KiB); imports: $imports; exports $exports functions"
done
# The Cubism import module (web/import_module.cpp), loaded only by pages that import: budget 350 KB.
import_budget=350000
if (( $(stat -c %s build-wasm/p2l-import.wasm) > import_budget )); then
  echo "wasm: build-wasm/p2l-import.wasm is over its budget of $import_budget bytes" >&2
  [[ "${1:-}" == "--test" ]] && exit 1
fi
# The drop-in Cubism Core (web/cubismcore/, docs/CUBISM_CORE.md): p2lcore.wasm deflated into one
# script with fflate's inflate (MIT, from npm into the cache, sha256 pinned); budget 300 KB.
FFLATE=$(scripts/npm_fetch.sh fflate 0.8.2 umd/index.js)
verify "$FFLATE" fflate-0.8.2.tgz 61fd5061e2fc8e5e3e3129f7f2fec7bd78a313e1bf4becbf1cc1cc9998d141dc
node web/cubismcore/assemble.mjs web/cubismcore/live2dcubismcore.src.js "$FFLATE/package/umd/index.js" \
  build-wasm/p2lcore.wasm build-wasm/live2dcubismcore.js
core_budget=300000
if (( $(stat -c %s build-wasm/live2dcubismcore.js) > core_budget )); then
  echo "wasm: build-wasm/live2dcubismcore.js is over its budget of $core_budget bytes" >&2
  [[ "${1:-}" == "--test" ]] && exit 1
fi

wasm=build-wasm/p2l.wasm
# The budget for the browser's module, both decoders in (docs/WEB.md says what it took).
budget=345000
if (( $(stat -c %s "$wasm") > budget )); then
  echo "wasm: $wasm is over its budget of $budget bytes" >&2
  [[ "${1:-}" == "--test" ]] && exit 1
fi

if [[ "${1:-}" == "--test" ]]; then
  count=${2:-100}
  # The native side: a build directory configured with the tests (P2L_NATIVE_BUILD, e.g. the
  # test suite's build-test), else a Release build of its own.
  native=${P2L_NATIVE_BUILD:-build-wasm-cases}
  if [[ -z "${P2L_NATIVE_BUILD:-}" ]]; then
    bash scripts/setup.sh
    cmake -S . -B "$native" "${GENERATOR[@]}" -DCMAKE_BUILD_TYPE=Release -DP2L_TESTS=ON > /dev/null
  fi
  cmake --build "$native" --target p2l_make_wasm_cases p2l_make_moc3 p2lrt -j 2
  rm -rf build-wasm/cases build-wasm/fixture-mocs
  tests/cubism/make_fixture_mocs.sh "$native"/tests/cubism/p2l_make_moc3 build-wasm/fixture-mocs
  "$native"/tests/p2l_make_wasm_cases build-wasm/cases "$count" tests/cubism/fixtures build-wasm/fixture-mocs
  vectors=../shared/vectors/original
  [[ -d "$vectors" ]] || vectors=""
  status=0
  node web/test/p2l_module.mjs "$wasm" examples/character/character.p2lrt || status=1
  node web/test/conformance.mjs "$wasm" build-wasm/cases $vectors || status=1
  node web/test/malloc_stress.mjs build-wasm/p2l_malloc_test.wasm || status=1
  node web/test/speech.mjs "$wasm" build-wasm/cases || status=1
  # The Cubism import in JavaScript (p2l-import.wasm) against the native `p2lrt import` on the npm
  # Haru (fetched into the cache, never into the repository); skipped, saying so, without it.
  # The same for a Cubism 2 model.json (shizuku, from the npm widget packages, into the cache).
  if scripts/cubism2_models.sh > /dev/null 2>&1; then
    shizuku=$(find "${P2L_CACHE:-$HOME/.cache/p2lrt}" -path '*widget-model-shizuku*' -name shizuku.model.json | head -n 1)
    "$native"/p2lrt import "$shizuku" -o build-wasm/shizuku-native.p2lrt > build-wasm/shizuku-native.report.txt 2>&1
    node web/test/import_cubism2.mjs build-wasm/p2l.wasm build-wasm/p2l-import.wasm "$shizuku" build-wasm/shizuku-native.p2lrt \
      build-wasm/shizuku-native.report.txt || status=1
  else
    echo "wasm: the Cubism 2 models could not be fetched: their JavaScript import is not tested" >&2
  fi
  if core=$(scripts/fetch_cubism_core.sh 2> /dev/null); then
    haru=$core/package/characters/haru_greeter_pro_jp/runtime/haru_greeter_t03.model3.json
    "$native"/p2lrt import "$haru" -o build-wasm/haru-native.p2lrt > build-wasm/haru-native.report.txt 2>&1
    node web/test/import_cubism.mjs build-wasm/p2l.wasm build-wasm/p2l-import.wasm "$haru" build-wasm/haru-native.p2lrt \
      build-wasm/haru-native.report.txt || status=1
  else
    echo "wasm: the npm Cubism Core (Haru) could not be fetched: the import test is skipped" >&2
  fi
  node web/test/warp_simd.mjs build-wasm/p2l_warp_test.wasm || status=1
  # The drop-in Core in node against Core 6.0.1's fixture dumps, bit for bit, through the official
  # dump script itself (tests/cubism/core_dump.js), and against Core 4.2.2 on Haru.
  cmake --build "$native" --target p2l_csm_compare_dumps -j 2
  node web/test/cubism_core_api.mjs build-wasm/live2dcubismcore.js build-wasm/fixture-mocs/v6-all.moc3 || status=1
  bash tests/csm/run_js.sh build-wasm/live2dcubismcore.js "$native"/tests/csm/p2l_csm_compare_dumps build-wasm/fixture-mocs \
    build-wasm/csm-js || status=1
  exit $status
fi
