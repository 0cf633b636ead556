// p2lrt's .moc reader (tests/cubism2/moc2_dump.cpp) against the Cubism 2.1 runtime: for each
// model, the same canvas, the same parameters (id, range, default), and the same drawables in
// the same order with the same texture, vertex count and triangles.
//   node web/test/cubism2_reader.mjs LIVE2D_MIN_JS P2L_MOC2_DUMP MODEL.moc...
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { loadRuntime, Model } from './cubism2_runtime.mjs';

const [runtime, dump, ...models] = process.argv.slice(2);
loadRuntime(runtime);
let failures = 0;
for (const path of models) {
  const ours = JSON.parse(execFileSync(dump, [path], { encoding: 'utf8' }));
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
console.log(`cubism2_reader: ${models.length - failures} of ${models.length} models read as the Cubism 2.1 runtime reads them`);
process.exit(failures ? 1 : 0);
