// Runtime.importCubism (web/p2l.js over build-wasm/p2l-import.wasm) on a Cubism 2 model.json
// against the native `p2lrt import` of it: the same parameters, clips and report, and the same
// bits for every mesh's vertices, opacity and draw order at the defaults, at a pose and over 90
// updates of its first clip.
//   node web/test/import_cubism2.mjs build-wasm/p2l.wasm build-wasm/p2l-import.wasm MODEL.model.json NATIVE.p2lrt NATIVE_REPORT.txt
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { Runtime } from '../p2l.js';

const [wasmPath, importerPath, modelPath, nativePath, reportPath] = process.argv.slice(2);
const runtime = await Runtime.load(await readFile(wasmPath));
const importer = await WebAssembly.compile(await readFile(importerPath));
const native = runtime.rig(await readFile(nativePath));
const nativeReport = (await readFile(reportPath, 'utf8')).split('\n').filter((l) => l.startsWith('  ')).map((l) => l.slice(2));
const rig = await runtime.importCubism(pathToFileURL(modelPath), { importer });
assert.deepEqual(rig.parameters.map((p) => p.id), native.parameters.map((p) => p.id));
assert.deepEqual(rig.clips, native.clips);
assert.deepEqual(rig.importReport, nativeReport, 'the report is p2lrt import\'s, line for line');
const outputs = (r) => {
  const out = [];
  for (let m = 0; m < r.meshes.length; ++m) out.push(...r.vertices(m), r.opacity(m), r.drawOrder(m));
  out.push(...r.renderOrder());
  return new Uint32Array(new Float32Array(out).buffer);
};
let values = 0;
const same = (what) => {
  const a = outputs(rig), b = outputs(native);
  assert.equal(a.length, b.length);
  let differ = 0;
  for (let i = 0; i < a.length; ++i) differ += a[i] !== b[i];
  assert.equal(differ, 0, `${what}: ${differ} of ${a.length} values differ from the native import`);
  values += a.length;
};
for (const r of [rig, native]) r.evaluate();
same('defaults');
const angle = native.parameters.find((p) => /ANGLE_X$/i.test(p.id)) ?? native.parameters[0];
for (const r of [rig, native]) { r.setParameter(angle.id, 17.5); r.evaluate(); }
same('a pose');
for (const r of [rig, native]) r.play(native.clips[0]);
for (let frame = 0; frame < 90; ++frame) {
  for (const r of [rig, native]) r.update(1 / 60);
  same(`${native.clips[0]} frame ${frame}`);
}
console.log(`import_cubism2: ${modelPath.split('/').pop()} in JavaScript equals the native import: ${values} values, ` +
  `${rig.clips.length} clips, ${rig.importReport.length} report lines`);
