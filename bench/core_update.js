#!/usr/bin/env node
// Model.update() of a Cubism Core as JavaScript (the official live2dcubismcore.min.js, or p2lrt's
// drop-in live2dcubismcore.js) on a .moc3: the same 200 seeded poses set and updated, ROUNDS
// times over, after a warm-up; prints the median microseconds per update of five runs.
//   node bench/core_update.js CORE_JS MODEL.moc3 [ROUNDS]
'use strict';
const fs = require('fs'), path = require('path'), vm = require('vm');
const [coreJs, mocPath, roundsArg] = process.argv.slice(2);
if (!mocPath) { console.error('usage: node bench/core_update.js CORE_JS MODEL.moc3 [ROUNDS]'); process.exit(2); }
const rounds = Number(roundsArg || 20);
const load = vm.runInThisContext(`(function (__dirname, __filename, require) {${fs.readFileSync(coreJs, 'utf8')}\n;return Live2DCubismCore; })`, { filename: coreJs });
const Core = load(path.dirname(path.resolve(coreJs)), path.resolve(coreJs), require);
(async () => {
  const bytes = fs.readFileSync(mocPath);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
  let moc = null;
  for (let tries = 0; tries < 500 && !moc; ++tries) {
    try { moc = Core.Moc.fromArrayBuffer(buffer); } catch (e) { await new Promise((r) => setTimeout(r, 10)); }
  }
  const model = Core.Model.fromMoc(moc);
  const p = model.parameters;
  let state = 12345;
  const random = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
  const poses = Array.from({ length: 200 }, () => Float32Array.from({ length: p.count }, (_, i) =>
    p.minimumValues[i] + (p.maximumValues[i] - p.minimumValues[i]) * random()));
  const run = () => {
    const start = process.hrtime.bigint();
    for (let r = 0; r < rounds; ++r)
      for (const pose of poses) { p.values.set(pose); model.update(); model.drawables.resetDynamicFlags(); }
    return Number(process.hrtime.bigint() - start) / 1e3 / (rounds * poses.length);
  };
  run();
  const times = [run(), run(), run(), run(), run()].sort((a, b) => a - b);
  const version = Core.Version.csmGetVersion();
  console.log(`${path.basename(coreJs)} (Core ${version >>> 24}.${(version >> 16) & 0xff}.${version & 0xffff}): ` +
              `${times[2].toFixed(2)} us per update (median of 5 x ${rounds * poses.length}; min ${times[0].toFixed(2)})`);
})();
