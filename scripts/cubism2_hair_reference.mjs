// Records what the Cubism 2.1 runtime's PhysicsHair computes for the hair fixture
// (tests/cubism2/fixtures/hair.physics.json on the "rotations" fixture model, driven by
// hair.frames.json), as the Cubism 2 framework drives it: the hairs made as L2DPhysics.load
// makes them; every update the host's pose set, then each hair updated with the milliseconds
// since the physics was made (the first update one step after). Writes every parameter after
// every update.
//   node scripts/cubism2_hair_reference.mjs LIVE2D_MIN_JS MODEL.moc PHYSICS.json FRAMES.json OUT.json
import fs from 'node:fs';
import { loadRuntime, Model } from '../web/test/cubism2_runtime.mjs';

const [runtime, moc, physicsPath, framesPath, outPath] = process.argv.slice(2);
if (!outPath) {
  console.error('usage: node scripts/cubism2_hair_reference.mjs LIVE2D_MIN_JS MODEL.moc PHYSICS.json FRAMES.json OUT.json');
  process.exit(2);
}
loadRuntime(runtime);
const model = new Model(fs.readFileSync(moc));
const m = model.model;
const physics = JSON.parse(fs.readFileSync(physicsPath, 'utf8'));
const frames = JSON.parse(fs.readFileSync(framesPath, 'utf8'));

const H = globalThis.PhysicsHair;
const hairs = physics.physics_hair.map((entry) => {
  const hair = new H();
  hair.setup(parseFloat(entry.setup.length), parseFloat(entry.setup.regist), parseFloat(entry.setup.mass));
  for (const s of entry.src)
    hair.addSrcParam(s.ptype === 'y' ? H.Src.SRC_TO_Y : s.ptype === 'angle' ? H.Src.SRC_TO_G_ANGLE : H.Src.SRC_TO_X,
      s.id, parseFloat(s.scale), parseFloat(s.weight));
  for (const t of entry.targets)
    hair.addTargetParam(t.ptype === 'angle_v' ? H.Target.TARGET_FROM_ANGLE_V : H.Target.TARGET_FROM_ANGLE,
      t.id, parseFloat(t.scale), parseFloat(t.weight));
  return hair;
});

const parameters = model.parameters();
const updates = [];
let clock = 0;
for (const segment of frames.segments) {
  for (let k = 0; k < segment.updates; k++) {
    for (const p of parameters) m.setParamFloat(p.id, segment.pose[p.id] ?? p.value);
    clock += segment.step;
    for (const hair of hairs) hair.update(m, clock * 1000);
    updates.push(parameters.map((p) => m.getParamFloat(p.id)));
  }
}
const out = {
  fixture: 'hair',
  recorded: 'Cubism 2.1 runtime live2d.min.js (npm live2dcubismcore 1.0.2) by scripts/cubism2_fixtures.sh',
  parameters: parameters.map((p) => p.id),
  updates,
};
// Nine significant digits: every float the runtime stores comes back exactly.
fs.writeFileSync(outPath, JSON.stringify(out, (k, v) => (typeof v === 'number' ? Number(v.toPrecision(9)) : v)) + '\n');
console.log(`cubism2_hair_reference: ${updates.length} updates of ${hairs.length} hairs`);
