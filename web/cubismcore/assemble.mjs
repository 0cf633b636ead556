// Assembles the single-file drop-in Core: node assemble.mjs SOURCE.js FFLATE_UMD.js p2lcore.wasm OUT.js
// The module goes in deflated (zlib, level 9) and base64-encoded; fflate's UMD build inflates it.
import { readFileSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const [source, fflate, wasm, out] = process.argv.slice(2);
if (!out) {
  console.error('usage: node assemble.mjs SOURCE.js FFLATE_UMD.js p2lcore.wasm OUT.js');
  process.exit(2);
}
const text = readFileSync(source, 'utf8');
const packed = deflateSync(readFileSync(wasm), { level: 9 }).toString('base64');
if (!text.includes('/*@FFLATE@*/') || !text.includes("'@WASM_BASE64@'")) {
  console.error(`assemble: ${source} lacks its placeholders`);
  process.exit(1);
}
const result = text.replace('/*@FFLATE@*/', () => readFileSync(fflate, 'utf8').trim()).replace("'@WASM_BASE64@'", () => `'${packed}'`);
writeFileSync(out, result);
console.error(`assemble: ${out}: ${result.length} bytes (module ${readFileSync(wasm).length} bytes, deflated and base64 ${packed.length})`);
