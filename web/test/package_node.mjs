// The npm package in node, as a user gets it: scripts/npm_package.sh --test installs the packed
// tarball into an empty folder, copies this script there and runs it, so that 'p2lrt' below is
// the installed package (node_modules/p2lrt), found by name through its "exports".
//
//   node package_node.mjs --rig character.p2lrt --repo-js web/p2l.js --repo-wasm build-wasm/p2l.wasm
//        --version 0.1.0 [--native P2LRT_TOOL] [--moc3 FILE.moc3] [--frames 90] [--clip wave]
//        [--cubism MODEL.model3.json]
//
// Checks: the package's exports resolve (the module, its typings, the player element module, the
// .wasm files, the drop-in Cubism Core by import and by require); Runtime.load() finds p2l.wasm
// by itself (import.meta.url); a clip played for N frames moves the vertices, which stay finite;
// every frame's vertices, opacities and render order equal what the repository's web/p2l.js
// computes on build-wasm/p2l.wasm, bit for bit; with --native, the poses of a few frames
// evaluated by `p2lrt eval` give the same vertices bit for bit; with --cubism, importCubism finds
// the package's p2l-import.wasm by itself and imports the model, and with --native too its
// vertices equal those of `p2lrt import` + `p2lrt eval` bit for bit. Prints "ok"/"FAIL" per check.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as p2lrt from 'p2lrt';

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const frames = Number(args.frames ?? 90);
const clip = args.clip ?? 'wave';
const DT = 1 / 60;

let failed = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failed++;
  return ok;
}
async function attempt(what, body) {
  try {
    return await body();
  } catch (error) {
    check(false, `${what}: ${error.stack ?? error}`);
    return undefined;
  }
}

// --- what the package exports ---
check(typeof p2lrt.Runtime?.load === 'function' && p2lrt.Behavior?.BLINK === 1 && p2lrt.Stage?.ALL === 63,
      `import 'p2lrt' gives Runtime, Rig, Behavior, Stage, Advanced (${Object.keys(p2lrt).sort().join(', ')})`);
const here = (specifier) => fileURLToPath(import.meta.resolve(specifier));
const packageJson = JSON.parse(readFileSync(here('p2lrt/package.json'), 'utf8'));
check(packageJson.version === args.version, `the installed package is version ${packageJson.version} (CMakeLists.txt: ${args.version})`);
const typings = resolve(here('p2lrt'), '..', packageJson.exports['.'].types);
check(existsSync(typings) && readFileSync(typings, 'utf8').includes('declare class Runtime'), `the module's typings are there (${packageJson.exports['.'].types})`);
for (const [name, repo] of [['p2l.wasm', args['repo-wasm']], ['p2l-render.wasm', resolve(args['repo-wasm'], '..', 'p2l-render.wasm')]]) {
  await attempt(`p2lrt/${name}`, async () => {
    const file = here(`p2lrt/${name}`);
    const bytes = readFileSync(file);
    const module = await WebAssembly.compile(bytes);
    check(bytes.equals(readFileSync(repo)) && WebAssembly.Module.imports(module).length === 0,
          `import.meta.resolve('p2lrt/${name}') is the built module (${bytes.length} bytes, no imports)`);
  });
}
await attempt("import 'p2lrt/player'", async () => {
  const player = await import('p2lrt/player');
  check(['mountPlayer', 'P2lPlayerElement', 'definePlayerElement', 'loadRuntime', 'Player'].every((k) => typeof player[k] === 'function'),
        `import 'p2lrt/player' works outside a browser too (${Object.keys(player).sort().join(', ')})`);
  const types = resolve(here('p2lrt'), '..', packageJson.exports['./player'].types);
  check(existsSync(types) && readFileSync(types, 'utf8').includes('P2lPlayerElement'), `the player's typings are there (${packageJson.exports['./player'].types})`);
});
await attempt('p2lrt/cubism-core', async () => {
  const required = createRequire(import.meta.url)('p2lrt/cubism-core');
  const imported = (await import('p2lrt/cubism-core')).default;
  const version = required?.Version?.csmGetVersion?.();
  check(version === 0x06000001 && imported === required && globalThis.Live2DCubismCore === required,
        `require('p2lrt/cubism-core') and import give the drop-in Core (csmGetVersion 0x${version?.toString(16)}; also globalThis.Live2DCubismCore)`);
  if (args.moc3) {
    const bytes = readFileSync(args.moc3);
    const moc = required.Moc.fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
    const model = moc && required.Model.fromMoc(moc);
    model?.update();
    check(!!model && model.parameters.count > 0 && model.drawables.count > 0,
          `the package's Core loads ${args.moc3.split('/').pop()}: ${model?.parameters.count} parameters, ${model?.drawables.count} drawables`);
    model?.release();
    moc?._release?.();
  }
});

// --- a clip played for N frames ---
/** Plays [clip] on a rig of [runtime] for [frames] frames; per frame the vertices of every mesh
 *  (one Float32Array), the opacities, the render order and the parameter values used. */
async function play(runtime, rigUrl) {
  const rig = await runtime.fetchRig(rigUrl);
  const out = { frames: [], meshes: rig.meshes.length, clipIndex: rig.clips.indexOf(clip), playing: [] };
  rig.play(clip);
  for (let f = 0; f < frames; f++) {
    rig.update(DT);
    const total = rig.meshes.reduce((n, m) => n + m.vertexCount * 2, 0);
    const vertices = new Float32Array(total);
    let at = 0;
    for (let m = 0; m < rig.meshes.length; m++) {
      const v = rig.vertices(m);
      vertices.set(v, at);
      at += v.length;
    }
    out.frames.push({
      vertices,
      opacity: Float32Array.from(rig.meshes, (_, m) => rig.opacity(m)),
      order: Array.from(rig.renderOrder()),
      current: Float32Array.from(rig.current()),
    });
    out.playing.push(rig.clipPlaying());
  }
  out.parameters = rig.parameters.map((p) => p.id);
  out.meshIds = rig.meshes.map((m) => m.id);
  out.vertexCounts = rig.meshes.map((m) => m.vertexCount);
  rig.free();
  return out;
}

const rigUrl = pathToFileURL(resolve(args.rig));
const runtime = await attempt('Runtime.load()', async () => {
  const r = await p2lrt.Runtime.load();
  check(r.version === args.version, `Runtime.load() with no argument finds the package's p2l.wasm (runtime ${r.version})`);
  return r;
});
const ours = runtime && await attempt(`the package plays ${clip}`, () => play(runtime, rigUrl));
if (ours) {
  const first = ours.frames[0].vertices, last = ours.frames[ours.frames.length - 1].vertices;
  const finite = ours.frames.every((f) => f.vertices.every(Number.isFinite) && f.opacity.every(Number.isFinite));
  let moved = 0;
  for (let f = 1; f < ours.frames.length; f++)
    for (let i = 0; i < first.length; i++) moved = Math.max(moved, Math.abs(ours.frames[f].vertices[i] - first[i]));
  const changedFrames = ours.frames.filter((f, i) => i > 0 && f.vertices.some((v, k) => v !== ours.frames[i - 1].vertices[k])).length;
  check(ours.clipIndex >= 0 && ours.playing.slice(0, 10).every((p) => p === ours.clipIndex),
        `the example has clip "${clip}" (index ${ours.clipIndex}) and layer 0 plays it`);
  check(finite, `${frames} frames of "${clip}" at 60 Hz: every vertex and opacity finite (${ours.meshes} meshes, ${first.length / 2} vertices)`);
  check(moved > 5 && changedFrames > frames / 2,
        `the vertices move: up to ${moved.toFixed(1)} canvas px from the first frame, ${changedFrames} of ${frames - 1} frames changed (last frame ${last !== first ? 'differs' : 'same'})`);

  // The same through the repository's web/p2l.js on build-wasm/p2l.wasm.
  await attempt("the repository's web/p2l.js", async () => {
    const repo = await import(pathToFileURL(resolve(args['repo-js'])).href);
    const theirs = await play(await repo.Runtime.load(readFileSync(args['repo-wasm'])), rigUrl);
    let differences = 0, values = 0;
    for (let f = 0; f < frames; f++) {
      const a = ours.frames[f], b = theirs.frames[f];
      for (const key of ['vertices', 'opacity', 'current']) {
        values += a[key].length;
        for (let i = 0; i < a[key].length; i++) if (!Object.is(a[key][i], b[key][i])) differences++;
      }
      if (a.order.join() !== b.order.join()) differences++;
    }
    check(differences === 0, `every frame equals the repository's web/p2l.js on build-wasm/p2l.wasm: ${values} values, ${differences} differences`);
  });

  // Against the native tool: the parameter values a frame used, evaluated by `p2lrt eval`. The
  // tool applies the part poses as `p2lrt render` does, from their start (Cubism's pose3: the first
  // part of each group shown, the others at opacity 0); the clip played here switches no pose
  // part, so the poses stay there in every frame.
  if (args.native) {
    await attempt('p2lrt eval', async () => {
      const picks = [Math.floor(frames / 3), Math.floor((2 * frames) / 3), frames - 1];
      let differences = 0, values = 0;
      for (const f of picks) {
        const frame = ours.frames[f];
        const decimal = (x) => (Object.is(x, -0) ? '-0' : String(x));  // a float's double, which from_chars takes back exactly
        const settings = ours.parameters.flatMap((id, i) => ['--set', `${id}=${decimal(frame.current[i])}`]);
        const json = JSON.parse(execFileSync(args.native, ['eval', resolve(args.rig), '--json', ...settings], { maxBuffer: 64 << 20 }).toString());
        let at = 0;
        for (let m = 0; m < json.meshes.length; m++) {
          const native = json.meshes[m];
          if (native.id !== ours.meshIds[m] || native.vertices.length !== ours.vertexCounts[m] * 2) throw new Error(`mesh ${m} differs in shape`);
          for (const v of native.vertices) {
            values++;
            if (!Object.is(Math.fround(v), frame.vertices[at++])) differences++;
          }
          values++;
          if (!Object.is(Math.fround(native.opacity), frame.opacity[m])) differences++;
        }
        if (json.render_order.join() !== frame.order.join()) differences++;
      }
      check(differences === 0, `frames ${picks.join(', ')} equal \`p2lrt eval\` at the same parameter values (${args.native}): ` +
            `${values} vertex coordinates and opacities and the render orders, ${differences} differences`);
    });
  } else {
    console.log('SKIPPED the native comparison (no P2L_NATIVE_BUILD with the p2lrt tool)');
  }
}
if (runtime && args.cubism) {
  await attempt('importCubism', async () => {
    const rig = await runtime.importCubism(pathToFileURL(resolve(args.cubism)));
    check(rig.meshes.length > 0 && Array.isArray(rig.importReport),
          `importCubism() finds the package's p2l-import.wasm and imports ${args.cubism.split('/').pop()}: ` +
          `${rig.meshes.length} meshes, ${rig.importReport.length} report lines`);
    if (args.native) {
      const imported = resolve('cubism-native.p2lrt');
      execFileSync(args.native, ['import', resolve(args.cubism), '-o', imported], { stdio: 'ignore' });
      const json = JSON.parse(execFileSync(args.native, ['eval', imported, '--json'], { maxBuffer: 64 << 20 }).toString());
      rig.evaluate();
      let values = 0, differences = 0;
      json.meshes.forEach((native, m) => {
        const ours = rig.vertices(m);
        native.vertices.forEach((v, i) => { values++; if (!Object.is(Math.fround(v), ours[i])) differences++; });
      });
      check(differences === 0 && values > 0,
            `its vertices equal \`p2lrt import\` + \`p2lrt eval\`: ${values} values, ${differences} differences`);
    }
    rig.free();
  });
}
process.exit(failed ? 1 : 0);
