// web/p2l.js in node against the WebAssembly module: loading (and refusing), parameters,
// update and evaluate, views into the module's memory, clips with events, expressions, poses,
// hit tests, advanced mode, freeing. Uses the bundled example character.
//   node web/test/p2l_module.mjs build-wasm/p2l.wasm examples/character/character.p2lrt
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { Advanced, Runtime, Stage } from '../p2l.js';

const [wasmPath, rigPath] = process.argv.slice(2);
const runtime = await Runtime.load(await readFile(wasmPath));
assert.equal(runtime.abi, 0x10004);
assert.throws(() => runtime.rig(new Uint8Array([1, 2, 3])), /could not be loaded: .+/);

const bytes = await readFile(rigPath);
const rig = runtime.rig(bytes, { verifyCrc: true });
assert.ok(rig.width > 0 && rig.height > 0);
assert.ok(rig.parameters.length > 0 && rig.meshes.length > 0);

// A parameter moves the vertices it drives; views see the runtime's own memory.
const angle = rig.parameterIndex('ParamAngleX');
assert.ok(angle >= 0);
rig.evaluate();
const before = rig.meshes.map((_, m) => Float32Array.from(rig.vertices(m)));
rig.setParameter('ParamAngleX', 30);
rig.evaluate();
assert.equal(rig.values()[angle], 30);
assert.equal(rig.current()[angle], 30);
const moved = rig.meshes.map((_, m) => m).filter((m) => rig.changes(m) & 32);
assert.ok(moved.length > 0, 'some mesh moved with ParamAngleX');
for (const m of moved) assert.notDeepEqual(Float32Array.from(rig.vertices(m)), before[m]);
for (let m = 0; m < rig.meshes.length; m++) if (!moved.includes(m)) assert.deepEqual(Float32Array.from(rig.vertices(m)), before[m]);
const order = rig.renderOrder();
assert.ok(order.length > 0 && order.length <= rig.meshes.length);
assert.equal(rig.indices(0).length % 3, 0);
assert.equal(rig.uvs(0).length, rig.meshes[0].vertexCount * 2);

// Clips: play one with events and collect what fires over its length.
const fired = [];
if (rig.clips.length) {
  rig.play(rig.clips[0]);
  for (let k = 0; k < 300; k++) {
    rig.update(1 / 60);
    fired.push(...rig.events());
  }
}
// Expressions and poses switch without complaint; advanced mode turns on what the file carries.
if (rig.expressions.length) rig.expression(rig.expressions[0]);
if (rig.poseGroups.length) assert.equal(rig.showPose(0, 0), true);
const available = rig.advancedAvailable();
assert.equal(rig.setAdvanced(available), available);
for (let k = 0; k < 60; k++) rig.update(1 / 60, Stage.ALL);
if (available & Advanced.COLLISION) assert.ok(rig.colliders().length > 0);
for (const bone of rig.bones) assert.equal(rig.boneTransform(bone)?.length ?? 6, 6);
assert.equal(rig.setAdvanced(0), 0);

// A hit test in the middle of the first hit area's first mesh.
if (rig.hitAreas.length) {
  rig.evaluate();
  const hits = rig.hitAreas.filter((_, i) => {
    for (let m = 0; m < rig.meshes.length; m++) {
      const v = rig.vertices(m);
      for (let j = 0; j + 1 < v.length; j += 2) if (rig.hitTest(v[j], v[j + 1]) === rig.hitAreas[i]) return true;
    }
    return false;
  });
  assert.ok(hits.length > 0, 'a hit area reports itself over its own vertices');
}

rig.free();
assert.throws(() => rig.evaluate(), /freed/);
console.log(`p2l.js: ${rig.meshes.length} meshes, ${rig.clips.length} clips (${fired.length} events fired), ` +
            `${rig.hitAreas.length} hit areas, advanced ${available}: all checks passed`);
