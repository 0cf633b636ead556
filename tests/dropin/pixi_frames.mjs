// A real client of the Cubism Core, unchanged, in node: pixi-live2d-display's cubism4 bundle
// (which bundles Cubism's Web Framework) drives Haru over a Core file given on the command
// line, and every frame is recorded as the Core gives it, so that two Cores can be compared
// frame by frame (compare_frames.mjs).
//
//   node tests/dropin/pixi_frames.mjs CORE_JS OUT.bin [--seconds 10] [--fps 60] [--seed 1]
//        [--model X.model3.json] [--pixi DIR] [--display DIR] [--quiet]
//
// CORE_JS: a classic browser script defining Live2DCubismCore (the official 4.2.2 .min.js, an
// official Core 5/6 whose WebAssembly starts asynchronously, or a replacement). --model: default
// Haru of npm's live2dcubismcore@1.0.2; --pixi / --display: the pixi.js / pixi-live2d-display
// package folders, default fetched into ~/.cache/p2lrt by scripts/npm_fetch.sh (PIXI_VERSION,
// DISPLAY_VERSION below). Nothing fetched enters the repository.
//
// What the library does is the library's: Live2DModel.from builds the model (settings, moc,
// Cubism4InternalModel with its motion manager, expression manager, eye blink, breath; physics
// and pose loaded by its factory); each frame the harness calls Live2DModel.update(dt) as the
// PIXI ticker would, then what Live2DModel._render would call before drawing,
// internalModel.update(deltaTime, elapsedTime) (_render itself needs WebGL). The events of
// driver.js (Idle, a TapBody motion, expressions, focus) go through Live2DModel.motion /
// .expression. Deterministic: Math.random is a seeded PRNG (installed before anything loads and
// seeded again just before Live2DModel.from, so a Core that draws random numbers while starting
// does not shift the library's), performance.now() is the harness's clock, dt is fixed.
//
// Stubs (node has no DOM): window = self = globalThis; XMLHttpRequest (reads the model's files
// from disk, plus the virtual expression of driver.js); Image / HTMLImageElement (reports the
// texture PNG's size from its header, decodes nothing: textures are never uploaded without
// WebGL). Options passed to Live2DModel.from: autoUpdate false (no ticker), autoInteract false,
// crossOrigin 'anonymous' (pixi would otherwise consult document/location for it).
//
// Output: "P2LFRAM1", uint32 LE length of a JSON header, the header (UTF-8, padded with spaces to
// 4 bytes), then per frame float32 LE: parameter values (as the Core updated the model with them,
// read at the library's beforeModelUpdate event), part opacities, drawable opacities, then every
// drawable's vertex positions (x, y in model units), all read from the Core's model after update.
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { endianness } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import vm from 'node:vm';
import { DISPLAY_VERSION, PIXI_VERSION, defaultModel, fetchPackage, here, parseOptions, versionString } from './common.mjs';

function parseArguments(argv) {
  const args = { seconds: 10, fps: 60, seed: 1, ...parseOptions(argv, ['--quiet']) };
  if (args.positional.length !== 2) {
    console.error('usage: node tests/dropin/pixi_frames.mjs CORE_JS OUT.bin [--seconds 10] [--fps 60] [--seed 1] [--model M.model3.json] [--pixi DIR] [--display DIR] [--quiet]');
    process.exit(2);
  }
  [args.core, args.out] = args.positional.map((p) => resolve(p));
  args.seconds = Number(args.seconds);
  args.fps = Number(args.fps);
  args.seed = Number(args.seed) >>> 0;
  return args;
}

// ---------------------------------------------------------------------------------------
// The stubs

function installDomStubs(files) {
  globalThis.window = globalThis;
  globalThis.self = globalThis;

  // XMLHttpRequest, as XHRLoader uses it: open, responseType, send, onload/onerror/onloadend,
  // abort. URLs are absolute file paths (the settings' url is the model3.json's path) or the
  // names of virtual files. The response arrives in a microtask, as a real XHR would arrive
  // later (never within send()).
  class XMLHttpRequest {
    open(method, url) { this.method = method; this.url = url; this.status = 0; this.response = null; this.aborted = false; }
    abort() { this.aborted = true; if (this.onabort) this.onabort(); }
    send() {
      queueMicrotask(() => {
        if (this.aborted) return;
        try {
          const bytes = files.read(this.url);
          this.status = 200;
          if (this.responseType === 'json') this.response = JSON.parse(new TextDecoder().decode(bytes));
          else if (this.responseType === 'arraybuffer') this.response = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
          else this.response = new TextDecoder().decode(bytes);
          this.onload && this.onload();
        } catch (e) {
          this.status = 404;
          files.errors.push(`${this.url}: ${e.message}`);
          this.onerror && this.onerror();
        }
        this.onloadend && this.onloadend();
      });
    }
  }
  globalThis.XMLHttpRequest = XMLHttpRequest;

  // Image: pixi's ImageResource waits for `complete` or onload, then reads width/height.
  class Image {
    constructor() { this.complete = false; this.width = 0; this.height = 0; this.crossOrigin = null; this._src = ''; }
    get src() { return this._src; }
    set src(url) {
      this._src = url;
      const png = files.read(url);
      if (png.length < 24 || png.toString('latin1', 12, 16) !== 'IHDR') throw new Error(`Image stub: ${url} is not a PNG`);
      this.width = this.naturalWidth = png.readUInt32BE(16);
      this.height = this.naturalHeight = png.readUInt32BE(20);
      this.complete = true;
    }
    addEventListener() {}
    removeEventListener() {}
  }
  globalThis.Image = Image;
  globalThis.HTMLImageElement = Image;
}

// ---------------------------------------------------------------------------------------

// A classic script as a <script> tag runs it: its top-level declarations become globals.
function runClassicScript(file) {
  vm.runInThisContext(readFileSync(file, 'utf8'), { filename: file });
}

// The Core as tests/cubism/core_dump.js loads it: inside a function that returns its global
// (node's require at hand for a Core built to run in node as well).
function loadClassicScript(file, expose) {
  const require = createRequire(file);
  const wrapped = `(function (__dirname, __filename, require) {${readFileSync(file, 'utf8')}\n;${expose ? `return ${expose};` : ''} })`;
  return vm.runInThisContext(wrapped, { filename: file })(dirname(file), file, require);
}

// Core 5 and 6 start their WebAssembly asynchronously: until then a call fails with a TypeError.
async function waitForCore(Core, file) {
  for (let tries = 0; tries < 1000; tries++) {
    try {
      const version = Core.Version.csmGetVersion();
      if (version) return version;
    } catch (e) {
      if (!(e instanceof TypeError)) throw e;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${file}: the Core did not start within 10 s`);
}

async function main() {
  const args = parseArguments(process.argv.slice(2));
  const started = process.hrtime.bigint();
  const modelFile = resolve(args.model || defaultModel());
  const pixiDir = args.pixi || fetchPackage('pixi.js', PIXI_VERSION, 'dist/browser/pixi.js');
  const displayDir = args.display || fetchPackage('pixi-live2d-display', DISPLAY_VERSION, 'dist/cubism4.js');
  if (endianness() !== 'LE') throw new Error('pixi_frames: the output is little-endian float32; this host is not');

  // Before anything loads: the seeded Math.random and the fixed clock.
  runClassicScript(join(here, 'driver.js'));
  const driver = globalThis.P2lDropin;
  driver.installRandom(args.seed);
  driver.installClock();

  const { settings, virtualFiles, notes } = driver.prepareSettings(JSON.parse(readFileSync(modelFile, 'utf8')), modelFile);
  const modelFolder = dirname(modelFile);
  const files = {
    errors: [],
    read(url) {
      const rel = url.startsWith(modelFolder + '/') ? url.slice(modelFolder.length + 1) : url;
      if (Object.hasOwn(virtualFiles, rel)) return Buffer.from(JSON.stringify(virtualFiles[rel]));
      return readFileSync(url);
    },
  };
  // The Core, as the page's <script> would define it; before the DOM stubs, which would make an
  // Emscripten-built Core take the browser path (and look for document.currentScript).
  globalThis.Live2DCubismCore = loadClassicScript(args.core, 'Live2DCubismCore');
  const coreVersion = await waitForCore(globalThis.Live2DCubismCore, args.core);
  installDomStubs(files);

  // pixi.js (its browser bundle defines the global PIXI), then pixi-live2d-display's cubism4
  // bundle (UMD: with no module system it takes PIXI from the global and adds PIXI.live2d).
  runClassicScript(join(pixiDir, 'dist/browser/pixi.js'));
  runClassicScript(join(displayDir, 'dist/cubism4.js'));
  const live2d = globalThis.PIXI.live2d;
  driver.configure(live2d);

  // Seeded again here, as the page does (pixi_screenshot.mjs): whatever the Core or the
  // libraries drew while loading, the model starts from the same random numbers.
  driver.installRandom(args.seed);
  const model = await live2d.Live2DModel.from(settings, { autoUpdate: false, autoInteract: false, crossOrigin: 'anonymous' });
  const internal = model.internalModel;
  const refs = settings.FileReferences;
  if ((refs.Physics && !internal.physics) || (refs.Pose && !internal.pose))
    throw new Error(`pixi_frames: physics or pose did not load (${files.errors.join('; ')})`);
  for (const [what, on] of [['physics', internal.physics], ['pose', internal.pose], ['eye blink', internal.eyeBlink],
                            ['expressions', internal.motionManager.expressionManager]])
    if (!on) notes.push(`the model has no ${what}: that part of the library does nothing`);
  const core = internal.coreModel.getModel();
  const P = core.parameters, Q = core.parts, D = core.drawables;
  const vertexCounts = Array.from(D.vertexCounts);
  const vertexFloats = vertexCounts.reduce((s, n) => s + 2 * n, 0);
  const frameFloats = P.count + Q.count + D.count + vertexFloats;
  const frames = Math.round(args.seconds * args.fps);

  const header = {
    format: 'p2lrt dropin frames 1',
    core: { file: args.core, version: versionString(coreVersion) },
    client: { 'pixi.js': JSON.parse(readFileSync(join(pixiDir, 'package.json'))).version,
              'pixi-live2d-display': JSON.parse(readFileSync(join(displayDir, 'package.json'))).version, bundle: 'dist/cubism4.js' },
    model: modelFile, settingsNotes: notes,
    fps: args.fps, seconds: args.seconds, seed: args.seed, frames, frameFloats,
    layout: ['parameters', 'partOpacities', 'drawableOpacities', 'vertices'],
    parameters: Array.from({ length: P.count }, (_, i) => ({ id: P.ids[i], min: P.minimumValues[i], max: P.maximumValues[i], default: P.defaultValues[i] })),
    parts: Array.from(Q.ids),
    drawables: Array.from({ length: D.count }, (_, i) => ({ id: D.ids[i], vertexCount: vertexCounts[i] })),
    schedule: driver.schedule(args.fps).map(({ frame, what }) => ({ frame, what })),
  };
  let json = JSON.stringify(header);
  json += ' '.repeat((4 - (Buffer.byteLength(json) + 12) % 4) % 4);
  const fd = openSync(args.out, 'w');
  const lead = Buffer.alloc(12);
  lead.write('P2LFRAM1', 0, 'latin1');
  lead.writeUInt32LE(Buffer.byteLength(json), 8);
  writeSync(fd, lead);
  writeSync(fd, Buffer.from(json));

  const frame = new Float32Array(frameFloats);
  const parameterSnapshot = new Float32Array(P.count);
  internal.on('beforeModelUpdate', () => parameterSnapshot.set(P.values));
  let updates = 0;
  const log = await driver.run({
    model, live2d, fps: args.fps, frames,
    advance() {
      // What Live2DModel._render does before it draws (the rest of _render is WebGL).
      if (model.deltaTime) {
        internal.update(model.deltaTime, model.elapsedTime);
        model.deltaTime = 0;
        updates++;
      }
    },
    settle: () => new Promise((r) => setImmediate(r)),
    onFrame() {
      let o = 0;
      frame.set(parameterSnapshot, o); o += P.count;
      frame.set(Q.opacities, o); o += Q.count;
      frame.set(D.opacities, o); o += D.count;
      for (let i = 0; i < D.count; i++) { frame.set(D.vertexPositions[i], o); o += 2 * vertexCounts[i]; }
      writeSync(fd, new Uint8Array(frame.buffer));
    },
  });
  closeSync(fd);
  if (updates !== frames) throw new Error(`pixi_frames: ${updates} model updates for ${frames} frames`);
  if (files.errors.length) throw new Error(`pixi_frames: files failed to load: ${files.errors.join('; ')}`);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (!args.quiet) {
    console.log(`pixi_frames: Core ${header.core.version} (${args.core}), pixi.js ${header.client['pixi.js']}, pixi-live2d-display ${header.client['pixi-live2d-display']}`);
    for (const n of notes) console.log(`pixi_frames: ${n}`);
    for (const e of log) console.log(`pixi_frames: frame ${e.frame}: ${e.what} -> ${JSON.stringify(e.result)}`);
    console.log(`pixi_frames: ${frames} frames x ${frameFloats} floats (${P.count} parameters, ${Q.count} parts, ${D.count} drawables, ` +
                `${vertexFloats / 2} vertices) -> ${args.out} in ${seconds.toFixed(2)} s`);
  }
}

main().catch((e) => { console.error(e && e.stack ? e.stack : e); process.exit(1); });
