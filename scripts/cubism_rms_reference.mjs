// The mouth levels Cubism's own sample code computes, for tests/audio/data/cubism_rms.json.
// Runs LAppWavFileHandler (Live2D/CubismWebSamples, Samples/TypeScript/Demo/src/
// lappwavfilehandler.ts; Live2D's licence: read and run at development time, never copied
// into this repository) in node, exactly as the sample's model update calls it: the file loaded,
// then update(dt) and getRms() once per frame at 60 fps until the file ends.
//   node scripts/cubism_rms_reference.mjs HANDLER.ts TYPESCRIPT_DIR OUT.json WAV...
// scripts/cubism_rms_reference.sh fetches what it needs and runs it on the committed speech.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { createRequire } from 'node:module';

const [handlerPath, typescriptDir, outPath, ...wavs] = process.argv.slice(2);
const ts = createRequire(import.meta.url)(`${typescriptDir}/package/lib/typescript.js`);
const js = ts.transpileModule(readFileSync(handlerPath, 'utf8'), {
  compilerOptions: { module: ts.ModuleKind.ES2020, target: ts.ScriptTarget.ES2020 },
}).outputText;
const { LAppWavFileHandler } = await import(`data:text/javascript;base64,${Buffer.from(js).toString('base64')}`);

// The handler fetches its file; node's fetch cannot read a path, so this one does.
globalThis.fetch = async (path) => {
  const bytes = readFileSync(path);
  return { arrayBuffer: async () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) };
};

const dt = 1 / 60;
const out = { source: 'LAppWavFileHandler, CubismWebSamples ' + (process.env.SAMPLES_COMMIT || '?'), dt, files: {} };
for (const wav of wavs) {
  const handler = new LAppWavFileHandler();
  // What start() does, with the load awaited (start() does not wait for it, so the sample's
  // first frames see no data yet and give 0).
  await handler.loadWavFile(wav);
  const levels = [];
  while (handler.update(dt)) levels.push(handler.getRms());
  out.files[basename(wav)] = { frames: levels.length, rms: levels.map((v) => Number(v.toPrecision(9))) };
  console.error(`${basename(wav)}: ${levels.length} frames`);
}
writeFileSync(outPath, JSON.stringify(out, null, 1) + '\n');
