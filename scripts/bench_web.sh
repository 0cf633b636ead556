#!/usr/bin/env bash
# Haru in node: p2lrt's WebAssembly build next to the official Cubism Core 4.2.2 (JavaScript) on
# the same poses, in one process (bench/web/haru_bench.mjs: per-frame microseconds, median and
# minimum over repetitions, p2lrt/Core; p2lrt's update with a clip apart; sizes and memory).
# Builds build-wasm/p2l.wasm (scripts/wasm.sh), the native p2lrt tool in
# build-webbench/ (Release), fetches the Core into the cache outside the repository and imports
# Haru into build-webbench/haru.p2lrt. Licences: nothing from the Core's package, nor anything
# derived from the model, may enter the repository - everything here stays in build-webbench/.
#   scripts/bench_web.sh [--frames 600] [--reps 5] [--warmup 200] [--seed 1] [--clip ID] [--only p2l|core]
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
# The import reports what it approximates (motions listed twice, a curve for a missing part).
if ! "$BUILD/p2lrt" import "$model" -o "$BUILD/haru.p2lrt" > "$BUILD/haru_import.log" 2>&1; then
  cat "$BUILD/haru_import.log" >&2
  exit 1
fi
tail -n 1 "$BUILD/haru_import.log"

exec node bench/web/haru_bench.mjs build-wasm/p2l.wasm "$BUILD/haru.p2lrt" "$core" "$@"
