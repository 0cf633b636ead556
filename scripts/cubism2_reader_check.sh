#!/usr/bin/env bash
# p2lrt's .moc and .mtn readers against the Cubism 2.1 runtime on every npm widget model and
# motion (web/test/cubism2_reader.mjs): exits 77 (skipped) when the packages cannot be fetched.
#   scripts/cubism2_reader_check.sh PATH/TO/p2l_moc2_dump [MODEL.moc|MOTION.mtn...]
set -euo pipefail
dump=$1
shift
root=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${P2L_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/p2lrt}
if [[ $# -eq 0 ]]; then
  # The list first, so that a fetch that fails is seen (a process substitution's status is not).
  if ! list=$("$root/scripts/cubism2_models.sh" --mtn); then
    echo "cubism2_reader_check: the npm packages could not be fetched: skipped" >&2
    exit 77
  fi
  mapfile -t models <<< "$list"
else
  "$root/scripts/npm_fetch.sh" live2dcubismcore 1.0.2 live2d.min.js > /dev/null || exit 77
  models=("$@")
fi
exec node "$root/web/test/cubism2_reader.mjs" "$CACHE/live2dcubismcore-1.0.2/package/live2d.min.js" "$dump" "${models[@]}"
