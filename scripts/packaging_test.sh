#!/usr/bin/env bash
# p2lrt as other projects get it (docs/PACKAGING.md): a Release build with the Debian layout and
# BUILD_SHARED_LIBS=ON, installed into a staging folder; C and C++ hosts built against the
# installed tree (CMake package, pkg-config); the .deb installed on a clean Debian 12 root; the
# C# bindings and the Unity component under mono, and the Python module built by pip, both
# against the installed tree. Each part prints "N passed, N failed"; the script fails if any
# part does. (The npm package needs the WebAssembly build: scripts/npm_package.sh --test.)
#   scripts/packaging_test.sh [BUILD_DIR]   (default build-pkg)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-pkg}
bash scripts/setup.sh
bash scripts/setup.sh --packaging
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr -DBUILD_SHARED_LIBS=ON \
      -DP2L_TESTS=OFF -DP2L_BENCH=OFF -DP2L_MUSL_MATH="$(scripts/fetch_musl_math.sh)" > /dev/null
cmake --build "$build" -j "$(nproc)"

status=0
# Installs into $build/stage (prefix /usr), which the bindings below use.
bash tests/package/run.sh "$build" || status=1
stage=$PWD/$build/stage/usr
libdir=$(dirname "$(find "$stage" -name 'libp2l.so.1' -print -quit)")
bash bindings/csharp/test.sh "$libdir" "$PWD/$build/csharp" || status=1
# The Python module against the installed CMake package only (never the source tree).
CMAKE_PREFIX_PATH=$stage P2L_CMAKE_ARGS=-DP2L_PYTHON_LIBRARY=PACKAGE P2LRT_TOOL=$stage/bin/p2lrt \
  bash bindings/python/test.sh "$PWD/$build/python" || status=1
bash scripts/deb_test.sh "$build" || status=1
exit $status
