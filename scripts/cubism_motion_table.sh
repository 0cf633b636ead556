#!/usr/bin/env bash
# Motions and expressions of a Cubism model as p2lrt plays them against Cubism's own Web
# Framework (tests/cubism_motion/): every motion the model3.json lists (physics and pose on),
# and every expression over the model's first Idle motion, at 60 Hz; every parameter and
# part opacity at every frame. Prints a table: model, motion or expression, frames, the worst
# difference (fraction of the parameter's range; part opacities absolute) and where.
#
#   scripts/cubism_motion_table.sh MODEL_FOLDER [BUILD_DIR] [--bound B] [--only N] [--dump DIR]
#
# MODEL_FOLDER holds one *.model3.json. BUILD_DIR (default build) has p2l_motion_trace.
# --only N: the N longest motions and the first expression only (what CI runs). The Core is
# $P2L_CORE5 (default ~/.cache/p2lrt/cores/core-5.1.0.js) when present, else npm's 4.2.2
# (moc3 versions 1-4; P2L_CORE4_ONLY=1 forces it); the Framework comes from npm (tests/physics_reference/fetch_framework.sh).
# Nothing of either, nor of the model, enters the repository. Exit status: 0 all within the
# bound (default 1e-3), 1 some above, 77 missing node, Core or Framework.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
folder=${1:?usage: cubism_motion_table.sh MODEL_FOLDER [BUILD_DIR] [--bound B] [--only N] [--dump DIR]}
shift
build=$root/build
if [[ $# -gt 0 && $1 != --* ]]; then build=$1; shift; fi
bound=1e-3 only=0 dump=
while [[ $# -gt 0 ]]; do
  case $1 in
    --bound) bound=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --dump) dump=$2; shift 2 ;;
    *) echo "cubism_motion_table: unknown option $1" >&2; exit 2 ;;
  esac
done
trace=$build/tests/cubism_motion/p2l_motion_trace
[[ -x $trace ]] || trace=$build/p2l_motion_trace
if [[ ! -x $trace ]]; then echo "cubism_motion_table: no p2l_motion_trace in $build" >&2; exit 2; fi
if ! command -v node > /dev/null; then echo "cubism_motion_table: SKIPPED: node is not installed" >&2; exit 77; fi
if ! framework=$("$root/tests/physics_reference/fetch_framework.sh"); then
  echo "cubism_motion_table: SKIPPED: Cubism's Web Framework could not be fetched from npm" >&2
  exit 77
fi
shopt -s nullglob
models=("$folder"/*.model3.json)
if [[ ${#models[@]} -ne 1 ]]; then echo "cubism_motion_table: expected one .model3.json in $folder" >&2; exit 2; fi
model=${models[0]}
moc=$(node -e 'const m=require(process.argv[1]);console.log(m.FileReferences.Moc)' "$(realpath "$model")")
version=$(od -An -tu1 -j4 -N1 "$folder/$moc" | tr -d ' ')
core5=${P2L_CORE5:-$HOME/.cache/p2lrt/cores/core-5.1.0.js}
if [[ -f $core5 && ${P2L_CORE4_ONLY:-0} != 1 ]]; then
  core=$core5  # the newest official Core: it loads versions 1-5 and reports repeat parameters
elif [[ $version -ge 5 ]]; then
  echo "cubism_motion_table: SKIPPED: moc3 version $version needs Core 5 ($core5)" >&2
  exit 77
else
  if ! pkg=$("$root/scripts/fetch_cubism_core.sh"); then
    echo "cubism_motion_table: SKIPPED: the Cubism Core could not be fetched from npm" >&2
    exit 77
  fi
  core=$pkg/package/live2dcubismcore.min.js
fi

# Runs: "motion FILE" per motion (longest first with --only), "expression NAME FILE IDLE".
list=$(node - "$(realpath "$model")" "$only" <<'JS'
const fs = require('fs'), path = require('path');
const [file, only] = [process.argv[2], Number(process.argv[3])];
const m = JSON.parse(fs.readFileSync(file, 'utf8')), dir = path.dirname(file);
const seen = new Set(), motions = [];
for (const [group, list] of Object.entries(m.FileReferences.Motions || {}))
  for (const e of list) {
    if (seen.has(e.File)) continue;
    seen.add(e.File);
    const d = JSON.parse(fs.readFileSync(path.join(dir, e.File), 'utf8')).Meta.Duration;
    motions.push({ file: e.File, group, d });
  }
let chosen = motions;
if (only > 0) chosen = [...motions].sort((a, b) => b.d - a.d).slice(0, only);
for (const x of chosen) console.log(`motion\t${x.file}`);
const idle = (motions.find((x) => x.group === 'Idle') || motions[0] || {}).file;
const expressions = (m.FileReferences.Expressions || []).slice(0, only > 0 ? 1 : undefined);
if (idle) for (const e of expressions) console.log(`expression\t${e.Name}\t${e.File}\t${idle}`);
JS
)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
name=$(basename "$model" .model3.json)
status=0
printf 'model\tmotion or expression\tframes\tworst\twhere\n'
while IFS=$'\t' read -r kind a b c; do
  [[ -n $kind ]] || continue
  if [[ $kind == motion ]]; then
    file=$a clip=$(basename "$a" .motion3.json) extra=() label="$name	$clip"
    driver=(--motion "$clip")
  else
    file=$c clip=$(basename "$c" .motion3.json) extra=(--expression "$b") label="$name	$a (over $clip)"
    driver=(--motion "$clip" --expression "$a")
  fi
  if ! "$trace" "$model" "${driver[@]}" > "$work/p2lrt.tsv"; then
    echo "cubism_motion_table: the driver failed on $label" >&2
    status=1
    continue
  fi
  out=(--bound "$bound" --label "$label" --motion "$file" "${extra[@]}")
  [[ -n $dump ]] && mkdir -p "$dump" && cp "$work/p2lrt.tsv" "$dump/$clip${b:+.$b}.p2lrt.tsv" &&
    out+=(--dump "$dump/$clip${b:+.$b}.cubism.tsv")
  node "$root/tests/cubism_motion/cubism_motion.js" "$framework" "$core" "$model" "$work/p2lrt.tsv" "${out[@]}"
  rc=$?
  if [[ $rc -ne 0 ]]; then status=1; fi
done <<< "$list"
exit $status
