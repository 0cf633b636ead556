// A real client of the Cubism Core, unchanged, in a real browser: a page that loads pixi.js,
// pixi-live2d-display's cubism4 bundle and a given Core as classic <script> tags draws Haru with
// WebGL (headless Debian Chromium, SwiftShader, driven by playwright-core, as
// scripts/browser_test.sh does) at a fixed size and a fixed time, and the canvas is saved as a
// PNG. pixi_pictures.sh runs it for two Cores and compares the pictures (diff_pictures.mjs).
//
//   node tests/dropin/pixi_screenshot.mjs CORE_JS OUT.png [--frames 270] [--fps 60] [--seed 1]
//        [--size 512x768] [--model X.model3.json] [--pixi DIR] [--display DIR]
//        [--playwright DIR] [--chromium /usr/bin/chromium]
//
// Deterministic as pixi_frames.mjs, with the same driver (driver.js): Math.random seeded before
// anything loads and again just before Live2DModel.from, performance.now() the harness's clock,
// the Application's ticker stopped (autoStart false, autoUpdate false on the model); each frame
// Live2DModel.update(1000 / fps) then app.renderer.render(app.stage), which is where the library
// updates the model (Live2DModel._render), for --frames frames (default 270: 4.5 s, the TapBody
// motion and the expression both under way). The files are served by a small HTTP server in this
// process (127.0.0.1, a free port) from the cache and the model's folder, never from the
// repository's working tree (but driver.js).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DISPLAY_VERSION, PIXI_VERSION, PLAYWRIGHT_VERSION, defaultModel, fetchPackage, here, parseOptions } from './common.mjs';

const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--enable-unsafe-swiftshader', '--disable-background-networking',
                        '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.json': 'application/json', '.png': 'image/png', '.moc3': 'application/octet-stream' };

function parseArguments(argv) {
  const args = { frames: 270, fps: 60, seed: 1, size: '512x768', chromium: '/usr/bin/chromium', ...parseOptions(argv) };
  if (args.positional.length !== 2) {
    console.error('usage: node tests/dropin/pixi_screenshot.mjs CORE_JS OUT.png [--frames 270] [--fps 60] [--seed 1] [--size WxH] ' +
                  '[--model M.model3.json] [--pixi DIR] [--display DIR] [--playwright DIR] [--chromium PATH]');
    process.exit(2);
  }
  [args.core, args.out] = args.positional.map((p) => resolve(p));
  args.frames = Number(args.frames);
  args.fps = Number(args.fps);
  args.seed = Number(args.seed) >>> 0;
  [args.width, args.height] = args.size.split('x').map(Number);
  return args;
}

// The page: the client's scripts as classic tags, in the order a page using pixi-live2d-display
// has them (Core, pixi.js, the plugin), after the harness's seeded random and clock.
function pageHtml(config) {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>p2lrt drop-in: pixi-live2d-display</title><link rel="icon" href="data:,">
<style>html, body { margin: 0; background: #fff; } canvas { display: block; }</style></head>
<body>
<script src="/driver.js"></script>
<script>P2lDropin.installRandom(${config.seed}); P2lDropin.installClock();</script>
<script src="/core.js"></script>
<script src="/pixi.js"></script>
<script src="/cubism4.js"></script>
<script>
window.p2lDropin = { done: false, error: null };
(async () => {
  const config = ${JSON.stringify(config)};
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  let version = 0;
  for (let tries = 0; tries < 1000 && !version; tries++) {   // a Core 5/6 starts asynchronously
    try { version = Live2DCubismCore.Version.csmGetVersion(); } catch (e) { if (!(e instanceof TypeError)) throw e; }
    if (!version) await sleep(10);
  }
  if (!version) throw new Error('the Core did not start');
  const L = PIXI.live2d;
  P2lDropin.configure(L);
  const app = new PIXI.Application({ width: config.width, height: config.height, autoStart: false, backgroundColor: 0xffffff,
                                     backgroundAlpha: 1, antialias: false, preserveDrawingBuffer: true, resolution: 1 });
  app.ticker.stop();
  document.body.appendChild(app.view);
  P2lDropin.installRandom(config.seed);
  const model = await L.Live2DModel.from(config.settings, { autoUpdate: false, autoInteract: false, crossOrigin: 'anonymous' });
  const scale = Math.min(config.width / model.width, config.height / model.height);
  model.scale.set(scale);
  model.position.set((config.width - model.width) / 2, (config.height - model.height) / 2);
  app.stage.addChild(model);
  const log = await P2lDropin.run({
    model, live2d: L, fps: config.fps, frames: config.frames,
    advance: () => app.renderer.render(app.stage),
    settle: () => new Promise((r) => setTimeout(r, 0)),
  });
  const gl = app.renderer.gl;
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  window.p2lDropin = {
    done: true, log, core: version, png: app.view.toDataURL('image/png'),
    webgl: (gl instanceof WebGL2RenderingContext ? 'WebGL2 ' : 'WebGL1 ') + (info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER)),
  };
})().catch((e) => { window.p2lDropin = { done: false, error: String(e && e.stack || e) }; });
</script>
</body></html>
`;
}

function serve(routes, modelFolder, virtualFiles) {
  const server = http.createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://x').pathname);
    let body;
    try {
      if (Object.hasOwn(routes, path)) body = routes[path].body ?? readFileSync(routes[path].file);
      else if (path.startsWith('/model/')) {
        const rel = normalize(path.slice('/model/'.length));
        if (rel.startsWith('..')) throw new Error('outside');
        body = Object.hasOwn(virtualFiles, rel) ? JSON.stringify(virtualFiles[rel]) : readFileSync(join(modelFolder, rel));
      } else throw new Error('no route');
    } catch {
      response.writeHead(404).end();
      server.notFound.push(path);
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[extname(path)] || (path === '/' ? 'text/html' : 'application/octet-stream'), 'cache-control': 'no-store' });
    response.end(body);
  });
  server.notFound = [];
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r(server)));
}

async function main() {
  const args = parseArguments(process.argv.slice(2));
  const started = Date.now();
  const modelFile = resolve(args.model || defaultModel());
  const pixiDir = args.pixi || fetchPackage('pixi.js', PIXI_VERSION, 'dist/browser/pixi.js');
  const displayDir = args.display || fetchPackage('pixi-live2d-display', DISPLAY_VERSION, 'dist/cubism4.js');
  const playwrightDir = args.playwright || fetchPackage('playwright-core', PLAYWRIGHT_VERSION, 'index.mjs');

  // The settings as the library gets them (driver.js), its url the model's folder on the server.
  const vmModule = await import('node:vm');
  vmModule.default.runInThisContext(readFileSync(join(here, 'driver.js'), 'utf8'), { filename: join(here, 'driver.js') });
  const modelName = modelFile.slice(dirname(modelFile).length + 1);
  const { settings, virtualFiles, notes } = globalThis.P2lDropin.prepareSettings(JSON.parse(readFileSync(modelFile, 'utf8')), `/model/${modelName}`);
  const config = { seed: args.seed, fps: args.fps, frames: args.frames, width: args.width, height: args.height, settings };
  const server = await serve({
    '/': { body: pageHtml(config) },
    '/driver.js': { file: join(here, 'driver.js') },
    '/core.js': { file: args.core },
    '/pixi.js': { file: join(pixiDir, 'dist/browser/pixi.js') },
    '/cubism4.js': { file: join(displayDir, 'dist/cubism4.js') },
  }, dirname(modelFile), virtualFiles);
  const url = `http://127.0.0.1:${server.address().port}/`;

  const { chromium } = await import(pathToFileURL(join(playwrightDir, 'index.mjs')).href);
  const profile = mkdtempSync(join(tmpdir(), 'p2lrt-dropin-chromium-'));
  const problems = [];
  let result;
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: args.chromium, args: CHROMIUM_FLAGS, headless: true, viewport: { width: args.width, height: args.height }, deviceScaleFactor: 1,
  });
  try {
    const page = await context.newPage();
    // Chromium's own "GL Driver Message ... GPU stall due to ReadPixels" (performance notes of
    // SwiftShader) are not the page's problems.
    page.on('console', (m) => {
      if ((m.type() === 'error' || m.type() === 'warning') && !m.text().includes('GL Driver Message')) problems.push(`console.${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.goto(url);
    await page.waitForFunction(() => window.p2lDropin && (window.p2lDropin.done || window.p2lDropin.error), null, { timeout: 300000, polling: 200 });
    result = await page.evaluate(() => window.p2lDropin);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
    server.close();
  }
  if (!result.done) throw new Error(`the page failed: ${result.error}\n${problems.join('\n')}`);
  if (server.notFound.length) throw new Error(`the page asked for files the server does not have: ${server.notFound.join(', ')}`);
  writeFileSync(args.out, Buffer.from(result.png.slice(result.png.indexOf(',') + 1), 'base64'));
  const v = result.core;
  console.log(`pixi_screenshot: Core ${v >>> 24}.${(v >> 16) & 0xff}.${v & 0xffff} (${args.core}); ${result.webgl}; ` +
              `${args.width}x${args.height}, frame ${args.frames} at ${args.fps} Hz (${(args.frames / args.fps).toFixed(3)} s) -> ${args.out} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const n of notes) console.log(`pixi_screenshot: ${n}`);
  for (const e of result.log) console.log(`pixi_screenshot: frame ${e.frame}: ${e.what} -> ${JSON.stringify(e.result)}`);
  for (const p of problems) console.log(`pixi_screenshot: ${p}`);
}

main().catch((e) => { console.error(`pixi_screenshot: ${e && e.stack ? e.stack : e}`); process.exit(1); });
