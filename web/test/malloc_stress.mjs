// Runs web/test/malloc_stress.cpp (built as build-wasm/p2l_malloc_test.wasm) over several
// seeds: the module's own allocator against random allocations with content checks.
//   node web/test/malloc_stress.mjs build-wasm/p2l_malloc_test.wasm [OPERATIONS]
import fs from 'node:fs';

const [file, operations = '60000'] = process.argv.slice(2);
const { instance } = await WebAssembly.instantiate(fs.readFileSync(file), {});
const { run, memory, _initialize } = instance.exports;
_initialize?.();  // a WASI reactor's start
let failed = 0;
for (const seed of [1, 2, 3, 20261201]) {
  const at = run(seed, Number(operations));
  if (at !== 0) {
    console.error(`malloc stress: seed ${seed}: operation ${at} of ${operations} found a block damaged, misaligned or refused`);
    failed = 1;
  }
}
// At most 512 blocks live, one in sixteen up to 256 KiB: about 4 MiB live at a time, and
// the module ends at 8 MiB on these seeds. Twice that means freed blocks are not merged with
// their free neighbours (one such bug ended at 25 MiB with every block intact).
if (memory.buffer.byteLength > 16 * 1024 * 1024) {
  console.error(`malloc stress: memory grew to ${memory.buffer.byteLength >> 20} MiB`);
  failed = 1;
}
if (!failed) console.log(`malloc stress: 4 seeds x ${operations} operations, every block intact; memory ${memory.buffer.byteLength >> 10} KiB`);
process.exit(failed);
