// Runtime.importCubism (web/p2l.js over build-wasm/p2l-import.wasm) against the native import:
// the npm Haru imported from its model3.json URL and from files by name gives the rig
// `p2lrt import` writes, to the bit (every mesh's vertices, opacities and draw order at the
// default pose, at a changed pose, and over 90 updates of a motion with physics and pose), and
// its report line for line; a model3.json that is not JSON, a missing side file, a damaged moc3
// and unknown flags each fail with a message that names the problem, leave nothing behind, and
// the next import works.
//   node web/test/import_cubism.mjs build-wasm/p2l.wasm build-wasm/p2l-import.wasm HARU.model3.json NATIVE.p2lrt NATIVE_REPORT.txt
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join, relative, dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Runtime } from '../p2l.js';

const [wasmPath, importerPath, modelPath, nativePath, reportPath] = process.argv.slice(2);
const runtime = await Runtime.load(await readFile(wasmPath));
const importer = await WebAssembly.compile(await readFile(importerPath));
const nativeBytes = await readFile(nativePath);
// `p2lrt import` prints "Import report: N things ..." and then each line indented by two spaces.
const nativeReport = (await readFile(reportPath, 'utf8')).split('\n').filter((l) => l.startsWith('  ')).map((l) => l.slice(2));

// Every mesh's vertices, opacity and draw order, and the render order, as one list of numbers.
function outputs(rig) {
  const out = [];
  for (let m = 0; m < rig.meshes.length; ++m) out.push(...rig.vertices(m), rig.opacity(m), rig.drawOrder(m));
  out.push(...rig.renderOrder());
  return new Float32Array(out);
}
function sameBits(a, b, what) {
  assert.equal(a.length, b.length, `${what}: as many values`);
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length), y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  let differ = 0;
  for (let i = 0; i < x.length; ++i) differ += x[i] !== y[i];
  assert.equal(differ, 0, `${what}: ${differ} of ${x.length} values differ from the native import`);
  return x.length;
}
function compare(rig, what) {
  const native = runtime.rig(nativeBytes);  // fresh each time: the comparison plays it
  assert.deepEqual(rig.parameters.map((p) => p.id), native.parameters.map((p) => p.id));
  assert.deepEqual(rig.clips, native.clips);
  assert.deepEqual(rig.importReport, nativeReport, `${what}: the report is p2lrt import's, line for line`);
  let values = 0;
  for (const r of [rig, native]) r.evaluate();
  values += sameBits(outputs(rig), outputs(native), `${what}, default pose`);
  for (const r of [rig, native]) {
    r.setParameter('ParamAngleX', 17.5);
    r.setParameter('ParamBodyAngleZ', -6);
    r.evaluate();
  }
  values += sameBits(outputs(rig), outputs(native), `${what}, a pose`);
  const clip = native.clips.find((c) => /idle/i.test(c)) ?? native.clips[0];
  for (const r of [rig, native]) r.play(clip);
  for (let frame = 0; frame < 90; ++frame) {
    for (const r of [rig, native]) r.update(1 / 60);
    values += sameBits(outputs(rig), outputs(native), `${what}, ${clip} frame ${frame}`);
  }
  native.free();
  return values;
}

// From its URL: the side files are fetched relative to it (file: URLs are read from disk).
const url = pathToFileURL(modelPath);
let started = performance.now();
const fromUrl = await runtime.importCubism(url, { importer });
const urlMs = performance.now() - started;
let values = compare(fromUrl, 'from the URL');

// From files by name, as a page gets them from a folder dropped on it.
const folder = dirname(modelPath);
const files = {};
async function walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await walk(path);
    else files[relative(folder, path).split('\\').join('/')] = await readFile(path);
  }
}
await walk(folder);
const fromFiles = await runtime.importCubism(files, { importer });
values += compare(fromFiles, 'from files by name');

// Failures: the importer's words and no rig (the runtime module is not touched until an import
// succeeds; the importer's instance is dropped), and the next import works.
const model3 = JSON.parse(await readFile(modelPath, 'utf8'));
const name = modelPath.split('/').pop();
const fails = (source, pattern, what) => assert.rejects(runtime.importCubism(source, { importer }), pattern, what);
await fails({ ...files, [name]: new TextEncoder().encode('{"Version": 3, "FileReferences": ') },
  new RegExp(`^Error: p2l\\.js: ${name.replace(/\./g, '\\.')}: not valid JSON: parse error at line 1, column \\d+`), 'not JSON');
const motion = model3.FileReferences.Motions[Object.keys(model3.FileReferences.Motions)[0]][0].File;
const withoutMotion = { ...files };
delete withoutMotion[motion];
await fails(withoutMotion, new RegExp(`${motion.replace(/\./g, '\\.')}: no such file`), 'a missing motion');
const moc = files[model3.FileReferences.Moc];
const damaged = Uint8Array.from(moc);
damaged.fill(0xff, 64, 4096);
await fails({ ...files, [model3.FileReferences.Moc]: damaged }, new RegExp(`^Error: p2l\\.js: ${model3.FileReferences.Moc.replace(/\./g, '\\.')}: .+`), 'a damaged moc3');
await fails({ ...files, [model3.FileReferences.Moc]: moc.subarray(0, 1000) }, /moc3: .* the file has 1000$/, 'a cut moc3');
await assert.rejects(runtime.importCubism({}, { importer }), /no \.model3\.json or \.moc3/);
await fails(url.href.replace(name, 'nothing.model3.json'), /nothing\.model3\.json/, 'a model that is not there');
// A bare moc3 imports too, and the last good import still draws as before.
const bare = await runtime.importCubism({ 'haru.moc3': moc }, { importer });
assert.ok(bare.meshes.length === fromUrl.meshes.length && bare.clips.length === 0);
values += compare(await runtime.importCubism(files, { importer }), 'again after the failures');

for (const rig of [fromUrl, fromFiles, bare]) rig.free();
console.log(`import_cubism: Haru imported in ${urlMs.toFixed(0)} ms from its URL, and from files by name, ` +
  `${values} values equal to p2lrt import's bit for bit, ${nativeReport.length} report lines equal; failures named`);
