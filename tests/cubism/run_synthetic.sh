#!/usr/bin/env bash
# Synthetic moc3 files against the official Cubism Core 4.2.2: for COUNT seeds, writes a
# random model (p2l_make_moc3) as moc3 version 3 and version 4, runs the Core over the pose set
# of core_dump.js (random part opacities included) and compares p2lrt's import under Cubism's
# rules (p2l_cubism_compare). Prints one line a file (pass/fail and the worst errors) and the
# full comparison of each failure. Exits 77 (skipped) only when the Core cannot be fetched or
# node is missing, 1 when any file fails.
#   run_synthetic.sh COMPARE_BIN MAKE_BIN WORK_DIR COUNT [FEATURES] [VERSIONS] [FIRST_SEED]
# FEATURES is p2l_make_moc3's --features list (default: "default"); VERSIONS e.g. "4"
# (default "3 4"); POSES in the environment sets the poses a file (default 50); COMPARE_FLAGS
# adds options to the comparison.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
compare=$1 make=$2 work=$3 count=$4 features=${5:-default} versions=${6:-3 4} first=${7:-1}
poses=${POSES:-50}
source "$here/core_env.sh" run_synthetic
mkdir -p "$work"
# node has been seen (rarely) to hang on exit after writing its output: the run counts when
# core_dump.js printed its closing line.
run_core() {
  rm -f "$work/$name-core.json"
  timeout -s KILL 60 node "$here/core_dump.js" "$core/package/live2dcubismcore.min.js" "$moc" "$work/$name-core" \
    --poses "$poses" --seed "$seed" --parts >> "$log" 2>&1 || grep -q '^core_dump: Core' "$log"
}
pass=0 fail=0 failed=()
for ((seed = first; seed < first + count; ++seed)); do
  for version in $versions; do
    name="seed$seed-v$version"
    moc="$work/$name.moc3" log="$work/$name.log"
    if ! "$make" "$seed" "$moc" --version "$version" --features "$features" > "$log" 2>&1 || ! run_core; then
      echo "$name: FAIL (generator or Core)"
      sed 's/^/    /' "$log"
      fail=$((fail + 1)) failed+=("$name")
      continue
    fi
    # shellcheck disable=SC2086
    if "$compare" "$moc" "$work/$name-core" --name "$name" --row --quiet ${COMPARE_FLAGS:-} >> "$log" 2>&1; then
      pass=$((pass + 1))
      echo "$name: pass $(tail -1 "$log")"
    else
      echo "$name: FAIL"
      grep -v '^Live2D Cubism SDK' "$log" | grep -v '^core_dump:' | sed 's/^/    /'
      fail=$((fail + 1)) failed+=("$name")
    fi
  done
done
echo "run_synthetic: $pass passed, $fail failed${failed:+ (${failed[*]})}; features: $features; files in $work"
[[ $fail -eq 0 ]]
