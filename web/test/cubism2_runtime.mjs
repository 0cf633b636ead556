// Drives Live2D's closed Cubism 2.1 runtime (live2d.min.js from the npm package
// live2dcubismcore@1.0.2) in node, to record what it computes: the truth p2lrt's Cubism 2
// import is compared with. Test and development time only: the file is fetched into the cache
// (scripts/npm_fetch.sh), run, never copied into the repository. Its sha256 is pinned below,
// because the drawables' draw order and state are reachable only through the minified member
// names of this one build (../shared/research/cubism-2.md section 3).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import vm from 'node:vm';

export const RUNTIME_SHA256 = 'e4ea1f18bdd44b65394ffd5a1bab16982e88757d45134d1bd0737c8a6b3ddd08';

let loaded = false;

// Loads the runtime once into this process's main realm (its loader checks `instanceof
// ArrayBuffer`, so it cannot live in a separate vm context). Throws on another build.
export function loadRuntime(path) {
  if (loaded) return;
  const source = fs.readFileSync(path);
  const sha = createHash('sha256').update(source).digest('hex');
  if (sha !== RUNTIME_SHA256) throw new Error(`${path}: sha256 ${sha}, not the pinned live2d.min.js 2.1.00_1`);
  globalThis.window = globalThis;
  globalThis.navigator = globalThis.navigator ?? { userAgent: 'node' };
  const log = console.log;
  console.log = () => {};  // its profile banner
  try {
    vm.runInThisContext(source.toString('utf8'), { filename: 'live2d.min.js' });
    globalThis.Live2D.init();
  } finally {
    console.log = log;
  }
  // 0 would mean "the wall clock": the tests set their own time.
  globalThis.UtSystem.setUserTimeMSec(1);
  loaded = true;
}

// A model loaded from .moc bytes, with what the tests read of it.
export class Model {
  constructor(bytes) {
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const messages = [];
    const log = console.log;
    console.log = (...m) => messages.push(m.join(' '));
    try {
      this.model = globalThis.Live2DModelJS.loadModel(buffer);
    } finally {
      console.log = log;
    }
    if (!this.model || globalThis.Live2D.getError() !== 0) throw new Error(`the runtime refused the .moc: ${messages.join('; ')}`);
    this.context = this.model.getModelContext();
    this.count = 0;
    while (this.count < 1 << 16) {
      let d = null;
      try { d = this.model.getDrawData(this.count); } catch { d = null; }
      if (!d) break;
      this.count++;
    }
  }

  canvas() { return [this.model.getCanvasWidth(), this.model.getCanvasHeight()]; }

  // The parameters as the runtime defines them: id, min, max, default.
  parameters() {
    const set = this.model.getModelImpl()._$vo;
    const list = set[Object.keys(set)[0]];
    return list.map((p) => ({ id: p.getParamID().toString(), min: p.getMinValue(), max: p.getMaxValue(), value: p.getDefaultValue() }));
  }

  // Sets [values] ({id: value}; the runtime clamps to each range), the rest at their defaults,
  // then updates the model.
  pose(values) {
    for (const p of this.parameters()) this.model.setParamFloat(p.id, p.id in values ? values[p.id] : p.value);
    this.model.update();
  }

  // Each drawable after the last update, in drawable order (parts in file order, each part's
  // meshes in file order): its id; whether its deformers are available and whether its keys
  // are out of range (the runtime draws it when available and in range; at the defaults and
  // at shizuku's PARAM_ANGLE_X = 60, observed: D_REF.MOUTH turns out of range); the opacity it
  // is drawn with (the drawable's getOpacity, which is its keyforms' alone, times its part's
  // opacity and its deformer's, as the runtime's draw call multiplies them); its draw order;
  // its deformed points (x, y in canvas pixels); the ids of the meshes that mask it.
  drawables() {
    const out = [];
    const contexts = this.context._$8b;
    for (let i = 0; i < this.count; i++) {
      const data = this.model.getDrawData(i);
      const state = contexts[i];
      const available = state._$AT === true, outOfRange = state._$IS[0] === true;
      out.push({
        id: data.getDrawDataID().toString(),
        available,
        outOfRange,
        drawn: available && !outOfRange,
        opacity: data.getOpacity(this.context, state) * this.context._$Hr[state._$IP].getPartsOpacity() * state.baseOpacity,
        order: state._$Us,
        points: Array.from(this.model.getTransformedPoints(i)),
        clips: (data.getClipIDList() ?? []).map((c) => String(c)),
      });
    }
    return out;
  }
}
