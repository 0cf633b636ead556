// Replays a trajectory written by p2l_physics_trajectory through CubismPhysics as Cubism's
// Web Framework implements it, and reports how far p2lrt's outputs are from it.
//
//   node cubism_physics.js FRAMEWORK_JS PHYSICS3_JSON TRAJECTORY_TSV [--bound B] [--dump FILE]
//                          [--float-time]
//
// FRAMEWORK_JS is the Cubism 4/5 Web Framework bundled in the npm package
// pixi-live2d-display-lipsyncpatch (dist/cubism4.es.js), fetched at test time into a cache
// outside the repository by fetch_framework.sh; nothing of it is in the repository. Only the
// framework's own classes are taken from the bundle (CubismVector2, CubismMath and the
// physics section), evaluated as they are, and driven through a minimal stand-in for
// CubismModel (parameter values, minimums, maximums and defaults as Float32Arrays, as the
// Core exposes them).
//
// The Web Framework computes in double precision (its parameter arrays are float32), the
// Native Framework and p2lrt in float32: the difference measured is that rounding, carried
// through the pendulums' feedback. With a physics fps, the time bookkeeping matters more: a
// step falls in one frame or the next depending on how the accumulated time rounds, so
// --float-time keeps the accumulated time and the step length in float32 as the Native
// Framework does (csmFloat32 _currentRemainTime, 1.0f / Fps); everything else is unchanged. Exit status 1 when an output's largest difference is above
// the bound (default 1e-3 of the parameter range).
'use strict';
const fs = require('fs');

function usage() {
  console.error('usage: node cubism_physics.js FRAMEWORK_JS PHYSICS3_JSON TRAJECTORY_TSV [--bound B] [--dump FILE]');
  process.exit(2);
}

const args = process.argv.slice(2);
if (args.length < 3) usage();
const [frameworkPath, physicsPath, trajectoryPath] = args;
let bound = 1e-3;
let dumpPath = null;
let floatTime = false;
for (let i = 3; i < args.length; ++i) {
  if (args[i] === '--bound' && i + 1 < args.length) bound = Number(args[++i]);
  else if (args[i] === '--dump' && i + 1 < args.length) dumpPath = args[++i];
  else if (args[i] === '--float-time') floatTime = true;
  else usage();
}

// The framework's classes, cut out of the bundle between markers that name them.
function loadFramework(file, float32Time) {
  const text = fs.readFileSync(file, 'utf8');
  const cut = (begin, end) => {
    const a = text.indexOf(begin);
    const b = text.indexOf(end, a + 1);
    if (a < 0 || b < 0 || text.indexOf(begin, a + 1) >= 0) {
      throw new Error(`${file}: cannot find one "${begin}" followed by "${end}" (another version of the bundle?)`);
    }
    return text.slice(a, b);
  };
  let physicsSection = cut('var CubismPhysicsTargetType =', 'class csmRect {');
  if (float32Time) {
    const step = 'physicsDeltaTime = 1 / this._physicsRig.fps;';
    if (physicsSection.split(step).length !== 2) throw new Error(`${file}: cannot find "${step}"`);
    physicsSection = physicsSection.replace(step, 'physicsDeltaTime = Math.fround(1 / this._physicsRig.fps);');
  }
  const source = [
    'var __pow = Math.pow;',
    'var __publicField = (o, k, v) => { o[k] = v; return v; };',
    cut('class CubismVector2 {', 'const _CubismMath = class'),
    cut('const _CubismMath = class', 'class CubismMatrix44 {'),
    physicsSection,
    'return { CubismPhysics };',
  ].join('\n');
  return new Function(source)();
}

function readTrajectory(file) {
  const t = { fps: 0, stabilize: false, wind: [0, 0], params: [], frames: [] };
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const f = line.split('\t');
    if (f[0] === 'fps') t.fps = Number(f[1]);
    else if (f[0] === 'stabilize') t.stabilize = f[1] === '1';
    else if (f[0] === 'wind') t.wind = [Number(f[1]), Number(f[2])];
    else if (f[0] === 'P') t.params.push({ id: f[1], min: Number(f[2]), max: Number(f[3]), def: Number(f[4]) });
    else if (f[0] === 'F') {
      const n = t.params.length;
      const v = f.slice(3).map(Number);
      t.frames.push({ dt: Number(f[2]), before: v.slice(0, n), after: v.slice(n, 2 * n) });
    }
  }
  return t;
}

const { CubismPhysics } = loadFramework(frameworkPath, floatTime);
const trajectory = readTrajectory(trajectoryPath);
const json = JSON.parse(fs.readFileSync(physicsPath, 'utf8'));
if (trajectory.fps > 0) json.Meta.Fps = trajectory.fps;
else delete json.Meta.Fps;

const n = trajectory.params.length;
const ids = trajectory.params.map((p) => p.id);
const parameters = {
  values: new Float32Array(n),
  minimumValues: Float32Array.from(trajectory.params.map((p) => p.min)),
  maximumValues: Float32Array.from(trajectory.params.map((p) => p.max)),
  defaultValues: Float32Array.from(trajectory.params.map((p) => p.def)),
};
const model = {
  getModel: () => ({ parameters }),
  getParameterCount: () => n,
  getParameterIndex: (id) => ids.indexOf(id),
};
const physics = CubismPhysics.create(json);
physics._options.wind.x = trajectory.wind[0];
physics._options.wind.y = trajectory.wind[1];
if (floatTime) {
  let remain = 0;
  Object.defineProperty(physics, '_currentRemainTime', {
    get: () => remain,
    set: (x) => { remain = Math.fround(x); },
  });
}

const outputs = [];
for (const s of json.PhysicsSettings)
  for (const o of s.Output)
    if (!outputs.includes(o.Destination.Id)) outputs.push(o.Destination.Id);
const stats = outputs.map((id) => {
  const k = ids.indexOf(id);
  return { id, k, range: trajectory.params[k].max - trajectory.params[k].min, max: 0, sum: 0, at: 0 };
});

const dump = [];
trajectory.frames.forEach((frame, f) => {
  parameters.values.set(frame.before);
  if (f === 0 && trajectory.stabilize) physics.stabilization(model);
  else physics.evaluate(model, Math.fround(frame.dt));
  for (const s of stats) {
    const e = Math.abs(parameters.values[s.k] - frame.after[s.k]);
    s.sum += e;
    if (e > s.max) {
      s.max = e;
      s.at = f;
    }
  }
  if (dumpPath) dump.push([f, ...stats.map((s) => parameters.values[s.k]), ...stats.map((s) => frame.after[s.k])].join('\t'));
});
if (dumpPath) fs.writeFileSync(dumpPath, `frame\t${stats.map((s) => 'cubism_' + s.id).join('\t')}\t${stats.map((s) => 'p2lrt_' + s.id).join('\t')}\n${dump.join('\n')}\n`);

let failed = false;
const frames = trajectory.frames.length;
console.log(`${frames} frames, physics fps ${trajectory.fps || 'none (one step of dt a frame)'}${trajectory.stabilize ? ', stabilized first' : ''}` +
            `${trajectory.wind[0] || trajectory.wind[1] ? `, wind (${trajectory.wind})` : ''}${floatTime ? ', float32 time bookkeeping' : ''}`);
for (const s of stats) {
  const relative = s.max / s.range;
  const bad = !(relative <= bound);
  failed ||= bad;
  console.log(`  ${s.id.padEnd(18)} max |p2lrt - Cubism| ${s.max.toExponential(3)} (frame ${s.at}), mean ${(s.sum / frames).toExponential(3)}, ` +
              `max / range ${relative.toExponential(3)}${bad ? `  ABOVE ${bound}` : ''}`);
}
process.exit(failed ? 1 : 0);
