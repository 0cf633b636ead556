#!/usr/bin/env bash
# The main job: set up, build the p2lrt tool, build the bundled example rig from its JSON
# form, show what it holds and evaluate it at a pose.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DP2L_TESTS=OFF -DP2L_BENCH=OFF >/dev/null
cmake --build build-release --target p2lrt
mkdir -p out
build-release/p2lrt build examples/rigs/hello.json -o out/hello.p2lrt
build-release/p2lrt info out/hello.p2lrt
echo
echo "== evaluated with the head turned (ParamAngleX=30):"
build-release/p2lrt eval out/hello.p2lrt --set ParamAngleX=30
