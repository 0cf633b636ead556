// Runs the WebAssembly module over the cases tests/wasm/make_wasm_cases.cpp wrote from the
// native build, and the original's compatibility vectors: the same calls through the same C
// API must give the same bits.
//   node web/test/conformance.mjs build-wasm/p2l.wasm CASES_DIR [VECTORS_DIR]
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';

const [wasmPath, casesDir, vectorsDir] = process.argv.slice(2);
const { instance } = await WebAssembly.instantiate(await readFile(wasmPath), {});
const api = instance.exports;
api._initialize();
const decoder = new TextDecoder();
const cString = (pointer) => {
  const bytes = new Uint8Array(api.memory.buffer, pointer);
  return decoder.decode(bytes.subarray(0, bytes.indexOf(0)));
};

// Loads [bytes] as a rig; returns [rig, error text].
function load(bytes) {
  const data = api.p2l_alloc(bytes.length);
  new Uint8Array(api.memory.buffer, data, bytes.length).set(bytes);
  const error = api.p2l_alloc(512);
  const rig = api.p2l_rig_load(data, bytes.length, error, 512);
  const text = cString(error);
  api.p2l_dealloc(error, 512);
  api.p2l_dealloc(data, bytes.length);
  return [rig, text];
}

let compared = 0;
const failures = [];
function same(want, got, where) {
  compared++;
  if (!Object.is(Math.fround(want), got) && !(Number.isNaN(want) && Number.isNaN(got))) failures.push(`${where}: native ${want}, wasm ${got}`);
}

function check(rig, state, where) {
  state.vertices.forEach((vertices, m) => {
    const got = new Float32Array(api.memory.buffer, api.p2l_mesh_vertices(rig, m), vertices.length);
    vertices.forEach((v, i) => same(v, got[i], `${where} mesh ${m} coordinate ${i}`));
    same(state.opacity[m], api.p2l_mesh_opacity(rig, m), `${where} mesh ${m} opacity`);
    same(state.draw_order[m], api.p2l_mesh_draw_order(rig, m), `${where} mesh ${m} draw order`);
  });
  const capacity = state.vertices.length;
  const out = api.p2l_alloc(4 * Math.max(1, capacity));
  const n = api.p2l_render_order(rig, out, capacity);
  const order = Array.from(new Uint32Array(api.memory.buffer, out, Math.min(n, capacity)));
  api.p2l_dealloc(out, 4 * Math.max(1, capacity));
  if (order.join() !== state.render_order.join()) failures.push(`${where}: render order ${order} vs native ${state.render_order}`);
}

// Random rigs, in the order the native side made them (rig seeds for blinking count rigs made),
// then the Cubism fixtures imported (cubism-NAME).
const all = (await readdir(casesDir)).filter((f) => f.endsWith('.p2lrt'));
const cubismNames = all.filter((f) => f.startsWith('cubism-')).sort();
const names = all.filter((f) => f.startsWith('rig-'))
  .sort((a, b) => parseInt(a.slice(4)) - parseInt(b.slice(4))).concat(cubismNames);
for (const name of names) {
  const expected = JSON.parse(await readFile(path.join(casesDir, name.replace('.p2lrt', '.json')), 'utf8'));
  const [rig, error] = load(await readFile(path.join(casesDir, name)));
  if (!rig) { failures.push(`${name}: does not load: ${error}`); continue; }
  if (api.p2l_advanced_available(rig) !== expected.available) failures.push(`${name}: advanced features differ`);
  let mode = -1;
  expected.runs.forEach((run, k) => {
    // As the native side: switching restarts simulations, so only when the mode changes.
    if (run.advanced !== mode) api.p2l_set_advanced(rig, (mode = run.advanced));
    run.pose.forEach((v, p) => api.p2l_set_parameter(rig, p, v));
    api.p2l_evaluate(rig);
    check(rig, run.evaluate, `${name} run ${k} advanced ${run.advanced} evaluate`);
    api.p2l_update(rig, 1 / 60);
    api.p2l_update(rig, 1 / 30);
    check(rig, run.update, `${name} run ${k} advanced ${run.advanced} update`);
  });
  api.p2l_rig_free(rig);
}

// The original's vectors: every accepted file loads, every bad_* file is refused.
let vectors = 0;
if (vectorsDir) {
  for (const name of (await readdir(vectorsDir)).filter((f) => f.endsWith('.p2lrt'))) {
    const bytes = await readFile(path.join(vectorsDir, name));
    const data = api.p2l_alloc(bytes.length);
    new Uint8Array(api.memory.buffer, data, bytes.length).set(bytes);
    const rig = api.p2l_rig_load_ex(data, bytes.length, 1 /* verify CRCs */, 0, 0);
    api.p2l_dealloc(data, bytes.length);
    const refused = name.startsWith('bad_');
    if (!rig !== refused) failures.push(`${name}: ${refused ? 'accepted' : 'refused'} by the wasm module`);
    if (rig) api.p2l_rig_free(rig);
    vectors++;
  }
}

console.log(`wasm conformance: ${names.length - cubismNames.length} random rigs, ${cubismNames.length} Cubism fixtures, ${compared} values compared bit for bit, ${vectors} vector files; ${failures.length} failures`);
for (const f of (process.env.P2L_WASM_GREP ? failures.filter((x) => x.includes(process.env.P2L_WASM_GREP)) : failures).slice(0, 20)) console.log("  " + f);
if (process.env.P2L_WASM_FAILURES) { const kinds = new Map(); for (const f of failures) { const m = f.match(/^rig-\d+\.p2lrt run \d+ advanced (\d+) (\w+)/); const k = m ? `advanced ${m[1]} ${m[2]}` : f; kinds.set(k, (kinds.get(k) || 0) + 1); } console.log([...kinds].map(([k, v]) => `${k}: ${v}`).join("\n")); }
if (process.env.P2L_WASM_DUMP) (await import("node:fs")).writeFileSync(process.env.P2L_WASM_DUMP, failures.join("\n"));
process.exitCode = failures.length ? 1 : 0;
