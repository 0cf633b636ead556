// The npm package in a browser page, as a user would write one: scripts/npm_package.sh --test
// installs the packed tarball into an empty folder, links the repository's staged player site
// into it (repo-site/, for comparison) and serves the folder on loopback; this writes the page
// (index.html: an import map made from the installed package's "exports", <p2l-player>
// elements, mountPlayer()) into that folder and drives it in headless Chromium.
//
//   node web/test/package_browser.mjs --dir TMP --url http://127.0.0.1:PORT/ --rig character.p2lrt
//        --repo-js web/p2l.js --repo-wasm build-wasm/p2l.wasm --playwright DIR --chromium /usr/bin/chromium
//        --out build-wasm/npm/test [--clip wave]
//
// Checks: the page loads the package by its package paths with no console or page error; the
// drop-in Cubism Core runs as a classic script from the package; the element plays the clip and
// the screenshot shows the character where the rig's meshes lie (and nothing elsewhere), moving
// between two screenshots; the element in still mode draws exactly what the repository's player
// page draws (?test=1, same size); mountPlayer() draws the same; the element lets go when removed
// and mounts again when put back; a file that is not a rig gives an 'error' event. Screenshots
// and the pixels read back go to --out.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { decodePng, encodePng } from './png.mjs';

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
for (const key of ['dir', 'url', 'rig', 'repo-js', 'repo-wasm', 'playwright', 'chromium', 'out'])
  if (!args[key]) throw new Error(`package_browser.mjs: --${key} is required`);
const clip = args.clip ?? 'wave';
mkdirSync(args.out, { recursive: true });

const PLAYING = [480, 480];   // the playing element's CSS size (device pixel ratio 1)
const STILL = [512, 512];     // the still element's and the repository page's drawing size
const BACKGROUND = [232, 236, 240];
const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--enable-unsafe-swiftshader', '--disable-background-networking',
                        '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

let failed = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failed++;
  return ok;
}

// --- the page, from the installed package's exports ---
const packageDir = join(args.dir, 'node_modules', 'p2lrt');
const packageJson = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
const target = (value) => (typeof value === 'string' ? value : value.browser ?? value.import ?? value.default);
const imports = {};
for (const [key, value] of Object.entries(packageJson.exports)) {
  if (/\.(wasm|json)$/.test(key)) continue;
  imports[`p2lrt${key.slice(1)}`] = `./node_modules/p2lrt/${target(value).replace(/^\.\//, '')}`;
}
writeFileSync(join(args.dir, 'not-a-rig.p2lrt'), 'these bytes are not a rig');
writeFileSync(join(args.dir, 'index.html'), `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>p2lrt package test</title>
  <link rel="icon" href="data:,">
  <script type="importmap">${JSON.stringify({ imports }, null, 2)}</script>
  <!-- the drop-in Cubism Core, as a classic script, from the package -->
  <script src="./node_modules/p2lrt/${target(packageJson.exports['./cubism-core']).replace(/^\.\//, '')}"></script>
  <style>
    body { margin: 0; background: rgb(${BACKGROUND.join(', ')}); }
    .row { display: flex; align-items: flex-start; gap: 8px; padding: 8px; }
    #playing { width: ${PLAYING[0]}px; height: ${PLAYING[1]}px; }
    #mounted { width: ${STILL[0]}px; height: ${STILL[1]}px; }
  </style>
</head>
<body>
  <div class="row">
    <p2l-player id="playing" src="${args.rig}" clip="${clip}"></p2l-player>
    <p2l-player id="still" src="${args.rig}" still size="${STILL.join('x')}"></p2l-player>
    <div id="mounted"></div>
  </div>
  <script type="module">
    import { mountPlayer } from 'p2lrt/player';
    import { Runtime } from 'p2lrt';
    const base64 = (bytes) => {
      let text = '';
      for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(text);
    };
    const pixels = (player) => {
      const { width, height, rgba } = player.pixels();
      return { width, height, rgba: base64(rgba) };
    };
    window.packageTest = {
      mounted: null,
      async mount() {
        this.mounted = await mountPlayer(document.getElementById('mounted'), { src: '${args.rig}', still: true, size: [${STILL.join(', ')}] });
        return this.mounted.runtime === document.getElementById('still').runtime;
      },
      pixels: (id) => pixels(document.getElementById(id).player),
      mountedPixels() { return pixels(this.mounted.player); },
      runtimeIsPackage: () => typeof Runtime.load === 'function',
    };
  </script>
</body>
</html>
`);

// --- where the character lies: the union of the meshes' bounds over the clip (node, repository module) ---
async function characterBox() {
  const { Runtime } = await import(pathToFileURL(resolve(args['repo-js'])).href);
  const runtime = await Runtime.load(readFileSync(args['repo-wasm']));
  const rig = runtime.rig(readFileSync(join(args.dir, args.rig)));
  const box = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
  const grow = () => {
    for (let m = 0; m < rig.meshes.length; m++) {
      if (rig.opacity(m) < 0.01) continue;
      const v = rig.vertices(m);
      for (let i = 0; i < v.length; i += 2) {
        box.x0 = Math.min(box.x0, v[i]); box.x1 = Math.max(box.x1, v[i]);
        box.y0 = Math.min(box.y0, v[i + 1]); box.y1 = Math.max(box.y1, v[i + 1]);
      }
    }
  };
  rig.behaviors(0xf);
  rig.evaluate();
  grow();
  rig.play(clip);
  for (let f = 0; f < 240; f++) {
    rig.update(1 / 60);
    grow();
  }
  // Canvas pixels to the element's drawing: fitted whole and centred (framing.js).
  const scale = Math.min(PLAYING[0] / rig.width, PLAYING[1] / rig.height);
  const tx = (PLAYING[0] - rig.width * scale) / 2, ty = (PLAYING[1] - rig.height * scale) / 2;
  rig.free();
  return { x0: box.x0 * scale + tx, y0: box.y0 * scale + ty, x1: box.x1 * scale + tx, y1: box.y1 * scale + ty };
}

const isBackground = (rgba, i) => Math.abs(rgba[i] - BACKGROUND[0]) + Math.abs(rgba[i + 1] - BACKGROUND[1]) + Math.abs(rgba[i + 2] - BACKGROUND[2]) <= 6;

/** Shares of the screenshot's pixels not background inside [box] and outside it grown by [margin]. */
function coverage(image, box, margin = 8) {
  let inside = 0, insideDrawn = 0, outside = 0, outsideDrawn = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const drawn = !isBackground(image.rgba, (y * image.width + x) * 4);
      const px = x + 0.5, py = y + 0.5;
      if (px >= box.x0 && px <= box.x1 && py >= box.y0 && py <= box.y1) {
        inside++;
        if (drawn) insideDrawn++;
      } else if (px < box.x0 - margin || px > box.x1 + margin || py < box.y0 - margin || py > box.y1 + margin) {
        outside++;
        if (drawn) outsideDrawn++;
      }
    }
  }
  return { inside: insideDrawn / Math.max(1, inside), outside: outsideDrawn / Math.max(1, outside), outsidePixels: outside };
}

function changedShare(a, b) {
  let changed = 0;
  for (let i = 0; i < a.rgba.length; i += 4) {
    const d = Math.max(Math.abs(a.rgba[i] - b.rgba[i]), Math.abs(a.rgba[i + 1] - b.rgba[i + 1]), Math.abs(a.rgba[i + 2] - b.rgba[i + 2]));
    if (d > 16) changed++;
  }
  return changed / (a.rgba.length / 4);
}

function difference(a, b) {
  if (a.width !== b.width || a.height !== b.height) return { max: Infinity, count: Infinity };
  let max = 0, count = 0;
  for (let i = 0; i < a.rgba.length; i++) {
    const d = Math.abs(a.rgba[i] - b.rgba[i]);
    if (d) count++;
    if (d > max) max = d;
  }
  return { max, count };
}

const decoded = (p) => ({ width: p.width, height: p.height, rgba: new Uint8Array(Buffer.from(p.rgba, 'base64')) });
const drawnShare = (p) => {
  let n = 0;
  for (let i = 3; i < p.rgba.length; i += 4) if (p.rgba[i]) n++;
  return n / (p.rgba.length / 4);
};
const unpremultiplied = (p) => {
  const out = new Uint8Array(p.rgba.length);
  for (let i = 0; i < out.length; i += 4) {
    const a = p.rgba[i + 3];
    for (let c = 0; c < 3; c++) out[i + c] = a ? Math.min(255, Math.round(p.rgba[i + c] * 255 / a)) : 0;
    out[i + 3] = a;
  }
  return { ...p, rgba: out };
};

async function waitReady(page, selector, timeout = 60000) {
  await page.waitForFunction((s) => {
    const state = document.querySelector(s)?.state;
    return state === 'ready' || state === 'error';
  }, selector, { timeout }).catch(() => {});
  return page.evaluate((s) => {
    const element = document.querySelector(s);
    return { state: element?.state, error: element?.error ? String(element.error.message ?? element.error) : '' };
  }, selector);
}

async function main() {
  const box = await characterBox();
  const { chromium } = await import(pathToFileURL(join(args.playwright, 'index.mjs')).href);
  const started = Date.now();
  const browser = await chromium.launch({ executablePath: args.chromium, args: CHROMIUM_FLAGS, headless: true });
  try {
    const context = await browser.newContext({ viewport: { width: 1600, height: 540 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const problems = [];
    page.on('console', (message) => { if (message.type() === 'error') problems.push(`console.error: ${message.text()}`); });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.goto(`${args.url}index.html`);
    const playing = await waitReady(page, '#playing');
    const still = await waitReady(page, '#still');
    check(playing.state === 'ready' && still.state === 'ready',
          `the page imports 'p2lrt/player' through an import map made from the package's exports (${Object.keys(imports).join(', ')}) ` +
          `and both <p2l-player> elements load ${args.rig} in ${((Date.now() - started) / 1000).toFixed(1)} s: ${playing.state}${playing.error ? ` (${playing.error})` : ''}, ${still.state}${still.error ? ` (${still.error})` : ''}`);
    const core = await page.evaluate(() => globalThis.Live2DCubismCore?.Version?.csmGetVersion?.());
    check(core === 0x06000001, `the package's drop-in Cubism Core runs as a classic script (csmGetVersion 0x${core?.toString(16)})`);
    if (playing.state !== 'ready' || still.state !== 'ready') return;

    // The playing element: the clip from its start, two screenshots while it plays.
    const info = await page.evaluate((c) => {
      const element = document.getElementById('playing');
      element.play(c);
      return { clip: element.rig.clipPlaying(), clips: element.rig.clips.length, meshes: element.rig.meshes.length };
    }, clip);
    await page.waitForTimeout(700);
    const element = page.locator('#playing');
    const shotA = await element.screenshot();
    await page.waitForTimeout(500);
    const shotB = await element.screenshot();
    writeFileSync(join(args.out, 'package-player.png'), shotA);
    writeFileSync(join(args.out, 'package-player-later.png'), shotB);
    const a = decodePng(shotA), b = decodePng(shotB);
    const cover = coverage(a, box);
    const rect = `(${box.x0.toFixed(0)}, ${box.y0.toFixed(0)})..(${box.x1.toFixed(0)}, ${box.y1.toFixed(0)})`;
    check(a.width === PLAYING[0] && a.height === PLAYING[1] && info.clip >= 0 && cover.inside >= 0.25 && cover.outside <= 0.002,
          `the element plays "${clip}" (clip ${info.clip}, ${info.meshes} meshes) and the screenshot (${a.width}x${a.height}) shows the character: ` +
          `${(cover.inside * 100).toFixed(1)} % of the pixels inside the rig's bounds ${rect} drawn, ${(cover.outside * 100).toFixed(3)} % of the ${cover.outsidePixels} outside`);
    const moved = changedShare(a, b);
    check(moved >= 0.003, `the character moves: ${(moved * 100).toFixed(2)} % of the pixels change by > 16 levels between screenshots 0.5 s apart`);

    // The still element against the repository's player page in its test mode, same size.
    const ours = decoded(await page.evaluate(() => window.packageTest.pixels('still')));
    writeFileSync(join(args.out, 'package-still.png'), encodePng(unpremultiplied(ours)));
    const repoPage = await context.newPage();
    repoPage.on('console', (message) => { if (message.type() === 'error') problems.push(`repo page console.error: ${message.text()}`); });
    repoPage.on('pageerror', (error) => problems.push(`repo page error: ${error.message}`));
    await repoPage.goto(`${args.url}repo-site/?test=1&size=${STILL.join('x')}&rig=${encodeURIComponent(args.rig)}`);
    await repoPage.waitForFunction(() => window.p2lPlayer && window.p2lPlayer.state() !== 'loading', null, { timeout: 60000 }).catch(() => {});
    const repoState = await repoPage.evaluate(() => window.p2lPlayer?.state());
    if (check(repoState === 'ready', `the repository's player page (repo-site/, scripts/serve.sh --stage-only) loads the same rig: ${repoState}`)) {
      const theirs = decoded(await repoPage.evaluate(() => window.p2lPlayer.pixels()));
      writeFileSync(join(args.out, 'repo-page-still.png'), encodePng(unpremultiplied(theirs)));
      const d = difference(ours, theirs);
      check(d.count === 0 && drawnShare(ours) > 0.05,
            `<p2l-player still size="${STILL.join('x')}"> draws exactly what the repository's page draws at ?test=1: ` +
            `${(drawnShare(ours) * 100).toFixed(1)} % of the pixels drawn, ${d.count} channel values differ (max ${d.max})`);
    }
    await repoPage.close();

    // mountPlayer() into a plain element, sharing the page's runtime.
    const shared = await page.evaluate(() => window.packageTest.mount());
    const mounted = decoded(await page.evaluate(() => window.packageTest.mountedPixels()));
    const dm = difference(ours, mounted);
    check(shared && dm.count === 0, `mountPlayer(div, { src, still: true, size }) draws the same (${dm.count} values differ) with the page's one runtime (${shared})`);
    // The whole page for a person to look at: the playing element, the still one, mountPlayer's.
    writeFileSync(join(args.out, 'package-page.png'), await page.screenshot());

    // Removed, the element lets go (its loop, listeners, rig); put back, it mounts again.
    const removed = await page.evaluate(async () => {
      const element = document.getElementById('still');
      const parent = element.parentNode;
      element.remove();
      const gone = { state: element.state, player: element.player === null, rig: element.rig === null };
      parent.append(element);
      await element.ready;
      return { gone, back: element.state, meshes: element.rig?.meshes.length ?? 0 };
    });
    check(removed.gone.state === 'idle' && removed.gone.player && removed.gone.rig && removed.back === 'ready' && removed.meshes > 0,
          `a removed element stops and frees its rig (state ${removed.gone.state}) and mounts again when put back (${removed.back}, ${removed.meshes} meshes)`);

    // A file that is not a rig: the element reports the reader's error.
    const bad = await page.evaluate(() => new Promise((done) => {
      const element = document.createElement('p2l-player');
      element.setAttribute('src', 'not-a-rig.p2lrt');
      element.addEventListener('error', (event) => done({ state: element.state, message: String(event.detail.error?.message ?? event.detail.error) }));
      document.body.append(element);
      setTimeout(() => done({ state: element.state, message: 'no error event in 30 s' }), 30000);
    }));
    check(bad.state === 'error' && /could not be loaded/.test(bad.message), `a file that is not a rig gives an 'error' event: ${bad.message}`);

    check(problems.length === 0, `no console errors or page errors${problems.length ? `: ${problems.join(' | ')}` : ''}`);
    console.log(`     screenshots in ${args.out}: package-player.png, package-player-later.png, package-page.png, package-still.png, repo-page-still.png`);
    console.log(`     browser part: ${((Date.now() - started) / 1000).toFixed(1)} s in Chromium`);
  } finally {
    await browser.close();
  }
}

try {
  await main();
} catch (error) {
  check(false, error.stack ?? String(error));
}
process.exit(failed ? 1 : 0);
