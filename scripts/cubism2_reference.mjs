// Records what the Cubism 2.1 runtime computes for a .moc at given poses:
//   node scripts/cubism2_reference.mjs LIVE2D_MIN_JS MODEL.moc POSES.json OUT.json
// POSES.json: [{"PARAM_ID": value, ...}, ...]. OUT.json: {"canvas": [w, h], "parameters": [...],
// "poses": [[{id, drawn, opacity, order, points}, ...], ...]} (web/test/cubism2_runtime.mjs).
import fs from 'node:fs';
import { loadRuntime, Model } from '../web/test/cubism2_runtime.mjs';

const [runtime, moc, posesPath, outPath] = process.argv.slice(2);
if (!outPath) {
  console.error('usage: node scripts/cubism2_reference.mjs LIVE2D_MIN_JS MODEL.moc POSES.json OUT.json');
  process.exit(2);
}
loadRuntime(runtime);
const model = new Model(fs.readFileSync(moc));
const poses = JSON.parse(fs.readFileSync(posesPath, 'utf8'));
const out = { canvas: model.canvas(), parameters: model.parameters(), poses: [] };
for (const pose of poses) {
  model.pose(pose);
  out.poses.push(model.drawables());
}
fs.writeFileSync(outPath, JSON.stringify(out));
console.log(`cubism2_reference: ${moc}: ${poses.length} poses, ${model.count} drawables`);
