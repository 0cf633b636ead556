// The drop-in live2dcubismcore.js as the Cubism Web Frameworks use it: the namespace's members
// (those of the official Core 6.0.1 file, listed here as measured), the shape of a model's arrays,
// the Framework's own calling habits (hasMocConsistency on the prototype, csmGetMocVersion(moc,
// bytes), logging of a refused file, release), on a synthetic moc3.
//   node web/test/cubism_core_api.mjs LIVE2DCUBISMCORE_JS MODEL.moc3
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const [coreJs, mocPath] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const Core = require(resolve(coreJs));
let failures = 0;
const check = (ok, what) => { if (!ok) { ++failures; console.log(`cubism_core_api: FAIL ${what}`); } };

const namespace = ['AlignofMoc', 'AlignofModel', 'CanvasInfo', 'Drawables', 'Logging', 'Memory', 'Moc', 'Model', 'Offscreens',
  'Parameters', 'Parts', 'Utils', 'Version', 'MocVersion_53', 'ParameterType_BlendShape', 'ColorBlendType_Color', 'AlphaBlendType_DisjointOver'];
for (const name of namespace) check(name in Core, `Live2DCubismCore.${name} exists`);
check(Core.ColorBlendType_Color === 17 && Core.AlphaBlendType_DisjointOver === 4 && Core.MocVersion_53 === 6, 'constant values');
check(globalThis.Live2DCubismCore === Core, 'the global is set');
for (const [cls, names] of Object.entries({
  Version: ['csmGetVersion', 'csmGetLatestMocVersion', 'csmGetMocVersion'], Logging: ['csmSetLogFunction', 'csmGetLogFunction'],
  Memory: ['initializeAmountOfMemory'], Moc: ['fromArrayBuffer'], Model: ['fromMoc'],
  Utils: ['hasBlendAdditiveBit', 'hasBlendMultiplicativeBit', 'hasIsDoubleSidedBit', 'hasIsInvertedMaskBit', 'hasIsVisibleBit',
          'hasVisibilityDidChangeBit', 'hasOpacityDidChangeBit', 'hasDrawOrderDidChangeBit', 'hasRenderOrderDidChangeBit',
          'hasVertexPositionsDidChangeBit', 'hasBlendColorDidChangeBit'] }))
  for (const n of names) check(typeof Core[cls][n] === 'function', `${cls}.${n}`);
check(Core.Utils.hasVertexPositionsDidChangeBit(33) && !Core.Utils.hasOpacityDidChangeBit(33), 'Utils bits');

Core.Memory.initializeAmountOfMemory(32 * 1024 * 1024);
const lines = [];
Core.Logging.csmSetLogFunction((line) => lines.push(line));
check(Core.Moc.fromArrayBuffer(new ArrayBuffer(100)) === null, 'a non-moc gives null');
check(lines.length === 1 && lines[0].startsWith('[CSM] [E]csmReviveMocInPlace: '), `the refusal is logged: ${lines}`);
const bytes = readFileSync(mocPath);
const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
check(Core.Moc.prototype.hasMocConsistency(buffer) === 1, 'hasMocConsistency on the prototype');
const moc = Core.Moc.fromArrayBuffer(buffer);
check(moc !== null, 'the moc revives');
check(Core.Version.csmGetMocVersion(moc, buffer) === bytes[4], 'csmGetMocVersion(moc, bytes)');
const model = Core.Model.fromMoc(moc);
const d = model.drawables, p = model.parameters;
check(d.vertexPositions.length === d.count && d.vertexPositions.every((v, i) => v instanceof Float32Array && v.length === 2 * d.vertexCounts[i]),
      'vertexPositions: one Float32Array of 2 x vertexCount a drawable');
check(d.indices.every((v, i) => v instanceof Uint16Array && v.length === d.indexCounts[i]), 'indices');
check(d.dynamicFlags instanceof Uint8Array && d.multiplyColors.length === 4 * d.count, 'flags and colours');
check(p.values instanceof Float32Array && p.keyValues.every((k, i) => k.length === p.keyCounts[i]), 'parameters');
check(model.renderOrders.length === d.count + model.offscreens.count && model.getRenderOrders() === model.renderOrders, 'render orders');
// A live view: what the host writes takes effect, what the Core writes is read back.
const before = Array.from(d.vertexPositions[0]);
for (let i = 0; i < p.count; ++i) p.values[i] = p.maximumValues[i] + 1e6;
model.update();
check(p.values.every((v, i) => v === p.maximumValues[i] || p.repeats[i]), 'values clamped in place');
check(Array.from(d.vertexPositions[0]).some((v, i) => v !== before[i]) || d.count === 0, 'the views are live');
// A second model and more memory: earlier views stay valid within the reserved memory.
const second = Core.Model.fromMoc(moc);
second.update();
check(d.vertexPositions[0].length > 0, 'views survive a second model');
model.release();
second.release();
moc._release();
check(lines.length === 1, `nothing more was logged: ${lines.slice(1)}`);
console.log(`cubism_core_api: ${failures ? 'FAIL' : 'pass'} (${coreJs})`);
process.exit(failures ? 1 : 0);
