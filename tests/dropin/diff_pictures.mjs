// Per-pixel comparison of two pictures of one size (pixi_screenshot.mjs's, of two Cores).
//
//   node tests/dropin/diff_pictures.mjs A.png B.png OUTDIR [--max-mean 0.05] [--max-p99 1] [--max 255]
//
// Per pixel: the largest absolute difference of its four channels (RGBA8, straight, 0..255).
// Prints the mean, the 99th percentile and the maximum of that over all pixels, the mean per
// channel, how many pixels differ at all and by more than 16 levels, and where the largest one
// is. Writes OUTDIR/diff.png (grey: the picture A dimmed; red intensity: the difference, x16,
// saturating) and OUTDIR/side_by_side.png (A | B | diff). Exit status 1 when a figure is beyond
// its limit (defaults: identical Cores give 0 everywhere; a vertex off by 1e-5 model units moves
// no pixel at this size, so the defaults are lenient only on the mean), 2 on bad input.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodePng, encodePng } from '../../web/test/png.mjs';
import { parseOptions } from './common.mjs';

const args = { 'max-mean': 0.05, 'max-p99': 1, max: 255, ...parseOptions(process.argv.slice(2)) };
if (args.positional.length !== 3) {
  console.error('usage: node tests/dropin/diff_pictures.mjs A.png B.png OUTDIR [--max-mean M] [--max-p99 P] [--max X]');
  process.exit(2);
}
const [fileA, fileB, outDir] = args.positional;
const a = decodePng(readFileSync(fileA)), b = decodePng(readFileSync(fileB));
if (a.width !== b.width || a.height !== b.height) {
  console.error(`diff_pictures: sizes differ: ${a.width}x${a.height} and ${b.width}x${b.height}`);
  process.exit(2);
}
const { width, height } = a, n = width * height;
const histogram = new Float64Array(256);
const channelSums = [0, 0, 0, 0];
let sum = 0, max = 0, maxAt = -1, differing = 0, over16 = 0;
const diff = new Uint8Array(n * 4);
for (let p = 0; p < n; p++) {
  let worst = 0;
  for (let c = 0; c < 4; c++) {
    const d = Math.abs(a.rgba[4 * p + c] - b.rgba[4 * p + c]);
    channelSums[c] += d;
    if (d > worst) worst = d;
  }
  histogram[worst]++;
  sum += worst;
  if (worst > max) { max = worst; maxAt = p; }
  if (worst > 0) differing++;
  if (worst > 16) over16++;
  const grey = Math.round((a.rgba[4 * p] + a.rgba[4 * p + 1] + a.rgba[4 * p + 2]) / 3 * 0.35);
  diff.set(worst ? [Math.min(255, 80 + worst * 16), grey >> 1, grey >> 1, 255] : [grey, grey, grey, 255], 4 * p);
}
let p99 = 0;
for (let seen = 0, v = 0; v < 256; v++) {
  seen += histogram[v];
  if (seen >= 0.99 * n) { p99 = v; break; }
}
const mean = sum / n;
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'diff.png'), encodePng({ width, height, rgba: diff }));
const side = new Uint8Array(width * 3 * height * 4);
for (let y = 0; y < height; y++)
  [a.rgba, b.rgba, diff].forEach((img, k) => side.set(img.subarray(y * width * 4, (y + 1) * width * 4), (y * width * 3 + k * width) * 4));
writeFileSync(join(outDir, 'side_by_side.png'), encodePng({ width: width * 3, height, rgba: side }));

const limits = { mean: Number(args['max-mean']), p99: Number(args['max-p99']), max: Number(args.max) };
const ok = mean <= limits.mean && p99 <= limits.p99 && max <= limits.max;
const where = maxAt >= 0 ? ` at (${maxAt % width}, ${Math.floor(maxAt / width)})` : '';
console.log(`diff_pictures: ${fileA} vs ${fileB}, ${width}x${height}`);
console.log(`diff_pictures: per-pixel max-channel |A-B|: mean ${mean.toFixed(4)}, p99 ${p99}, max ${max}${where} (limits ${limits.mean}, ${limits.p99}, ${limits.max})`);
console.log(`diff_pictures: mean per channel R ${(channelSums[0] / n).toFixed(4)} G ${(channelSums[1] / n).toFixed(4)} B ${(channelSums[2] / n).toFixed(4)} A ${(channelSums[3] / n).toFixed(4)}; ` +
            `${differing} pixels differ (${(100 * differing / n).toFixed(3)} %), ${over16} by more than 16 levels`);
console.log(`diff_pictures: ${ok ? 'PASS' : 'FAIL'}; ${join(outDir, 'diff.png')}, ${join(outDir, 'side_by_side.png')}`);
process.exit(ok ? 0 : 1);
