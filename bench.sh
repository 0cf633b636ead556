#!/usr/bin/env bash
# Builds the benchmarks in build-bench/ (Release: -O3, as the library ships) and runs p2l_bench.
#   ./bench.sh [google-benchmark flags...]   e.g. ./bench.sh --benchmark_filter=Load
#   ./bench.sh --soak [--updates N] [--instances N] [--seed S] [--model PATH]
#       the soak instead (bench/soak.cpp; docs/RELIABILITY.md "Long runs"): by default 10,000,000
#       updates over 50 rigs of the example character, minutes; resident memory and outputs checked
#   ./bench.sh --gl [FRAMES]
#       p2l_gl against the software renderer on 1, 8 and 32 Haru instances at 1280 x 720
#       (bench/gl_bench.cpp, docs/GL.md); needs scripts/setup.sh --gl and the npm Haru
set -euo pipefail

cd "$(dirname "$0")"
BUILD=build-bench
GENERATOR=()
command -v ninja > /dev/null && GENERATOR=(-G Ninja)

# Configured every time (cheap), so that an older build directory gets today's flags too.
cmake -S . -B "$BUILD" "${GENERATOR[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS_RELEASE="-O3 -DNDEBUG" -DCMAKE_C_FLAGS_RELEASE="-O3 -DNDEBUG" \
  -DP2L_BENCH=ON -DP2L_TESTS=OFF -DP2L_FUZZ=OFF -DP2L_SANITIZE=OFF > /dev/null
if [[ ${1:-} == --gl ]]; then
  shift
  scripts/setup.sh --gl
  scripts/fetch_cubism_core.sh > /dev/null
  cmake --build "$BUILD" --target p2l_gl_bench -j 2
  exec "$BUILD/bench/p2l_gl_bench" "$@"
fi
if [[ ${1:-} == --soak ]]; then
  shift
  cmake --build "$BUILD" --target p2l_soak -j 2
  exec "$BUILD/bench/p2l_soak" "$@"
fi
cmake --build "$BUILD" --target p2l_bench -j 2
if [[ ! -x "$BUILD/bench/p2l_bench" ]]; then
  echo "bench.sh: p2l_bench was not configured (is libbenchmark-dev installed?)" >&2
  exit 1
fi

# Google Benchmark 1.7 takes the minimum time as plain seconds ("0.5", not "0.5s").
exec "$BUILD/bench/p2l_bench" --benchmark_min_time=0.5 --benchmark_counters_tabular=true "$@" 2>&1
