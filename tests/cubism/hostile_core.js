#!/usr/bin/env node
// What a Cubism Core does with the published moc3 crash class (CVE-2023-27566: section offsets
// pointing outside the file) on one moc3: every used slot of the section table set in turn to
// 0xFFFFFFF0, to the file size and to 0x7FFFFFFF; then every count-table entry set to
// 0x7FFFFFFF. For each damaged copy it records whether hasMocConsistency accepts it (Cores that
// have it: 4.2.4 and later), whether Moc.fromArrayBuffer revives it, and whether either throws
// (a WebAssembly trap: "memory access out of bounds") or never returns (each case runs in a
// child process, stopped after 20 seconds: "hung"). One JSON line out, for
// docs/RELIABILITY.md's comparison with p2lrt (which refuses all of them, tests/csm and
// tests/hostile_test.cpp).
//   node hostile_core.js CORE_JS MODEL.moc3
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');

const { spawnSync } = require('child_process');
const [coreJs, mocPath, caseArg] = process.argv.slice(2);
if (!mocPath) {
  console.error('usage: node hostile_core.js CORE_JS MODEL.moc3');
  process.exit(2);
}
const load = vm.runInThisContext(
  `(function (__dirname, __filename, require) {${fs.readFileSync(coreJs, 'utf8')}\n;return Live2DCubismCore; })`,
  { filename: coreJs });
const core = load(path.dirname(path.resolve(coreJs)), path.resolve(coreJs), require);

// Cores 5 and 6 instantiate their WebAssembly asynchronously: calls before that throw a TypeError.
async function started() {
  const buffer = intact.buffer.slice(intact.byteOffset, intact.byteOffset + intact.byteLength);
  for (let tries = 0; tries < 500; ++tries) {
    try {
      const moc = core.Moc.fromArrayBuffer(buffer);
      if (moc) moc._release();
      core.Logging.csmSetLogFunction(() => {});
      return;
    } catch (e) {
      if (!(e instanceof TypeError)) throw e;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  throw new Error(`${coreJs}: the Core did not start`);
}

const intact = fs.readFileSync(mocPath);
const version = intact[4];
const slots = version >= 6 ? 480 : version >= 5 ? 160 : 128;
const hasCheck = typeof core.Moc.prototype.hasMocConsistency === 'function';

function judge(bytes) {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const verdict = { consistent: null, revived: false, threw: false, modelBuilt: false };
  try {
    const moc = core.Moc.fromArrayBuffer(buffer);
    if (hasCheck && moc === null) verdict.consistent = null;
    if (moc) {
      verdict.revived = true;
      if (hasCheck) verdict.consistent = moc.hasMocConsistency(buffer) ? 1 : 0;
      const model = core.Model.fromMoc(moc);
      if (model) {
        verdict.modelBuilt = true;
        model.update();
        model.release();
      }
      moc._release();
    }
  } catch (e) {
    verdict.threw = String(e && e.message || e);
  }
  return verdict;
}

const cases = [];
for (let slot = 0; slot < slots; ++slot) {
  const at = 64 + 4 * slot;
  if (intact.readUInt32LE(at) === 0) continue;
  for (const bad of [0xfffffff0, intact.length, 0x7fffffff]) cases.push({ what: `slot ${slot} = ${bad}`, at, value: bad });
}
const countsAt = intact.readUInt32LE(64);
for (let entry = 0; entry < 23; ++entry)
  cases.push({ what: `count ${entry} = 2^31-1`, at: countsAt + 4 * entry, value: 0x7fffffff });

function damaged(c) {
  const bytes = Buffer.from(intact);
  bytes.writeUInt32LE(c.value >>> 0, c.at);
  return bytes;
}

async function main() {
await started();
if (caseArg !== undefined) {  // a child: one case, its verdict on stdout
  console.log(JSON.stringify(judge(damaged(cases[Number(caseArg)]))));
  process.exit(0);
}

const tally = { cases: 0, revived: 0, refused: 0, threw: 0, hung: 0, modelBuilt: 0, consistentFalse: 0, examples: [] };
for (let i = 0; i < cases.length; ++i) {
  const run = spawnSync(process.execPath, [__filename, coreJs, mocPath, String(i)], { timeout: 20000, encoding: 'utf8' });
  let v;
  if (run.error || run.status !== 0) v = { hung: run.error && run.error.code === 'ETIMEDOUT', threw: run.error ? false : `exit ${run.status}` };
  else v = JSON.parse(run.stdout.trim().split('\n').pop());
  ++tally.cases;
  if (v.hung) ++tally.hung;
  else if (v.threw) ++tally.threw;
  else if (v.revived) ++tally.revived;
  else ++tally.refused;
  if (v.modelBuilt) ++tally.modelBuilt;
  if (v.consistent === 0) ++tally.consistentFalse;
  if ((v.hung || v.threw || (v.revived && v.consistent !== 0)) && tally.examples.length < 6) tally.examples.push({ what: cases[i].what, ...v });
}
console.log(JSON.stringify({ core: path.basename(coreJs), version: core.Version.csmGetVersion().toString(16),
                             moc: path.basename(mocPath), mocVersion: version, hasMocConsistency: hasCheck, ...tally }));
}
main();
