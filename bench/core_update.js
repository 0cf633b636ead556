#!/usr/bin/env node
// Model.update() of Cubism Cores as JavaScript (the official live2dcubismcore.min.js, p2lrt's
// drop-in live2dcubismcore.js) on a .moc3: the same 200 seeded poses set and updated (then the
// dynamic flags reset, as the Frameworks do), ROUNDS times over. With several Cores, all load in
// one process and take turns, run after run, so that each ratio compares runs made under the
// same conditions (this machine's speed changes from second to second: docs/PERFORMANCE.md).
// Prints each Core's median microseconds per update over RUNS runs and its median ratio to the
// first Core.
//   node bench/core_update.js MODEL.moc3 CORE_JS... [--rounds N] [--runs R]
'use strict';
const fs = require('fs'), path = require('path'), vm = require('vm');
const args = process.argv.slice(2);
let rounds = 10, runs = 9;
const files = [];
for (let i = 0; i < args.length; ++i) {
  if (args[i] === '--rounds') rounds = Number(args[++i]);
  else if (args[i] === '--runs') runs = Number(args[++i]);
  else files.push(args[i]);
}
const [mocPath, ...cores] = files;
if (!cores.length) { console.error('usage: node bench/core_update.js MODEL.moc3 CORE_JS... [--rounds N] [--runs R]'); process.exit(2); }
function loadCore(file) {
  const load = vm.runInThisContext(`(function (__dirname, __filename, require, module) {${fs.readFileSync(file, 'utf8')}\n;return Live2DCubismCore; })`, { filename: file });
  return load(path.dirname(path.resolve(file)), path.resolve(file), require, undefined);
}
const median = (v) => { const s = [...v].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
(async () => {
  const bytes = fs.readFileSync(mocPath);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
  const benches = [];
  for (const file of cores) {
    const Core = loadCore(file);
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
    run();  // warm-up
    const v = Core.Version.csmGetVersion();
    benches.push({ name: `${path.basename(file)} (Core ${v >>> 24}.${(v >> 16) & 0xff}.${v & 0xffff})`, run, times: [] });
  }
  for (let k = 0; k < runs; ++k) for (const b of benches) b.times.push(b.run());
  for (const b of benches) {
    const ratio = median(b.times.map((t, k) => t / benches[0].times[k]));
    console.log(`${b.name}: ${median(b.times).toFixed(2)} us per update (median of ${runs} x ${rounds * 200}; min ` +
                `${Math.min(...b.times).toFixed(2)}); ${ratio.toFixed(3)} x the first`);
  }
})();
