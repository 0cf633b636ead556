#!/usr/bin/env bash
# Imports Haru from the official npm package and compares p2lrt with Cubism Core 4.2.2 over
# seeded poses. Exits 77 (skipped) only when the package cannot be fetched.
#   run_fidelity.sh FIDELITY_BINARY WORK_DIR [POSES] [SEED]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=$1 work=$2 poses=${3:-200} seed=${4:-1}
source "$here/core_env.sh" run_fidelity
moc=$core/package/characters/haru_greeter_pro_jp/runtime/haru_greeter_t03.moc3
mkdir -p "$work"
node "$here/core_poses.js" "$core/package/live2dcubismcore.min.js" "$moc" "$poses" "$seed" "$work/haru-core"
"$bin" "$moc" "$work/haru-core"
