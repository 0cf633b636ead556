// The player page (web/index.html) in Chromium, driven by playwright-core, checked against
// the native software renderer (`p2lrt render`). scripts/browser_test.sh stages the site,
// serves it and runs this; it exits non-zero when a check fails and prints each check with
// its figures.
//
//   node web/test/browser.mjs --url http://127.0.0.1:8765/ --site build-wasm/site
//        --p2lrt build-browser/p2lrt --playwright DIR --chromium /usr/bin/chromium
//        --out build-browser/browser-test [--haru haru.p2lrt]
//
// Checks: (a) the page loads the bundled example with no console error and no page error
// (for the whole run); (b) its canvas matches `p2lrt render` at the same poses; (c) a slider
// and a joystick of the parameter panel change the picture; (d) a click on the face reports
// the head hit area; (e) with --haru, an imported Haru (a file outside the repository) loads,
// draws and matches `p2lrt render` too; (f) a generated rig with every blend pair, isolated
// groups, masks and culling (blend_sheet.mjs) matches `p2lrt render` cell by cell.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Runtime } from '../p2l.js';
import { HEIGHT as SHEET_CANVAS_HEIGHT, WIDTH as SHEET_CANVAS_WIDTH, blendSheet, sheetCells } from './blend_sheet.mjs';
import { decodePng, encodePng } from './png.mjs';

// ---------------------------------------------------------------------------------------
// Tolerance of (b), (c) and (e), per pixel on premultiplied RGBA8 (0..255), over the pixels
// either renderer draws.
//
// The WebGL renderer follows the software renderer's arithmetic (the same bilinear sampling
// of premultiplied texels, the same colour and composite formulas), so most pixels agree to a
// level or two: its surfaces hold 8 bits between meshes where the software renderer keeps
// floats until the end. The rest differ by design or by rasterization:
//  - masks: the player's mask buffers are RGBA8 where the software renderer keeps floats, a
//    level of difference at most (they were a stencil until the coverage rule came to the GPU:
//    src/gl/shaders/mask_value.glsl);
//  - triangle edges and texture detail: the GPU snaps vertices to its sub-pixel grid, so a
//    pixel centre very near an edge can fall on the other side than in the software
//    renderer's exact edge test, and a texture drawn much smaller than its size (Haru's
//    2048-texel pages at a quarter scale; neither renderer uses mipmaps) samples other texels.
// Measured (figures over the drawn pixels): the example at 768x768 in four poses, mean 0.035 to
// 0.050 levels per channel and 0.005 to 0.033 % of the pixels off by more than 16 levels in
// some channel (edges, up to 76 levels); Haru at 600x1125, mean 0.10 to
// 0.12 and 0.012 % (texture detail). The limits leave 2x (Haru's mean) to 5x (the example's
// fraction) over those, and lie under what a wrong rule gives: without masks the example
// gives 0.32 to 0.41 % (mean up to 0.43) and Haru 0.18 % (mean 0.25); inverted masks drawn
// plain 1.3 %; CUBISM_MULTIPLY drawn as NORMAL 0.8 to 1.0 %; CUBISM_ADD as NORMAL 0.42 to 0.47 %;
// SCREEN as NORMAL 0.7 %. What the example cannot show (its one isolated group composites
// like a pass-through one, no mesh culls, no other blend mode) the blend sheet of (f) does.
const TOLERANCE = {
  meanLevels: 0.25,        // mean absolute difference per channel
  overLevels: 16,          // a pixel "differs" when a channel is off by more than this
  overFraction: 0.0015,    // at most this fraction of the drawn pixels may differ
};
// (f), per 40x40 cell of the blend sheet (blend_sheet.mjs), drawn at one pixel per canvas pixel.
// Without masks every cell agrees within 1 to 4 levels but colour burn, whose division by the
// source colour turns the 8-bit rounding of the surfaces into up to 36 levels on one pixel of a
// cell (0.06 %). The masked cells (the masks' rims included) agree within a level, mean 0.17:
// they are held to the same limits. Limits: about four times those figures; a mask ignored,
// inverted wrongly or a blend pair drawn by another rule changes a third of its cell or more.
const CELL_TOLERANCE = { meanLevels: 0.5, overFraction: 0.005 };
const MASKED_CELL_TOLERANCE = CELL_TOLERANCE;
// (c): moving a parameter must change at least this fraction of the pixels by > 16 levels.
const MIN_CHANGED_FRACTION = 0.005;

// Drawing sizes: large enough that the edge effects above are a small share of the pixels.
const EXAMPLE_SIZE = [768, 768];
const [SHEET_WIDTH, SHEET_HEIGHT] = [SHEET_CANVAS_WIDTH, SHEET_CANVAS_HEIGHT];  // one pixel per canvas pixel
const HARU_WIDTH = 600;

const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--enable-unsafe-swiftshader', '--disable-background-networking',
                        '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

// ---------------------------------------------------------------------------------------
// Arguments and reporting

function parseArguments(argv) {
  const args = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--') || argv[i + 1] === undefined) throw new Error(`browser.mjs: bad argument ${argv[i]}`);
    args[argv[i].slice(2)] = argv[i + 1];
  }
  for (const key of ['url', 'site', 'p2lrt', 'playwright', 'chromium', 'out'])
    if (!args[key]) throw new Error(`browser.mjs: --${key} is required`);
  return args;
}

const failures = [];
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
  return ok;
}

// Straight RGBA8 (a PNG) to premultiplied, rounded: what the page's canvas holds.
function premultiply(image) {
  const out = new Uint8Array(image.rgba.length);
  for (let i = 0; i < out.length; i += 4) {
    const a = image.rgba[i + 3];
    for (let c = 0; c < 3; c++) out[i + c] = Math.round(image.rgba[i + c] * a / 255);
    out[i + 3] = a;
  }
  return { ...image, rgba: out };
}

// Premultiplied to straight, for saving the page's pixels as a viewable PNG.
function unpremultiply(image) {
  const out = new Uint8Array(image.rgba.length);
  for (let i = 0; i < out.length; i += 4) {
    const a = image.rgba[i + 3];
    for (let c = 0; c < 3; c++) out[i + c] = a ? Math.min(255, Math.round(image.rgba[i + c] * 255 / a)) : 0;
    out[i + 3] = a;
  }
  return { ...image, rgba: out };
}

/** Per-pixel comparison of two premultiplied images of one size, over the pixels that either
 *  image draws (alpha above 0: the empty background would dilute the figures by the share of
 *  the image the rig leaves empty): the mean absolute difference per channel, the fraction of
 *  those pixels with a channel off by more than [over] levels, the largest difference, and an
 *  image of the differences (red: more than [over]). */
function compare(a, b, over = TOLERANCE.overLevels) {
  if (a.width !== b.width || a.height !== b.height) throw new Error(`sizes differ: ${a.width}x${a.height} and ${b.width}x${b.height}`);
  let sum = 0, count = 0, max = 0, drawn = 0;
  const diff = new Uint8Array(a.rgba.length);
  for (let i = 0; i < a.rgba.length; i += 4) {
    if (a.rgba[i + 3] === 0 && b.rgba[i + 3] === 0) {
      diff.set([0, 0, 0, 255], i);
      continue;
    }
    drawn++;
    let worst = 0;
    for (let c = 0; c < 4; c++) {
      const d = Math.abs(a.rgba[i + c] - b.rgba[i + c]);
      sum += d;
      if (d > worst) worst = d;
    }
    if (worst > max) max = worst;
    if (worst > over) count++;
    const grey = 40 + Math.round((a.rgba[i + 3] + b.rgba[i + 3]) / 12);
    diff.set(worst > over ? [255, 0, 0, 255] : [Math.min(255, grey + worst * 12), grey, grey, 255], i);
  }
  return { mean: sum / Math.max(1, drawn * 4), fraction: count / Math.max(1, drawn), max, drawn,
           diff: { width: a.width, height: a.height, rgba: diff } };
}

/** The part of a premultiplied image inside [rect] ({ x0, y0, x1, y1 }). */
function crop(image, rect) {
  const width = rect.x1 - rect.x0, height = rect.y1 - rect.y0;
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    rgba.set(image.rgba.subarray(((rect.y0 + y) * image.width + rect.x0) * 4, ((rect.y0 + y) * image.width + rect.x1) * 4), y * width * 4);
  return { width, height, rgba };
}

const figures = (r) => `mean ${r.mean.toFixed(3)} levels/channel, ${(r.fraction * 100).toFixed(3)} % of the ${r.drawn} drawn pixels off by > ${TOLERANCE.overLevels}, max ${r.max}`;
const withinTolerance = (r) => r.mean <= TOLERANCE.meanLevels && r.fraction <= TOLERANCE.overFraction;

// ---------------------------------------------------------------------------------------
// The two renderers

/** `p2lrt render` of [rig] at [pose] ({ id: value }), premultiplied. */
function nativeRender(args, rig, width, height, pose, name) {
  const output = join(args.out, `${name}.native.png`);
  const params = Object.entries(pose).flatMap(([id, value]) => ['--param', `${id}=${value}`]);
  execFileSync(args.p2lrt, ['render', rig, '-o', output, '--size', `${width}x${height}`, '--behaviors', 'none', '-q', ...params]);
  return premultiply(decodePng(readFileSync(output)));
}

/** The page's canvas after a fresh frame, premultiplied, as a straight PNG would hold it; saved
 *  (straight) next to the native one. `p2lrt render` writes straight alpha, where a pixel
 *  with no alpha has no colour: the additive modes can leave colour there (the sparkles
 *  outside the background), which the page's premultiplied canvas keeps and the PNG cannot. */
async function pagePixels(page, args, name) {
  const { width, height, rgba } = await page.evaluate(() => window.p2lPlayer.pixels());
  const straight = unpremultiply({ width, height, rgba: new Uint8Array(Buffer.from(rgba, 'base64')) });
  if (name) writeFileSync(join(args.out, `${name}.webgl.png`), encodePng(straight));
  return premultiply(straight);
}

async function setPose(page, pose) {
  await page.evaluate((p) => { for (const [id, value] of Object.entries(p)) window.p2lPlayer.setParameter(id, value); }, pose);
}

async function openPage(context, args, query) {
  const page = await context.newPage();
  page.problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') page.problems.push(`console.error: ${message.text()}`);
  });
  page.on('pageerror', (error) => page.problems.push(`page error: ${error.message}`));
  const started = Date.now();
  await page.goto(`${args.url}?${new URLSearchParams(query)}`);
  await page.waitForFunction(() => window.p2lPlayer && window.p2lPlayer.state() !== 'loading', null, { timeout: 60000 })
    .catch(() => {});
  page.loadSeconds = (Date.now() - started) / 1000;
  return page;
}

// Each pose drawn by the page and by `p2lrt render`, compared; [tag] names the check.
async function comparePoses(page, args, rig, tag, label, poses, size) {
  for (const [name, pose] of Object.entries(poses)) {
    await setPose(page, pose);
    const webgl = await pagePixels(page, args, `${label}-${name}`);
    const native = nativeRender(args, rig, size[0], size[1], pose, `${label}-${name}`);
    const result = compare(webgl, native);
    writeFileSync(join(args.out, `${label}-${name}.diff.png`), encodePng(result.diff));
    check(withinTolerance(result), `${tag} pose "${name}" matches p2lrt render: ${figures(result)}`);
    // Back to the defaults for the next pose.
    await setPose(page, Object.fromEntries(Object.keys(pose).map((id) => [id, page.defaults[id]])));
  }
}

// ---------------------------------------------------------------------------------------
// (d): a canvas point inside the head hit area, found from the rig: the centroid of the
// largest triangle of the area's meshes at which the runtime's own hit test reports the area.

async function headPoint(args, rigPath, area) {
  const runtime = await Runtime.load(readFileSync(join(args.site, 'p2l.wasm')));
  const rig = runtime.rig(readFileSync(rigPath));
  rig.evaluate();
  let best = null;
  for (const m of rig.hitAreaMeshes(area)) {
    const v = Float32Array.from(rig.vertices(m));
    const t = rig.indices(m);
    for (let i = 0; i + 2 < t.length; i += 3) {
      const [ax, ay, bx, by, cx, cy] = [v[2 * t[i]], v[2 * t[i] + 1], v[2 * t[i + 1]], v[2 * t[i + 1] + 1], v[2 * t[i + 2]], v[2 * t[i + 2] + 1]];
      const size = Math.abs((bx - ax) * (cy - ay) - (cx - ax) * (by - ay)) / 2;
      const x = (ax + bx + cx) / 3, y = (ay + by + cy) / 3;
      if ((!best || size > best.size) && rig.hitTest(x, y) === area) best = { x, y, size, mesh: rig.meshes[m].id };
    }
  }
  rig.free();
  return best;
}

// ---------------------------------------------------------------------------------------

async function main() {
  const args = parseArguments(process.argv.slice(2));
  mkdirSync(args.out, { recursive: true });
  const { chromium } = await import(pathToFileURL(join(args.playwright, 'index.mjs')).href);
  const started = Date.now();
  const profile = mkdtempSync(join(tmpdir(), 'p2lrt-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: args.chromium, args: CHROMIUM_FLAGS, headless: true,
    viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1,
  });
  const pages = [];
  try {
    const size = EXAMPLE_SIZE;
    // (a) The bundled example.
    const page = await openPage(context, args, { test: 1, size: size.join('x') });
    pages.push(page);
    const state = await page.evaluate(() => window.p2lPlayer?.state());
    const info = await page.evaluate(() => window.p2lPlayer?.info());
    check(state === 'ready' && info?.test === true,
          `(a) the page loads the bundled example in ${page.loadSeconds.toFixed(1)} s: state ${state}` +
          (info ? `, ${info.meshes} meshes, ${info.parameters.length} parameters, drawing ${info.drawing.join('x')}` : `, ${await page.evaluate(() => window.p2lPlayer?.error())}`));
    if (state !== 'ready') return;
    const rigPath = resolve(args.site, 'character.p2lrt');
    const runtime = await Runtime.load(readFileSync(join(args.site, 'p2l.wasm')));
    const probe = runtime.rig(readFileSync(rigPath));
    page.defaults = Object.fromEntries(probe.parameters.map((p) => [p.id, p.default]));
    probe.free();

    // (b) Poses that reach every drawing rule the example uses: masks and the inverted mask
    // (eyes, face shadow), Cubism add and multiply, screen (the hair shine, drawn through the
    // backdrop copy), the isolated face group, culling.
    const poses = {
      default: {},
      turned: { ParamAngleX: 24, ParamAngleY: -12, ParamAngleZ: 9, ParamEyeBallX: 0.6, ParamMouthOpenY: 1, ParamSmile: 1 },
      waving: { ParamArmL: 1, ParamArmLElbow: 80, ParamBodyAngleX: -6, ParamEyeLOpen: 0.3, ParamBrowLY: -1, ParamHairFront: 1 },
      glancing: { ParamAngleX: -30, ParamEyeBallX: 1, ParamEyeBallY: -1, ParamEyeROpen: 0.6, ParamHairBack: -1, ParamRibbon: 1 },
    };
    const posesStarted = Date.now();
    await comparePoses(page, args, rigPath, '(b) example', 'example', poses, size);
    console.log(`     (${Object.keys(poses).length} poses in ${((Date.now() - posesStarted) / 1000).toFixed(1)} s; images in ${args.out})`);

    // (c) A slider and a joystick of the panel change the picture.
    const before = await pagePixels(page, args, null);
    await page.focus('input[type=range][data-parameter="ParamAngleZ"]');
    await page.keyboard.press('End');
    const slider = await page.evaluate(() => Number(document.querySelector('input[data-parameter="ParamAngleZ"]').value));
    const afterSlider = await pagePixels(page, args, 'slider');
    const moved = compare(before, afterSlider);
    check(slider === 30 && moved.fraction >= MIN_CHANGED_FRACTION,
          `(c) the panel's Angle Z slider (End key: value ${slider}) changes ${(moved.fraction * 100).toFixed(2)} % of the drawn pixels by > ${TOLERANCE.overLevels}`);
    const sliderNative = compare(afterSlider, nativeRender(args, rigPath, size[0], size[1], { ParamAngleZ: 30 }, 'slider'));
    check(withinTolerance(sliderNative), `(c) ... and the picture is p2lrt render's at ParamAngleZ=30: ${figures(sliderNative)}`);
    await page.keyboard.press('Home');
    await setPose(page, { ParamAngleZ: page.defaults.ParamAngleZ });
    const pad = page.locator('.joystick[data-parameters="ParamAngleX ParamAngleY"] .pad');
    const box = await pad.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.9, box.y + box.height * 0.2, { steps: 4 });
    await page.mouse.up();
    const stick = await page.evaluate(() => document.querySelector('.joystick[data-parameters="ParamAngleX ParamAngleY"] output').textContent);
    const afterStick = await pagePixels(page, args, 'joystick');
    const turned = compare(before, afterStick);
    check(turned.fraction >= MIN_CHANGED_FRACTION,
          `(c) dragging the Angle X / Angle Y joystick (to ${stick}) changes ${(turned.fraction * 100).toFixed(2)} % of the drawn pixels by > ${TOLERANCE.overLevels}`);
    await page.dblclick('.joystick[data-parameters="ParamAngleX ParamAngleY"] .pad');
    const reset = compare(before, await pagePixels(page, args, null));
    check(reset.fraction === 0, `(c) double-clicking the joystick puts the pose back: ${figures(reset)}`);

    // (d) A click on the face reports the head hit area.
    const head = (await page.evaluate(() => window.p2lPlayer.info().hitAreas)).find((id) => /head/i.test(id));
    const point = head && await headPoint(args, rigPath, head);
    if (check(!!point, `(d) the rig has a head hit area (${head}) with a triangle it reports: ` +
                       (point ? `mesh ${point.mesh}, canvas (${point.x.toFixed(1)}, ${point.y.toFixed(1)})` : 'none'))) {
      const client = await page.evaluate(({ x, y }) => window.p2lPlayer.canvasToClient(x, y), point);
      await page.mouse.click(client.x, client.y);
      const hit = await page.evaluate(() => window.p2lPlayer.lastHit());
      const shown = await page.locator('#hit').textContent();
      check(hit?.id === head && shown.includes(hit.name),
            `(d) a click at client (${client.x.toFixed(1)}, ${client.y.toFixed(1)}) reports ${hit?.id} and the page shows "${shown}"`);
      const box = await page.locator('#canvas').boundingBox();
      await page.mouse.click(box.x + 2, box.y + 2);
      const miss = await page.evaluate(() => window.p2lPlayer.lastHit());
      check(miss && miss.id === null, `(d) a click on the canvas's empty corner reports no hit area ("${await page.locator('#hit').textContent()}")`);
    }

    // (e) Haru, imported from the official Cubism sample (never part of the repository).
    if (args.haru) {
      const haruPath = resolve(args.site, args.haru);
      const haruRuntime = await Runtime.load(readFileSync(join(args.site, 'p2l.wasm')));
      const haru = haruRuntime.rig(readFileSync(haruPath));
      const haruDefaults = Object.fromEntries(haru.parameters.map((p) => [p.id, p.default]));
      const haruSize = [HARU_WIDTH, Math.round(HARU_WIDTH * haru.height / haru.width)];
      haru.free();
      const haruPage = await openPage(context, args, { test: 1, size: haruSize.join('x'), rig: args.haru });
      pages.push(haruPage);
      haruPage.defaults = haruDefaults;
      const haruState = await haruPage.evaluate(() => window.p2lPlayer?.state());
      const haruInfo = await haruPage.evaluate(() => window.p2lPlayer?.info());
      if (check(haruState === 'ready', `(e) the page loads Haru in ${haruPage.loadSeconds.toFixed(1)} s: state ${haruState}` +
                (haruInfo ? `, ${haruInfo.meshes} meshes, ${haruInfo.parameters.length} parameters, drawing ${haruInfo.drawing.join('x')}` : ''))) {
        const pixels = await pagePixels(haruPage, args, null);
        let covered = 0;
        for (let i = 3; i < pixels.rgba.length; i += 4) if (pixels.rgba[i] > 0) covered++;
        const coverage = covered / (pixels.rgba.length / 4);
        check(coverage > 0.05, `(e) Haru's canvas is drawn: ${(coverage * 100).toFixed(1)} % of its pixels are not transparent`);
        await comparePoses(haruPage, args, haruPath, '(e) Haru', 'haru', {
          default: {},
          turned: { ParamAngleX: 25, ParamAngleY: 15, ParamBodyAngleX: 8, ParamMouthOpenY: 1, ParamEyeLOpen: 0 },
        }, haruSize);
      }
    } else {
      console.log('SKIPPED (e) Haru: the Cubism sample could not be fetched (no --haru)');
    }

    // (f) Every blend pair, isolated groups, masks and culling side by side (blend_sheet.mjs).
    const sheetJson = join(args.out, 'blend_sheet.json');
    writeFileSync(sheetJson, JSON.stringify(blendSheet(encodePng)));
    const sheetPath = resolve(args.site, 'blend_sheet.p2lrt');
    execFileSync(args.p2lrt, ['build', sheetJson, '-o', sheetPath], { stdio: 'ignore' });
    const sheetSize = [SHEET_WIDTH, SHEET_HEIGHT];
    const sheetPage = await openPage(context, args, { test: 1, size: sheetSize.join('x'), rig: 'blend_sheet.p2lrt' });
    pages.push(sheetPage);
    if (check(await sheetPage.evaluate(() => window.p2lPlayer?.state()) === 'ready', '(f) the page loads the blend sheet')) {
      const webgl = await pagePixels(sheetPage, args, 'sheet');
      const native = nativeRender(args, sheetPath, SHEET_WIDTH, SHEET_HEIGHT, {}, 'sheet');
      const whole = compare(webgl, native);
      writeFileSync(join(args.out, 'sheet.diff.png'), encodePng(whole.diff));
      console.log(`     the whole sheet: ${figures(whole)}`);
      const cells = sheetCells().map((cell) => ({ ...cell, ...compare(crop(webgl, cell), crop(native, cell)) }));
      for (const [masked, limit, what] of [[false, CELL_TOLERANCE, 'cells without masks (90 blend pairs, groups, nesting, culling)'],
                                           [true, MASKED_CELL_TOLERANCE, 'cells with masks (meshes and groups)']]) {
        const chosen = cells.filter((c) => c.masked === masked);
        const worst = (key) => chosen.reduce((a, b) => (b[key] > a[key] ? b : a));
        const bad = chosen.filter((c) => c.mean > limit.meanLevels || c.fraction > limit.overFraction);
        check(bad.length === 0, `(f) ${chosen.length} ${what} match p2lrt render: worst mean ${worst('mean').mean.toFixed(3)} (${worst('mean').name}), ` +
              `worst ${(worst('fraction').fraction * 100).toFixed(2)} % off by > ${TOLERANCE.overLevels} (${worst('fraction').name}), max ${worst('max').max} (${worst('max').name})`);
        for (const c of bad) console.log(`       ${c.name}: ${figures(c)}`);
      }
    }

    const problems = pages.flatMap((p) => p.problems);
    check(problems.length === 0, `(a) no console errors or page errors over the run${problems.length ? `: ${problems.join(' | ')}` : ''}`);
    console.log(`browser test: ${((Date.now() - started) / 1000).toFixed(1)} s in Chromium`);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  failures.push(error.stack ?? String(error));
  console.log(`FAIL ${error.stack ?? error}`);
}
if (failures.length) {
  console.log(`browser test: ${failures.length} check(s) failed`);
  process.exit(1);
}
console.log('browser test: all checks passed');
