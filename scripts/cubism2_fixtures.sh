#!/usr/bin/env bash
# Records the Cubism 2 fixtures (tests/cubism2/fixture_mocs.hpp): each synthetic model written
# by our own .moc writer, evaluated by the Cubism 2.1 runtime (live2d.min.js from npm, into the
# cache) at the fixture's poses; what it computed goes to tests/cubism2/fixtures/NAME.json, which
# is committed, and tests/cubism2/fixtures_test.cpp holds p2lrt to it. Development time only:
# run it after changing a fixture's model or poses.
#   scripts/cubism2_fixtures.sh [BUILD]      (BUILD: build/ by default)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
CACHE=${P2L_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/p2lrt}
cmake --build "$BUILD" --target p2l_moc2_make > /dev/null
scripts/npm_fetch.sh live2dcubismcore 1.0.2 live2d.min.js > /dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$BUILD/tests/cubism2/p2l_moc2_make" "$work" --fixtures
for moc in "$work"/*.moc; do
  name=$(basename "$moc" .moc)
  node scripts/cubism2_reference.mjs "$CACHE/live2dcubismcore-1.0.2/package/live2d.min.js" "$moc" "$work/$name.poses.json" \
    "$work/$name.runtime.json"
  node -e '
    const fs = require("fs");
    const [posesPath, runtimePath, out, name] = process.argv.slice(1);
    const runtime = JSON.parse(fs.readFileSync(runtimePath, "utf8"));
    const poses = JSON.parse(fs.readFileSync(posesPath, "utf8"));
    const fixture = {
      fixture: name,
      recorded: "Cubism 2.1 runtime live2d.min.js (npm live2dcubismcore 1.0.2) by scripts/cubism2_fixtures.sh",
      canvas: runtime.canvas,
      poses: poses.map((pose, i) => ({ pose, drawables: runtime.poses[i] })),
    };
    // Nine significant digits: every float the runtime stores comes back exactly.
    fs.writeFileSync(out, JSON.stringify(fixture, (k, v) => (typeof v === "number" ? Number(v.toPrecision(9)) : v)) + "\n");' "$work/$name.poses.json" "$work/$name.runtime.json" \
    "tests/cubism2/fixtures/$name.json" "$name"
done
# The hair physics on the rotations model (tests/cubism2/hair_test.cpp).
node scripts/cubism2_hair_reference.mjs "$CACHE/live2dcubismcore-1.0.2/package/live2d.min.js" "$work/rotations.moc" \
  tests/cubism2/fixtures/hair.physics.json tests/cubism2/fixtures/hair.frames.json tests/cubism2/fixtures/hair.json
ls -l tests/cubism2/fixtures
