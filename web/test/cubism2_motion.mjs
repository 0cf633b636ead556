// Cubism 2 motions as p2lrt plays them (tests/cubism_motion/motion_trace.cpp on the imported
// model.json, through p2l::Animator::update) against the Cubism 2.1 runtime playing the same
// .mtn (Live2DMotion and MotionQueueManager, as the Cubism 2 framework's sample drives them: the
// values saved last frame loaded, the motion queue updated, the values saved; the model.json's
// fades). Every parameter at every frame at 60 Hz, as a fraction of its range. One line a
// motion; --check exits 1 when a motion is off by more than 1e-3 of a range.
// With the model's physics.json the runtime's PhysicsHair swings too, as the framework's
// L2DPhysics drives it (after the values are saved, given the milliseconds since it was made,
// one update before the motion's first): p2lrt imports it as its HAIR chunk.
// With --framework (the official Cubism 2 framework's source, npm live2d-widget), the model's
// pose.json is applied as its L2DPose applies it and every pose part's opacity compared too;
// with --expressions, each expression is then played over the first idle motion as
// L2DExpressionMotion in a second L2DMotionManager (the sample's expression manager).
//   node web/test/cubism2_motion.mjs LIVE2D_MIN_JS P2L_MOTION_TRACE [--check] [--json OUT] [--markdown]
//        [--framework FRAMEWORK_JS [--expressions]] MODEL.model.json...
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { loadRuntime, Model } from './cubism2_runtime.mjs';

const args = process.argv.slice(2);
const [runtime, trace] = args.splice(0, 2);
let check = false, jsonOut = null, markdown = false, frameworkPath = null, expressionsMode = false;
for (let i = 0; i < args.length;) {
  if (args[i] === '--check') { check = true; args.splice(i, 1); }
  else if (args[i] === '--framework') { frameworkPath = args[i + 1]; args.splice(i, 2); }
  else if (args[i] === '--expressions') { expressionsMode = true; args.splice(i, 1); }
  else if (args[i] === '--markdown') { markdown = true; args.splice(i, 1); }
  else if (args[i] === '--json') { jsonOut = args[i + 1]; args.splice(i, 2); }
  else i++;
}
loadRuntime(runtime);
const RATE = 60;
// The official Cubism 2 framework (npm live2d-widget's src/lib/_Live2DFramework.official.js, run,
// never copied): its L2DPose and L2DExpressionMotion, which live only there.
if (frameworkPath) {
  vm.runInThisContext(fs.readFileSync(frameworkPath, 'utf8'), { filename: frameworkPath });
  globalThis.Live2DFramework.setPlatformManager({
    jsonParseFromBytes: (buf) => JSON.parse(Buffer.from(buf).toString('utf8').replace(/^\uFEFF/, '')),
  });
}

// p2l_motion_trace's output: parameters (id, min, max), parts, and per frame the values and
// the parts' animation opacities.
function parseTrace(text) {
  const params = [], parts = [], frames = [], opacities = [];
  for (const line of text.split('\n')) {
    const f = line.split('\t');
    if (f[0] === 'P') params.push({ id: f[1], min: Number(f[2]), max: Number(f[3]) });
    else if (f[0] === 'Q') parts.push(f[1]);
    else if (f[0] === 'F') {
      frames.push(f.slice(2, 2 + params.length).map(Number));
      opacities.push(f.slice(2 + params.length).map(Number));
    }
  }
  return { params, parts, frames, opacities };
}

// The runtime playing [mtn] on [model] for [frames] updates at 60 Hz from t0, the first
// update being the one that starts the motion's clock (the framework's first updateParam).
// The framework's L2DPhysics.load: one PhysicsHair per physics_hair entry.
function hairsOf(physics) {
  const H = globalThis.PhysicsHair;
  return (physics?.physics_hair ?? []).map((entry) => {
    const hair = new H();
    hair.setup(parseFloat(entry.setup.length), parseFloat(entry.setup.regist), parseFloat(entry.setup.mass));
    for (const s of entry.src ?? [])
      hair.addSrcParam(s.ptype === 'y' ? H.Src.SRC_TO_Y : s.ptype === 'angle' ? H.Src.SRC_TO_G_ANGLE : H.Src.SRC_TO_X,
        s.id, parseFloat(s.scale), parseFloat(s.weight));
    for (const t of entry.targets ?? [])
      hair.addTargetParam(t.ptype === 'angle_v' ? H.Target.TARGET_FROM_ANGLE_V : H.Target.TARGET_FROM_ANGLE,
        t.id, parseFloat(t.scale), parseFloat(t.weight));
    return hair;
  });
}

// [side]: the framework's pose (pose.json bytes) and an expression (.exp.json bytes) to play
// with the motion, and the parts whose opacity to read.
function playRuntime(model, mtnBytes, fadeIn, fadeOut, frames, ids, physics, side = {}) {
  const motion = globalThis.Live2DMotion.loadMotion(mtnBytes.buffer.slice(mtnBytes.byteOffset, mtnBytes.byteOffset + mtnBytes.byteLength));
  motion.setFadeIn(fadeIn);
  motion.setFadeOut(fadeOut);
  const queue = new globalThis.MotionQueueManager();
  const m = model.model;
  for (const p of model.parameters()) m.setParamFloat(p.id, p.value);
  // The clock p2lrt's animator keeps at 60 Hz: a double sum of 1/60 s.
  const t0 = 1024, step = 1 / RATE;
  // The sample updates the pose once as it loads the model (its VISIBLE: parameters made at 1),
  // then saves the values: one step before the first update, as the physics is made.
  const pose = side.pose ? globalThis.L2DPose.load(side.pose) : null;
  if (pose) {
    globalThis.UtSystem.setUserTimeMSec(t0 - step * 1000);
    pose.updateParam(m);
  }
  m.saveParam();
  let clock = 0;
  globalThis.UtSystem.setUserTimeMSec(t0);
  queue.startMotion(motion, false);
  // Made one update's step before the first update, as p2lrt's animator is (its clock has
  // one step on it at its first update).
  const hairs = hairsOf(physics), madeAt = t0 - step * 1000;
  let expressions = null;
  if (side.expression) {
    expressions = new globalThis.L2DMotionManager();
    expressions.startMotion(globalThis.L2DExpressionMotion.loadJson(side.expression), false);
  }
  const out = [], times = [], parts = [];
  for (let k = 1; k <= frames; k++) {
    globalThis.UtSystem.setUserTimeMSec(t0 + clock * 1000);
    times.push(clock);
    clock += step;
    m.loadParam();
    queue.updateParam(m);
    m.saveParam();
    // The framework sample's order: expression, physics, pose.
    if (expressions) expressions.updateParam(m);
    for (const hair of hairs) hair.update(m, globalThis.UtSystem.getUserTimeMSec() - madeAt);
    if (pose) pose.updateParam(m);
    out.push(ids.map((id) => m.getParamFloat(id)));
    parts.push((side.parts ?? []).map((id) => m.getPartsOpacity(id)));
  }
  // The motion's frame rate and curves as the runtime read them.
  const curves = new Map(motion.motions.map((c) => [c._$4P, c._$I0]));
  return { values: out, parts, times, fps: motion._$D0, curves };
}

// Whether an update at [time] falls on a frame of the motion (within 1e-6 of a frame) where
// [curve] jumps by more than 40 % of [range]: the runtime holds the last frame across such a
// jump, so the update's value is one side of the step or the other, and which side depends on
// the last bit of each side's time arithmetic (the runtime's milliseconds, p2lrt's seconds).
// An update at 60 Hz falls on a 30 fps frame every other time.
function tie(time, fps, curve, range) {
  const f = time * fps, j = Math.round(f);
  if (!curve || Math.abs(f - j) > 1e-6 || j < 1 || j >= curve.length) return false;
  return Math.abs(curve[j] - curve[j - 1]) > 0.4 * range;
}

// The curve lines of a .mtn: a parameter, VISIBLE: or LAYOUT: name, '=', values.
function curveLines(text) {
  return text.split(/\r?\n|\r/).filter((line) => /^[A-Za-z_][^=]*=/.test(line)).length;
}

const rows = [];
for (const file of args) {
  const dir = path.dirname(file);
  const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
  const mocBytes = fs.readFileSync(path.join(dir, settings.model));
  const physics = settings.physics && fs.existsSync(path.join(dir, settings.physics))
    ? JSON.parse(fs.readFileSync(path.join(dir, settings.physics), 'utf8')) : null;
  // With the framework: the pose (when the model has one) and, with --expressions, each
  // expression over the model's first idle motion after the motions alone.
  const posePath = frameworkPath && settings.pose ? path.join(dir, settings.pose) : null;
  const poseBytes = posePath && fs.existsSync(posePath) ? fs.readFileSync(posePath) : null;
  const poseParts = [];
  if (poseBytes)
    for (const g of JSON.parse(poseBytes.toString('utf8').replace(/^\uFEFF/, '')).parts_visible ?? [])
      for (const e of g.group ?? []) poseParts.push(e.id, ...(e.link ?? []));
  const runs = [];
  const seen = new Set();
  for (const [group, list] of Object.entries(settings.motions ?? {})) {
    for (const entry of list) {
      const mtnPath = path.join(dir, entry.file);
      // A listed file that is not there (or an empty name, which names the folder) plays nothing.
      if (seen.has(path.normalize(mtnPath)) || !fs.existsSync(mtnPath) || !fs.statSync(mtnPath).isFile()) continue;
      seen.add(path.normalize(mtnPath));
      runs.push({ group, entry, mtnPath });
    }
  }
  const plays = [...runs];
  const idle = runs.find((r) => r.group === 'idle') ?? runs[0];
  if (expressionsMode && idle)
    for (const e of settings.expressions ?? [])
      if (fs.existsSync(path.join(dir, e.file))) plays.push({ ...idle, expression: e });
  for (const { group, entry, mtnPath, expression } of plays) {
    {
      const clip = path.basename(entry.file, '.mtn');
      const fadeIn = entry.fade_in > 0 ? entry.fade_in : 1000, fadeOut = entry.fade_out > 0 ? entry.fade_out : 1000;
      // A bare model.json is named by its folders (collections hold many).
      const name = path.basename(file) === 'model.json' ? path.join(path.basename(path.dirname(dir)), path.basename(dir), 'model.json') : path.basename(file);
      const label = `${group}/${clip}` + (expression ? ` + ${expression.name}` : '');
      let ours;
      try {
        ours = parseTrace(execFileSync(trace, [file, '--motion', clip, '--rate', String(RATE),
          ...(expression ? ['--expression', expression.name] : [])],
        { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] }));
      } catch (e) {
        // A model p2lrt refuses to import is a finding of its own, named with its reason.
        const why = String(e.stderr || e.message).trim().split('\n')[0];
        rows.push({ model: name, motion: label, frames: 0, worst: Infinity, at: why, ties: 0 });
        console.log(`cubism2_motion: ${name} ${label}: not played: ${why}`);
        continue;
      }
      const ids = ours.params.map((p) => p.id);
      const compareParts = poseParts.filter((id) => ours.parts.includes(id));
      // A fresh model for every run, as p2lrt's trace starts fresh: the pose's VISIBLE:
      // parameters would otherwise carry the last motion's choice of parts into this one.
      const run = playRuntime(new Model(mocBytes), fs.readFileSync(mtnPath), fadeIn, fadeOut, ours.frames.length, ids, physics, {
        pose: poseBytes, parts: compareParts,
        expression: expression ? fs.readFileSync(path.join(dir, expression.file)) : null,
      });
      const theirs = run.values;
      const row = { model: name, motion: label, frames: ours.frames.length, worst: 0, at: '', ties: 0 };
      // The runtime's reader loses the curves after "$fps" in a file with LF-only line endings
      // (they are read as more fps values); p2lrt reads them. Such a motion is listed apart.
      const written = curveLines(fs.readFileSync(mtnPath, 'latin1'));
      if (run.curves.size < written) {
        row.lost = `the runtime read ${run.curves.size} of its ${written} curves, at ${+run.fps.toFixed(3)} fps (LF-only line endings)`;
        rows.push(row);
        console.log(`cubism2_motion: ${row.model} ${row.motion}: ${row.frames} frames; not compared: ${row.lost}`);
        continue;
      }
      // A tie's difference carries into the next updates while the motion fades (the runtime
      // blends from the value it saved): those updates go with the tie, until the two agree
      // again (within 1e-5 of the range).
      // A hair reading a tied parameter swings from one side of the step or the other: its
      // outputs (and the hairs reading them) carry the tie too.
      const column = new Map(ids.map((id, i) => [id, i]));
      const dependents = (i) => {
        const out = new Set(), todo = [ids[i]];
        while (todo.length) {
          const id = todo.pop();
          for (const h of physics?.physics_hair ?? [])
            if ((h.src ?? []).some((s) => s.id === id))
              for (const t of h.targets ?? []) if (column.has(t.id) && !out.has(column.get(t.id))) { out.add(column.get(t.id)); todo.push(t.id); }
        }
        return out;
      };
      const tied = new Set();
      ours.frames.forEach((values, k) => {
        const e = values.map((v, i) => Math.abs(v - theirs[k][i]) / (ours.params[i].max - ours.params[i].min || 1));
        values.forEach((v, i) => {
          const p = ours.params[i];
          if (e[i] > 1e-3 && tie(run.times[k], run.fps, run.curves.get(p.id), p.max - p.min || 1)) {
            row.ties++;
            tied.add(i);
            for (const d of dependents(i)) tied.add(d);
          }
        });
        values.forEach((v, i) => {
          const p = ours.params[i];
          if (tied.has(i) && e[i] > 1e-5) return;  // still carrying a tie's difference
          tied.delete(i);
          if (e[i] > row.worst) { row.worst = e[i]; row.at = `frame ${k + 1}, ${p.id} (p2lrt ${v}, runtime ${theirs[k][i]})`; }
        });
      });
      // The pose's part opacities (0..1), after every update. A VISIBLE: switch that falls on an
      // update's exact time is a tie as above (the runtime's milliseconds or p2lrt's seconds put it
      // on this update or the next), and its fade (0.5 s) carries the one update's difference:
      // such updates are counted with the ties.
      const partColumn = compareParts.map((id) => ours.parts.indexOf(id));
      const tiedUpdates = new Set();
      for (const [id, curve] of run.curves) {
        if (!id.startsWith('VISIBLE:')) continue;
        run.times.forEach((time, k) => {
          const f = time * run.fps, j = Math.round(f);
          if (Math.abs(f - j) > 1e-6 || j < 1 || j >= curve.length || curve[j] === curve[j - 1]) return;
          for (let u = k; u <= k + Math.ceil(0.5 * RATE) + 1; u++) tiedUpdates.add(u);
        });
      }
      ours.opacities.forEach((values, k) => {
        partColumn.forEach((c, i) => {
          const e = Math.abs(values[c] - run.parts[k][i]);
          if (e > 1e-3 && tiedUpdates.has(k)) { row.ties++; return; }
          if (e > row.worst) { row.worst = e; row.at = `frame ${k + 1}, part ${compareParts[i]} (p2lrt ${values[c]}, runtime ${run.parts[k][i]})`; }
        });
      });
      if (compareParts.length) row.parts = compareParts.length;
      rows.push(row);
      console.log(`cubism2_motion: ${row.model} ${row.motion}: ${row.frames} frames; worst ${row.worst.toExponential(2)} of a range` +
        (row.worst > 1e-3 ? ` at ${row.at}` : '') + (row.ties ? `; ${row.ties} updates on a step's frame (either side)` : ''));
    }
  }
}
if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(rows, null, 1));
// One row a model.json: motions compared, their frames, the worst difference, the updates
// counted apart, the motions not compared (the runtime lost curves, or p2lrt refused it).
if (markdown) {
  const by = new Map();
  for (const r of rows) {
    const m = by.get(r.model) ?? { motions: 0, frames: 0, worst: 0, ties: 0, apart: 0 };
    if (r.lost || !Number.isFinite(r.worst)) m.apart++;
    else { m.motions++; m.frames += r.frames; m.worst = Math.max(m.worst, r.worst); m.ties += r.ties; }
    by.set(r.model, m);
  }
  console.log('| model.json | motions | frames | worst (of the range) | updates on a step\'s frame | not compared |');
  console.log('|---|---|---|---|---|---|');
  for (const [model, m] of by)
    console.log(`| ${model} | ${m.motions} | ${m.frames.toLocaleString('en')} | ${m.worst.toExponential(1)} | ${m.ties} | ${m.apart} |`);
}
const lost = rows.filter((r) => r.lost).length;
if (lost) console.log(`cubism2_motion: ${lost} of ${rows.length} motions not compared: the runtime lost curves of theirs`);
if (check && (rows.length === 0 || rows.some((r) => r.worst > 1e-3))) process.exit(1);
