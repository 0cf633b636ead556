// Speech on the player page (web/index.html, web/player/speech_controls.js over web/voice.js) in
// headless Chromium, driven by playwright-core through window.p2lPlayer (test_hooks.js), with the
// bundled example character (its LipSync role: ParamMouthOpenY). scripts/browser_test.sh stages
// and serves the site and runs this after browser.mjs; it prints each check with its figures and
// exits non-zero when one fails.
//
//   node web/test/browser_speech.mjs --url http://127.0.0.1:8765/ --site build-wasm/site
//        --playwright DIR --chromium /usr/bin/chromium --out build-browser/browser-test
//
// Checks: (a) the committed speech (tests/audio/data/speech_en.wav, espeak-ng) as an AudioBuffer
// through listen() in test mode: the mouth opens past 0.1 while it speaks and is back near 0
// after its end, and the level the page measures through the AudioWorklet (the audio resampled
// to the context's rate, windows of real frames) peaks within 20 % of speechFromBuffer's offline
// peak at 60 updates a second; (b) the same WAV through the Speak controls' <audio> element on
// the normal page: the mouth moves, the level shows, the speech stops at the end (a screenshot:
// speech.png); (c) the microphone (Chromium's fake device, a beep) heard through
// getUserMedia and listen(): a level above 0; (d) with no speech, the lip sync slider moves the
// mouth again; (e) a file that is not audio gives a readable error on the page; and no console
// or page error over the run.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const WAV = 'tests/audio/data/speech_en.wav';

// Limits. The mouth is the LipSync parameter (0..1, 0 at rest); espeak-ng's speech peaks at a
// level near 0.3 (Cubism's RMS), so an opening of 0.1 is plainly speech, and 0.01 plainly rest.
const OPEN = 0.1;
const REST = 0.01;
// (b) draws the whole page (8 to 20 frames a second under SwiftShader on 2 cores): its longer
// windows average the peaks down, so "moves" is half the opening.
const MOVES = 0.05;
const PEAK_TOLERANCE = 0.2;      // page peak vs offline peak, relative
// Frame by frame against the offline curve at the same clock times: measured 0.0006 (the
// resampling to the context's rate, and the first render quantum's start); the level is
// 0 to 0.2 over the speech, so a curve that is late by a frame or scaled is far off.
const MEAN_TOLERANCE = 0.005;

const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--enable-unsafe-swiftshader', '--disable-background-networking',
                        '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
                        // Audio without a user's gesture, and a fake microphone (a beep) allowed without asking.
                        '--autoplay-policy=no-user-gesture-required', '--use-fake-device-for-media-stream',
                        '--use-fake-ui-for-media-stream'];

function parseArguments() {
  const keys = ['url', 'site', 'playwright', 'chromium', 'out'];
  const { values } = parseArgs({ options: Object.fromEntries(keys.map((key) => [key, { type: 'string' }])) });
  const missing = keys.filter((key) => !values[key]);
  if (missing.length) throw new Error(`browser_speech.mjs: ${missing.map((key) => `--${key}`).join(', ')} required`);
  return values;
}

const failures = [];
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
  return ok;
}

// 16-bit PCM mono WAV to samples in -1..1 and the rate.
function readWav(path) {
  const b = readFileSync(path);
  let rate = 0;
  for (let at = 12; at + 8 <= b.length;) {
    const id = b.toString('latin1', at, at + 4), size = b.readUInt32LE(at + 4);
    if (id === 'fmt ') {
      if (b.readUInt16LE(at + 8) !== 1 || b.readUInt16LE(at + 10) !== 1 || b.readUInt16LE(at + 22) !== 16)
        throw new Error(`${path}: 16-bit PCM mono expected`);
      rate = b.readUInt32LE(at + 12);
    }
    if (id === 'data') {
      const pcm = new Int16Array(b.buffer.slice(b.byteOffset + at + 8, b.byteOffset + at + 8 + size));
      return { rate, samples: Array.from(pcm, (s) => s / 32768) };
    }
    at += 8 + size + (size & 1);
  }
  throw new Error(`${path}: no data chunk`);
}

// The site serves what the speech needs: web/voice.js (imported by the page when speech starts;
// scripts/serve.sh stages it) and the WAV (linked here: the site has no test data).
function stage(site) {
  check(existsSync(join(site, 'voice.js')), 'the staged site has voice.js beside p2l.js (scripts/serve.sh)');
  const wav = join(site, 'speech_en.wav');
  if (!existsSync(wav)) symlinkSync(join(ROOT, WAV), wav);
}

async function openPage(context, args, query, problems) {
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.goto(`${args.url}?${new URLSearchParams(query)}`);
  await page.waitForFunction(() => window.p2lPlayer && window.p2lPlayer.state() !== 'loading', null, { timeout: 60000 }).catch(() => {});
  const state = await page.evaluate(() => window.p2lPlayer?.state());
  if (!check(state === 'ready', `the page loads the example (${new URLSearchParams(query)}): state ${state}`)) return null;
  await page.evaluate(() => window.p2lPlayer.record());
  return page;
}

// Waits until speech has started and then stopped (or [seconds] pass), and 300 ms more; returns
// the frames recorded since the last call.
async function recordSpeech(page, seconds) {
  await page.waitForFunction(() => {
    const frames = window.__frames = (window.__frames ?? []).concat(window.p2lPlayer.takeRecord());
    return frames.some((f) => f.speaking) && !frames[frames.length - 1].speaking;
  }, null, { timeout: seconds * 1000, polling: 100 }).catch(() => {});
  await page.waitForTimeout(300);
  return page.evaluate(() => {
    const frames = (window.__frames ?? []).concat(window.p2lPlayer.takeRecord());
    window.__frames = [];
    return frames;
  });
}

function summary(frames) {
  const speaking = frames.filter((f) => f.speaking);
  const first = frames.findIndex((f) => f.speaking);
  const last = frames.length - 1 - [...frames].reverse().findIndex((f) => f.speaking);
  return {
    frames: speaking.length,
    seconds: speaking.length ? (frames[last].t - frames[first].t) / 1000 : 0,
    maxLevel: Math.max(0, ...speaking.map((f) => f.level)),
    maxMouth: Math.max(0, ...speaking.map((f) => f.mouth)),
    open: speaking.filter((f) => f.mouth > OPEN).length,
    after: first >= 0 && last < frames.length - 1 ? frames.slice(last + 1) : [],
    shown: [...new Set(speaking.map((f) => f.shown))],
    vowels: [...new Set(speaking.map((f) => f.vowel))],
  };
}

async function main() {
  const args = parseArguments();
  mkdirSync(args.out, { recursive: true });
  stage(args.site);
  const { rate, samples } = readWav(join(ROOT, WAV));
  const { chromium } = await import(pathToFileURL(join(args.playwright, 'index.mjs')).href);
  const started = Date.now();
  const browser = await chromium.launch({ executablePath: args.chromium, args: CHROMIUM_FLAGS, headless: true });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  const problems = [];
  try {
    // (a) An AudioBuffer in test mode: only the speech moves the rig.
    const test = await openPage(context, args, { test: 1, size: '512x512' }, problems);
    if (test) {
      const listening = await test.evaluate(({ samples, rate }) => window.p2lPlayer.speakBuffer(samples, rate, { vowels: true }), { samples, rate });
      check(listening, '(a) listen() takes an AudioBuffer');
      const frames = await recordSpeech(test, samples.length / rate + 5);
      const s = summary(frames);
      // Offline, on the same buffer: at the page's own update times (its frames come as fast as
      // the machine draws; a longer window averages the peaks down), and at 60 updates a second.
      const times = frames.filter((f) => f.speaking).map((f) => f.time);
      const offline = await test.evaluate(({ samples, rate, times }) => window.p2lPlayer.offlineLevels(samples, rate, times), { samples, rate, times });
      const offline60 = await test.evaluate(({ samples, rate }) => window.p2lPlayer.offlineLevels(samples, rate), { samples, rate });
      const offlinePeak = Math.max(...offline);
      const levels = frames.filter((f) => f.speaking).map((f) => f.level);
      const meanDifference = levels.reduce((sum, level, k) => sum + Math.abs(level - offline[k]), 0) / Math.max(1, levels.length);
      console.log(`     ${s.frames} frames over ${s.seconds.toFixed(2)} s (the audio: ${(samples.length / rate).toFixed(2)} s); ` +
                  `peak level ${s.maxLevel.toFixed(3)}, offline at the same updates ${offlinePeak.toFixed(3)} (mean difference ` +
                  `${meanDifference.toFixed(4)}), offline at 60 updates/s ${Math.max(...offline60).toFixed(3)}; ` +
                  `mouth peak ${s.maxMouth.toFixed(3)}, open (> ${OPEN}) at ${s.open} frames; vowels named: ${s.vowels.join(' ')}`);
      check(s.open > 0, `(a) the mouth opens past ${OPEN} while speaking (${s.open} of ${s.frames} frames, peak ${s.maxMouth.toFixed(3)})`);
      const rest = s.after.length ? s.after[s.after.length - 1].mouth : NaN;
      check(s.after.length > 0 && Math.abs(rest) < REST,
            `(a) the speech stops at the end and the mouth is back at rest (${rest.toFixed?.(4) ?? rest}, ${s.after.length} frame(s) after)`);
      const ratio = s.maxLevel / offlinePeak;
      check(Math.abs(ratio - 1) <= PEAK_TOLERANCE,
            `(a) the level heard through WebAudio peaks as speechFromBuffer's offline at the same updates: ${s.maxLevel.toFixed(3)} vs ${offlinePeak.toFixed(3)} (x${ratio.toFixed(3)}, within ${PEAK_TOLERANCE * 100} %)`);
      check(meanDifference <= MEAN_TOLERANCE,
            `(a) frame by frame, the level follows speechFromBuffer's at the same clock times: mean difference ${meanDifference.toFixed(4)} (limit ${MEAN_TOLERANCE})`);
      check(s.frames > 0.6 * 60 * samples.length / rate || s.seconds > 0.9 * samples.length / rate,
            `(a) the speech lasts as the audio does (${s.seconds.toFixed(2)} s)`);
      // Test mode's pose is the host's again: no speech, no time.
      const still = await test.evaluate(() => window.p2lPlayer.takeRecord().length);
      await test.waitForTimeout(300);
      check(await test.evaluate(() => window.p2lPlayer.takeRecord().length) === 0 && still <= 1,
            '(a) test mode draws no frame of its own once the speech has stopped');
      await test.close();
    }

    // (b) The Speak controls' <audio> element, on the normal page.
    const page = await openPage(context, args, {}, problems);
    if (page) {
      await page.check('#speak-vowels');
      await page.evaluate(() => window.p2lPlayer.speakElement('speech_en.wav'));
      // Screenshots while it speaks; the one kept is the one after whose capture the mouth was
      // widest (the page shows the level it draws).
      let best = null;
      for (let shot = 0; shot < 12; shot++) {
        await page.waitForTimeout(150);
        const image = await page.screenshot();
        const mouth = await page.evaluate(() => {
          const r = window.p2lPlayer.takeRecord();
          window.__frames = (window.__frames ?? []).concat(r);
          const last = window.__frames[window.__frames.length - 1];
          return last?.speaking ? last.mouth : -1;
        });
        if (mouth > (best?.mouth ?? 0)) best = { image, mouth };
      }
      if (best) writeFileSync(join(args.out, 'speech.png'), best.image);
      const frames = await recordSpeech(page, samples.length / rate + 5);
      const s = summary(frames);
      console.log(`     ${s.frames} frames over ${s.seconds.toFixed(2)} s; peak level ${s.maxLevel.toFixed(3)}, mouth peak ${s.maxMouth.toFixed(3)}, ` +
                  `open at ${s.open} frames; shown e.g. ${s.shown.filter((t) => t !== '—').slice(0, 4).join(', ')}${best ? `; screenshot ${join(args.out, 'speech.png')} (mouth ${best.mouth.toFixed(2)})` : ''}`);
      const moved = frames.filter((f) => f.speaking && f.mouth > MOVES).length;
      check(moved > 0, `(b) an <audio> element playing the WAV moves the mouth (${moved} of ${s.frames} frames past ${MOVES}, ${s.open} past ${OPEN})`);
      check(s.shown.some((t) => /^[AIUEO] \d\.\d\d$/.test(t) && Number(t.slice(2)) > MOVES), '(b) the page shows the vowel and the level while speaking');
      check(s.after.length > 0 && (await page.evaluate(() => document.querySelector('#speak-audio audio')?.paused)),
            '(b) the speech stops at the end of the file; a fresh <audio> element waits to play it again');

      // (c) The microphone: Chromium's fake device.
      const on = await page.evaluate(() => window.p2lPlayer.microphone(true));
      check(on, `(c) getUserMedia gives the (fake) microphone${on ? '' : `: ${await page.evaluate(() => window.p2lPlayer.error())}`}`);
      await page.waitForTimeout(2000);
      await page.evaluate(() => window.p2lPlayer.microphone(false));
      await page.waitForTimeout(200);
      const m = summary(await page.evaluate(() => window.p2lPlayer.takeRecord()));
      console.log(`     microphone: ${m.frames} frames, peak level ${m.maxLevel.toFixed(3)}, mouth peak ${m.maxMouth.toFixed(3)}`);
      check(m.maxLevel > 0 && m.maxMouth > 0, `(c) the microphone's level rises above 0 and opens the mouth (peaks ${m.maxLevel.toFixed(3)}, ${m.maxMouth.toFixed(3)})`);
      check(m.after.length > 0 && m.after.every((f) => !f.speaking), '(c) switched off, the microphone stops speaking');

      // (d) The lip sync slider, with no speech.
      await page.locator('#lip-sync').fill('0.5');
      await page.waitForTimeout(300);
      const slid = await page.evaluate(() => window.p2lPlayer.takeRecord().pop());
      check(!slid.speaking && Math.abs(slid.mouth - 0.5) < 0.01, `(d) with no speech, the lip sync slider opens the mouth again (0.5: ${slid.mouth.toFixed(3)})`);

      // (e) Not audio: the error banner says so.
      await page.evaluate(() => window.p2lPlayer.speakElement('character.p2lrt'));
      const error = await page.waitForFunction(() => window.p2lPlayer.error(), null, { timeout: 10000 }).then((h) => h.jsonValue(), () => '');
      check(/character\.p2lrt: .*(cannot|could not)/.test(error), `(e) a file that is not audio is refused on the page: "${error}"`);
      await page.close();
    }
    check(problems.length === 0, `no console errors or page errors over the run${problems.length ? `: ${problems.join(' | ')}` : ''}`);
    console.log(`browser speech test: ${((Date.now() - started) / 1000).toFixed(1)} s in Chromium`);
  } finally {
    await browser.close();
  }
}

await main().catch((error) => check(false, error.stack ?? String(error)));
console.log(`browser speech test: ${failures.length ? `${failures.length} check(s) failed` : 'all checks passed'}`);
process.exitCode = failures.length ? 1 : 0;
