// p2lrt's Cubism 2 import against the Cubism 2.1 runtime, pose by pose: for each .moc, seeded
// poses (the defaults, all at minimum, all at maximum, each parameter at each of its key values
// with the rest at their defaults, then random poses inside and beyond the ranges) set in the
// runtime and in p2lrt (tests/cubism2/moc2_dump.cpp POSES), and for every mesh the runtime
// draws: its vertices (the worst difference as a fraction of the canvas width), opacity, draw
// order, and whether p2lrt draws it too. One line a model; --json writes the figures; --check
// fails (exit 1) when a model is off by more than 1e-5 of the width or 1e-6 in opacity, or
// differs in a draw order or in what is drawn.
//   node web/test/cubism2_geometry.mjs LIVE2D_MIN_JS P2L_MOC2_DUMP [--poses N] [--json OUT] [--check] MODEL.moc...
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadRuntime, Model } from './cubism2_runtime.mjs';

const args = process.argv.slice(2);
const [runtime, dump] = args.splice(0, 2);
let count = 200, jsonOut = null, check = false;
for (let i = 0; i < args.length;) {
  if (args[i] === '--poses') { count = Number(args[i + 1]); args.splice(i, 2); }
  else if (args[i] === '--check') { check = true; args.splice(i, 1); }
  else if (args[i] === '--json') { jsonOut = args[i + 1]; args.splice(i, 2); }
  else i++;
}
loadRuntime(runtime);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cubism2-geometry-'));

// A seeded generator, so that a run is repeatable.
function generator(seed) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
}

function posesFor(params, keys, n) {
  const poses = [{}, Object.fromEntries(params.map((p) => [p.id, p.min])), Object.fromEntries(params.map((p) => [p.id, p.max]))];
  for (const [id, values] of Object.entries(keys)) for (const v of values) if (poses.length < n / 2) poses.push({ [id]: v });
  const random = generator(7);
  while (poses.length < n) {
    const beyond = poses.length % 10 === 0;  // one in ten past the ends (both clamp)
    poses.push(Object.fromEntries(params.map((p) => {
      const span = p.max - p.min;
      return [p.id, beyond ? p.min - 0.5 * span + 2 * span * random() : p.min + span * random()];
    })));
  }
  return poses.map((p) => Object.fromEntries(Object.entries(p).map(([k, v]) => [k, Math.fround(v)])));
}

const rows = [];
for (const file of args) {
  const name = path.basename(file);
  const info = JSON.parse(execFileSync(dump, [file], { encoding: 'utf8', maxBuffer: 1 << 30 }));
  const model = new Model(fs.readFileSync(file));
  const params = model.parameters();
  const poses = posesFor(params, info.keys, count);
  // p2lrt clamps as the runtime's setParamFloat does.
  const posesPath = path.join(work, 'poses.txt');
  // Tab-separated: ids may hold spaces ("PARAM_UP DOWN").
  fs.writeFileSync(posesPath, poses.map((p) => Object.entries(p).map(([k, v]) => `${k}\t${v}`).join('\t')).join('\n') + '\n');
  const ours = JSON.parse(execFileSync(dump, [file, posesPath], { encoding: 'utf8', maxBuffer: 1 << 30 }));
  const width = model.canvas()[0];
  const row = { model: name, file, poses: poses.length, meshes: 0, vertex: 0, vertexAt: '', opacity: 0, opacityAt: '', order: 0, drawn: 0, hidden: 0, nan: 0 };
  poses.forEach((pose, pi) => {
    model.pose(pose);
    model.drawables().forEach((d, i) => {
      const o = ours[pi][i];
      if (!d.drawn) {
        if (o.drawn && o.opacity > 0) row.hidden++;  // the runtime hides it, p2lrt draws it
        return;
      }
      // Five or more axes between keys on the mesh's chain: the runtime's defect (NaN positions,
      // wrong weights), where p2lrt interpolates as meant (docs/RUNTIME.md): counted apart.
      if (o.five || d.points.some((v) => !Number.isFinite(v))) { row.nan++; return; }
      row.meshes++;
      if (!o.drawn && d.opacity > 0) row.drawn++;
      for (let k = 0; k < d.points.length; k++) {
        const e = Math.abs(d.points[k] - o.points[k]) / width;
        if (!(e <= row.vertex)) { row.vertex = e; row.vertexAt = `pose ${pi}, ${d.id}`; }
      }
      const e = Math.abs(d.opacity - o.opacity);
      if (e > row.opacity) { row.opacity = e; row.opacityAt = `pose ${pi}, ${d.id}`; }
      if (d.order !== o.order) row.order++;
    });
  });
  rows.push(row);
  console.log(`cubism2_geometry: ${name}: ${row.poses} poses, ${row.meshes} meshes drawn; vertices ${row.vertex.toExponential(2)} of the width` +
    ` (${row.vertexAt}); opacity ${row.opacity.toExponential(2)}${row.opacity > 1e-6 ? ` (${row.opacityAt})` : ''};` +
    ` draw order differs ${row.order}; p2lrt hides ${row.drawn}, draws ${row.hidden} the runtime hides` +
    (row.nan ? `; ${row.nan} under five or more interpolating axes (the runtime's defect), apart` : ''));
}
fs.rmSync(work, { recursive: true, force: true });
if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(rows, null, 1));
if (check) {
  const failed = rows.filter((r) => r.vertex > 1e-5 || r.opacity > 1e-6 || r.order || r.drawn || r.hidden);
  for (const r of failed) console.error(`cubism2_geometry: ${r.model} is off the runtime`);
  if (failed.length || rows.length === 0) process.exit(1);
}
