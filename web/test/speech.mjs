// Speech in JavaScript (web/p2l.js over p2l.wasm) against the native C API, bit for bit: the
// committed speech (tests/audio/data) pushed as Int16Array chunks of random sizes, 60 updates
// a second, level and vowel weights after each update (cases from p2l_make_wasm_cases).
//   node web/test/speech.mjs P2L_WASM CASES_DIR
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Runtime, Vowels } from '../p2l.js';

const [wasm, cases] = process.argv.slice(2);
const runtime = await Runtime.load(readFileSync(wasm));
const files = readdirSync(cases).filter((f) => /^speech-.*\.json$/.test(f));
assert.ok(files.length >= 2, `no speech cases in ${cases}`);

function samplesOf(path) {
  const b = readFileSync(path);
  for (let at = 12; at + 8 <= b.length;) {
    const size = b.readUInt32LE(at + 4);
    if (b.toString('latin1', at, at + 4) === 'data') return new Int16Array(b.buffer.slice(b.byteOffset + at + 8, b.byteOffset + at + 8 + size));
    at += 8 + size + (size & 1);
  }
  throw new Error(`${path}: no data chunk`);
}

let seed = 7;
const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) / 2 ** 24;
for (const file of files) {
  const expected = JSON.parse(readFileSync(join(cases, file), 'utf8'));
  const samples = samplesOf(expected.wav);
  const speech = runtime.speech(22050, 1, { vowels: true });
  let sent = 0;
  const levels = [], vowels = [];
  while (!speech.finished) {
    // Chunks of 1..4096 samples pushed just ahead of the clock, as a stream arrives.
    while (sent < samples.length && sent < (speech.time + 1 / 60) * 22050 + 1) {
      const n = Math.min(1 + Math.floor(random() * 4096), samples.length - sent);
      speech.push(samples.subarray(sent, sent + n));
      sent += n;
    }
    if (sent === samples.length) speech.end();
    speech.update(1 / 60);
    levels.push(speech.level);
    vowels.push(...speech.vowels);
  }
  assert.equal(levels.length, expected.levels.length, `${file}: update count`);
  for (let k = 0; k < levels.length; ++k) {
    assert.equal(Math.fround(levels[k]), Math.fround(expected.levels[k]), `${file}: level at update ${k}`);
    for (let v = 0; v < 6; ++v)
      assert.equal(Math.fround(vowels[6 * k + v]), Math.fround(expected.vowels[6 * k + v]), `${file}: ${Vowels[v]} at update ${k}`);
  }
  const named = new Set(levels.map((_, k) => Vowels[vowels.slice(6 * k, 6 * k + 6).indexOf(Math.max(...vowels.slice(6 * k, 6 * k + 6)))]));
  console.log(`speech: ${file}: ${levels.length} updates, level and vowels equal to the native build bit for bit (vowels named: ${[...named].join(' ')})`);
  speech.free();
}
// A refused push says why.
const bad = runtime.speech(16000, 2);
assert.throws(() => bad.push(new Float32Array(3)), /whole frames/);
bad.end();
assert.throws(() => bad.push(new Float32Array(2)), /after the end/);
bad.free();
assert.throws(() => runtime.speech(100, 1), /out of range/);
console.log('speech: refusals read well');
