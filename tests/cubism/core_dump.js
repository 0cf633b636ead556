#!/usr/bin/env node
// Runs an official Cubism Core (4.2 asm.js from npm, or a 5.x / 6.x redistributable file, kept
// in a cache outside the repository) over a fixed set of poses of a .moc3 and writes exactly
// what it computes, float bits included, for p2lrt's fidelity tools to compare with.
//
//   node core_dump.js CORE_JS MODEL.moc3 OUT_PREFIX [--poses N] [--seed S] [--parts] [--constants] [--fresh]
//
// Poses (deterministic for a seed): the defaults, all at minimum, all at maximum, all a
// quarter-range below the minimum and above the maximum, every parameter on a key (one
// pose per key index, clamped to each parameter's key count), then random mixtures until
// N (default 200): uniform in [min - range/4, max + range/4], on random keys, in range,
// and some parameters left at their defaults. With --parts, every third random pose also
// sets random part opacities (0, 1 or uniform in between).
//
// Poses are evaluated one after another on one model, as a host does (the Core keeps state from
// one update to the next: a hidden mesh's buffers, a glue's last intensity). With --fresh each
// pose is the first update of a model of its own (the JSON then says "fresh": true).
//
// With --constants, OUT_PREFIX.const.bin: every drawable's UVs (float32), then every drawable's
// triangle indices (uint16), as tests/csm/csm_dump.c writes them.
//
// Cores that have it (5.x, 6.x) also run csmHasMocConsistency, the stricter check the official
// Framework can ask for before loading, and record its answer ("consistent": 1 or 0).
//
// Writes OUT_PREFIX.json (the Core's version, the moc version, canvas, parameters with keys,
// parts, drawables with their constant data, and per pose the values set, the draw orders,
// render orders and dynamic flags) and OUT_PREFIX.bin: per pose, float32 little-endian, the
// vertex positions of every drawable in the Core's model units (y up), then D opacities,
// D x 4 multiply colours, D x 4 screen colours, P parameter values read back after the
// update and the part opacities read back.
//
// With offscreens (Core 6.x, moc3 version 6; nothing of this is written when the model has
// none, so the dumps of older files stay as they were): the JSON also has "offscreens" (per
// offscreen its owner part, blendMode = colour blend | alpha blend << 8, constantFlags and
// masks) and per part its "offscreen" index (-1 none); the render orders of each pose then
// hold D + O entries (drawables, then offscreens); the .bin has after each pose's floats the
// O offscreen opacities, O x 4 multiply and O x 4 screen colours.
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');

const args = process.argv.slice(2);
const positional = [];
const options = { poses: 200, seed: 1, parts: false, constants: false, fresh: false };
for (let i = 0; i < args.length; ++i) {
  if (args[i] === '--poses') options.poses = Number(args[++i]);
  else if (args[i] === '--seed') options.seed = Number(args[++i]);
  else if (args[i] === '--parts') options.parts = true;
  else if (args[i] === '--constants') options.constants = true;
  else if (args[i] === '--fresh') options.fresh = true;
  else positional.push(args[i]);
}
const [coreJs, mocPath, outPrefix] = positional;
if (!outPrefix) {
  console.error('usage: node core_dump.js CORE_JS MODEL.moc3 OUT_PREFIX [--poses N] [--seed S] [--parts]');
  process.exit(2);
}

// The Core is a browser script: evaluate it in a function that gives it the names its
// emscripten loader looks for, and take the namespace it declares.
function loadCore(file) {
  const load = vm.runInThisContext(
    `(function (__dirname, __filename, require) {${fs.readFileSync(file, 'utf8')}\n;return Live2DCubismCore; })`,
    { filename: file });
  return load(path.dirname(path.resolve(file)), path.resolve(file), require);
}

// SplitMix64, as tests/random_rig.hpp: the same seed gives the same poses everywhere.
function splitmix(seed) {
  let state = BigInt.asUintN(64, BigInt(seed));
  return () => {
    state = BigInt.asUintN(64, state + 0x9e3779b97f4a7c15n);
    let z = state;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    return Number(BigInt.asUintN(64, z ^ (z >> 31n)) >> 11n) / 2 ** 53;
  };
}

// Core 5 and 6 instantiate their WebAssembly asynchronously: a call before that fails.
async function ready(Core, bytes) {
  for (let tries = 0; tries < 200; ++tries) {
    try {
      return Core.Moc.fromArrayBuffer(bytes);
    } catch (e) {
      if (!(e instanceof TypeError)) throw e;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  throw new Error(`${coreJs}: the Core did not start`);
}

function poseValues(p, count, random) {
  const n = p.count, poses = [];
  const min = (i) => p.minimumValues[i], max = (i) => p.maximumValues[i];
  const def = (i) => p.defaultValues[i];
  const keys = (i) => (p.keyValues && p.keyValues[i] && p.keyValues[i].length ? p.keyValues[i] : [def(i)]);
  const all = (f) => Array.from({ length: n }, (_, i) => f(i));
  poses.push(all(def), all(min), all(max));
  poses.push(all((i) => min(i) - 0.25 * (max(i) - min(i))), all((i) => max(i) + 0.25 * (max(i) - min(i))));
  let most = 0;
  for (let i = 0; i < n; ++i) most = Math.max(most, keys(i).length);
  for (let k = 0; k < most; ++k) poses.push(all((i) => keys(i)[Math.min(k, keys(i).length - 1)]));
  for (let k = 0; poses.length < count; ++k) {
    const kind = k % 4;
    poses.push(all((i) => {
      const lo = min(i), hi = max(i), range = hi - lo;
      if (kind === 0) return lo - 0.25 * range + 1.5 * range * random();
      if (kind === 1) return keys(i)[Math.floor(random() * keys(i).length)];
      if (kind === 2) return lo + range * random();
      return random() < 0.5 ? def(i) : lo + range * random();
    }));
  }
  return poses.slice(0, Math.max(count, 1));
}

(async () => {
  const Core = loadCore(coreJs);
  const bytes = fs.readFileSync(mocPath);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
  const moc = await ready(Core, buffer);
  if (!moc) throw new Error(`${mocPath}: the Core refuses this moc3`);
  // Only after the WebAssembly has started (ready() returned): the check needs its memory.
  const check = Core.Moc.prototype.hasMocConsistency;
  const consistent = typeof check === 'function' ? (check.call(moc, buffer) ? 1 : 0) : undefined;
  const model = Core.Model.fromMoc(moc);
  const canvas = model.canvasinfo;
  const p = model.parameters, parts = model.parts, d = model.drawables;
  const o = model.offscreens && model.offscreens.count > 0 ? model.offscreens : null;
  const version = Core.Version.csmGetVersion();
  const renderOrders = () => (typeof model.getRenderOrders === 'function' ? model.getRenderOrders() : d.renderOrders);
  const out = {
    core: `${version >>> 24}.${(version >> 16) & 0xff}.${version & 0xffff}`,
    mocVersion: Core.Version.csmGetMocVersion(moc, buffer),
    consistent,
    canvas: { width: canvas.CanvasWidth, height: canvas.CanvasHeight, originX: canvas.CanvasOriginX,
              originY: canvas.CanvasOriginY, pixelsPerUnit: canvas.PixelsPerUnit },
    parameters: Array.from({ length: p.count }, (_, i) => ({
      id: p.ids[i], min: p.minimumValues[i], max: p.maximumValues[i], default: p.defaultValues[i],
      type: p.types ? p.types[i] : 0, repeat: p.repeats ? p.repeats[i] : 0,
      keys: p.keyValues ? Array.from(p.keyValues[i]) : [] })),
    parts: Array.from({ length: parts.count }, (_, i) => ({
      id: parts.ids[i], parent: parts.parentIndices ? parts.parentIndices[i] : -1, opacity: parts.opacities[i] })),
    drawables: Array.from({ length: d.count }, (_, i) => ({
      id: d.ids[i], vertexCount: d.vertexCounts[i], indexCount: d.indexCounts[i], constantFlags: d.constantFlags[i],
      texture: d.textureIndices[i], parentPart: d.parentPartIndices ? d.parentPartIndices[i] : -1,
      masks: Array.from(d.masks[i]), blendMode: d.blendModes ? d.blendModes[i] : undefined })),
    poses: [],
  };
  if (o) {
    // (the JavaScript Core's blend-mode views are 2 x count long; entry i is offscreen i's)
    out.parts.forEach((part, i) => { part.offscreen = parts.offscreenIndices[i]; });
    out.offscreens = Array.from({ length: o.count }, (_, i) => ({
      owner: o.ownerIndices[i], blendMode: o.blendModes[i], constantFlags: o.constantFlags[i],
      masks: Array.from(o.masks[i]) }));
    // ("poses" stays the last key, after "offscreens")
    const poses = out.poses;
    delete out.poses;
    out.poses = poses;
  }
  const values = poseValues(p, options.poses, splitmix(options.seed));
  const random = splitmix(options.seed + 1000003);
  const chunks = [];
  const initialPartOpacities = Array.from(parts.opacities);
  if (options.fresh) out.fresh = true;
  values.forEach((set, k) => {
    // --fresh: the same names over a model made for this pose (the first pose's is made already).
    const m = options.fresh && k > 0 ? Core.Model.fromMoc(moc) : model;
    const p = m.parameters, parts = m.parts, d = m.drawables;
    const o = m.offscreens && m.offscreens.count > 0 ? m.offscreens : null;
    const renderOrders = () => (typeof m.getRenderOrders === 'function' ? m.getRenderOrders() : d.renderOrders);
    for (let i = 0; i < p.count; ++i) p.values[i] = set[i];
    let partOpacities = null;
    if (options.parts) {
      if (k > 5 && k % 3 === 0) {
        partOpacities = initialPartOpacities.map(() => { const r = random(); return r < 0.2 ? 0 : r > 0.6 ? 1 : random(); });
      } else {
        partOpacities = initialPartOpacities;
      }
      for (let i = 0; i < parts.count; ++i) parts.opacities[i] = partOpacities[i];
    }
    m.update();
    const orders = renderOrders();
    out.poses.push({ values: set, partOpacities: partOpacities && k > 5 && k % 3 === 0 ? partOpacities : undefined,
                     drawOrder: Array.from(d.drawOrders), renderOrder: Array.from(orders),
                     dynamicFlags: Array.from(d.dynamicFlags) });
    const floats = [];
    for (let i = 0; i < d.count; ++i) floats.push(d.vertexPositions[i]);
    floats.push(d.opacities, d.multiplyColors, d.screenColors, p.values, parts.opacities);
    if (o) floats.push(o.opacities, o.multiplyColors, o.screenColors);
    for (const f of floats) chunks.push(Buffer.from(new Float32Array(f).buffer));
    d.resetDynamicFlags();
    if (m !== model) m.release();
  });
  if (options.constants) {
    const parts = [];
    for (let i = 0; i < d.count; ++i) parts.push(Buffer.from(new Float32Array(d.vertexUvs[i]).buffer));
    for (let i = 0; i < d.count; ++i) parts.push(Buffer.from(new Uint16Array(d.indices[i]).buffer));
    fs.writeFileSync(`${outPrefix}.const.bin`, Buffer.concat(parts));
  }
  fs.writeFileSync(`${outPrefix}.json`, JSON.stringify(out));
  fs.writeFileSync(`${outPrefix}.bin`, Buffer.concat(chunks));
  const verdict = consistent === undefined ? '' : consistent ? ', consistent' : ', NOT consistent (csmHasMocConsistency)';
  const offscreens = o ? `, ${o.count} offscreens` : '';
  console.error(`core_dump: Core ${out.core}, moc3 version ${out.mocVersion}${verdict}, ${d.count} drawables${offscreens}, ${values.length} poses -> ${outPrefix}.json, .bin`);
})().catch((e) => {
  console.error(`core_dump: ${e.message || e}`);
  process.exit(1);
});
