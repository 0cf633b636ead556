// Runs web/test/warp_simd.cpp (built as build-wasm/p2l_warp_test.wasm): the module's SIMD warp
// mapping against its scalar loop, bit for bit, over several seeds.
//   node web/test/warp_simd.mjs build-wasm/p2l_warp_test.wasm [ROUNDS]
import fs from 'node:fs';

const [file, rounds = '20000'] = process.argv.slice(2);
const { instance } = await WebAssembly.instantiate(fs.readFileSync(file), {});
const { run, _initialize } = instance.exports;
_initialize?.();  // a WASI reactor's start
let failed = 0;
for (const seed of [1, 2, 3, 20261201]) {
  const differing = run(seed, Number(rounds));
  if (differing !== 0) {
    console.error(differing < 0 ? 'warp simd: the module mapped no point with SIMD (built without -msimd128?)'
                                : `warp simd: seed ${seed}: ${differing} coordinates differ from the scalar loop`);
    failed = 1;
  }
}
if (!failed) console.log(`warp simd: 4 seeds x ${rounds} runs of random lattices and points, SIMD and scalar agree bit for bit`);
process.exit(failed);
