// p2lrt/pixi (web/pixi/), the PixiJS v8 plugin, in headless Chromium with pixi.js 8 from npm,
// driven by playwright-core through web/test/pixi_page.html and pixi_page.js. scripts/browser_test.sh
// stages the site (pixi.js pinned by sha256) and runs this; it prints each check with its figures
// and exits non-zero when one fails.
//
//   node web/test/pixi.mjs --url http://127.0.0.1:8765/pixi-test.html --playwright DIR
//        --chromium /usr/bin/chromium --out build-browser/pixi-test
//        [--haru haru/haru_greeter_t03.model3.json] [--moc3 fixtures/v6-all.moc3] [--rig character.p2lrt]
//        [--cubism2 shizuku/shizuku.model.json]
//        [--wav speech.wav]
//
// Checks: (1) Haru from its model3.json through Live2DModel.from: the idle motion, a motion of
// the Use group (physics and pose run in every update), an expression (added to the model3.json
// through the { json, files, url } form), a focus point and a real click on the head reporting
// 'hit' with its name; the frame Pixi draws against the player's renderer at the same
// evaluation, plain and with a ColorMatrixFilter applied through Pixi to the model and to the
// player's frame shown as a Sprite; the motion's finish event. (2) Haru, a red Pixi sprite and
// the example character interleaved in one stage, against each drawn alone and composited.
// (3) 200 load/draw/destroy cycles: live WebGL objects of Pixi's context (a wrapper on
// create*/delete*, installed before Pixi made its renderer) and the module's memory, after the
// first cycle and the last. (4) A Cubism 5.3 fixture (moc3 version 6: offscreens, blend modes,
// masks) loaded bare, then with texture pages through a model3.json object, against the player.
// (5) Frame times of the plugin and of the player's renderer on Haru (printed; no limit).
// (6) speak() with a WAV (tests/audio/data/speech_en.wav) as an AudioBuffer: the example
// character's mouth opens while it plays, onFinish comes at its end and the mouth closes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

// Limits on the channel differences (0..255, premultiplied RGBA8) over the drawn pixels. The
// plugin draws with the player's renderer into a render texture Pixi shows at one texel per
// pixel, so the two agree exactly unless Pixi's sampling or blending rounds (measured: 0).
const P99_LIMIT = 2;
const MEAN_LIMIT = 0.5;
const CYCLES = 200;
const HARU_SCALE = 0.25;
const CUBISM2_SCALE = 0.4;

const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--enable-unsafe-swiftshader', '--disable-background-networking',
                        '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
                        '--autoplay-policy=no-user-gesture-required'];

const { values: args } = parseArgs({ options: Object.fromEntries(['url', 'playwright', 'chromium', 'out', 'haru', 'moc3', 'rig', 'wav', 'cubism2']
  .map((key) => [key, { type: 'string' }])) });
for (const key of ['url', 'playwright', 'chromium', 'out'])
  if (!args[key]) throw new Error(`pixi.mjs: --${key} is required`);
args.rig ??= 'character.p2lrt';

const failures = [];
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
  return ok;
}
const figures = (s) => `mean ${s.mean.toFixed(4)}, p99 ${s.p99}, max ${s.max} levels/channel over ${s.drawn} drawn pixels`;
const matches = (s) => s.drawn > 0 && s.p99 <= P99_LIMIT && s.mean <= MEAN_LIMIT;

async function saveImages(page) {
  for (const [name, url] of Object.entries(await page.evaluate(() => window.pixiTest.images())))
    writeFileSync(join(args.out, `${name}.png`), Buffer.from(url.slice(url.indexOf(',') + 1), 'base64'));
}

async function main() {
  mkdirSync(args.out, { recursive: true });
  const { chromium } = await import(pathToFileURL(join(args.playwright, 'index.mjs')).href);
  const profile = mkdtempSync(join(tmpdir(), 'p2lrt-pixi-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: args.chromium, args: CHROMIUM_FLAGS, headless: true, viewport: { width: 1400, height: 1200 }, deviceScaleFactor: 1,
  });
  const started = Date.now();
  try {
    const page = await context.newPage();
    const problems = [];
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console.error: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.goto(args.url);
    await page.waitForFunction(() => window.pixiTestReady === true, null, { timeout: 30000 });
    const version = await page.evaluate(async () => (await import('pixi.js')).VERSION);
    console.log(`     pixi.js ${version}`);

    if (!args.haru) {
      console.log('SKIPPED (1), (2), (5) Haru: the Cubism sample could not be fetched (no --haru)');
    } else {
      // (1)
      const haru = await page.evaluate(({ url, scale }) => window.pixiTest.haru(url, scale), { url: args.haru, scale: HARU_SCALE });
      await saveImages(page);
      const starts = haru.events.filter((e) => e[0] === 'motionStart');
      check(haru.meshes > 0 && haru.motion === true && starts.some((e) => e[1] === 'Idle') && starts.some((e) => e[1] === 'Use' && e[2] === 1),
            `(1) Haru loads from its model3.json in ${haru.loadMs.toFixed(0)} ms (${haru.meshes} meshes, groups ${JSON.stringify(haru.groups)}); ` +
            `motion('Use', 1) starts after the idle motion: events ${JSON.stringify(starts)}`);
      check(haru.expression === true && haru.smile > 0.99,
            `(1) expression('Smile') (added through { json, files, url }; the rig's expressions ${JSON.stringify(haru.expressionsOfRig)}) shows: ParamMouthForm ${haru.smile.toFixed(3)}`);
      check(haru.angleX[1] > haru.angleX[0] + 5,
            `(1) focus() on the top right corner turns the head: ParamAngleX ${haru.angleX[0].toFixed(2)} before, ${haru.angleX[1].toFixed(2)} a second after`);
      check(matches(haru.stats), `(1) Haru's frame through Pixi (${haru.width}x${haru.height}, scale ${HARU_SCALE}) equals the player's at the same evaluation: ${figures(haru.stats)}`);
      if (check(!!haru.hit && haru.tapped?.[0] === haru.hit.name, `(1) tap() at the head's global point (${haru.hit?.x.toFixed(1)}, ${haru.hit?.y.toFixed(1)}) answers ${JSON.stringify(haru.tapped)}`)) {
        await page.evaluate(() => { window.pixiTestEvents = null; });
        await page.mouse.click(haru.canvas.x + haru.hit.x, haru.canvas.y + haru.hit.y);
        await page.mouse.click(haru.canvas.x + 2, haru.canvas.y + 2);
        const hits = (await page.evaluate(() => window.pixiTest.events())).filter((e) => e[0] === 'hit');
        check(hits.length === 2 && hits.at(-1)[1][0] === haru.hit.name,
              `(1) a click on the head through Pixi's events emits 'hit' ${JSON.stringify(hits.at(-1)?.[1])} (the tap() before, then the click; the empty corner emits none)`);
      }
      const filter = await page.evaluate(() => window.pixiTest.filter());
      await saveImages(page);
      check(matches(filter.plain) && matches(filter.spritePath),
            `(1) again a frame later: ${figures(filter.plain)}; the player's frame shown as a Pixi Sprite: ${figures(filter.spritePath)}`);
      check(matches(filter.filtered) && filter.changed > 5,
            `(1) with a ColorMatrixFilter (hue, saturation, brightness; mean change ${filter.changed.toFixed(1)} levels) on the model and on the player's Sprite: ${figures(filter.filtered)}`);
      const finish = await page.evaluate(() => window.pixiTest.finishMotion());
      check(finish.some((e) => e[0] === 'motionFinish' && e[1] === 'Use' && e[2] === 1) && finish.some((e) => e[0] === 'motionStart' && e[1] === 'Idle'),
            `(1) the motion ends with motionFinish and the idle motion comes back: ${JSON.stringify(finish)}`);

      // (2)
      const mix = await page.evaluate((url) => window.pixiTest.interleave(url), args.rig);
      await saveImages(page);
      check(mix.stats.p99 <= P99_LIMIT && mix.sOverA > 1000 && mix.sOverAok === mix.sOverA && mix.bOverS > 1000 && mix.bOverSok === mix.bOverS,
            `(2) Haru, a red sprite and the example character in one stage equal the three drawn alone and stacked in that order: ${figures(mix.stats)}; ` +
            `the sprite covers Haru on ${mix.sOverAok}/${mix.sOverA} pixels, the character covers the sprite on ${mix.bOverSok}/${mix.bOverS}`);
    }

    // (3)
    const leaks = await page.evaluate(({ url, cycles }) => window.pixiTest.leaks(url, cycles, 0.5), { url: args.rig, cycles: CYCLES });
    const grown = Object.keys(leaks.last.gl).filter((k) => leaks.last.gl[k] > leaks.first.gl[k]);
    check(grown.length === 0 && leaks.last.memory === leaks.first.memory && leaks.stage[0] === leaks.stage[1],
          `(3) ${leaks.cycles} load/draw/destroy cycles of ${args.rig} (${leaks.ms.toFixed(0)} ms each): live WebGL objects after the first ${JSON.stringify(leaks.first.gl)}, ` +
          `after the last ${JSON.stringify(leaks.last.gl)}${grown.length ? ` (grown: ${grown.join(', ')})` : ''}; module memory ${leaks.first.memory} then ${leaks.last.memory} bytes`);
    if (args.haru) {
      const haruLeaks = await page.evaluate(({ url }) => window.pixiTest.leaks(url, 10, 0.25), { url: args.haru });
      const haruGrown = Object.keys(haruLeaks.last.gl).filter((k) => haruLeaks.last.gl[k] > haruLeaks.first.gl[k]);
      check(haruGrown.length === 0 && haruLeaks.last.memory === haruLeaks.first.memory,
            `(3) ${haruLeaks.cycles} cycles of Haru's model3.json (${haruLeaks.ms.toFixed(0)} ms each): WebGL objects ${JSON.stringify(haruLeaks.first.gl)} then ${JSON.stringify(haruLeaks.last.gl)}; ` +
            `module memory ${haruLeaks.first.memory} then ${haruLeaks.last.memory} bytes`);
    }

    // (4)
    if (!args.moc3) {
      console.log('SKIPPED (4) no moc3 version 6 fixture (--moc3)');
    } else {
      const v6 = await page.evaluate((url) => window.pixiTest.v6(url), args.moc3);
      await saveImages(page);
      check(v6.info.meshes > 0 && v6.info.groups > 0, `(4) the bare .moc3 loads: ${v6.info.meshes} meshes, ${v6.info.groups} offscreens (isolated groups), ${v6.info.pages} texture pages (a bare moc3 has none: ${v6.pages} generated for the next check)`);
      for (const [pose, stats] of Object.entries(v6.results))
        check(matches(stats), `(4) the version 6 fixture with its pages, pose "${pose}", through Pixi equals the player: ${figures(stats)}`);
    }

    // (5)
    if (args.haru) {
      const speed = await page.evaluate(({ url, scale }) => window.pixiTest.speed(url, scale, 40), { url: args.haru, scale: HARU_SCALE });
      const ms = (t) => `${t.mean.toFixed(2)} ms mean, ${t.median.toFixed(2)} median`;
      console.log(`     (5) frame times on Haru at ${speed.width}x${speed.height}, ${speed.frames} frames each (SwiftShader):`);
      console.log(`         plugin (update + Pixi render + sync): ${ms(speed.plugin)}; player's renderer (update + draw + sync): ${ms(speed.player)}`);
      console.log(`         drawing alone: plugin ${ms(speed.pluginDraw)}; player ${ms(speed.playerDraw)}; ` +
                  `Pixi's render of the stage without redrawing the model ${ms(speed.pixiAlone)}`);
    }

    // (7)
    if (!args.cubism2) {
      console.log('SKIPPED (7) Cubism 2: the npm widget model could not be fetched (no --cubism2)');
    } else {
      const c2 = await page.evaluate(({ url, scale }) => window.pixiTest.cubism2(url, scale, 'PARAM_KAMIYURE_FRONT'),
        { url: args.cubism2, scale: CUBISM2_SCALE });
      await saveImages(page);
      check(c2.meshes > 0 && c2.events.some((e) => e[0].toLowerCase() === 'idle') && c2.motion === true && c2.events.some((e) => e[0] === c2.other),
            `(7) a Cubism 2 model.json (${args.cubism2}) loads in ${c2.loadMs.toFixed(0)} ms (${c2.meshes} meshes, groups ${JSON.stringify(c2.groups)}); ` +
            `its idle motion starts by itself, then motion('${c2.other}', 0): events ${JSON.stringify(c2.events)}`);
      check(c2.angleX > 5 && c2.hairMax - c2.hairMin > 0.05,
            `(7) focus() turns the head (PARAM_ANGLE_X ${c2.angleX.toFixed(2)}) and the hair physics swings PARAM_KAMIYURE_FRONT over ` +
            `[${c2.hairMin.toFixed(3)}, ${c2.hairMax.toFixed(3)}] (${c2.hairAt29.toFixed(3)} before the turn)`);
      check(matches(c2.stats), `(7) its frame through Pixi (${c2.width}x${c2.height}) equals the player's at the same evaluation: ${figures(c2.stats)}`);
    }

    // (6)
    if (args.wav) {
      const speech = await page.evaluate(({ wav, rig }) => window.pixiTest.speak(wav, rig), { wav: args.wav, rig: args.rig });
      check(speech.ok && speech.peak > 0.1 && speech.finished && speech.after < 0.01,
            `(6) speak() of a ${speech.duration.toFixed(2)} s WAV: ${speech.mouth} peaks at ${speech.peak.toFixed(3)}, onFinish after ${speech.seconds.toFixed(2)} s: ${speech.finished}, then ${speech.after.toFixed(4)}`);
    }

    check(problems.length === 0, `no console errors or page errors over the run${problems.length ? `: ${problems.join(' | ')}` : ''}`);
    console.log(`pixi test: ${((Date.now() - started) / 1000).toFixed(1)} s in Chromium; images in ${args.out}`);
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
  console.log(`pixi test: ${failures.length} check(s) failed`);
  process.exit(1);
}
console.log('pixi test: all checks passed');
