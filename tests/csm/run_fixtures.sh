#!/usr/bin/env bash
# The C API against Core 6.0.1 on the Cubism fixtures (tests/cubism/fixtures): each model made by
# the generator, dumped by the C99 host over the fixture poses (--poses 60 --parts), compared bit
# for bit (--tolerance 0) with the committed dump: every drawable, those the Core disables too
# (their arrays are the Core's buffers as earlier updates left them, docs/CUBISM_CORE.md), and
# every flag. The dumps in fixtures/KNOWN.txt must still differ.
#   run_fixtures.sh CSM_DUMP COMPARE_DUMPS MAKE_MOC3 WORK_DIR
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dump=$1 compare=$2 make=$3 work=$4
fixtures=$here/../cubism/fixtures
rm -rf "$work" && mkdir -p "$work"
"$here/../cubism/make_fixture_mocs.sh" "$make" "$work" > /dev/null || { echo "run_fixtures: the generator failed" >&2; exit 1; }
declare -A known
while read -r name _; do [[ -z $name || $name == \#* ]] || known[$name]=1; done < "$fixtures/KNOWN.txt"
failed=0 passed=0
while read -r name _; do
  [[ -z $name || $name == \#* ]] && continue
  "$dump" "$work/$name.moc3" "$work/$name" --poses 60 --parts 2> "$work/$name.log" || { echo "$name: csm_dump failed: $(cat "$work/$name.log")"; failed=$((failed + 1)); continue; }
  if "$compare" "$fixtures/$name" "$work/$name" --tolerance 0 > "$work/$name.txt"; then
    result=same
  else
    result=DIFFERENT
  fi
  if [[ -n ${known[$name]:-} ]]; then
    [[ $result == DIFFERENT ]] && result="different, as KNOWN.txt says" || { result="same: take it out of KNOWN.txt"; failed=$((failed + 1)); }
  elif [[ $result == DIFFERENT ]]; then
    failed=$((failed + 1)); cat "$work/$name.txt"
  else
    passed=$((passed + 1))
  fi
  echo "$name: $result"
done < "$fixtures/LIST.txt"
echo "run_fixtures: $passed equal to Core 6.0.1, $failed failed"
[[ $failed -eq 0 ]]
