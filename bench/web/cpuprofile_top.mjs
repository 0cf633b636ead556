// The functions a node --cpu-prof profile spent its time in: self time and total time (the
// function and what it calls, each sample counted once per function), as shares of the samples
// under the roots whose names match FILTER (a regular expression; default: every sample).
// For p2l.wasm, profile a build with function names (web/CMakeLists.txt: P2L_WASM_NAMES=ON
// with P2L_WASM_LTO=OFF, since wasm-ld writes no names after LTO):
//   node --cpu-prof --cpu-prof-dir=DIR bench/web/core_bench.mjs NAMES.wasm MODEL.p2lrt MODEL.model3.json CORE --only p2l
//   node bench/web/cpuprofile_top.mjs DIR/*.cpuprofile [COUNT] [FILTER]
import { readFileSync } from 'node:fs';

const [file, countArg, filterArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node cpuprofile_top.mjs PROFILE.cpuprofile [COUNT] [FILTER]');
  process.exit(2);
}
const count = Number(countArg ?? 25);
const filter = filterArg ? new RegExp(filterArg) : null;
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const name = (n) => n.callFrame.functionName || `(anonymous ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber})`;

const self = new Map(), total = new Map();
let samples = 0;
for (const id of profile.samples) {
  const stack = [];
  for (let at = id; at !== undefined; at = parent.get(at)) stack.push(name(nodes.get(at)));
  if (filter && !stack.some((s) => filter.test(s))) continue;
  samples++;
  self.set(stack[0], (self.get(stack[0]) ?? 0) + 1);
  for (const s of new Set(stack)) total.set(s, (total.get(s) ?? 0) + 1);
}
const pct = (x) => `${((100 * x) / samples).toFixed(1).padStart(5)} %`;
console.log(`${samples} samples${filter ? ` under /${filter.source}/` : ''}`);
console.log('self time:');
for (const [f, x] of [...self].sort((a, b) => b[1] - a[1]).slice(0, count)) console.log(`  ${pct(x)}  ${f}`);
console.log('total time (with callees):');
for (const [f, x] of [...total].sort((a, b) => b[1] - a[1]).slice(0, count)) console.log(`  ${pct(x)}  ${f}`);
