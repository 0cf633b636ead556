// Compares two recordings of pixi_frames.mjs frame by frame (two Cores under the same client,
// the same model, schedule, seed, fps and length).
//
//   node tests/dropin/compare_frames.mjs A.bin B.bin [--vertex-tol 1e-5] [--param-tol 1e-5]
//        [--opacity-tol 1e-5] [--json OUT.json]
//
// Figures (each the worst over all frames, with where it occurs):
//   vertex:    distance between the two positions of a vertex, in model units;
//   parameter: |a - b| / (max - min) of the parameter (its range from A's header; absolute for a
//              parameter whose range is 0);
//   opacity:   |a - b| of part opacities and of drawable opacities (absolute, 0..1).
// A value that is NaN in one recording and not in the other counts as an infinite difference.
// Exit status: 0 all within the tolerances, 1 some beyond (or NaN), 2 the recordings do not
// have the same layout (model, frames, ids) or cannot be read.
import { closeSync, openSync, readSync, fstatSync, writeFileSync } from 'node:fs';

function parseArguments(argv) {
  const args = { vertexTol: 1e-5, paramTol: 1e-5, opacityTol: 1e-5, files: [] };
  const names = { '--vertex-tol': 'vertexTol', '--param-tol': 'paramTol', '--opacity-tol': 'opacityTol' };
  for (let i = 0; i < argv.length; i++) {
    if (names[argv[i]]) args[names[argv[i]]] = Number(argv[++i]);
    else if (argv[i] === '--json') args.json = argv[++i];
    else if (argv[i].startsWith('--')) usage(`unknown option ${argv[i]}`);
    else args.files.push(argv[i]);
  }
  if (args.files.length !== 2) usage('two recordings are needed');
  for (const k of ['vertexTol', 'paramTol', 'opacityTol']) if (!(args[k] >= 0)) usage(`bad tolerance ${k}`);
  return args;
}
function usage(why) {
  console.error(`compare_frames: ${why}\nusage: node tests/dropin/compare_frames.mjs A.bin B.bin [--vertex-tol T] [--param-tol T] [--opacity-tol T] [--json OUT.json]`);
  process.exit(2);
}

class Recording {
  constructor(file) {
    this.file = file;
    this.fd = openSync(file, 'r');
    const lead = Buffer.alloc(12);
    readSync(this.fd, lead, 0, 12, 0);
    if (lead.toString('latin1', 0, 8) !== 'P2LFRAM1') throw new Error(`${file}: not a pixi_frames.mjs recording`);
    const length = lead.readUInt32LE(8);
    const json = Buffer.alloc(length);
    readSync(this.fd, json, 0, length, 12);
    this.header = JSON.parse(json.toString('utf8'));
    this.offset = 12 + length;
    const size = fstatSync(this.fd).size;
    const frameBytes = this.header.frameFloats * 4;
    this.frames = Math.floor((size - this.offset) / frameBytes);
    if (this.frames !== this.header.frames || (size - this.offset) % frameBytes)
      throw new Error(`${file}: ${size - this.offset} bytes of frames for ${this.header.frames} frames of ${frameBytes} bytes (truncated?)`);
    this.buffer = new Float32Array(this.header.frameFloats);
  }
  frame(f) {
    const bytes = new Uint8Array(this.buffer.buffer);
    readSync(this.fd, bytes, 0, bytes.length, this.offset + f * bytes.length);
    return this.buffer;
  }
  close() { closeSync(this.fd); }
}

// Everything that must agree for a frame-by-frame comparison to mean anything.
function layoutDifferences(a, b) {
  const out = [];
  const same = (what, x, y) => { if (JSON.stringify(x) !== JSON.stringify(y)) out.push(what); };
  same('frames', a.frames, b.frames);
  same('fps', a.fps, b.fps);
  same('seed', a.seed, b.seed);
  same('frameFloats', a.frameFloats, b.frameFloats);
  same('parameter ids', a.parameters.map((p) => p.id), b.parameters.map((p) => p.id));
  same('parameter ranges', a.parameters.map((p) => [p.min, p.max]), b.parameters.map((p) => [p.min, p.max]));
  same('part ids', a.parts, b.parts);
  same('drawables (ids, vertex counts)', a.drawables, b.drawables);
  same('schedule', a.schedule, b.schedule);
  same('client', a.client, b.client);
  return out;
}

function main() {
  const args = parseArguments(process.argv.slice(2));
  let A, B;
  try {
    A = new Recording(args.files[0]);
    B = new Recording(args.files[1]);
  } catch (e) {
    console.error(`compare_frames: ${e.message}`);
    process.exit(2);
  }
  const h = A.header;
  console.log(`compare_frames: A ${A.file}: Core ${h.core.version} (${h.core.file})`);
  console.log(`compare_frames: B ${B.file}: Core ${B.header.core.version} (${B.header.core.file})`);
  const layout = layoutDifferences(h, B.header);
  if (layout.length) {
    console.error(`compare_frames: the recordings differ in ${layout.join(', ')}: not comparable`);
    process.exit(2);
  }
  const P = h.parameters.length, Q = h.parts.length, D = h.drawables.length;
  const ranges = h.parameters.map((p) => (p.max - p.min > 0 ? p.max - p.min : 1));
  const drawableStart = [];
  let o = P + Q + D;
  for (const d of h.drawables) { drawableStart.push(o); o += 2 * d.vertexCount; }

  const diff = (x, y) => (Number.isNaN(x) || Number.isNaN(y) ? (Number.isNaN(x) && Number.isNaN(y) ? 0 : Infinity) : Math.abs(x - y));
  const worst = {
    vertex: { value: 0, frame: -1, where: '' }, parameter: { value: 0, frame: -1, where: '' },
    partOpacity: { value: 0, frame: -1, where: '' }, drawableOpacity: { value: 0, frame: -1, where: '' },
  };
  const framesOver = { vertex: 0, parameter: 0, opacity: 0 };
  let identicalFrames = 0;
  for (let f = 0; f < A.frames; f++) {
    const a = A.frame(f), b = B.frame(f);
    let fv = 0, fp = 0, fo = 0, identical = true;
    for (let i = 0; i < P; i++) {
      const d = diff(a[i], b[i]) / ranges[i];
      if (d !== 0) identical = false;
      if (d > fp) fp = d;
      if (d > worst.parameter.value) Object.assign(worst.parameter, { value: d, frame: f, where: `${h.parameters[i].id} (A ${a[i]}, B ${b[i]}, range ${ranges[i]})` });
    }
    for (let i = 0; i < Q; i++) {
      const d = diff(a[P + i], b[P + i]);
      if (d !== 0) identical = false;
      if (d > fo) fo = d;
      if (d > worst.partOpacity.value) Object.assign(worst.partOpacity, { value: d, frame: f, where: `part ${h.parts[i]} (A ${a[P + i]}, B ${b[P + i]})` });
    }
    for (let i = 0; i < D; i++) {
      const k = P + Q + i;
      const d = diff(a[k], b[k]);
      if (d !== 0) identical = false;
      if (d > fo) fo = d;
      if (d > worst.drawableOpacity.value) Object.assign(worst.drawableOpacity, { value: d, frame: f, where: `drawable ${h.drawables[i].id} (A ${a[k]}, B ${b[k]})` });
    }
    for (let i = 0; i < D; i++) {
      const s = drawableStart[i];
      for (let v = 0; v < h.drawables[i].vertexCount; v++) {
        const x = s + 2 * v;
        const dx = diff(a[x], b[x]), dy = diff(a[x + 1], b[x + 1]);
        const d = Math.hypot(dx, dy);
        if (d !== 0) identical = false;
        if (d > fv) fv = d;
        if (d > worst.vertex.value) Object.assign(worst.vertex, { value: d, frame: f,
          where: `drawable ${h.drawables[i].id} vertex ${v} (A ${a[x]}, ${a[x + 1]}; B ${b[x]}, ${b[x + 1]})` });
      }
    }
    if (fv > args.vertexTol) framesOver.vertex++;
    if (fp > args.paramTol) framesOver.parameter++;
    if (fo > args.opacityTol) framesOver.opacity++;
    if (identical) identicalFrames++;
  }
  A.close();
  B.close();

  const t = (s) => `${(s.value).toExponential(3)}` + (s.frame >= 0 ? ` at frame ${s.frame} (${(s.frame / h.fps).toFixed(3)} s), ${s.where}` : '');
  const opacity = worst.partOpacity.value >= worst.drawableOpacity.value ? worst.partOpacity : worst.drawableOpacity;
  const ok = {
    vertex: worst.vertex.value <= args.vertexTol,
    parameter: worst.parameter.value <= args.paramTol,
    opacity: opacity.value <= args.opacityTol,
  };
  const mark = (b) => (b ? 'ok  ' : 'FAIL');
  console.log(`compare_frames: ${A.frames} frames at ${h.fps} Hz, ${P} parameters, ${Q} parts, ${D} drawables; ${identicalFrames} frames bit-identical`);
  console.log(`${mark(ok.vertex)} worst vertex difference ${t(worst.vertex)} [model units; tolerance ${args.vertexTol}; ${framesOver.vertex} frames over]`);
  console.log(`${mark(ok.parameter)} worst parameter difference ${t(worst.parameter)} [fraction of range; tolerance ${args.paramTol}; ${framesOver.parameter} frames over]`);
  console.log(`${mark(ok.opacity)} worst opacity difference: parts ${t(worst.partOpacity)}`);
  console.log(`${mark(ok.opacity)}                          drawables ${t(worst.drawableOpacity)} [absolute; tolerance ${args.opacityTol}; ${framesOver.opacity} frames over]`);
  if (args.json) writeFileSync(args.json, JSON.stringify({ a: A.file, b: B.file, frames: A.frames, identicalFrames, worst, framesOver,
    tolerances: { vertex: args.vertexTol, parameter: args.paramTol, opacity: args.opacityTol }, ok }, null, 1));
  const pass = ok.vertex && ok.parameter && ok.opacity;
  console.log(`compare_frames: ${pass ? 'PASS' : 'FAIL'}`);
  process.exit(pass ? 0 : 1);
}

main();
