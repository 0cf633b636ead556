#!/usr/bin/env bash
# Compares p2lrt with every recorded Core dump of the fixtures (fixtures/LIST.txt): one
# Markdown row per dump (p2l_cubism_compare --row: worst vertex error in model units, opacity,
# colour, then visibility, draw-order, render-order and constant-data mismatches). The dumps in
# fixtures/KNOWN.txt are expected not to match (their rows end "known"). Exits 1 when another
# dump is not matched (Core 6.0.1's to the bit, Core 5.1.0's and 4.2.2's within
# p2l_cubism_compare's default bounds), or a known one is, 0 otherwise. The models themselves
# are written first by the generator (make_fixture_mocs.sh), into a temporary folder.
#   compare_fixtures.sh COMPARE_BIN MAKE_BIN [FIXTURES_DIR]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
compare=${1:?usage: compare_fixtures.sh COMPARE_BIN MAKE_BIN [FIXTURES_DIR]}
make=${2:?usage: compare_fixtures.sh COMPARE_BIN MAKE_BIN [FIXTURES_DIR]}
dir=${3:-$here/fixtures}
list=$here/fixtures/LIST.txt
mocs=$(mktemp -d)
trap 'rm -rf "$mocs"' EXIT
"$here/make_fixture_mocs.sh" "$make" "$mocs" || { echo "compare_fixtures: the generator failed" >&2; exit 1; }
declare -A known
while read -r name reason; do
  [[ -z $name || $name == \#* ]] || known[$name]=$reason
done < "$here/fixtures/KNOWN.txt"
echo "| dump | moc3 | poses | vertex | bit-equal | opacity | colour | visibility | draw order | render order | constant | hidden | result |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
failed=0
while read -r name _; do
  [[ -z $name || $name == \#* ]] && continue
  for prefix in "$dir/$name" "$dir/$name-core51" "$dir/$name-core422"; do
    [[ -f $prefix.json ]] || continue
    # (p2l_cubism_compare exits 1 on a mismatch, after printing its row)
    # The newest Core's dumps to the bit; the older Cores', which round some operations apart
    # from it, within the comparison's default bounds.
    exact=(--vertex-bound 0 --opacity-bound 0 --color-bound 0)
    [[ $prefix == *-core51 || $prefix == *-core422 ]] && exact=()
    row=$("$compare" "$mocs/$name.moc3" "$prefix" --name "$(basename "$prefix")" "${exact[@]}" --row --quiet 2>&1 < /dev/null)
    row=$(grep '^|' <<< "$row") || row="| $(basename "$prefix") | import or comparison failed: ${row//$'\n'/ } |"
    dump=$(basename "$prefix")
    if [[ -n ${known[$dump]:-} ]]; then
      if [[ $row == *"| pass |" ]]; then
        row="$row matches now: take it out of KNOWN.txt |"; failed=$((failed + 1))
      else
        row="${row% FAIL |} known: ${known[$dump]} |"
      fi
    elif [[ $row != *"| pass |" ]]; then
      failed=$((failed + 1))
    fi
    echo "$row"
  done
done < "$list"
echo
echo "compare_fixtures: $failed dumps not matched"
[[ $failed -eq 0 ]]
