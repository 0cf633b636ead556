#!/usr/bin/env bash
# The main job: set up, build the p2lrt tool, build the bundled example rig from its JSON
# form and show what it holds.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DP2L_TESTS=OFF -DP2L_BENCH=OFF >/dev/null
cmake --build build-release --target p2lrt
mkdir -p out
build-release/p2lrt build examples/rigs/hello.json -o out/hello.p2lrt
build-release/p2lrt info out/hello.p2lrt
