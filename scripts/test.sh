#!/usr/bin/env bash
# The whole test suite: set up, build everything with AddressSanitizer and
# UndefinedBehaviorSanitizer (optimised, so -O2 warnings are errors too), run every test;
# then every fuzz target briefly and the thread tests under ThreadSanitizer
# (docs/RELIABILITY.md), the WebAssembly module against that build in node, and the player
# page in headless Chromium (docs/WEB.md).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# The GPU renderer's libraries and its headless tests' (libepoxy, GLFW, Mesa's EGL, Xvfb).
scripts/setup.sh --gl
# musl's math functions (Debian's emscripten package, into the cache outside the repository):
# every evaluation computes them with p2lrt's own copy (src/base/libm.hpp).
musl_math=$(scripts/fetch_musl_math.sh)
cmake -S . -B build-test -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DP2L_SANITIZE=ON -DP2L_TESTS=ON -DP2L_BENCH=ON -DP2L_MUSL_MATH="$musl_math" >/dev/null
cmake --build build-test
# The official Cubism Core and its Haru model, from npm into a cache outside the repository,
# for the Cubism tests (they skip, saying so, when it cannot be fetched).
scripts/fetch_cubism_core.sh > /dev/null || echo "test.sh: the Cubism Core could not be fetched; its tests will skip" >&2
# The Cubism 2.1 runtime and the Cubism 2 models of the live2d-widget-model packages, the same way.
scripts/cubism2_models.sh > /dev/null || echo "test.sh: the Cubism 2 models could not be fetched; their tests will skip" >&2
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir build-test --output-on-failure -j "$(nproc)"
# Every way in fuzzed for about a minute on its committed seeds, under ASan + UBSan with
# LeakSanitizer (docs/RELIABILITY.md): a finding fails the run. The long runs are ./fuzz.sh.
scripts/setup.sh --fuzz
./fuzz.sh --smoke 60
# The tests that share one model between threads, and the 8-thread stress test, under
# ThreadSanitizer: any report fails the run.
scripts/tsan.sh -j2
# The web: the module built, within its size budget and bit-identical to this native build on
# the random-rig cases; the player page drawing as p2lrt render does.
P2L_NATIVE_BUILD=build-test scripts/wasm.sh --test
P2L_NATIVE_BUILD=build-test scripts/browser_test.sh
# A real client on the drop-in Cubism Core: pixi-live2d-display (npm) drives Haru for 10 s at
# 60 Hz on the official Core 4.2.2 and on build-wasm/live2dcubismcore.js, frames compared, then
# both drawn in headless Chromium (tests/dropin/README.md). 77: a package could not be fetched.
bash tests/dropin/run.sh build-wasm/live2dcubismcore.js build-test/dropin || [[ $? -eq 77 ]]
# p2lrt as other projects get it (docs/PACKAGING.md): the npm package installed into an empty
# folder and played in node and Chromium; then a Release build installed, with C and C++ hosts
# built against the installed tree (CMake package, pkg-config), the C# bindings and the Unity
# component under mono, the Python module from pip, and the .deb on a clean Debian 12 root.
P2L_NATIVE_BUILD=build-test scripts/npm_package.sh --test
bash scripts/packaging_test.sh build-pkg
