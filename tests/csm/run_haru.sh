#!/usr/bin/env bash
# The C API against the official Cubism Core 4.2.2 (npm live2dcubismcore, in the cache outside the
# repository) on Haru: tests/cubism/core_dump.js runs the official Core, the C99 host (linked with
# libLive2DCubismCore.so, then with libLive2DCubismCore.a) the same 200 poses (every third with
# random part opacities); compare_dumps then wants vertices, opacities and colours within 1e-5,
# parameters and part opacities read back within 1e-5 of their range, and equal constants, UVs,
# triangle indices, masks, orders and flags (an opacity or colour change bit where the two Cores'
# values agree: 4.2.2 rounds some opacities 3.6e-7 apart from Core 6, whose bits p2lrt gives).
# Exits 77 without node or the package.
#   run_haru.sh CSM_DUMP CSM_DUMP_STATIC COMPARE_DUMPS WORK_DIR
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dump=$1 dump_static=$2 compare=$3 work=$4
command -v node > /dev/null || { echo "run_haru: node is not installed; skipping" >&2; exit 77; }
core=$("$here/../../scripts/fetch_cubism_core.sh" 2> /dev/null) || { echo "run_haru: the Cubism Core package could not be fetched; skipping" >&2; exit 77; }
moc=$(ls "$core"/package/characters/haru*/runtime/*.moc3 | head -1)
mkdir -p "$work"
node "$here/../cubism/core_dump.js" "$core/package/live2dcubismcore.min.js" "$moc" "$work/official" --poses 200 --parts --constants || exit 1
status=0
for host in "$dump" "$dump_static"; do
  "$host" "$moc" "$work/p2lrt" --poses 200 --parts || exit 1
  echo "$(basename "$host"):"
  "$compare" "$work/official" "$work/p2lrt" --tolerance 1e-5 --change-bits-where-values-agree || status=1
done
exit $status
