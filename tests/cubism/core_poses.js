#!/usr/bin/env node
// Drives the official Cubism Core (npm live2dcubismcore, fetched by
// scripts/fetch_cubism_core.sh into a cache outside the repository) over seeded random poses
// of a .moc3 and writes what it computes, for p2lrt's fidelity test (issue 4) to compare with.
//
//   node core_poses.js CORE_JS MODEL.moc3 POSES SEED OUT_PREFIX
//
// Writes OUT_PREFIX.json (canvas, parameters, drawable ids, the poses, and per pose and drawable
// opacity, draw order, render order, visibility and colours) and OUT_PREFIX.f32 (every pose's
// vertices in canvas pixels, y down: pixel = origin + (x, -y) * pixelsPerUnit), drawables in
// order, two floats a vertex. Values are drawn from a quarter-range beyond each end as well, so
// out-of-range and out-of-key behaviour is covered; every fourth pose snaps values to keys.
'use strict';
const fs = require('fs');
const vm = require('vm');

const [coreJs, mocPath, posesArg, seedArg, outPrefix] = process.argv.slice(2);
if (!outPrefix) {
  console.error('usage: node core_poses.js CORE_JS MODEL.moc3 POSES SEED OUT_PREFIX');
  process.exit(2);
}
// The Core is a plain browser script: run it in a function that hands it the few names its
// emscripten loader looks for, and take the namespace it declares.
const path = require('path');
const load = vm.runInThisContext(
  `(function (__dirname, __filename, require) {${fs.readFileSync(coreJs, 'utf8')}\n;return Live2DCubismCore; })`,
  { filename: coreJs });
const Core = load(path.dirname(path.resolve(coreJs)), path.resolve(coreJs), require);

// SplitMix64, as tests/random_rig.hpp: the same seed gives the same poses everywhere.
let state = BigInt.asUintN(64, BigInt(seedArg));
function next() {
  state = BigInt.asUintN(64, state + 0x9e3779b97f4a7c15n);
  let z = state;
  z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
  z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
  return BigInt.asUintN(64, z ^ (z >> 31n));
}
const uniform = () => Number(next() >> 11n) / 2 ** 53;

const bytes = fs.readFileSync(mocPath);
const moc = Core.Moc.fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
if (!moc) throw new Error(`${mocPath}: the Core refuses this moc3`);
const model = Core.Model.fromMoc(moc);
const canvas = model.canvasinfo;
const p = model.parameters, d = model.drawables;

const poses = Number(posesArg);
const version = Core.Version.csmGetVersion();
const out = {
  core: `${version >>> 24}.${(version >> 16) & 0xff}.${version & 0xffff}`,
  canvas: { width: canvas.CanvasWidth, height: canvas.CanvasHeight, originX: canvas.CanvasOriginX,
            originY: canvas.CanvasOriginY, pixelsPerUnit: canvas.PixelsPerUnit },
  parameters: Array.from({ length: p.count }, (_, i) => ({
    id: p.ids[i], min: p.minimumValues[i], max: p.maximumValues[i], default: p.defaultValues[i] })),
  drawables: Array.from({ length: d.count }, (_, i) => ({ id: d.ids[i], vertexCount: d.vertexCounts[i] })),
  poses: [],
};
const vertexFloats = out.drawables.reduce((n, x) => n + 2 * x.vertexCount, 0);
const vertices = new Float32Array(vertexFloats * poses);
let at = 0;
for (let k = 0; k < poses; ++k) {
  const values = [];
  for (let i = 0; i < p.count; ++i) {
    const lo = p.minimumValues[i], hi = p.maximumValues[i], range = hi - lo;
    let v = lo - 0.25 * range + 1.5 * range * uniform();
    if (k % 4 === 3 && p.keyValues && p.keyValues[i].length) {
      const keys = p.keyValues[i];
      v = keys[Math.floor(uniform() * keys.length)];
    }
    p.values[i] = v;
    values.push(v);
  }
  model.update();
  const pose = { values, opacity: [], drawOrder: [], renderOrder: [], visible: [], multiply: [], screen: [] };
  for (let i = 0; i < d.count; ++i) {
    const xy = d.vertexPositions[i];
    for (let j = 0; j < xy.length; j += 2) {
      vertices[at++] = canvas.CanvasOriginX + xy[j] * canvas.PixelsPerUnit;
      vertices[at++] = canvas.CanvasOriginY - xy[j + 1] * canvas.PixelsPerUnit;
    }
    pose.opacity.push(d.opacities[i]);
    pose.drawOrder.push(d.drawOrders[i]);
    pose.renderOrder.push(d.renderOrders[i]);
    pose.visible.push(d.dynamicFlags[i] & 1);
    pose.multiply.push(Array.from(d.multiplyColors.subarray(4 * i, 4 * i + 3)));
    pose.screen.push(Array.from(d.screenColors.subarray(4 * i, 4 * i + 3)));
  }
  // The values the Core used (it writes clamped values back; repeat parameters stay raw).
  pose.coreValues = Array.from(p.values);
  out.poses.push(pose);
  d.resetDynamicFlags();
}
// Timing: the same poses again, several rounds, update() alone (no reading back).
const rounds = Math.max(1, Math.ceil(2000 / Math.max(1, poses)));
const start = process.hrtime.bigint();
for (let r = 0; r < rounds; ++r)
  for (const pose of out.poses) {
    for (let i = 0; i < p.count; ++i) p.values[i] = pose.values[i];
    model.update();
  }
out.updateMicroseconds = Number(process.hrtime.bigint() - start) / 1000 / (rounds * Math.max(1, poses));
fs.writeFileSync(`${outPrefix}.json`, JSON.stringify(out));
fs.writeFileSync(`${outPrefix}.f32`, Buffer.from(vertices.buffer));
console.error(`core_poses: ${out.core} · ${d.count} drawables · ${poses} poses → ${outPrefix}.json, .f32`);
