#!/usr/bin/env bash
# ctest cubism_motion_haru and cubism_motion_haru_sequence: Haru (physics and pose on) against
# Cubism's Web Framework over Core 4.2.2, both from npm into a cache outside the repository
# (scripts/cubism_motion_table.sh does the work, with OPTIONS: "--only 3" for the three
# longest motions and the first expression, "--sequences-only" for each motion group played
# through as the sample app plays it, the frames after each motion ends included). 77
# (skipped, with the reason) without node, npm or the packages.
#   run_haru.sh MOTION_TRACE_BINARY WORK_DIR OPTIONS...
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=$1 work=$2
shift 2
if ! command -v node > /dev/null; then
  echo "cubism_motion_haru: SKIPPED: node is not installed" >&2
  exit 77
fi
if ! core=$("$here/../../scripts/fetch_cubism_core.sh"); then
  echo "cubism_motion_haru: SKIPPED: the Cubism Core (and Haru) could not be fetched from npm" >&2
  exit 77
fi
folder=$core/package/characters/haru_greeter_pro_jp/runtime
if [[ ! -d $folder ]]; then
  echo "cubism_motion_haru: SKIPPED: no Haru model in $core" >&2
  exit 77
fi
mkdir -p "$work"
exec "$here/../../scripts/cubism_motion_table.sh" "$folder" "$(dirname "$bin")" "$@"
