#!/usr/bin/env node
// Plays motions of a Cubism model (one, a sequence of them, or one expression over a motion)
// with Cubism's own Web Framework over an official Cubism Core, at a fixed frame rate, in the
// order of Cubism's sample app (load parameters, motion when one is queued, save parameters,
// expression, physics, pose, model update), and compares every parameter and every part
// opacity at every frame with what p2l_motion_trace wrote for p2lrt.
//
//   node cubism_motion.js FRAMEWORK_JS CORE_JS MODEL3_JSON P2LRT_TSV
//        --motion FILE | --play FILE@FRAME... [--expression FILE] [--bound B] [--dump OUT_TSV]
//        [--label TEXT]
//
// --motion FILE starts the motion before the first update; --play FILE@FRAME (repeatable)
// starts it just before update FRAME (1 is the first) through the motion manager's
// startMotionPriority, as the sample's startMotion does: what plays fades out under it. The
// frames after a motion ends, when nothing is queued, run the loop without a motion update, as
// the sample's do; the values the motion left stay in the model's saved parameters. The
// sample's eye blink is left out: it runs only on updates without a motion, on Math.random
// timing (p2lrt's blink has its own), so it is not what is compared; what it writes is not
// saved, and no official sample's physics reads the eye parameters.
//
// FRAMEWORK_JS is the Web Framework as the npm package pixi-live2d-display-lipsyncpatch
// bundles it (dist/cubism4.es.js), CORE_JS an official Core (npm live2dcubismcore for 4.2, or
// a 5.x redistributable file); both are fetched into a cache outside the repository and
// nothing of them enters it. The Framework's classes are cut out of the bundle as they are
// and driven here; only the driving loop is ours. The frame rate and the number of frames
// come from the TSV (p2l_motion_trace's "rate" and "frames" lines), so both sides play the
// same frames: frame k is the state after the k-th update, with dt = 1/rate in double as a
// browser at exactly that rate would pass it.
//
// Bounds are fractions of each parameter's range (part opacities: absolute). Exit 1 when a
// value is further than the bound (default 1e-3) from Cubism's; the last line is a table row:
//   model  motion  frames  worst  where
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');

const args = process.argv.slice(2);
const positional = [];
const opt = { bound: 1e-3, dump: null, plays: [], expression: null, label: null };
// "FILE@FRAME" -> { file, frame }; a bare FILE starts before the first update.
function parsePlay(text) {
  const at = text.lastIndexOf('@');
  const frame = at > 0 ? Number(text.slice(at + 1)) : 1;
  if (!(Number.isInteger(frame) && frame >= 1)) throw new Error(`--play ${text}: not FILE@FRAME`);
  return { file: at > 0 ? text.slice(0, at) : text, frame };
}
for (let i = 0; i < args.length; ++i) {
  const a = args[i];
  if (a === '--bound') opt.bound = Number(args[++i]);
  else if (a === '--dump') opt.dump = args[++i];
  else if (a === '--motion') opt.plays.push({ file: args[++i], frame: 1 });
  else if (a === '--play') opt.plays.push(parsePlay(args[++i]));
  else if (a === '--expression') opt.expression = args[++i];
  else if (a === '--label') opt.label = args[++i];
  else positional.push(a);
}
const [frameworkJs, coreJs, model3Path, tsvPath] = positional;
if (!tsvPath || !opt.plays.length) {
  console.error('usage: node cubism_motion.js FRAMEWORK_JS CORE_JS MODEL3_JSON P2LRT_TSV --motion FILE | ' +
                '--play FILE@FRAME... [--expression FILE] [--bound B] [--dump OUT] [--label TEXT]');
  process.exit(2);
}

function loadCore(file) {
  const load = vm.runInThisContext(
    `(function (__dirname, __filename, require) {${fs.readFileSync(file, 'utf8')}\n;return Live2DCubismCore; })`,
    { filename: file });
  return load(path.dirname(path.resolve(file)), path.resolve(file), require);
}

// The Framework part of the bundle: from its first class to the renderer's first helper.
function loadFramework(file, Core) {
  const text = fs.readFileSync(file, 'utf8');
  const begin = text.indexOf('class CubismBreath {'), end = text.indexOf('class csmRect {');
  if (begin < 0 || end < begin) throw new Error(`${file}: not the bundle expected (another version?)`);
  // The packaged Framework predates repeat parameters (Web Framework 5-r.4 wraps their values
  // into the range on every write where it clamps the others): with a Core that reports them,
  // the write wraps them as 5-r.4's CubismModel does; every other parameter is clamped as is.
  let section = text.slice(begin, end);
  const clamp = '    if (this._model.parameters.maximumValues[parameterIndex] < value) {';
  if (section.split(clamp).length !== 2) throw new Error(`${file}: cannot find the parameter clamp`);
  section = section.replace(clamp, '    if (this._model.parameters.repeats && this._model.parameters.repeats[parameterIndex]) ' +
    'value = __wrap(value, this._model.parameters.minimumValues[parameterIndex], ' +
    'this._model.parameters.maximumValues[parameterIndex]);\n' + clamp);
  const source = 'var __pow = Math.pow;\nvar __publicField = (o, k, v) => { o[k] = v; return v; };\n' +
    'var __wrap = (v, min, max) => { const n = max - min; const mod = (a) => a - Math.floor(a / n) * n;' +
    ' if (v > max) return n > 0 ? min + mod(v - max) : max; if (v < min) return n > 0 ? max - mod(min - v) : min; return v; };\n' +
    section +
    '\nreturn { CubismMoc, CubismMotion, CubismMotionManager, CubismExpressionMotion, CubismPose, ' +
    'CubismPhysics };';
  return new Function('Live2DCubismCore', source)(Core);
}

// Core 5 and 6 instantiate their WebAssembly asynchronously: a call before that fails.
async function createMoc(F, bytes) {
  for (let tries = 0; tries < 300; ++tries) {
    try {
      return F.CubismMoc.create(bytes, false);
    } catch (e) {
      if (!(e instanceof TypeError)) throw e;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  throw new Error(`${coreJs}: the Core did not start`);
}

function readTsv(file) {
  const t = { rate: 60, frames: 0, params: [], parts: [], rows: [] };
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const f = line.split('\t');
    if (f[0] === 'rate') t.rate = Number(f[1]);
    else if (f[0] === 'frames') t.frames = Number(f[1]);
    else if (f[0] === 'P') t.params.push({ id: f[1], min: Number(f[2]), max: Number(f[3]) });
    else if (f[0] === 'Q') t.parts.push(f[1]);
    else if (f[0] === 'F') t.rows.push(f.slice(2).map(Number));
  }
  return t;
}

async function main() {
  // The Core announces its version on the console: keep the table clean.
  const log = console.log;
  console.log = () => {};
  const Core = loadCore(coreJs);
  const F = loadFramework(frameworkJs, Core);
  const dir = path.dirname(model3Path);
  const json = (file) => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  const settings = JSON.parse(fs.readFileSync(model3Path, 'utf8'));
  const refs = settings.FileReferences;
  const bytes = fs.readFileSync(path.join(dir, refs.Moc));
  const moc = await createMoc(F, bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const model = moc.createModel();
  console.log = log;

  const group = (name) => ((settings.Groups || []).find((g) => g.Name === name) || { Ids: [] }).Ids;
  const eyeBlinkIds = group('EyeBlink'), lipSyncIds = group('LipSync');
  const physics = refs.Physics ? F.CubismPhysics.create(json(refs.Physics)) : null;
  const pose = refs.Pose ? F.CubismPose.create(json(refs.Pose)) : null;

  // Each motion once, with the model3 entry's fades as the sample sets them (the sample, too,
  // keeps one CubismMotion per file and starts it again).
  const loaded = new Map();
  const motionOf = (file) => {
    if (loaded.has(file)) return loaded.get(file);
    let entry = null;
    for (const list of Object.values(refs.Motions || {}))
      for (const m of list) if (m.File === file && !entry) entry = m;
    if (!entry) throw new Error(`${model3Path}: no motion ${file}`);
    const motion = F.CubismMotion.create(json(entry.File));
    if (entry.FadeInTime >= 0) motion.setFadeInTime(entry.FadeInTime);
    if (entry.FadeOutTime >= 0) motion.setFadeOutTime(entry.FadeOutTime);
    motion.setEffectIds(eyeBlinkIds, lipSyncIds);
    loaded.set(file, motion);
    return motion;
  };
  const plays = opt.plays.map((p) => ({ ...p, motion: motionOf(p.file) })).sort((a, b) => a.frame - b.frame);
  const motions = new F.CubismMotionManager();
  motions.setEventCallback(() => {});
  let expressions = null;
  if (opt.expression) {
    expressions = new F.CubismMotionManager();
    expressions.setEventCallback(() => {});
    expressions.startMotionPriority(F.CubismExpressionMotion.create(json(opt.expression)), false, 3);
  }

  const t = readTsv(tsvPath);
  const dt = 1 / t.rate;
  const ids = t.params.map((p) => p.id);
  const paramIndex = ids.map((id) => model.getParameterIndex(id));
  const partIndex = t.parts.map((id) => model.getPartIndex(id));
  const stats = [...t.params.map((p) => ({ id: p.id, range: p.max - p.min })), ...t.parts.map((id) => ({ id: `part ${id}`, range: 1 }))]
    .map((s) => ({ ...s, max: 0, at: -1, cubism: 0, p2lrt: 0 }));
  const dump = [];
  let next = 0;
  for (let k = 0; k < t.frames; ++k) {
    for (; next < plays.length && plays[next].frame === k + 1; ++next) motions.startMotionPriority(plays[next].motion, false, 2);
    model.loadParameters();
    if (!motions.isFinished()) motions.updateMotion(model, dt);
    model.saveParameters();
    if (expressions) expressions.updateMotion(model, dt);
    if (physics) physics.evaluate(model, dt);
    if (pose) pose.updateParameters(model, dt);
    model.update();
    const cubism = [...paramIndex.map((i) => model.getParameterValueByIndex(i)), ...partIndex.map((i) => model.getPartOpacityByIndex(i))];
    const ours = t.rows[k];
    if (!ours) throw new Error(`${tsvPath}: no frame ${k + 1}`);
    for (let i = 0; i < stats.length; ++i) {
      const e = Math.abs(cubism[i] - ours[i]) / (stats[i].range > 0 ? stats[i].range : 1);
      if (e > stats[i].max || Number.isNaN(e)) Object.assign(stats[i], { max: Number.isNaN(e) ? Infinity : e, at: k + 1, cubism: cubism[i], p2lrt: ours[i] });
    }
    if (opt.dump) dump.push([k + 1, ...cubism].join('\t'));
  }
  if (opt.dump) fs.writeFileSync(opt.dump, `frame\t${stats.map((s) => s.id).join('\t')}\n${dump.join('\n')}\n`);

  stats.sort((a, b) => b.max - a.max);
  const worst = stats[0] || { max: 0, id: '-', at: 0 };
  const bad = stats.filter((s) => !(s.max <= opt.bound));
  for (const s of bad.slice(0, 12))
    console.log(`  ${s.id}: ${s.max.toExponential(2)} of range at frame ${s.at} (Cubism ${s.cubism}, p2lrt ${s.p2lrt})`);
  if (bad.length > 12) console.log(`  ... and ${bad.length - 12} more above ${opt.bound}`);
  const label = opt.label || `${path.basename(model3Path, '.model3.json')}\t${path.basename(opt.expression || opt.plays[0].file)}`;
  console.log(`${label}\t${t.frames}\t${worst.max.toExponential(2)}\t${worst.id} @ ${worst.at}`);
  process.exit(bad.length ? 1 : 0);
}

main().catch((e) => {
  console.error(`cubism_motion: ${e.stack || e}`);
  process.exit(2);
});
