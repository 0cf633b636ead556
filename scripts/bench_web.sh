#!/usr/bin/env bash
# A Cubism model (Haru from the official sample by default) timed three ways on the same poses:
# the official Cubism Core 4.2.2 (JavaScript) and p2lrt's WebAssembly build in one node process,
# and the native p2lrt tool (bench/web/core_bench.mjs: per-frame microseconds, median and
# minimum over repetitions, p2lrt/Core; p2lrt's update with a clip apart; sizes and memory).
# Builds build-wasm/p2l.wasm (scripts/wasm.sh) and the native p2lrt tool in build-webbench/
# (Release), fetches the Core into the cache outside the repository and imports the model into
# build-webbench/. Licences: nothing from the Core's package, nor anything derived from a model,
# may enter the repository - everything here stays in build-webbench/.
#   scripts/bench_web.sh [MODEL.model3.json] [--core CORE.js] [--frames 1000] [--reps 5] [--warmup 200] [--seed 1] [--clip ID] [--only p2l|core]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=build-webbench

bash scripts/wasm.sh > /dev/null

GENERATOR=()
command -v ninja > /dev/null && GENERATOR=(-G Ninja)
cmake -S . -B "$BUILD" "${GENERATOR[@]}" -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$BUILD" --target p2lrt -j 2

core=$(scripts/fetch_cubism_core.sh)/package
model=$core/characters/haru_greeter_pro_jp/runtime/haru_greeter_t03.model3.json
if [[ "${1:-}" == *.model3.json ]]; then
  model=$1
  shift
fi
# --core FILE: another official Core's .js (5.x, 6.x: moc3 version 6 needs Core 6), from a cache
# outside the repository, e.g. ~/.cache/p2lrt/cores/core-6.0.1.js.
if [[ "${1:-}" == --core ]]; then
  core=${2:?--core needs a file}
  shift 2
fi
rig=$BUILD/$(basename "$model" .model3.json).p2lrt
# The import reports what it approximates (for Haru: motions listed twice, a curve for a missing part).
if ! "$BUILD/p2lrt" import "$model" -o "$rig" > "$BUILD/import.log" 2>&1; then
  cat "$BUILD/import.log" >&2
  exit 1
fi
tail -n 1 "$BUILD/import.log"

exec node bench/web/core_bench.mjs build-wasm/p2l.wasm "$rig" "$model" "$core" --native "$BUILD/p2lrt" "$@"
