// The page of web/test/pixi.mjs (staged as pixi-test.js next to pixi-test.html): PixiJS v8 with
// p2lrt/pixi, each check a function of window.pixiTest that answers figures, not verdicts.
// "The player" here is the player's own renderer and framing (web/player/renderer.js drawing
// through framing.js's fitCanvas on a WebGL2 canvas of its own, what Player.draw does), drawing
// the same rig at the same evaluation as the model.
import * as PIXI from 'pixi.js';
import { Live2DModel, MotionPriority } from './pixi/index.js';
import { fitCanvas } from './player/framing.js';
import { RigRenderer } from './player/renderer.js';

const { Application, BufferImageSource, ColorMatrixFilter, Sprite, Texture } = PIXI;

let app;

async function makeApp(width, height) {
  app = new Application();
  await app.init({ width, height, preference: 'webgl', backgroundAlpha: 0, antialias: false, autoStart: false,
                   resolution: 1, autoDensity: false, preserveDrawingBuffer: true, hello: false });
  document.body.append(app.canvas);
  return app;
}

/** Pixi's canvas, premultiplied RGBA8, top row first (render first). */
function readPixi() {
  const gl = app.renderer.gl;
  const { width, height } = gl.canvas;
  const pixels = new Uint8Array(width * height * 4);
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
  app.renderer.resetState();
  return { width, height, rgba: flip(pixels, width, height) };
}

function flip(pixels, width, height) {
  const out = new Uint8Array(pixels.length), row = width * 4;
  for (let y = 0; y < height; y++) out.set(pixels.subarray((height - 1 - y) * row, (height - y) * row), y * row);
  return out;
}

// The player's renderer on a canvas of its own.
const player = { canvas: null, gl: null, renderer: null, rig: null };
async function playerFrame(rig, width, height) {
  if (!player.gl) {
    player.canvas = document.createElement('canvas');
    player.gl = player.canvas.getContext('webgl2', { alpha: true, premultipliedAlpha: true, antialias: false, depth: false,
                                                     stencil: false, preserveDrawingBuffer: false });
    player.renderer = new RigRenderer(player.gl);
  }
  if (player.rig !== rig) {
    await player.renderer.setRig(rig, null, () => {});
    player.rig = rig;
  }
  player.canvas.width = width;
  player.canvas.height = height;
  player.renderer.draw(fitCanvas(rig.width, rig.height, width, height), width, height);
  return { width, height, rgba: player.renderer.readCanvas() };
}

/** Channel differences over the pixels either image draws: mean, 99th percentile, max, and the
 *  same mean over every pixel. */
function compare(a, b) {
  if (a.width !== b.width || a.height !== b.height) throw new Error(`sizes differ: ${a.width}x${a.height}, ${b.width}x${b.height}`);
  const histogram = new Float64Array(256);
  let drawn = 0, sum = 0;
  for (let i = 0; i < a.rgba.length; i += 4) {
    if (a.rgba[i + 3] === 0 && b.rgba[i + 3] === 0) continue;
    drawn++;
    for (let c = 0; c < 4; c++) {
      const d = Math.abs(a.rgba[i + c] - b.rgba[i + c]);
      histogram[d]++;
      sum += d;
    }
  }
  const total = drawn * 4;
  let p99 = 0, max = 0;
  for (let d = 0, seen = 0; d < 256; d++) {
    if (!histogram[d]) continue;
    max = d;
    seen += histogram[d];
    if (seen < total * 0.99) p99 = d + 1;
  }
  return { drawn, pixels: a.width * a.height, mean: sum / Math.max(1, total), p99: Math.min(p99, max), max };
}

/** A premultiplied image as a PNG data URL (straight colour), for the artefacts. */
function png(image) {
  const canvas = document.createElement('canvas');
  canvas.width = image.width;
  canvas.height = image.height;
  const data = new ImageData(image.width, image.height);
  for (let i = 0; i < image.rgba.length; i += 4) {
    const a = image.rgba[i + 3];
    for (let c = 0; c < 3; c++) data.data[i + c] = a ? Math.min(255, Math.round(image.rgba[i + c] * 255 / a)) : 0;
    data.data[i + 3] = a;
  }
  canvas.getContext('2d').putImageData(data, 0, 0);
  return canvas.toDataURL('image/png');
}

/** A canvas point inside hit area [area]: the centroid of its largest triangle the rig's own
 *  hit test reports it at. */
function areaPoint(rig, area) {
  let best = null;
  for (const m of rig.hitAreaMeshes(area)) {
    const v = Float32Array.from(rig.vertices(m));
    const t = Uint32Array.from(rig.indices(m));
    for (let i = 0; i + 2 < t.length; i += 3) {
      const [ax, ay, bx, by, cx, cy] = [v[2 * t[i]], v[2 * t[i] + 1], v[2 * t[i + 1]], v[2 * t[i + 1] + 1], v[2 * t[i + 2]], v[2 * t[i + 2] + 1]];
      const size = Math.abs((bx - ax) * (cy - ay) - (cx - ax) * (by - ay)) / 2;
      const x = (ax + bx + cx) / 3, y = (ay + by + cy) / 3;
      if ((!best || size > best.size) && rig.hitTest(x, y) === area) best = { x, y, size };
    }
  }
  return best;
}

const state = { haru: null, events: [], images: {} };
const keep = (name, image) => { state.images[name] = png(image); };

window.pixiTest = {
  images() { const images = state.images; state.images = {}; return images; },

  // (1) Haru through the plugin from its model3.json (an expression added through the
  // { json, files, url } form): idle motion, a motion, the expression, a focus point; the frame
  // against the player's; the hit test point for a real click.
  async haru(url, scale) {
    const json = await (await fetch(url)).json();
    json.FileReferences.Expressions = [{ Name: 'Smile', File: 'p2l_test_smile.exp3.json' }];
    const smile = { Type: 'Live2D Expression', Parameters: [
      { Id: 'ParamEyeLSmile', Value: 1, Blend: 'Add' }, { Id: 'ParamEyeRSmile', Value: 1, Blend: 'Add' },
      { Id: 'ParamMouthForm', Value: 1, Blend: 'Overwrite' }, { Id: 'ParamTere', Value: 1, Blend: 'Overwrite' }] };
    const started = performance.now();
    const model = await Live2DModel.from({ json, url, files: { 'p2l_test_smile.exp3.json': JSON.stringify(smile) } }, { autoUpdate: false });
    const loadMs = performance.now() - started;
    const width = Math.round(model.rig.width * scale), height = Math.round(model.rig.height * scale);
    await makeApp(width, height);
    model.scale.set(scale);
    app.stage.addChild(model);
    for (const type of ['motionStart', 'motionFinish', 'hit']) model.on(type, (...args) => state.events.push([type, ...args]));
    state.haru = model;
    const rig = model.rig;
    let motion = null, expression = null;
    const angleX = [];
    for (let frame = 0; frame < 90; frame++) {
      if (frame === 10) motion = await model.motion('Use', 1, MotionPriority.NORMAL);
      if (frame === 20) expression = await model.expression('Smile');
      if (frame === 30) model.focus(width, 0);  // the top right corner
      model.update(1000 / 60);
      if (frame === 29 || frame === 89) angleX.push(model.getParameter('ParamAngleX'));
    }
    app.renderer.render(app.stage);
    const pixi = readPixi();
    const reference = await playerFrame(rig, width, height);
    keep('haru.pixi', pixi);
    keep('haru.player', reference);
    const head = rig.hitAreas.find((a) => /head/i.test(a) || /head/i.test(rig.hitAreaName(a)));
    const point = head && areaPoint(rig, head);
    const global = point && model.toGlobal({ x: point.x, y: point.y });
    return {
      loadMs, width, height, meshes: rig.meshes.length, groups: model.motionGroups, motion, expression,
      expressionsOfRig: rig.expressions, angleX, smile: model.getParameter('ParamMouthForm'),
      events: state.events.map((e) => e.slice(0, 3)), stats: compare(pixi, reference),
      hit: global && { area: head, name: rig.hitAreaName(head), x: global.x, y: global.y, local: point },
      tapped: global ? model.tap(global.x, global.y) : null,
      canvas: app.canvas.getBoundingClientRect().toJSON(),
    };
  },

  events() { return state.events.map((e) => e.slice(0, 3)); },

  // Drives the motion to its end (updates alone): the finish event.
  finishMotion() {
    const model = state.haru;
    state.events.length = 0;
    for (let frame = 0; frame < 60 * 12 && !state.events.some((e) => e[0] === 'motionFinish'); frame++) model.update(1000 / 60);
    return state.events.map((e) => e.slice(0, 3));
  },

  // (1) A ColorMatrixFilter through Pixi on the model, and on the player's frame as a Sprite.
  async filter() {
    const model = state.haru;
    const { width, height } = app.canvas;
    const matrix = () => {
      const filter = new ColorMatrixFilter();
      filter.hue(120, false);
      filter.saturate(0.4, true);
      filter.brightness(0.9, true);
      return filter;
    };
    model.update(1000 / 60);
    app.renderer.render(app.stage);
    const plain = readPixi();
    const reference = await playerFrame(model.rig, width, height);
    const texture = new Texture({ source: new BufferImageSource({ resource: reference.rgba, width, height, alphaMode: 'premultiplied-alpha' }) });
    const sprite = new Sprite(texture);
    app.stage.addChild(sprite);
    model.visible = false;
    app.renderer.render(app.stage);
    const spritePlain = readPixi();
    sprite.filters = [matrix()];
    app.renderer.render(app.stage);
    const spriteFiltered = readPixi();
    sprite.visible = false;
    model.visible = true;
    model.filters = [matrix()];
    app.renderer.render(app.stage);
    const modelFiltered = readPixi();
    keep('filter.pixi', modelFiltered);
    keep('filter.player', spriteFiltered);
    model.filters = null;
    sprite.destroy();
    texture.destroy(true);
    return { plain: compare(plain, reference), spritePath: compare(spritePlain, reference), filtered: compare(modelFiltered, spriteFiltered),
             changed: compare(modelFiltered, plain).mean };
  },

  // (2) Haru, a red sprite, the example character: each alone, then together.
  async interleave(otherUrl) {
    const a = state.haru;
    const b = await Live2DModel.from(otherUrl, { autoUpdate: false });
    const { width, height } = app.canvas;
    b.scale.set(0.5);
    b.position.set(width * 0.2, height * 0.3);
    b.update(0);
    const s = new Sprite(Texture.WHITE);
    s.tint = 0xff0000;
    s.width = width * 0.5;
    s.height = height * 0.35;
    s.position.set(width * 0.25, height * 0.15);
    app.stage.addChild(s, b);  // a (already there), s, b: back to front
    const only = (shown) => {
      for (const c of [a, s, b]) c.visible = c === shown || shown === null;
      app.renderer.render(app.stage);
      return readPixi();
    };
    const [imageA, imageS, imageB, all] = [only(a), only(s), only(b), only(null)];
    // b over (s over a), premultiplied.
    const expected = { width, height, rgba: new Uint8Array(all.rgba.length) };
    const over = (top, under) => [0, 1, 2, 3].map((c) => top[c] + under[c] * (1 - top[3] / 255));
    let sOverA = 0, bOverS = 0, sOverAok = 0, bOverSok = 0;
    for (let i = 0; i < all.rgba.length; i += 4) {
      const at = (image) => image.rgba.subarray(i, i + 4);
      const out = over(at(imageB), over(at(imageS), at(imageA)));
      for (let c = 0; c < 4; c++) expected.rgba[i + c] = Math.min(255, Math.round(out[c]));  // blending saturates
      const near = (x, y) => [0, 1, 2, 3].every((c) => Math.abs(x[c] - y[c]) <= 2);
      const px = Array.from(all.rgba.subarray(i, i + 4));
      if (imageS.rgba[i + 3] === 255 && imageA.rgba[i + 3] > 128 && imageB.rgba[i + 3] === 0) {
        sOverA++;
        if (near(px, [255, 0, 0, 255])) sOverAok++;
      }
      if (imageB.rgba[i + 3] === 255 && imageS.rgba[i + 3] === 255) {
        bOverS++;
        if (near(px, imageB.rgba.subarray(i, i + 4))) bOverSok++;
      }
    }
    keep('interleave.pixi', all);
    keep('interleave.expected', expected);
    s.destroy();
    b.destroy();
    return { stats: compare(all, expected), sOverA, sOverAok, bOverS, bOverSok };
  },

  // (3) Load, show and destroy [cycles] times: live WebGL objects of Pixi's context and the
  // module's memory after the first cycle and at the end.
  async leaks(url, cycles, scale) {
    state.haru?.destroy();
    state.haru = null;
    app.renderer.render(app.stage);
    const gl = app.renderer.gl;
    let first = null, runtime = null;
    const children = app.stage.children.length;
    const started = performance.now();
    for (let i = 0; i < cycles; i++) {
      const model = await Live2DModel.from(url, { autoUpdate: false });
      runtime = model.runtime;
      model.scale.set(scale);
      app.stage.addChild(model);
      model.motion(Object.keys(model.motionGroups)[0] ?? '', 0);
      model.update(1000 / 60);
      app.renderer.render(app.stage);
      model.destroy();
      app.renderer.render(app.stage);
      if (i === 0) first = { gl: window.glObjects(gl), memory: runtime.api.memory.buffer.byteLength };
    }
    const last = { gl: window.glObjects(gl), memory: runtime.api.memory.buffer.byteLength };
    return { first, last, cycles, ms: (performance.now() - started) / cycles,
             stage: [children, app.stage.children.length] };
  },

  // (4) A Cubism 5.3 (moc3 version 6) fixture: bare, then with generated texture pages through
  // a model3.json object, against the player.
  async v6(url) {
    const bare = await Live2DModel.from(url, { autoUpdate: false });
    const info = { meshes: bare.rig.meshes.length, pages: bare.rig.textures().length, width: bare.rig.width, height: bare.rig.height,
                   groups: bare.rig.renderCommands().filter((c) => c <= -2).length };
    const pages = 1 + Math.max(...bare.rig.meshes.map((m) => m.texture));
    bare.destroy();
    const files = { 'v6.moc3': new Uint8Array(await (await fetch(url)).arrayBuffer()) };
    for (let p = 0; p < pages; p++) files[`page${p}.png`] = await texturePage(p);
    const json = { Version: 3, FileReferences: { Moc: 'v6.moc3', Textures: Object.keys(files).slice(1) } };
    const model = await Live2DModel.from({ json, files }, { autoUpdate: false });
    const { width, height } = { width: Math.ceil(model.rig.width), height: Math.ceil(model.rig.height) };
    app.renderer.resize(width, height);
    for (const c of app.stage.children) c.visible = false;
    app.stage.addChild(model);
    const results = {};
    const poses = { default: {}, moved: { ParamN0: 7, ParamN1: -20, ParamN2: 0.2, ParamN3: -0.5, ParamBlend0: 0.6, ParamBlend1: -0.7, ParamBlend2: 0.4, ParamBlend3: 1 } };
    for (const [name, pose] of Object.entries(poses)) {
      for (const [id, value] of Object.entries(pose)) model.setParameter(id, value);
      model.update(1000 / 60);
      app.renderer.render(app.stage);
      const pixi = readPixi();
      const reference = await playerFrame(model.rig, width, height);
      keep(`v6-${name}.pixi`, pixi);
      keep(`v6-${name}.player`, reference);
      results[name] = compare(pixi, reference);
    }
    model.destroy();
    return { info, pages, results };
  },

  // (7) A Cubism 2 model (an npm widget model) from its model.json: the idle motion the plugin
  // starts by itself, a focus point that turns the head, the hair (HAIR) swinging after it, a
  // motion of another group, and the frame against the player's at the same evaluation.
  async cubism2(url, scale, hairId) {
    const started = performance.now();
    const model = await Live2DModel.from(url, { autoUpdate: false });
    const loadMs = performance.now() - started;
    const width = Math.round(model.rig.width * scale), height = Math.round(model.rig.height * scale);
    app.renderer.resize(width, height);
    for (const c of app.stage.children) c.visible = false;
    model.scale.set(scale);
    app.stage.addChild(model);
    const events = [];
    model.on('motionStart', (...args) => events.push(args.slice(0, 2)));
    const groups = Object.keys(model.motionGroups);
    const other = groups.find((g) => g.toLowerCase() !== 'idle' && model.motionGroups[g] > 0);
    const hair = [];
    let motion = null;
    for (let frame = 0; frame < 120; frame++) {
      if (frame === 30) model.focus(width, height / 2);  // the head turns right: the hair swings
      if (frame === 60 && other) motion = await model.motion(other, 0, MotionPriority.NORMAL);
      model.update(1000 / 60);
      hair.push(model.getParameter(hairId));
    }
    app.renderer.render(app.stage);
    const pixi = readPixi();
    const reference = await playerFrame(model.rig, width, height);
    keep('cubism2.pixi', pixi);
    keep('cubism2.player', reference);
    const result = {
      loadMs, width, height, meshes: model.rig.meshes.length, groups: model.motionGroups, other, motion, events,
      hairMin: Math.min(...hair), hairMax: Math.max(...hair), hairAt29: hair[29], angleX: model.getParameter('PARAM_ANGLE_X'),
      stats: compare(pixi, reference),
    };
    model.destroy();
    return result;
  },

  // speak(): a WAV decoded into an AudioBuffer, played and listened to; the mouth (the rig's
  // LipSync parameter) over updates paced by the clock, and after the end.
  async speak(wavUrl, modelUrl) {
    const model = await Live2DModel.from(modelUrl, { autoUpdate: false, idleMotionGroup: null });
    const mouth = model.rig.parameters[model.rig.roleParameters('LipSync')[0]]?.id;
    const context = new AudioContext();
    const buffer = await context.decodeAudioData(await (await fetch(wavUrl)).arrayBuffer());
    let finished = false, peak = 0, last = performance.now();
    const ok = await model.speak(buffer, { context, onFinish: () => { finished = true; } });
    const started = performance.now();
    while (!finished && performance.now() - started < buffer.duration * 1000 + 4000) {
      await new Promise((resolve) => setTimeout(resolve, 16));
      const now = performance.now();
      model.update(now - last);
      last = now;
      peak = Math.max(peak, model.getParameter(mouth));
    }
    for (let i = 0; i < 30; i++) model.update(1000 / 60);
    const after = model.getParameter(mouth);
    model.destroy();
    await context.close();
    return { ok, mouth, peak, finished, after, duration: buffer.duration, seconds: (performance.now() - started) / 1000 };
  },

  // (5) Frame times on Haru: the plugin (update, Pixi's render, a pixel read back to wait for the
  // GPU) against the player's renderer on the same rig and size.
  async speed(url, scale, frames) {
    const model = await Live2DModel.from(url, { autoUpdate: false });
    const width = Math.round(model.rig.width * scale), height = Math.round(model.rig.height * scale);
    app.renderer.resize(width, height);
    for (const c of app.stage.children) c.visible = false;
    model.scale.set(scale);
    app.stage.addChild(model);
    const gl = app.renderer.gl, pixel = new Uint8Array(4);
    const sync = (context) => context.readPixels(0, 0, 1, 1, context.RGBA, context.UNSIGNED_BYTE, pixel);
    const time = (body) => {
      const times = [];
      for (let f = 0; f < frames; f++) {
        const t = performance.now();
        body();
        times.push(performance.now() - t);
      }
      times.sort((x, y) => x - y);
      return { mean: times.reduce((x, y) => x + y, 0) / times.length, median: times[times.length >> 1] };
    };
    await playerFrame(model.rig, width, height);
    const fit = fitCanvas(model.rig.width, model.rig.height, width, height);
    for (let f = 0; f < 5; f++) { model.update(16.7); app.renderer.render(app.stage); sync(gl); }
    const plugin = time(() => { model.update(1000 / 60); app.renderer.render(app.stage); sync(gl); app.renderer.resetState(); });
    const playerTimes = time(() => { model.rig.update(1 / 60); player.renderer.draw(fit, width, height); sync(player.gl); });
    const pluginDraw = time(() => { model._dirty = true; app.renderer.render(app.stage); sync(gl); app.renderer.resetState(); });
    // Pixi's own share: the same stage rendered with the model's texture as it is (not redrawn).
    const pixiAlone = time(() => { app.renderer.render(app.stage); sync(gl); app.renderer.resetState(); });
    const playerDraw = time(() => { player.renderer.draw(fit, width, height); sync(player.gl); });
    model.destroy();
    return { width, height, frames, plugin, player: playerTimes, pluginDraw, playerDraw, pixiAlone };
  },
};

// A texture page of colour ramps, stripes and discs of every alpha, distinct per page.
async function texturePage(page) {
  const size = 512;
  const canvas = new OffscreenCanvas(size, size);
  const g = canvas.getContext('2d');
  const ramp = g.createLinearGradient(0, 0, size, size);
  ramp.addColorStop(0, page ? 'rgba(40, 200, 255, 0.9)' : 'rgba(255, 80, 40, 1)');
  ramp.addColorStop(0.5, 'rgba(250, 240, 60, 0.5)');
  ramp.addColorStop(1, page ? 'rgba(120, 40, 200, 1)' : 'rgba(20, 160, 80, 0.7)');
  g.fillStyle = ramp;
  g.fillRect(0, 0, size, size);
  for (let i = 0; i < 16; i++) {
    g.fillStyle = `rgba(${(i * 53 + page * 90) % 256}, ${(i * 97) % 256}, ${(i * 31 + 100) % 256}, ${(i + 1) / 16})`;
    g.fillRect(i * 32, 0, 12, size);
    g.beginPath();
    g.arc((i * 71) % size, (i * 137) % size, 20 + i * 3, 0, Math.PI * 2);
    g.fill();
  }
  return canvas.convertToBlob({ type: 'image/png' });
}

window.pixiTestReady = true;
