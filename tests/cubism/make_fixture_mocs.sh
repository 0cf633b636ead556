#!/usr/bin/env bash
# Writes the fixtures' synthetic models (fixtures/LIST.txt: name, seed, moc3 version, generator
# features) as OUT_DIR/NAME.moc3 with the generator. The models are not committed: only what
# the official Cores computed for them is (fixtures/NAME*.json, .bin); the generator writes the
# same bytes from the same line every time, which record_fixtures.sh into another folder shows.
#   make_fixture_mocs.sh MAKE_BIN OUT_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
make=${1:?usage: make_fixture_mocs.sh MAKE_BIN OUT_DIR}
out=${2:?usage: make_fixture_mocs.sh MAKE_BIN OUT_DIR}
mkdir -p "$out"
while read -r name seed version features _; do
  [[ -z $name || $name == \#* ]] && continue
  "$make" "$seed" "$out/$name.moc3" --version "$version" --features "$features" < /dev/null > /dev/null
done < "$here/fixtures/LIST.txt"
