// A Cubism model in node: p2lrt's WebAssembly build (web/p2l.js over p2l.wasm) next to the
// official Cubism Core 4.2.2 (npm live2dcubismcore@1.0.2, JavaScript), in one process, on the
// same poses; with --native, the native p2lrt tool's evaluate() on the same random poses too.
// scripts/bench_web.sh builds what this needs and runs it; nothing it reads (the Core, the model,
// the imported .p2lrt) may enter the repository.
//
//   node bench/web/core_bench.mjs WASM MODEL.p2lrt MODEL.model3.json CORE_PACKAGE_DIR
//        [--frames 1000] [--reps 5] [--warmup 200] [--seed 1] [--clip ID] [--only p2l|core] [--native P2LRT]
//
// The compared workload, per frame: set every parameter, then compute deformed vertices,
// opacities and draw orders - the Core's model.update() against p2lrt's evaluate() (core
// evaluation alone, no animation). Two pose sets, the same values for both runtimes (mapped by
// parameter id): seeded random values within each range, and a smooth sweep of every parameter
// (a sine each, its own frequency and phase, at 60 fps) as a motion would move them. Each
// repetition times FRAMES frames of one runtime after the other, the order alternating between
// repetitions; the per-frame time of a repetition is its total over FRAMES. Reported: the median
// and the minimum over the repetitions, and p2lrt/Core of each (below 1: p2lrt is faster).
// Besides, p2lrt's update(1/60) with a clip playing (clips, blink, breath, part poses, physics,
// then the evaluation): the Core alone has no such stage (Cubism's Framework has), so no ratio.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import zlib from 'node:zlib';
import { Runtime } from '../../web/p2l.js';

const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const positional = [];
const options = { native: null, frames: 1000, reps: 5, warmup: 200, seed: 1, clip: null, only: null };
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--frames') options.frames = Number(args[++i]);
  else if (a === '--reps') options.reps = Number(args[++i]);
  else if (a === '--warmup') options.warmup = Number(args[++i]);
  else if (a === '--seed') options.seed = Number(args[++i]);
  else if (a === '--clip') options.clip = args[++i];
  else if (a === '--only') options.only = args[++i];  // profiling: time one runtime alone
  else if (a === '--native') options.native = args[++i];  // a native p2lrt tool: its evaluate() on the same random poses
  else positional.push(a);
}
const [wasmPath, rigPath, modelPath, corePackage] = positional;
if (!corePackage || !(options.frames > 0) || !(options.reps > 0) || !(options.warmup >= 0)) {
  console.error('usage: node core_bench.mjs WASM MODEL.p2lrt MODEL.model3.json CORE_PACKAGE_DIR|CORE.js [--frames N] [--reps N] ' +
                '[--warmup N] [--seed N] [--clip ID] [--only p2l|core] [--native P2LRT]');
  process.exit(2);
}
// A folder (npm's package) or a Core's .js file itself (Core 5 and 6, from a cache: not on npm).
const coreJs = corePackage.endsWith('.js') ? corePackage : path.join(corePackage, 'live2dcubismcore.min.js');
// The model's moc3 (and pose3, whose parts p2lrt's evaluate shows or hides and the Core alone
// does not) as its model3.json names them.
const modelJson = JSON.parse(readFileSync(modelPath, 'utf8'));
const modelName = path.basename(modelPath).replace(/\.model3\.json$/, '');
const mocPath = path.join(path.dirname(modelPath), modelJson.FileReferences.Moc);
const posePath = modelJson.FileReferences.Pose ? path.join(path.dirname(modelPath), modelJson.FileReferences.Pose) : null;

// --- the Core: a browser script; run it with the few names its emscripten loader looks for ---
const loadCore = vm.runInThisContext(
  `(function (__dirname, __filename, require) {${readFileSync(coreJs, 'utf8')}\n;return Live2DCubismCore; })`,
  { filename: coreJs });
const Core = loadCore(path.dirname(path.resolve(coreJs)), path.resolve(coreJs), require);
const mocBytes = readFileSync(mocPath);
// Cores 5 and 6 start their WebAssembly asynchronously: calls before that throw a TypeError.
let moc = null;
for (let tries = 0; ; ++tries) {
  try {
    moc = Core.Moc.fromArrayBuffer(mocBytes.buffer.slice(mocBytes.byteOffset, mocBytes.byteOffset + mocBytes.length));
    break;
  } catch (e) {
    if (!(e instanceof TypeError) || tries > 500) throw e;
    await new Promise((r) => setTimeout(r, 10));
  }
}
if (!moc) throw new Error(`${mocPath}: the Core refuses this moc3`);
const model = Core.Model.fromMoc(moc);
const coreParams = model.parameters, drawables = model.drawables, canvas = model.canvasinfo;
const coreVersion = (() => {
  const v = Core.Version.csmGetVersion();
  return `${v >>> 24}.${(v >> 16) & 0xff}.${v & 0xffff}`;
})();

// --- p2lrt ---
const runtime = await Runtime.load(readFileSync(wasmPath));
const memoryBefore = runtime.api.memory.buffer.byteLength;
const rig = runtime.rig(readFileSync(rigPath));
const memoryAfter = runtime.api.memory.buffer.byteLength;
const api = runtime.api;

// --- parameters by id ---
const n = coreParams.count;
const p2lIndex = new Int32Array(n);
for (let i = 0; i < n; i++) {
  p2lIndex[i] = rig.parameterIndex(coreParams.ids[i]);
  if (p2lIndex[i] < 0) throw new Error(`parameter ${coreParams.ids[i]} is not in ${rigPath}`);
}
if (rig.parameters.length !== n) throw new Error(`${rigPath} has ${rig.parameters.length} parameters, the moc3 ${n}`);

// --- poses: SplitMix64 as tests/random_rig.hpp, in the Core's parameter order ---
let state = BigInt.asUintN(64, BigInt(options.seed));
function uniform() {
  state = BigInt.asUintN(64, state + 0x9e3779b97f4a7c15n);
  let z = state;
  z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
  z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
  return Number(BigInt.asUintN(64, z ^ (z >> 31n)) >> 11n) / 2 ** 53;
}
const F = options.frames;
const lo = coreParams.minimumValues, hi = coreParams.maximumValues;
const random = new Float32Array(F * n), sweep = new Float32Array(F * n);
for (let k = 0; k < F; k++)
  for (let i = 0; i < n; i++) random[k * n + i] = lo[i] + (hi[i] - lo[i]) * uniform();
for (let i = 0; i < n; i++) {
  const hz = 0.2 + 0.8 * uniform(), phase = 2 * Math.PI * uniform();  // every parameter moves every frame
  for (let k = 0; k < F; k++)
    sweep[k * n + i] = lo[i] + (hi[i] - lo[i]) * (0.5 + 0.5 * Math.sin(2 * Math.PI * hz * (k / 60) + phase));
}
// The same values in p2lrt's parameter order (the import keeps the order; this does not rely on it).
const toP2l = (poses) => {
  const out = new Float32Array(poses.length);
  for (let k = 0; k < F; k++) for (let i = 0; i < n; i++) out[k * n + p2lIndex[i]] = poses[k * n + i];
  return out;
};
const workloads = [
  { name: 'random poses', core: random, p2l: toP2l(random) },
  { name: 'sweep poses', core: sweep, p2l: toP2l(sweep) },
];

// --- the two frame loops: set every parameter (a typed-array copy into each runtime's memory), compute ---
const coreValues = coreParams.values;  // a view into the Core's heap
const p2lValues = rig.values();        // a view into the module's memory (evaluate allocates nothing)
function runCore(poses, frames) {
  const t = process.hrtime.bigint();
  for (let k = 0; k < frames; k++) {
    const at = (k % F) * n;
    coreValues.set(poses.subarray(at, at + n));
    model.update();
  }
  return Number(process.hrtime.bigint() - t) / 1000 / frames;
}
function runP2l(poses, frames) {
  const t = process.hrtime.bigint();
  for (let k = 0; k < frames; k++) {
    const at = (k % F) * n;
    p2lValues.set(poses.subarray(at, at + n));
    rig.evaluate();
  }
  return Number(process.hrtime.bigint() - t) / 1000 / frames;
}
// update(1/60) over the clip, from the file's defaults each repetition.
const clip = options.clip ?? rig.clips[0];
if (!rig.clips.includes(clip)) throw new Error(`no clip ${clip} in ${rigPath} (${rig.clips.join(', ')})`);
const defaults = Float32Array.from(rig.parameters, (p) => p.default);
function runUpdate(frames) {
  p2lValues.set(defaults);
  rig.play(clip);
  api.p2l_behavior_seed(rig.handle, 1);
  const t = process.hrtime.bigint();
  for (let k = 0; k < frames; k++) rig.update(1 / 60);
  return Number(process.hrtime.bigint() - t) / 1000 / frames;
}

// --- sanity: both computed the same vertices, opacities and draw orders ---
// The p2lrt vertices are canvas pixels y down, the Core's canvas units y up. p2lrt's evaluate
// also applies the part poses (pose3.json: one arm of each pair shown), which the Core alone does
// not: opacities are compared outside those parts only, and against the Core's value capped at 1
// (p2lrt clamps keyform opacities; tests/cubism/fidelity.cpp does the same). p2lrt's draw orders
// are floats: floor(x + 0.001) is the Core's integer.
const meshOf = new Int32Array(drawables.count);
for (let d = 0; d < drawables.count; d++) {
  meshOf[d] = rig.meshes.findIndex((m) => m.id === drawables.ids[d]);
  if (meshOf[d] < 0) throw new Error(`drawable ${drawables.ids[d]} is not a mesh of ${rigPath}`);
}
const posedParts = new Set((posePath ? JSON.parse(readFileSync(posePath, 'utf8')) : { Groups: [] })
  .Groups.flat().map((entry) => entry.Id));
const parts = model.parts;
const posed = Array.from({ length: drawables.count }, (_, d) => {
  for (let q = drawables.parentPartIndices[d]; q >= 0; q = parts.parentIndices[q]) if (posedParts.has(parts.ids[q])) return true;
  return false;
});
// One drawable in particular: the one with the most vertices.
let big = 0;
for (let d = 1; d < drawables.count; d++) if (drawables.vertexCounts[d] > drawables.vertexCounts[big]) big = d;
function compare(poses, k) {
  coreValues.set(poses.core.subarray(k * n, (k + 1) * n));
  model.update();
  p2lValues.set(poses.p2l.subarray(k * n, (k + 1) * n));
  rig.evaluate();
  const { CanvasOriginX: ox, CanvasOriginY: oy, PixelsPerUnit: ppu } = canvas;
  let worst = { px: 0, id: drawables.ids[0] }, one = 0, opacity = 0, vertices = 0, drawOrders = 0, opacities = 0;
  for (let d = 0; d < drawables.count; d++) {
    const xy = drawables.vertexPositions[d], v = rig.vertices(meshOf[d]);
    if (v.length !== xy.length) throw new Error(`${drawables.ids[d]}: ${v.length / 2} vertices in p2lrt, ${xy.length / 2} in the Core`);
    for (let j = 0; j < xy.length; j += 2) {
      const e = Math.max(Math.abs(ox + xy[j] * ppu - v[j]), Math.abs(oy - xy[j + 1] * ppu - v[j + 1]));
      if (e > worst.px) worst = { px: e, id: drawables.ids[d] };
      if (d === big) one = Math.max(one, e);
    }
    vertices += xy.length / 2;
    if (!posed[d]) {
      // Unclamped on both sides: p2lrt gives the Core's own opacities (above 1 where its keyforms are).
      opacity = Math.max(opacity, Math.abs(drawables.opacities[d] - rig.opacity(meshOf[d])));
      opacities++;
    }
    if (drawables.drawOrders[d] !== Math.floor(rig.drawOrder(meshOf[d]) + 0.001)) drawOrders++;
  }
  return { ...worst, units: worst.px / ppu, one, opacity, opacities, vertices, drawOrders };
}
const checks = workloads.map((w) => ({ name: w.name, pose: F >> 1, ...compare(w, F >> 1) }));

// --- timing ---
const median = (xs) => {
  if (!xs.length) return undefined;
  const s = [...xs].sort((a, b) => a - b), m = s.length >> 1;
  return s.length & 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const least = (xs) => (xs.length ? Math.min(...xs) : undefined);
const loadBefore = os.loadavg()[0];
const results = workloads.map((w) => ({ name: w.name, core: [], p2l: [] }));
const updates = [];
// The native p2lrt tool's evaluate() on the same random poses (its --poses/--seed stream is this
// one: SplitMix64, every parameter in file order, lo + (hi - lo) * u in double), one repetition
// per call, run within each of the repetitions here: the machine's speed drifts (other tenants,
// clocks), and a figure taken minutes apart from the Core's would pair two different machines.
const nativeTimes = [];
function runNative() {
  const out = execFileSync(options.native, ['bench', rigPath, '--only', 'eval', '--poses', String(F), '--seed', String(options.seed),
                                            '--repetitions', '1', '--json', '--quiet'], { encoding: 'utf8' });
  return JSON.parse(out).eval.whole.median_s * 1e6;
}
for (const w of workloads) {  // warm-up, both runtimes, both pose sets, and the update loop
  if (options.only !== 'p2l') runCore(w.core, options.warmup);
  if (options.only !== 'core') runP2l(w.p2l, options.warmup);
}
if (options.only !== 'core') runUpdate(options.warmup);
for (let r = 0; r < options.reps; r++) {
  workloads.forEach((w, i) => {
    const order = r % 2 === 0 ? ['core', 'p2l'] : ['p2l', 'core'];
    for (const which of order) {
      if (options.only && options.only !== which) continue;
      results[i][which].push(which === 'core' ? runCore(w.core, F) : runP2l(w.p2l, F));
    }
    if (i === 0 && options.native) nativeTimes.push(runNative());
  });
  if (options.only !== 'core') updates.push(runUpdate(F));
}

const loadAfter = os.loadavg()[0];
const native = nativeTimes.length ? { median: median(nativeTimes), min: least(nativeTimes) } : null;

// --- report ---
const gz = (file) => zlib.gzipSync(readFileSync(file), { level: 9 }).length;
const kib = (bytes) => `${(bytes / 1024).toFixed(0)} KiB`;
console.log(`${modelName} (${drawables.count} drawables, ${drawables.vertexCounts.reduce((a, b) => a + b, 0)} vertices, ` +
            `${n} parameters) - node ${process.version}, ${options.reps} x ${F} frames after ${options.warmup} warm-up, seed ${options.seed}; ` +
            `load average ${loadBefore.toFixed(2)} before timing, ${loadAfter.toFixed(2)} after (${os.cpus().length} CPUs)`);
console.log(`  p2lrt ${runtime.version} wasm: ${wasmPath} ${statSync(wasmPath).size} bytes (${kib(statSync(wasmPath).size)}, gzip -9 ${kib(gz(wasmPath))})`);
console.log(`  Cubism Core ${coreVersion} (JavaScript): ${path.basename(coreJs)} ${statSync(coreJs).size} bytes ` +
            `(${kib(statSync(coreJs).size)}, gzip -9 ${kib(gz(coreJs))})`);
console.log(`  memory: p2lrt wasm memory ${kib(memoryBefore)} before loading, ${kib(memoryAfter)} after loading the rig ` +
            `(${rigPath} ${kib(statSync(rigPath).size)}); Core heap ${kib(coreValues.buffer.byteLength)} (fixed emscripten heap; moc3 ${kib(mocBytes.length)})`);
for (const c of checks)
  console.log(`  check (${c.name}, pose ${c.pose}): vertices max |p2lrt - Core| ${c.px.toExponential(2)} px ` +
              `(${c.units.toExponential(2)} units) over ${c.vertices} vertices (worst ${c.id}); ` +
              `${drawables.ids[big]} (${drawables.vertexCounts[big]} vertices) ${c.one.toExponential(2)} px; ` +
              `opacity ${c.opacity.toExponential(2)} (${c.opacities} drawables outside part poses); ` +
              `draw orders differing ${c.drawOrders}/${drawables.count}`);
console.log('');
const row = (label, cells) => console.log(`  ${label.padEnd(46)}${cells.map((c) => c.padStart(9)).join('')}`);
const cell = (x, digits = 1) => (x === undefined || Number.isNaN(x) ? '-' : x.toFixed(digits));
const quotient = (a, b) => (a !== undefined && b !== undefined ? cell(a / b, 2) : '-');
console.log(`  ${'per frame, microseconds'.padEnd(46)}${['Core', 'p2lrt', 'p2lrt/Core'].map((h) => h.padStart(18)).join('')}`);
row('', ['median', 'min', 'median', 'min', 'median', 'min']);
for (const r of results) {
  const [cm, cl, pm, pl] = [median(r.core), least(r.core), median(r.p2l), least(r.p2l)];
  row(`set all parameters + compute, ${r.name}`, [cell(cm), cell(cl), cell(pm), cell(pl), quotient(pm, cm), quotient(pl, cl)]);
}
if (native) {
  const random = results[0];
  row('native p2lrt evaluate(), random poses', [cell(median(random.core)), cell(least(random.core)), cell(native.median), cell(native.min),
                                                 quotient(native.median, median(random.core)), quotient(native.min, least(random.core))]);
  // The tool draws its poses in the rig's parameter order; they are the Core's when the import
  // kept the Core's order (it does), else only alike.
  const sameOrder = Array.from(p2lIndex).every((p, i) => p === i);
  console.log(`    (${options.native} bench --only eval: ${sameOrder ? 'the same poses' : 'poses drawn alike, in another parameter order'}, ` +
              `timed in its own process within each repetition; the Core's column repeats its random-pose figures)`);
}
if (updates.length) {
  row(`p2lrt update(1/60), clip ${clip}`, ['-', '-', cell(median(updates)), cell(least(updates)), '-', '-']);
  console.log('    (clips, blink, breath, part poses, physics, then the evaluation: the Core alone has no such stage, so no ratio)');
}
console.log('');
for (const r of results) console.log(`  repetitions ${r.name}: Core ${r.core.map((x) => x.toFixed(1)).join(' ')}; p2lrt ${r.p2l.map((x) => x.toFixed(1)).join(' ')}`);
if (nativeTimes.length) console.log(`  repetitions native: ${nativeTimes.map((x) => x.toFixed(1)).join(' ')}`);
if (updates.length) console.log(`  repetitions update: ${updates.map((x) => x.toFixed(1)).join(' ')}`);

rig.free();
model.release();
moc._release?.();
