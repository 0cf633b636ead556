#!/usr/bin/env bash
# Motions and expressions of a Cubism model as p2lrt plays them against Cubism's own Web
# Framework (tests/cubism_motion/): every motion the model3.json lists (physics and pose on),
# and every expression over the model's first Idle motion, at 60 Hz; every parameter and
# part opacity at every frame. Prints a table: model, motion or expression, frames, the worst
# difference (fraction of the parameter's range; part opacities absolute) and where.
#
#   scripts/cubism_motion_table.sh MODEL_FOLDER [BUILD_DIR] [--bound B] [--only N] [--dump DIR]
#                                  [--sequences | --sequences-only] [--gap F,...] [--return-to-pose]
#
# MODEL_FOLDER holds one *.model3.json. BUILD_DIR (default build) has p2l_motion_trace.
# --only N: the N longest motions and the first expression only (what CI runs). The Core is
# $P2L_CORE5 (default ~/.cache/p2lrt/cores/core-5.1.0.js; a Core 6 file plays version 6)
# when present, else npm's 4.2.2 (moc3 versions 1-4; P2L_CORE4_ONLY=1 forces it); the
# Framework comes from npm (tests/physics_reference/fetch_framework.sh).
# --sequences: also, for every motion group with two motions or more, its motions one after
# another as the sample app plays them: "chain" per gap F of --gap (a comma list, default
# "1,30"), each motion started F updates after the one that dropped the motion before, and F
# updates more at the end, so that the updates after a motion ends (nothing playing, the
# values it left kept) are compared: F = 1 is the sample's own rhythm (it finds the queue
# empty, starts the next motion without updating it, and updates it from the next frame on);
# "cross-fade", each started halfway through the one before. --sequences-only: those alone.
# --return-to-pose: p2lrt shows the host's pose again once no motion plays (its option
# against Cubism's behaviour; the chains then fail).
# Nothing of the Core, the Framework or the model enters the repository. Exit status: 0 all
# within the bound (default 1e-3), 1 some above, 77 missing node, Core or Framework.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
folder=${1:?usage: cubism_motion_table.sh MODEL_FOLDER [BUILD_DIR] [--bound B] [--only N] [--dump DIR] [--sequences | --sequences-only] [--gap F,...] [--return-to-pose]}
shift
build=$root/build
if [[ $# -gt 0 && $1 != --* ]]; then build=$1; shift; fi
bound=1e-3 only=0 dump= sequences=none gaps=1,30 trace_options=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --bound) bound=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --dump) dump=$2; shift 2 ;;
    --sequences) sequences=also; shift ;;
    --sequences-only) sequences=only; shift ;;
    --gap) gaps=$2; shift 2 ;;
    --return-to-pose) trace_options+=(--return-to-pose); shift ;;
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

# Runs, one a line, fields apart by "|" (a tab would not keep empty fields apart): name,
# expression name, expression file, frames (empty: until the last motion is dropped), then the
# motions started as FILE@FRAME;FILE@FRAME...
list=$(node - "$(realpath "$model")" "$only" "$sequences" "$gaps" <<'JS'
const fs = require('fs'), path = require('path');
const [file, only, sequences] = [process.argv[2], Number(process.argv[3]), process.argv[4]];
const gaps = process.argv[5].split(',').map(Number);
const m = JSON.parse(fs.readFileSync(file, 'utf8')), dir = path.dirname(file);
const rate = 60;  // p2l_motion_trace's default
const duration = (f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')).Meta.Duration;
// Updates a motion plays: Cubism drops it on the one whose time (0 on the first) reaches its
// duration (p2l_motion_trace's default frame count).
const updates = (f) => Math.ceil(duration(f) * rate - 1e-9) + 1;
const name = (f) => path.basename(f, '.motion3.json');
const groups = Object.entries(m.FileReferences.Motions || {}).map(([g, list]) => [g, [...new Set(list.map((e) => e.File))]]);
const seen = new Set(), motions = [];
for (const [group, files] of groups)
  for (const f of files) if (!seen.has(f)) (seen.add(f), motions.push({ file: f, group, d: duration(f) }));
const run = (label, plays, frames = '', expression = ['', '']) =>
  console.log([label, ...expression, frames, plays.map((p) => `${p.file}@${p.frame}`).join(';')].join('|'));
if (sequences !== 'only') {
  let chosen = motions;
  if (only > 0) chosen = [...motions].sort((a, b) => b.d - a.d).slice(0, only);
  for (const x of chosen) run(name(x.file), [{ file: x.file, frame: 1 }]);
  const idle = (motions.find((x) => x.group === 'Idle') || motions[0] || {}).file;
  const expressions = (m.FileReferences.Expressions || []).slice(0, only > 0 ? 1 : undefined);
  if (idle)
    for (const e of expressions) run(`${e.Name} (over ${name(idle)})`, [{ file: idle, frame: 1 }], '', [e.Name, e.File]);
}
// A group's motions in order, each started [after(previous)] updates after the one before.
const sequence = (label, files, after, tail) => {
  const plays = [];
  let frame = 1;
  for (const f of files) {
    if (plays.length) frame += after(plays[plays.length - 1].file);
    plays.push({ file: f, frame });
  }
  run(label, plays, frame - 1 + updates(files[files.length - 1]) + tail);
};
if (sequences !== 'none')
  for (const [group, files] of groups) {
    if (files.length < 2) continue;
    for (const gap of gaps) sequence(`${group} chain (${files.length}, gap ${gap})`, files, (f) => updates(f) + gap, gap);
    sequence(`${group} cross-fade (${files.length})`, files, (f) => Math.floor(updates(f) / 2), Math.max(...gaps));
  }
JS
)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
name=$(basename "$model" .model3.json)
status=0
printf 'model\tmotion or expression\tframes\tworst\twhere\n'
while IFS='|' read -r label expression expression_file frames plays; do
  [[ -n $label ]] || continue
  driver=("${trace_options[@]}") out=(--bound "$bound" --label "$name	$label")
  IFS=';' read -ra starts <<< "$plays"
  for start in "${starts[@]}"; do
    clip=$(basename "${start%@*}" .motion3.json)
    driver+=(--play "$clip@${start##*@}")
    out+=(--play "$start")
  done
  [[ -n $frames ]] && driver+=(--frames "$frames")
  [[ -n $expression ]] && driver+=(--expression "$expression") && out+=(--expression "$expression_file")
  if ! "$trace" "$model" "${driver[@]}" > "$work/p2lrt.tsv"; then
    echo "cubism_motion_table: the driver failed on $name $label" >&2
    status=1
    continue
  fi
  if [[ -n $dump ]]; then
    file=$dump/${label//[^A-Za-z0-9_.-]/_}
    mkdir -p "$dump" && cp "$work/p2lrt.tsv" "$file.p2lrt.tsv" && out+=(--dump "$file.cubism.tsv")
  fi
  node "$root/tests/cubism_motion/cubism_motion.js" "$framework" "$core" "$model" "$work/p2lrt.tsv" "${out[@]}" ||
    status=1
done <<< "$list"
exit $status
