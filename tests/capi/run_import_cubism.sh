#!/usr/bin/env bash
# The C99 import host (import_cubism.c) on the npm Haru: `p2lrt import` writes the reference
# .p2lrt, then the host imports the model3.json through p2l_cubism.h both ways and compares.
# Exit 77 (skipped) when Haru has not been fetched (scripts/fetch_cubism_core.sh).
#   run_import_cubism.sh P2LRT HOST WORK_DIR
set -uo pipefail
p2lrt=$1 host=$2 work=$3
dir=${P2L_CUBISM_CORE:-$HOME/.cache/p2lrt/live2dcubismcore-1.0.2}/package/characters/haru_greeter_pro_jp/runtime
model=haru_greeter_t03.model3.json
[[ -f $dir/$model ]] || { echo "skipped: Haru not fetched ($dir)"; exit 77; }
mkdir -p "$work"
"$p2lrt" import "$dir/$model" -o "$work/haru.p2lrt" > "$work/import.log" 2>&1 || { cat "$work/import.log"; exit 1; }
exec "$host" "$dir" "$model" "$work/haru.p2lrt"
