// Cubism 2 models drawn by p2lrt (`p2lrt render` of the imported model.json) beside the Cubism
// 2.1 runtime drawing the same pose with WebGL in headless Chromium (web/test/cubism2_page.html,
// live2d.min.js served beside it): for each model.json and pose, RUNTIME.png, P2LRT.png, a
// side-by-side SIDE.png and the share of pixels differing by more than 24 of 255 (antialiasing
// and texture filtering differ along edges). The pictures are of the models: they stay in the
// output folder, never in the repository. Exits 1 when a page fails to draw, or when more than
// --max-differing (default 0.06) of a picture's pixels differ.
//   node web/test/cubism2_pictures.mjs --runtime LIVE2D_MIN_JS --p2lrt P2LRT --playwright DIR --chromium PATH
//        --out DIR [--width W] [--max-differing F] MODEL.model.json[@{"PARAM":value,...}]...
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { decodePng, encodePng } from './png.mjs';

const args = { width: 512, 'max-differing': 0.06, models: [] };
for (let a = process.argv.slice(2); a.length;) {
  const k = a.shift();
  if (k.startsWith('--')) args[k.slice(2)] = a.shift();
  else args.models.push(k);
}
fs.mkdirSync(args.out, { recursive: true });
const here = path.dirname(new URL(import.meta.url).pathname);

// A static server over "/" (the file system), so the page can fetch the models where they are.
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  let file = decodeURIComponent(url.pathname);
  if (file === '/page.html') file = path.join(here, 'cubism2_page.html');
  else if (file === '/live2d.min.js') file = args.runtime;
  fs.readFile(file, (err, data) => {
    if (err) { res.writeHead(404); res.end(); return; }
    const type = file.endsWith('.html') ? 'text/html' : file.endsWith('.js') ? 'text/javascript' : file.endsWith('.png') ? 'image/png' : 'application/octet-stream';
    res.writeHead(200, { 'content-type': type });
    res.end(data);
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const port = server.address().port;

const { chromium } = await import(pathToFileURL(path.join(args.playwright, 'index.mjs')).href);
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'p2lrt-cubism2-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: args.chromium, headless: true, viewport: { width: 1200, height: 1200 }, deviceScaleFactor: 1,
  args: ['--no-sandbox', '--disable-gpu', '--enable-unsafe-swiftshader', '--no-first-run', '--disable-background-networking'],
});
let failed = 0;
try {
  for (const spec of args.models) {
    const at = spec.indexOf('@');
    const file = path.resolve(at < 0 ? spec : spec.slice(0, at));
    const pose = at < 0 ? {} : JSON.parse(spec.slice(at + 1));
    const name = path.basename(file, '.model.json') + (Object.keys(pose).length ? '-pose' : '');
    // The canvas's aspect, from p2lrt's import, so that both fill the same image.
    const rig = path.join(args.out, `${name}.p2lrt`);
    execFileSync(args.p2lrt, ['import', file, '-o', rig], { stdio: 'ignore' });
    const info = execFileSync(args.p2lrt, ['info', rig], { encoding: 'utf8' });
    const [, cw, ch] = info.match(/canvas\s+([\d.]+) x ([\d.]+)/);
    const w = Number(args.width), h = Math.round(w * Number(ch) / Number(cw));
    const ours = path.join(args.out, `${name}.p2lrt.png`);
    const params = Object.entries(pose).flatMap(([k, v]) => ['--param', `${k}=${v}`]);
    execFileSync(args.p2lrt, ['render', rig, '-o', ours, '--size', `${w}x${h}`, '--background', 'white', '-q', ...params]);
    const page = await context.newPage();
    const url = `http://127.0.0.1:${port}/page.html?model=${encodeURIComponent(file)}&w=${w}&h=${h}&pose=${encodeURIComponent(JSON.stringify(pose))}`;
    await page.goto(url);
    await page.waitForFunction(() => window.drawn, null, { timeout: 60000 });
    const drawn = await page.evaluate(() => window.drawn);
    const theirs = path.join(args.out, `${name}.runtime.png`);
    await page.locator('#c').screenshot({ path: theirs });
    await page.close();
    const a = decodePng(fs.readFileSync(theirs)), b = decodePng(fs.readFileSync(ours));
    let differing = 0;
    const side = { width: a.width + b.width, height: Math.max(a.height, b.height), rgba: new Uint8Array((a.width + b.width) * Math.max(a.height, b.height) * 4).fill(255) };
    for (let y = 0; y < side.height; y++)
      for (let x = 0; x < side.width; x++) {
        const src = x < a.width ? a : b, sx = x < a.width ? x : x - a.width;
        if (y >= src.height) continue;
        for (let c = 0; c < 4; c++) side.rgba[(y * side.width + x) * 4 + c] = src.rgba[(y * src.width + sx) * 4 + c];
      }
    for (let i = 0; i < Math.min(a.rgba.length, b.rgba.length); i += 4)
      if (Math.max(Math.abs(a.rgba[i] - b.rgba[i]), Math.abs(a.rgba[i + 1] - b.rgba[i + 1]), Math.abs(a.rgba[i + 2] - b.rgba[i + 2])) > 24) differing++;
    fs.writeFileSync(path.join(args.out, `${name}.side.png`), encodePng(side));
    const share = differing / (a.width * a.height);
    console.log(`cubism2_pictures: ${name}: ${w}x${h}, runtime left, p2lrt right; ${(100 * share).toFixed(2)} % of pixels differ by more than 24` +
      (drawn.error && drawn.error !== '0' ? `; the page said: ${drawn.error}` : ''));
    if ((drawn.error && drawn.error !== '0') || !(share <= Number(args['max-differing']))) failed++;
  }
} finally {
  await context.close();
  server.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
