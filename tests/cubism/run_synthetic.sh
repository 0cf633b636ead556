#!/usr/bin/env bash
# Synthetic moc3 files against the official Cubism Core 4.2.2: for COUNT seeds, writes a
# random model (p2l_make_moc3) as moc3 version 3 and version 4, runs the Core over seeded
# poses (core_poses.js) and compares p2lrt's import (p2l_cubism_fidelity). Prints one line a
# file (pass/fail and the worst errors) and the full comparison of each failure. Exits 77
# (skipped) only when the Core cannot be fetched or node is missing, 1 when any file fails.
#   run_synthetic.sh FIDELITY_BIN MAKE_BIN WORK_DIR COUNT [FEATURES] [VERSIONS] [FIRST_SEED]
# FEATURES is p2l_make_moc3's --features list (default: "default"); VERSIONS e.g. "4"
# (default "3 4"); POSES in the environment sets the poses a file (default 50).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fidelity=$1 make=$2 work=$3 count=$4 features=${5:-default} versions=${6:-3 4} first=${7:-1}
poses=${POSES:-50}
source "$here/core_env.sh" run_synthetic
mkdir -p "$work"
# The Core over the poses. node has been seen (rarely) to hang on exit after writing its
# output: the run counts when core_poses.js printed its closing line.
run_core() {
  rm -f "$work/$name-core.json"
  timeout -s KILL 30 node "$here/core_poses.js" "$core/package/live2dcubismcore.min.js" "$moc" "$poses" "$seed" \
    "$work/$name-core" >> "$log" 2>&1 || grep -q '^core_poses: ' "$log"
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
    if "$fidelity" "$moc" "$work/$name-core" ${FIDELITY_FLAGS:-} >> "$log" 2>&1; then
      pass=$((pass + 1))
      # worst numbers, one line: "vertex 6.1e-08 opacity 0 colour 0"
      summary=$(awk '/worst vertex error/ {v=$4} /capped at 1:/ {o=$(NF-5)} /worst colour error/ {c=$4}
                     END {printf "vertex %s opacity %s colour %s", v, o, (c == "" ? "-" : c)}' "$log")
      echo "$name: pass ($summary)"
    else
      echo "$name: FAIL"
      grep -v '^Live2D Cubism SDK' "$log" | grep -v '^core_poses:' | sed 's/^/    /'
      fail=$((fail + 1)) failed+=("$name")
    fi
  done
done
echo "run_synthetic: $pass passed, $fail failed${failed:+ (${failed[*]})}; features: $features; files in $work"
[[ $fail -eq 0 ]]
