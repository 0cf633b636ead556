#!/usr/bin/env bash
# The drop-in live2dcubismcore.js in node, through tests/cubism/core_dump.js as it runs the
# official Cores: bit for bit against Core 6.0.1's committed dumps of the fixtures, every drawable
# (hidden ones too) and every flag, as run_fixtures.sh (fixtures/KNOWN.txt must still differ), and against the official Core 4.2.2
# on Haru within 1e-5 (skipped, saying so, without the npm package).
#   run_js.sh LIVE2DCUBISMCORE_JS COMPARE_DUMPS FIXTURE_MOCS_DIR WORK_DIR
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
core_js=$1 compare=$2 mocs=$3 work=$4
fixtures=$here/../cubism/fixtures
rm -rf "$work" && mkdir -p "$work"
declare -A known
while read -r name _; do [[ -z $name || $name == \#* ]] || known[$name]=1; done < "$fixtures/KNOWN.txt"
failed=0 passed=0
while read -r name _; do
  [[ -z $name || $name == \#* ]] && continue
  node "$here/../cubism/core_dump.js" "$core_js" "$mocs/$name.moc3" "$work/$name" --poses 60 --parts 2> "$work/$name.log" ||
    { echo "$name: core_dump.js failed: $(cat "$work/$name.log")"; failed=$((failed + 1)); continue; }
  if "$compare" "$fixtures/$name" "$work/$name" --tolerance 0 > "$work/$name.txt"; then
    [[ -n ${known[$name]:-} ]] && { echo "$name: same: take it out of KNOWN.txt"; failed=$((failed + 1)); } || passed=$((passed + 1))
  elif [[ -z ${known[$name]:-} ]]; then
    cat "$work/$name.txt"; failed=$((failed + 1))
  fi
done < "$fixtures/LIST.txt"
echo "run_js: $core_js: $passed fixtures equal to Core 6.0.1 bit for bit, $failed failed"
if core=$("$here/../../scripts/fetch_cubism_core.sh" 2> /dev/null) && moc=$(ls "$core"/package/characters/haru*/runtime/*.moc3 2> /dev/null | head -1); then
  node "$here/../cubism/core_dump.js" "$core/package/live2dcubismcore.min.js" "$moc" "$work/haru-official" --poses 200 --parts --constants 2> /dev/null &&
    node "$here/../cubism/core_dump.js" "$core_js" "$moc" "$work/haru-p2lrt" --poses 200 --parts --constants 2> /dev/null &&
    "$compare" "$work/haru-official" "$work/haru-p2lrt" --tolerance 1e-5 --change-bits-where-values-agree || failed=$((failed + 1))
else
  echo "run_js: the Cubism Core package could not be fetched; Haru skipped" >&2
fi
[[ $failed -eq 0 ]]
