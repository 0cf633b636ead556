// p2lrt's Cubism 2 readers (tests/cubism2/moc2_dump.cpp) against the Cubism 2.1 runtime. For
// each .moc, the same canvas, the same parameters (id, range, default), and the same drawables
// in the same order with the same texture, vertex count and triangles; for each .mtn, the same
// frame rate, frames, duration, and curves (id, values as float32) in the same order.
//   node web/test/cubism2_reader.mjs LIVE2D_MIN_JS P2L_MOC2_DUMP MODEL.moc|MOTION.mtn...
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { loadRuntime, Model } from './cubism2_runtime.mjs';

const [runtime, dump, ...models] = process.argv.slice(2);
loadRuntime(runtime);
let failures = 0, motions = 0;

// The runtime's motion: fps, frames, duration and curves through this build's member names.
function motionProblems(path, ours) {
  const bytes = fs.readFileSync(path);
  const m = globalThis.Live2DMotion.loadMotion(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const problems = [];
  if (m._$D0 !== ours.fps) problems.push(`fps ${ours.fps} against ${m._$D0}`);
  if (m._$yT !== ours.frames) problems.push(`${ours.frames} frames against ${m._$yT}`);
  if (m.getDurationMSec() !== ours.duration) problems.push(`${ours.duration} ms against ${m.getDurationMSec()}`);
  const curves = m.motions;
  if (curves.length !== ours.curves.length) problems.push(`${ours.curves.length} curves against ${curves.length}`);
  curves.forEach((c, i) => {
    const o = ours.curves[i];
    if (!o || o.id !== c._$4P) problems.push(`curve ${i}: ${o && o.id} against ${c._$4P}`);
    else if (o.values.length !== c._$I0.length || o.values.some((v, k) => Math.fround(v) !== c._$I0[k]))
      problems.push(`${o.id}: values differ`);
  });
  return problems;
}

for (const path of models) {
  const ours = JSON.parse(execFileSync(dump, [path], { encoding: 'utf8' }));
  if (path.endsWith('.mtn')) {
    const problems = motionProblems(path, ours);
    motions++;
    if (problems.length) {
      failures++;
      console.log(`cubism2_reader: ${path.split('/').slice(-1)[0]}: ${problems.slice(0, 3).join('; ')}`);
    }
    continue;
  }
  const theirs = new Model(fs.readFileSync(path));
  const problems = [];
  const [w, h] = theirs.canvas();
  if (w !== ours.canvas[0] || h !== ours.canvas[1]) problems.push(`canvas ${ours.canvas} against ${[w, h]}`);
  const params = theirs.parameters();
  if (params.length !== ours.parameters.length) problems.push(`${ours.parameters.length} parameters against ${params.length}`);
  params.forEach((p, i) => {
    const q = ours.parameters[i];
    if (!q || q.id !== p.id || Math.fround(q.min) !== p.min || Math.fround(q.max) !== p.max || Math.fround(q.value) !== p.value)
      problems.push(`parameter ${i}: ${JSON.stringify(q)} against ${JSON.stringify(p)}`);
  });
  if (theirs.count !== ours.drawables.length) problems.push(`${ours.drawables.length} drawables against ${theirs.count}`);
  for (let i = 0; i < Math.min(theirs.count, ours.drawables.length); i++) {
    const d = theirs.model.getDrawData(i), o = ours.drawables[i];
    const id = d.getDrawDataID().toString();
    const indices = Array.from(d.getIndexArray());
    if (id !== o.id) problems.push(`drawable ${i}: ${o.id} against ${id}`);
    else if (d.getTextureNo() !== o.texture) problems.push(`${id}: texture ${o.texture} against ${d.getTextureNo()}`);
    else if (d.getNumPoints() !== o.vertices) problems.push(`${id}: ${o.vertices} vertices against ${d.getNumPoints()}`);
    else if (indices.length !== o.indices.length || indices.some((v, k) => v !== o.indices[k])) problems.push(`${id}: triangles differ`);
  }
  const name = path.split('/').slice(-1)[0];
  if (problems.length) {
    failures++;
    console.log(`cubism2_reader: ${name}: ${problems.length} differences, first: ${problems.slice(0, 3).join('; ')}`);
  } else {
    console.log(`cubism2_reader: ${name}: v${ours.version}, ${ours.parameters.length} parameters, ${ours.drawables.length} drawables as the runtime reads them`);
  }
}
console.log(`cubism2_reader: ${models.length - failures} of ${models.length} files (${models.length - motions} models, ${motions} motions) read as the Cubism 2.1 runtime reads them`);
process.exit(failures ? 1 : 0);
