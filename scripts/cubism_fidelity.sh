#!/usr/bin/env bash
# p2lrt against the official Cubism Core on real models: for each MODEL (a folder holding a
# .model3.json, or a .model3.json or .moc3 file), runs the newest official Core that loads its
# moc3 over the pose set of tests/cubism/core_dump.js (defaults, all-min, all-max, a quarter of
# the range beyond each end, every key of every parameter, random mixtures; random part
# opacities on some poses), imports the model under Cubism's rules and prints one Markdown row:
# the worst vertex error in model units, opacity, colour, then the visibility, draw-order,
# render-order and constant-data mismatches, and pass when all are within the bounds of
# issue 20 (1e-5 units, 3e-7, 3e-7, none).
#   scripts/cubism_fidelity.sh [--poses N] [--seed S] [--fresh] [--core FILE] [--keep DIR] MODEL...
# The poses run one after another on one model, as a host plays them (the Core keeps state
# between updates); --fresh makes each the first update of a model of its own, on both sides.
# The Cores are not in the repository and cannot be (their licence): the npm Core 4.2.2 is
# fetched into ~/.cache/p2lrt; newer ones are looked for as ~/.cache/p2lrt/cores/core-X.Y.Z.js
# (P2L_CUBISM_CORES names another folder): the official redistributable live2dcubismcore.min.js
# of that version, saved under that name. --core uses one file for every model. Exits 1 when a
# model does not pass, 2 on a usage error.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
poses=200 seed=1 core_file="" keep="" fresh=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --poses) poses=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --fresh) fresh=(--fresh); shift ;;
    --core) core_file=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "cubism_fidelity: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[[ $# -gt 0 ]] || { echo "usage: cubism_fidelity.sh [--poses N] [--seed S] [--fresh] [--core FILE] [--keep DIR] MODEL..." >&2; exit 2; }
command -v node > /dev/null || { echo "cubism_fidelity: node is not installed" >&2; exit 2; }

compare=${P2L_BUILD:-$root/build}/tests/cubism/p2l_cubism_compare
if [[ ! -x $compare ]]; then
  echo "cubism_fidelity: building p2l_cubism_compare in ${P2L_BUILD:-$root/build}" >&2
  [[ -f ${P2L_BUILD:-$root/build}/CMakeCache.txt ]] ||
    cmake -S "$root" -B "${P2L_BUILD:-$root/build}" -G Ninja -DCMAKE_BUILD_TYPE=Release > /dev/null || exit 2
  cmake --build "${P2L_BUILD:-$root/build}" --target p2l_cubism_compare > /dev/null || exit 2
fi

# The Cores to try, newest first.
cores=()
if [[ -n $core_file ]]; then
  cores=("$core_file")
else
  dir=${P2L_CUBISM_CORES:-$HOME/.cache/p2lrt/cores}
  while read -r f; do cores+=("$f"); done < <(ls "$dir"/core-*.js 2> /dev/null | sort -t- -k2 -V -r)
  if npm=$("$here/fetch_cubism_core.sh" 2> /dev/null); then cores+=("$npm/package/live2dcubismcore.min.js"); fi
  [[ ${#cores[@]} -gt 0 ]] || { echo "cubism_fidelity: no Cubism Core found (see the comment at the top)" >&2; exit 2; }
fi

work=${keep:-$(mktemp -d)}
mkdir -p "$work"
[[ -n $keep ]] || trap 'rm -rf "$work"' EXIT

echo "| model | moc3 | Core | poses | vertex (units) | bit-equal | opacity | colour | visibility | draw order | render order | constant | hidden | result |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
failed=0
for model in "$@"; do
  if [[ -d $model ]]; then
    input=$(ls "$model"/*.model3.json 2> /dev/null | head -1)
    [[ -n $input ]] || input=$(ls "$model"/*.moc3 2> /dev/null | head -1)
  else
    input=$model
  fi
  name=$(basename "${model%/}")
  name=${name%.model3.json}
  if [[ -z $input || ! -f $input ]]; then
    echo "| $name | no .model3.json or .moc3 here |"; failed=$((failed + 1)); continue
  fi
  moc=$input
  if [[ $input == *.model3.json ]]; then
    rel=$(node -e 'const j=JSON.parse(require("fs").readFileSync(process.argv[1]));process.stdout.write(((j.FileReferences||{}).Moc)||"")' "$input")
    moc=$(dirname "$input")/$rel
  fi
  [[ -f $moc ]] || { echo "| $name | its moc3 ($moc) is missing |"; failed=$((failed + 1)); continue; }
  prefix=$work/$(printf %s "$name" | tr -c 'A-Za-z0-9_.-' _)
  used=""
  for core in "${cores[@]}"; do
    # node has been seen (rarely) to hang on exit after writing its output: the run counts
    # when core_dump.js printed its closing line.
    timeout -s KILL 900 node "$root/tests/cubism/core_dump.js" "$core" "$moc" "$prefix" --poses "$poses" --seed "$seed" \
      --parts "${fresh[@]}" > "$prefix.core.log" 2>&1 || grep -q '^core_dump: Core' "$prefix.core.log" || continue
    used=$(sed -n 's/^core_dump: Core \([0-9.]*\),.*/\1/p' "$prefix.core.log")
    break
  done
  if [[ -z $used ]]; then
    echo "| $name | no Core loads it: $(tail -1 "$prefix.core.log") |"; failed=$((failed + 1)); continue
  fi
  out=$("$compare" "$input" "$prefix" --name "$name" --row --quiet 2>&1 < /dev/null)
  if [[ $input != "$moc" && $out == *"no such file"* ]]; then
    # A side file (a texture, say) is not there: the geometry needs only the moc3.
    out=$("$compare" "$moc" "$prefix" --name "$name (moc3 alone: a side file is missing)" --row --quiet 2>&1 < /dev/null)
  fi
  row=$(grep '^|' <<< "$out") || { echo "| $name | import or comparison failed: $(tr '\n' ' ' <<< "$out") |"; failed=$((failed + 1)); continue; }
  # p2l_cubism_compare's row: | name | moc3 | poses | vertex | bit-equal | ...; the Core goes after the version.
  row=$(awk -F'|' -v core="$used" 'BEGIN{OFS="|"} {$3=$3"| "core" "; print}' <<< "$row")
  [[ $row == *"| pass |" ]] || failed=$((failed + 1))
  echo "$row"
done
[[ $failed -eq 0 ]] || { echo; echo "cubism_fidelity: $failed of $# not within the bounds"; exit 1; }
