#!/usr/bin/env bash
# Compares p2lrt with every recorded Core dump of the fixtures (fixtures/LIST.txt): one
# Markdown row per dump (p2l_cubism_compare --row: worst vertex error in model units, opacity,
# colour, then visibility, draw-order, render-order and constant-data mismatches). Exits 1 when
# any dump is not matched within p2l_cubism_compare's bounds, 0 when all are.
#   compare_fixtures.sh COMPARE_BIN [FIXTURES_DIR]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
compare=${1:?usage: compare_fixtures.sh COMPARE_BIN [FIXTURES_DIR]}
dir=${2:-$here/fixtures}
list=$here/fixtures/LIST.txt
echo "| dump | moc3 | poses | vertex | opacity | colour | visibility | draw order | render order | constant | result |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
failed=0
while read -r name _; do
  [[ -z $name || $name == \#* ]] && continue
  for prefix in "$dir/$name" "$dir/$name-core422"; do
    [[ -f $prefix.json ]] || continue
    # (p2l_cubism_compare exits 1 on a mismatch, after printing its row)
    row=$("$compare" "$dir/$name.moc3" "$prefix" --name "$(basename "$prefix")" --row --quiet 2>&1 < /dev/null)
    row=$(grep '^|' <<< "$row") || row="| $(basename "$prefix") | import or comparison failed: ${row//$'\n'/ } |"
    [[ $row == *"| pass |" ]] || failed=$((failed + 1))
    echo "$row"
  done
done < "$list"
echo
echo "compare_fixtures: $failed dumps not matched"
[[ $failed -eq 0 ]]
