#!/usr/bin/env bash
# The figures of docs/RELIABILITY.md "Bounds": every input of the fuzz corpora in the cache
# (./fuzz.sh grows them) through its entry point in a Release build without sanitizers, the
# worst heap peak and time against input size per kind.
#   scripts/fuzz_bounds.sh [BUILD_DIR]     (default build-bounds)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build-bounds}
CACHE=${P2L_CACHE:-$HOME/.cache/p2lrt}
if [[ ! -f "$BUILD/build.ninja" ]]; then
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DP2L_TESTS=OFF -DP2L_BENCH=ON > /dev/null
fi
cmake --build "$BUILD" --target p2l_fuzz_bounds -j "${P2L_BOUNDS_JOBS:-$(nproc)}"
for kind in load moc3 json csm; do
  corpus=$CACHE/fuzz/$kind/corpus
  [[ -d $corpus ]] || corpus=fuzz/seeds/$kind
  [[ -d $corpus ]] || { echo "fuzz_bounds.sh: $kind: no corpus (./fuzz.sh --$kind grows one)"; continue; }
  "$BUILD/p2l_fuzz_bounds" "$kind" "$corpus"
done
