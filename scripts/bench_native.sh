#!/usr/bin/env bash
# Native against native (docs/PERFORMANCE.md): builds p2lrt's libLive2DCubismCore.so and the two
# benchmark hosts in Release (build/, or P2L_BENCH_BUILD), then runs scripts/bench_native.py with
# the arguments given (--models N, --rounds R, --frames F, --json FILE, --only NAME).
# The official native Core and PurismCore are measured when cached (see bench_native.py); the
# samples and third-party models come from ~/.cache/p2lrt (samples/, models/, models2/).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${P2L_BENCH_BUILD:-build}
if [[ ! -f $BUILD/build.ninja ]]; then
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release > /dev/null
fi
ninja -C "$BUILD" p2l_csm_shared bench/p2l_native_core bench/p2l_native_layers > /dev/null
exec python3 scripts/bench_native.py --build "$BUILD" "$@"
