#!/usr/bin/env bash
# Regenerates the Cubism fixtures from their list (fixtures/LIST.txt: name, seed, moc3 version,
# generator features, what the fixture is for): the generator writes NAME.moc3, then each
# official Core dumps it over the fixture pose set (core_dump.js --poses 60 --parts):
#   Core 6.0.1 ($P2L_CORES/core-6.0.1.js)  -> NAME.json, NAME.bin          (every fixture)
#   Core 5.1.0 ($P2L_CORES/core-5.1.0.js)  -> NAME-core51.json, .bin       (versions 1-5 only:
#                                                                            it refuses version 6)
#   Core 4.2.2 (scripts/fetch_cubism_core.sh) -> NAME-core422.json, .bin    (versions 1-4 only:
#                                                                            it loads no later)
# Prints one line per file it writes. A Core that refuses a file, or (5.x) a file that fails
# csmHasMocConsistency, stops it: a fixture must be a file the official Core accepts.
#   record_fixtures.sh MAKE_BIN [OUT_DIR [NAME...]]
# MAKE_BIN: the p2l_make_moc3 binary. OUT_DIR defaults to the fixtures folder (its .moc3 files
# are ignored by git: the tests write them again with make_fixture_mocs.sh); another folder
# shows whether the generator still writes the committed files (cmp the .moc3 files). NAMEs
# record only those fixtures of the list (e.g. a new one, leaving the others' dumps alone);
# OUT_DIR "" is the fixtures folder.
# P2L_CORES: the folder of the WebAssembly Cores (default ~/.cache/p2lrt/cores). Nothing of a
# Core is written into the repository, only what it computed for our own synthetic files.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
make=${1:?usage: record_fixtures.sh MAKE_BIN [OUT_DIR [NAME...]]}
out=${2:-$here/fixtures}
shift $(($# < 2 ? $# : 2))
declare -A only
for name in "$@"; do only[$name]=1; done
list=$here/fixtures/LIST.txt
cores=${P2L_CORES:-$HOME/.cache/p2lrt/cores}
poses=60
mkdir -p "$out"
command -v node > /dev/null || { echo "record_fixtures: node is not installed" >&2; exit 1; }

core6=$cores/core-6.0.1.js core51=$cores/core-5.1.0.js
for f in "$core6" "$core51"; do
  [[ -f $f ]] || { echo "record_fixtures: no $(basename "$f") in $cores (set P2L_CORES)" >&2; exit 1; }
done
core422=
if dir=$("$here/../../scripts/fetch_cubism_core.sh" 2> /dev/null); then
  core422=$dir/package/live2dcubismcore.min.js
else
  echo "record_fixtures: Core 4.2.2 could not be fetched; its dumps are left as they are" >&2
fi

# One dump; the closing line of core_dump.js says it wrote its files (node has been seen to
# hang on exit after that, hence the timeout and the check of the log rather than the status).
dump() {  # CORE_JS MOC PREFIX
  local log=$3.log
  timeout -s KILL 60 node "$here/core_dump.js" "$1" "$2" "$3" --poses $poses --parts < /dev/null > /dev/null 2> "$log" ||
    true
  local line
  line=$(grep '^core_dump: ' "$log" || true)
  rm -f "$log"
  if [[ $line != *" poses -> "* ]]; then
    echo "record_fixtures: $(basename "$2"): ${line:-the Core wrote nothing}" >&2
    exit 1
  fi
  if [[ $line == *"NOT consistent"* ]]; then
    echo "record_fixtures: $(basename "$2") fails csmHasMocConsistency: $line" >&2
    exit 1
  fi
  echo "  ${line#core_dump: }"
}

count=0
while read -r name seed version features description; do
  [[ -z $name || $name == \#* ]] && continue
  [[ $# -eq 0 || -n ${only[$name]:-} ]] || continue
  unset "only[$name]"
  moc=$out/$name.moc3
  echo "$name: seed $seed, version $version, features $features"
  echo "  $("$make" "$seed" "$moc" --version "$version" --features "$features" < /dev/null)"
  dump "$core6" "$moc" "$out/$name"
  if [[ $version -le 5 ]]; then dump "$core51" "$moc" "$out/$name-core51"; fi
  if [[ -n $core422 && $version -le 4 ]]; then dump "$core422" "$moc" "$out/$name-core422"; fi
  count=$((count + 1))
done < "$list"
for name in "${!only[@]}"; do echo "record_fixtures: no fixture $name in $list" >&2; exit 1; done
echo "record_fixtures: $count fixtures in $out ($(du -sh "$out" | cut -f1))"
