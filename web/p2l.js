// p2l.js: the p2lrt runtime (build-wasm/p2l.wasm) for JavaScript, in browsers and node.
//
//   import { Runtime } from './p2l.js';
//   const runtime = await Runtime.load();                  // p2l.wasm next to p2l.js; or a URL, bytes or a compiled module
//   const rig = runtime.rig(bytes);                        // or: await runtime.fetchRig(url)
//   const haru = await runtime.importCubism('haru/haru.model3.json'); // a Cubism model (p2l-import.wasm)
//   rig.play('idle');
//   rig.update(1 / 60);
//   for (const m of rig.renderOrder()) draw(rig.meshes[m], rig.vertices(m), rig.opacity(m));
//   rig.free();
//
// Every call goes straight to the C API (include/p2l/p2l.h); C bools come back as booleans. Arrays the runtime owns come back
// as typed-array views into the module's memory, not copies: read them before the next call
// that may allocate (loading a rig, switching advanced mode), which can move that memory.
// Nothing is collected automatically: free() each rig.

const decoder = new TextDecoder();

/** Behavior flags (p2l_behaviors). */
export const Behavior = Object.freeze({ BLINK: 1, BREATH: 2, LOOK: 4, LIP_SYNC: 8 });
/** Advanced-mode features (p2l_set_advanced). */
export const Advanced = Object.freeze({ SKIN: 1, EXACT_LINKS: 2, SIM: 4, COLLISION: 8 });
/** Update stages (p2l_update_stages). */
export const Stage = Object.freeze({ CLIPS: 1, EXPRESSIONS: 2, BEHAVIORS: 4, POSES: 8, PHYSICS: 16, SIM: 32, ALL: 63 });

/** Import flags (p2l_cubism.h's P2L_IMPORT_*). */
const IMPORT_ORIGINAL_RULES = 1, IMPORT_P2LRT_PLAYBACK = 2, IMPORT_EXTERNAL_TEXTURES = 4;
const encoder = new TextEncoder();

/** The compiled import module, per source, compiled once. */
const importers = new Map();
async function importerModule(source) {
  const key = source instanceof URL ? source.href : source;
  if (!importers.has(key)) {
    importers.set(key, (async () => {
      if (source instanceof WebAssembly.Module) return source;
      if (typeof source === 'string' || source instanceof URL) return WebAssembly.compile(await bytesAt(source));
      return WebAssembly.compile(source);
    })());
  }
  try {
    return await importers.get(key);
  } catch (e) {
    importers.delete(key);
    throw e;
  }
}

/** A NUL-terminated UTF-8 copy of [text] in the module's memory (freed with the instance). */
function cString(api, text) {
  const bytes = encoder.encode(text);
  const at = api.p2l_alloc(bytes.length + 1);
  if (!at) throw new Error('p2l.js: the import ran out of memory');
  new Uint8Array(api.memory.buffer, at, bytes.length + 1).set(bytes);
  return at;
}

/** The bytes at a URL: fetched, or read from the file system for a file: URL in node (whose
 *  fetch has no file: URLs). */
async function bytesAt(source) {
  const url = source instanceof URL ? source : /^file:/i.test(source) ? new URL(source) : null;
  if (url?.protocol === 'file:' && typeof process === 'object' && process.versions?.node) {
    const fs = 'node:fs/promises';  // a name bundlers for browsers leave alone
    const { readFile } = await import(/* webpackIgnore: true */ /* @vite-ignore */ fs);
    return readFile(url);
  }
  const response = await fetch(source);
  if (!response.ok) throw new Error(`p2l.js: ${source}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

const MOUTH_SLOTS = ['open', 'form', 'a', 'i', 'u', 'e', 'o'];
const LIP_MIXES = ['floor', 'add', 'set'];
/** Sample formats of Speech.push (p2l_speech.h's P2L_PCM_*), by typed array. */
const PCM = { u8: 1, s16: 2, s24: 3, s32: 4, f32: 5, f64: 6 };
const PCM_BYTES = [0, 1, 2, 3, 4, 4, 8];
function pcmFormat(samples) {
  if (samples instanceof Float32Array) return PCM.f32;
  if (samples instanceof Int16Array) return PCM.s16;
  if (samples instanceof Int32Array) return PCM.s32;
  if (samples instanceof Float64Array) return PCM.f64;
  if (samples instanceof Uint8Array) return PCM.u8;
  throw new Error('p2l.js: push takes a Float32Array, Int16Array, Int32Array, Float64Array or Uint8Array (8-bit PCM)');
}
/** The vowels, in the order of Speech.vowels. */
export const Vowels = Object.freeze(['A', 'I', 'U', 'E', 'O', 'silence']);

/** Audio in, a mouth out: Runtime.speech(rate, channels, { vowels }). */
export class Speech {
  constructor(runtime, handle, channels) {
    this.runtime = runtime;
    this.api = runtime.api;
    this.handle = handle;
    this.channels = channels;
    this.sampleRate = this.api.p2l_speech_rate(handle);
    this.staging = 0;
    this.stagingSize = 0;
    // The six vowel weights are read every frame: one buffer for the speech's life.
    this.weights = this.api.p2l_alloc(24);
    if (!this.weights) {
      this.api.p2l_speech_free(handle);
      throw new Error('p2l.js: out of memory');
    }
  }
  /** Appends interleaved samples: a Float32Array (-1..1), Int16Array, Int32Array, Float64Array or
   *  Uint8Array (8-bit unsigned PCM), any length of whole frames. Throws with the reason when refused. */
  push(samples) {
    const format = pcmFormat(samples);
    const bytes = samples.length * PCM_BYTES[format];
    if (samples.length % this.channels) throw new Error(`p2l.js: ${samples.length} samples are not whole frames of ${this.channels} channels`);
    if (bytes > this.stagingSize) {
      if (this.staging) this.api.p2l_dealloc(this.staging, this.stagingSize);
      this.staging = this.api.p2l_alloc(bytes);
      this.stagingSize = this.staging ? bytes : 0;
      if (!this.staging) throw new Error('p2l.js: out of memory');
    }
    new Uint8Array(this.api.memory.buffer, this.staging, bytes).set(new Uint8Array(samples.buffer, samples.byteOffset, bytes));
    if (!this.api.p2l_speech_push(this.handle, this.staging, samples.length / this.channels, format))
      throw new Error(`p2l.js: ${this.runtime.string(this.api.p2l_speech_error(this.handle))}`);
  }
  /** No more audio will come. */
  end() { this.api.p2l_speech_end(this.handle); }
  /** Advances the speech clock by dt seconds (never past the audio pushed) and measures it. */
  update(dt) { this.api.p2l_speech_update(this.handle, dt); }
  reset() { this.api.p2l_speech_reset(this.handle); }
  setGain(gain) { return !!this.api.p2l_speech_set_gain(this.handle, gain); }
  /** The mouth opening 0..1: Cubism's RMS times the gain. */
  get level() { return this.api.p2l_speech_level(this.handle); }
  /** Weights of A, I, U, E, O and silence (sum 1). */
  get vowels() {
    this.api.p2l_speech_vowels(this.handle, this.weights);
    return Array.from(new Float32Array(this.api.memory.buffer, this.weights, 6));
  }
  /** The heaviest vowel: 'A', 'I', 'U', 'E', 'O' or 'silence'. */
  get vowel() { return Vowels[this.api.p2l_speech_vowels(this.handle, 0)]; }
  get time() { return this.api.p2l_speech_time(this.handle); }
  get buffered() { return this.api.p2l_speech_buffered(this.handle); }
  get finished() { return !!this.api.p2l_speech_finished(this.handle); }
  /** How far the vowel estimate lags the speech clock, in seconds. */
  get latency() { return this.api.p2l_speech_latency(this.handle); }
  free() {
    if (this.staging) this.api.p2l_dealloc(this.staging, this.stagingSize);
    if (this.weights) this.api.p2l_dealloc(this.weights, 24);
    this.api.p2l_speech_free(this.handle);
    this.handle = 0;
    this.staging = 0;
    this.weights = 0;
  }
}

export class Runtime {
  /** Instantiates the module from a URL (string or URL), its bytes, or a compiled WebAssembly.Module;
   *  by default p2l.wasm next to this file (import.meta.url), in browsers and node. */
  static async load(source = new URL('./p2l.wasm', import.meta.url)) {
    let module = source;
    if (typeof source === 'string' || source instanceof URL) {
      module = await WebAssembly.compile(await bytesAt(source));
    } else if (!(source instanceof WebAssembly.Module)) {
      module = await WebAssembly.compile(source);
    }
    // The module imports nothing.
    const instance = await WebAssembly.instantiate(module, {});
    instance.exports._initialize();
    return new Runtime(instance.exports);
  }

  constructor(exports) {
    this.api = exports;
    this.abi = exports.p2l_abi_version();
    this.version = this.string(exports.p2l_version());
  }

  /** A rig from the bytes of a .p2lrt file; throws with the reader's message when they are not one. */
  rig(bytes, { verifyCrc = false } = {}) {
    const api = this.api;
    const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    const at = api.p2l_alloc(data.length);
    const error = api.p2l_alloc(512);
    if (!at || !error) throw new Error('p2l.js: out of memory');
    new Uint8Array(api.memory.buffer, at, data.length).set(data);
    const handle = api.p2l_rig_load_ex(at, data.length, verifyCrc ? 1 : 0, error, 512);
    const message = this.string(error);
    api.p2l_dealloc(error, 512);
    api.p2l_dealloc(at, data.length);
    if (!handle) throw new Error(`p2l.js: the rig could not be loaded: ${message}`);
    return new Rig(this, handle);
  }

  /** A rig fetched from a URL (in node also a file: URL). */
  async fetchRig(url, options) {
    return this.rig(new Uint8Array(await bytesAt(url)), options);
  }

  /** A Cubism model imported as `p2lrt import` does (the same rig, report and errors): a
   *  .model3.json with the files it names, or a bare .moc3. [source] is the model's URL (string
   *  or URL; its side files are fetched relative to it), or an object of files by name
   *  ({'haru.model3.json': bytes, 'haru.moc3': bytes, 'motions/idle.motion3.json': ...}, names as
   *  the model3.json writes them relative to its folder) with [model] naming the model in it.
   *  Options: originalRules, p2lrtPlayback, externalTextures (p2l_cubism.h's flags), importer
   *  (p2l-import.wasm's URL, bytes or compiled module; by default next to this file). The rig's
   *  importReport lists what did not carry over exactly. Throws with the importer's message,
   *  which names the file and the JSON path at fault. The import runs in an instance of
   *  p2l-import.wasm of its own, dropped afterwards, whether it succeeded or not. */
  async importCubism(source, { model, importer = new URL('./p2l-import.wasm', import.meta.url), originalRules = false,
    p2lrtPlayback = false, externalTextures = false } = {}) {
    const flags = (originalRules ? IMPORT_ORIGINAL_RULES : 0) | (p2lrtPlayback ? IMPORT_P2LRT_PLAYBACK : 0) |
      (externalTextures ? IMPORT_EXTERNAL_TEXTURES : 0);
    let name, read;
    if (typeof source === 'string' || source instanceof URL) {
      const url = new URL(source, typeof location === 'object' ? location.href : undefined);
      name = decodeURIComponent(url.pathname.slice(url.pathname.lastIndexOf('/') + 1));
      read = async (file) => new Uint8Array(await bytesAt(new URL(file, url)));
    } else {
      const files = source instanceof Map ? source : new Map(Object.entries(source ?? {}));
      // A Cubism 2 model.json or .moc imports the same way.
      name = model ?? [...files.keys()].find((n) => /\.model3?\.json$/i.test(n)) ?? [...files.keys()].find((n) => /\.moc3?$/i.test(n));
      if (!name) throw new Error('p2l.js: importCubism: no .model3.json or .moc3 among the files, and no model named');
      read = async (file) => files.get(file) ?? null;
    }
    const instance = await WebAssembly.instantiate(await importerModule(importer), {});
    const api = instance.exports;
    let result;
    try {
      api._initialize();
      const put = (file, bytes) => {
        const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
        const at = api.p2li_file(cString(api, file), data.length);
        if (!at) throw new Error('p2l.js: the import ran out of memory');
        new Uint8Array(api.memory.buffer, at, data.length).set(data);
      };
      const own = await read(name);
      if (own) put(name, own);
      const listed = api.p2li_files(cString(api, name));
      const names = listed ? this.string(listed, api).split('\n').filter((n) => n && n !== name) : [];
      // Fetched together; a file that is not there is left out, and the import names it.
      const bytes = await Promise.all(names.map((n) => read(n).catch(() => null)));
      names.forEach((n, i) => bytes[i] && put(n, bytes[i]));
      if (!listed || !api.p2li_import(cString(api, name), flags)) throw new Error(this.string(api.p2li_failure(), api));
      result = {
        bytes: new Uint8Array(api.memory.buffer, api.p2li_output(), api.p2li_output_size()).slice(),
        report: Array.from({ length: api.p2li_report_count() }, (_, i) => this.string(api.p2li_report_line(i), api)),
      };
    } catch (e) {
      // A fatal problem traps after the importer recorded it (web/import_module.cpp).
      if (!(e instanceof WebAssembly.RuntimeError)) throw e.message?.startsWith('p2l.js') ? e : new Error(`p2l.js: ${e.message}`);
      const why = this.string(api.p2li_failure(), api);
      throw new Error(`p2l.js: ${why || 'the import ran out of memory'}`);
    }
    const rig = this.rig(result.bytes);
    rig.importReport = result.report;
    return rig;
  }


  /** A speech (include/p2l/p2l_speech.h): PCM pushed as it arrives, measured by update(dt) into
   *  a mouth level (Cubism's RMS) and, with { vowels: true }, vowel weights; rig.speak(speech)
   *  hands them to a rig. In browsers, listen() (voice.js) feeds one from an <audio> element,
   *  a MediaStream or an AudioBuffer. */
  speech(sampleRate, channels = 1, { vowels = false } = {}) {
    const api = this.api;
    const handle = this.scratch(512, (error) => {
      const h = api.p2l_speech_create(sampleRate, channels, vowels ? 1 : 0, error, 512);
      if (!h) throw new Error(`p2l.js: ${this.string(error)}`);
      return h;
    });
    return new Speech(this, handle, channels);
  }

  /** The NUL-terminated UTF-8 string at [pointer] ('' for null), in this module's memory or
   *  [api]'s (the import module's). */
  string(pointer, api = this.api) {
    if (!pointer) return '';
    const bytes = new Uint8Array(api.memory.buffer, pointer);
    const end = bytes.indexOf(0);
    return decoder.decode(bytes.subarray(0, end < 0 ? 0 : end));
  }

  /** Runs [body] with [size] bytes of module memory, freed afterwards. */
  scratch(size, body) {
    const at = this.api.p2l_alloc(Math.max(1, size));
    if (!at) throw new Error('p2l.js: out of memory');
    try {
      return body(at);
    } finally {
      this.api.p2l_dealloc(at, Math.max(1, size));
    }
  }
}

export class Rig {
  constructor(runtime, handle) {
    this.runtime = runtime;
    this.handle = handle;
    /** What a Cubism import did not carry over exactly (Runtime.importCubism); empty otherwise. */
    this.importReport = [];
    const api = runtime.api;
    const list = (count, id) => Array.from({ length: count(handle) }, (_, i) => runtime.string(id(handle, i)));
    [this.width, this.height] = runtime.scratch(8, (at) => {
      api.p2l_canvas(handle, at, at + 4);
      return Array.from(new Float32Array(api.memory.buffer, at, 2));
    });
    this.parameters = runtime.scratch(12, (at) =>
      list(api.p2l_parameter_count, api.p2l_parameter_id).map((id, i) => {
        api.p2l_parameter_range(handle, i, at, at + 4, at + 8);
        const [min, max, value] = new Float32Array(api.memory.buffer, at, 3);
        return { id, name: runtime.string(api.p2l_parameter_name(handle, i)), min, max, default: value };
      }));
    this.clips = list(api.p2l_clip_count, api.p2l_clip_id);
    this.expressions = list(api.p2l_expression_count, api.p2l_expression_id);
    this.hitAreas = list(api.p2l_hit_area_count, api.p2l_hit_area_id);
    this.bones = list(api.p2l_bone_count, api.p2l_bone_id);
    this.parts = list(api.p2l_part_count, api.p2l_part_id);
    this.poseGroups = Array.from({ length: api.p2l_pose_group_count(handle) }, (_, g) => api.p2l_pose_group_size(handle, g));
    this.meshes = list(api.p2l_mesh_count, api.p2l_mesh_id).map((id, m) => this.describeMesh(id, m));
    // Buffers the per-frame queries reuse, so that drawing allocates nothing in the module.
    this.orderAt = api.p2l_alloc(Math.max(1, this.meshes.length) * 4);
    this.vectorAt = api.p2l_alloc(24);
  }

  describeMesh(id, m) {
    const { runtime, handle } = this;
    const api = runtime.api;
    return runtime.scratch(8, (at) => {
      const culling = at;
      const blend = api.p2l_mesh_blend(handle, m, culling);
      const masks = api.p2l_mesh_masks(handle, m, 0, 0, 0);
      const maskList = runtime.scratch(masks * 4 + 1, (out) => {
        api.p2l_mesh_masks(handle, m, out, masks, out + masks * 4);
        return { list: Array.from(new Uint32Array(api.memory.buffer, out, masks)), inverted: new Uint8Array(api.memory.buffer, out + masks * 4, 1)[0] !== 0 };
      });
      return {
        id,
        vertexCount: api.p2l_mesh_vertex_count(handle, m),
        texture: api.p2l_mesh_texture(handle, m),
        blend,
        culling: new Uint8Array(api.memory.buffer, culling, 1)[0] !== 0,
        alphaBlend: api.p2l_mesh_alpha_blend(handle, m),
        part: api.p2l_mesh_part(handle, m),
        masks: maskList.list,
        invertMask: maskList.inverted,
      };
    });
  }

  get api() {
    if (!this.handle) throw new Error('p2l.js: the rig was freed');
    return this.runtime.api;
  }

  /** Why the rig stopped working ('' while it works). */
  failure() { return this.runtime.string(this.api.p2l_rig_failure(this.handle)); }

  // --- parameters ---
  /** A parameter's index from its id or index; -1 when there is none. */
  parameterIndex(id) { return typeof id === 'number' ? id : this.parameters.findIndex((p) => p.id === id); }
  /** Sets the host's value of a parameter (by id or index); layers apply over it. */
  setParameter(id, value) {
    const i = this.parameterIndex(id);
    if (i >= 0) this.api.p2l_set_parameter(this.handle, i, value);
  }
  /** The host's pose, writable (a view). */
  values() { return new Float32Array(this.api.memory.buffer, this.api.p2l_parameter_values(this.handle), this.parameters.length); }
  /** The values the last evaluation used, after every layer (a view). */
  current() { return new Float32Array(this.api.memory.buffer, this.api.p2l_parameter_current(this.handle), this.parameters.length); }

  // --- time ---
  /** Advances clips, expressions, behaviors, poses, physics and simulations by dt seconds, then evaluates. */
  update(dt, stages = Stage.ALL) {
    if (stages === Stage.ALL) this.api.p2l_update(this.handle, dt);
    else this.api.p2l_update_stages(this.handle, dt, stages);
  }
  /** Evaluates the host's pose alone (no time passes). */
  evaluate() { this.api.p2l_evaluate(this.handle); }

  // --- outputs of the last evaluation ---
  /** Mesh m's vertices, canvas pixels y down, x y per vertex (a view). */
  vertices(m) { return new Float32Array(this.api.memory.buffer, this.api.p2l_mesh_vertices(this.handle, m), this.meshes[m].vertexCount * 2); }
  /** Mesh m's texture coordinates (a view; they never change). */
  uvs(m) { return new Float32Array(this.api.memory.buffer, this.api.p2l_mesh_uvs(this.handle, m), this.meshes[m].vertexCount * 2); }
  /** Mesh m's triangle indices (a view; they never change). */
  indices(m) {
    return this.runtime.scratch(4, (at) => {
      const pointer = this.api.p2l_mesh_indices(this.handle, m, at);
      return new Uint32Array(this.api.memory.buffer, pointer, new Uint32Array(this.api.memory.buffer, at, 1)[0]);
    });
  }
  opacity(m) { return this.api.p2l_mesh_opacity(this.handle, m); }
  drawOrder(m) { return this.api.p2l_mesh_draw_order(this.handle, m); }
  /** Mesh m's multiply and screen colours, three floats each. */
  colors(m) {
    this.api.p2l_mesh_colors(this.handle, m, this.vectorAt, this.vectorAt + 12);
    const c = new Float32Array(this.api.memory.buffer, this.vectorAt, 6);
    return { multiply: [c[0], c[1], c[2]], screen: [c[3], c[4], c[5]] };
  }
  /** What changed for mesh m since the evaluation before (P2L_MESH_* bits). */
  changes(m) { return this.api.p2l_mesh_changes(this.handle, m); }
  /** The meshes to draw, back to front (a view, valid until the next call). */
  renderOrder() {
    const n = this.api.p2l_render_order(this.handle, this.orderAt, this.meshes.length);
    return new Uint32Array(this.api.memory.buffer, this.orderAt, Math.min(n, this.meshes.length));
  }

  // --- clips and events ---
  /** Plays a clip (id or index) on layer 0, or on [layer] with [priority]; null stops it. */
  play(clip, layer = 0, priority = 0) {
    const index = clip == null ? -1 : typeof clip === 'number' ? clip : this.clips.indexOf(clip);
    if (layer === 0 && priority === 0) this.api.p2l_play(this.handle, index);
    else this.api.p2l_play_layer(this.handle, layer, index, priority);
  }
  /** The events the last update fired: { layer, clip, time, value }. */
  events() {
    const api = this.api;
    return Array.from({ length: api.p2l_event_count(this.handle) }, (_, i) => {
      const value = this.runtime.string(api.p2l_event(this.handle, i, this.vectorAt, this.vectorAt + 4, this.vectorAt + 8));
      const ints = new Int32Array(api.memory.buffer, this.vectorAt, 2);
      return { layer: ints[0] >>> 0, clip: this.clips[ints[1]] ?? null, time: new Float32Array(api.memory.buffer, this.vectorAt + 8, 1)[0], value };
    });
  }

  // --- expressions, poses, behaviors ---
  /** Fades an expression (id or index) in alone; null fades them all out. */
  expression(id) { this.api.p2l_expression(this.handle, id == null ? -1 : typeof id === 'number' ? id : this.expressions.indexOf(id)); }
  addExpression(id) { return !!this.api.p2l_expression_add(this.handle, typeof id === 'number' ? id : this.expressions.indexOf(id)); }
  removeExpression(id) { return !!this.api.p2l_expression_remove(this.handle, typeof id === 'number' ? id : this.expressions.indexOf(id)); }
  showPose(group, entry) { return !!this.api.p2l_pose_show(this.handle, group, entry); }
  poseShown(group) { return this.api.p2l_pose_shown(this.handle, group); }
  behaviors(flags) { this.api.p2l_behaviors(this.handle, flags); }
  /** Where to look, each axis -1..1 (x right, y up). */
  lookAt(x, y) { this.api.p2l_look_at(this.handle, x, y); }
  /** Mouth opening 0..1 (lip sync must be among the behaviors). */
  lipSync(level) { this.api.p2l_lip_sync(this.handle, level); }
  /** Hands a Speech's level and (with vowels) its vowels to the mouth for the next updates. */
  speak(speech) { this.api.p2l_speak(this.handle, speech.handle); }
  /** Binds a parameter (id or index; null: the role's again) to a mouth slot: 'open', 'form',
   *  'a', 'i', 'u', 'e' or 'o'. False when there is no such slot or parameter. */
  bindMouth(slot, parameter) {
    const s = MOUTH_SLOTS.indexOf(slot);
    const p = parameter == null ? -1 : typeof parameter === 'number' ? parameter : this.parameters.findIndex((q) => q.id === parameter);
    return s >= 0 && (parameter == null || p >= 0) && !!this.api.p2l_mouth_bind(this.handle, s, p);
  }
  /** How lip sync meets the clips' mouth: 'floor' (max), 'add' (Cubism: + 0.8 x level) or 'set'. */
  get lipMix() { return LIP_MIXES[this.api.p2l_lip_mix(this.handle)] ?? 'floor'; }
  set lipMix(mix) {
    if (!LIP_MIXES.includes(mix) || !this.api.p2l_set_lip_mix(this.handle, LIP_MIXES.indexOf(mix))) throw new Error(`p2l.js: no lip mix "${mix}" (floor, add or set)`);
  }
  /** The hit area under a canvas point, or null. */
  hitTest(x, y) {
    const i = this.api.p2l_hit_test(this.handle, x, y);
    return i < 0 ? null : this.hitAreas[i];
  }

  // --- advanced mode ---
  advancedAvailable() { return this.api.p2l_advanced_available(this.handle); }
  /** Turns on what of [features] the file carries and can run; returns the features now on. */
  setAdvanced(features) { return this.api.p2l_set_advanced(this.handle, features); }
  resetSimulations() { this.api.p2l_sim_reset(this.handle); }
  /** Wind besides each simulation's own, canvas px/s² (x right, y down). */
  wind(x, y) { this.api.p2l_sim_wind(this.handle, x, y); }
  /** The colliders as the last update placed them: [ax, ay, bx, by, radiusA, radiusB] each. */
  colliders() {
    const api = this.api;
    const n = api.p2l_sim_colliders(this.handle, 0, 0);
    return this.runtime.scratch(n * 24, (at) => {
      api.p2l_sim_colliders(this.handle, at, n);
      const flat = new Float32Array(api.memory.buffer, at, n * 6);
      return Array.from({ length: n }, (_, i) => Array.from(flat.subarray(i * 6, i * 6 + 6)));
    });
  }
  /** A bone's canvas frame [a, b, c, d, tx, ty] at the last evaluation (id or index), or null. */
  boneTransform(id) {
    const i = typeof id === 'number' ? id : this.bones.indexOf(id);
    if (i < 0 || !this.api.p2l_bone_transform(this.handle, i, this.vectorAt)) return null;
    return Array.from(new Float32Array(this.api.memory.buffer, this.vectorAt, 6));
  }

  // --- what a player draws besides meshes (isolated groups, texture pages) ---
  /** The render order with isolated groups marked (p2l_render_commands): a mesh index, -2 - part
   *  opening the layer of an isolated part, or -1 closing the innermost one. A copy. */
  renderCommands() {
    const api = this.api;
    const n = api.p2l_render_commands(this.handle, 0, 0);
    return this.runtime.scratch(n * 4, (at) => {
      api.p2l_render_commands(this.handle, at, n);
      return Int32Array.from(new Int32Array(api.memory.buffer, at, n));
    });
  }
  /** How part p groups the meshes under it: mode 0 pass-through, 1 sorted, 2 isolated, with the
   *  isolated layer's blend, alpha blend and mask inversion; null for no such part. */
  partGroup(part) {
    const api = this.api;
    const mode = api.p2l_part_group(this.handle, part, this.vectorAt, this.vectorAt + 4, this.vectorAt + 8);
    if (mode < 0) return null;
    const ints = new Int32Array(api.memory.buffer, this.vectorAt, 2);
    return { mode, blend: ints[0], alphaBlend: ints[1], invertMask: new Uint8Array(api.memory.buffer, this.vectorAt + 8, 1)[0] !== 0 };
  }
  /** The meshes masking part p's isolated group. */
  partMasks(part) { return this.list((at, n) => this.api.p2l_part_masks(this.handle, part, at, n), Uint32Array); }
  /** Part p's isolated-group opacity and colours at the last evaluation, or null. */
  partComposite(part) {
    const api = this.api;
    return this.runtime.scratch(28, (at) => {
      if (!api.p2l_part_composite(this.handle, part, at, at + 4, at + 16)) return null;
      const c = new Float32Array(api.memory.buffer, at, 7);
      return { opacity: c[0], multiply: [c[1], c[2], c[3]], screen: [c[4], c[5], c[6]] };
    });
  }
  /** The texture pages: { kind (0 PNG, 1 KTX2, 2 file, -1 none), width, height, uri }. */
  textures() {
    const api = this.api;
    return Array.from({ length: api.p2l_texture_count(this.handle) }, (_, page) => this.runtime.scratch(16, (at) => {
      const uri = this.runtime.string(api.p2l_texture_info(this.handle, page, at, at + 4, at + 8, 0, 0));
      const [kind, width, height] = new Int32Array(api.memory.buffer, at, 3);
      return { kind, width: width >>> 0, height: height >>> 0, uri };
    }));
  }
  /** An embedded PNG page's bytes (a copy), or null for a page that is not one. */
  texturePng(page) {
    const api = this.api;
    return this.runtime.scratch(12, (at) => {
      const pointer = api.p2l_texture_png(this.handle, page, at, at + 4, at + 8);
      const length = new Uint32Array(api.memory.buffer, at, 1)[0];
      return pointer && length ? new Uint8Array(api.memory.buffer, pointer, length).slice() : null;
    });
  }

  // --- descriptions for a user interface ---
  /** The values a panel snaps parameter (id or index) to, ascending. */
  parameterSnaps(id) { return Array.from(this.list((at, n) => this.api.p2l_parameter_snaps(this.handle, this.parameterIndex(id), at, n), Float32Array)); }
  /** Parameter flags: 1 repeat (wraps around its range), 2 blend shape. */
  parameterFlags(id) { return this.api.p2l_parameter_flags(this.handle, this.parameterIndex(id)); }
  /** The parameters the file gives [role] (e.g. 'LipSync'), in file order. */
  roleParameters(role) {
    const bytes = new TextEncoder().encode(`${role}\0`);
    return this.runtime.scratch(bytes.length, (name) => {
      new Uint8Array(this.api.memory.buffer, name, bytes.length).set(bytes);
      return Array.from(this.list((at, n) => this.api.p2l_role_parameters(this.handle, name, at, n), Uint32Array));
    });
  }
  /** The file's parameter panel (PGUI): nodes in pre-order ({ parameter (-1 for a group),
   *  children, open, id, name, label: { kind, preset, argb } }) and joysticks ([horizontal,
   *  vertical] parameter pairs). Both empty when the file has no panel. */
  panel() {
    const { runtime, handle } = this;
    const api = this.api;
    const pairs = Array.from(this.list((at, n) => api.p2l_gui_joysticks(handle, at, n), Uint32Array, 2));
    const joysticks = Array.from({ length: pairs.length / 2 }, (_, j) => [pairs[2 * j], pairs[2 * j + 1]]);
    const nodes = Array.from({ length: api.p2l_gui_node_count(handle) }, (_, i) => runtime.scratch(16, (at) => {
      api.p2l_gui_node(handle, i, at, at + 4, at + 8);
      const [parameter, children] = new Int32Array(api.memory.buffer, at, 2);
      const open = new Uint8Array(api.memory.buffer, at + 8, 1)[0] !== 0;
      const kind = api.p2l_gui_node_label(handle, i, at, at + 4);
      const preset = runtime.string(new Uint32Array(api.memory.buffer, at, 1)[0]);
      const argb = new Uint32Array(api.memory.buffer, at + 4, 1)[0];
      return { parameter, children: children >>> 0, open, id: runtime.string(api.p2l_gui_node_id(handle, i)),
               name: runtime.string(api.p2l_gui_node_name(handle, i)), label: { kind, preset, argb } };
    }));
    return { nodes, joysticks };
  }
  /** A hit area's display name (id or index). */
  hitAreaName(id) { return this.runtime.string(this.api.p2l_hit_area_name(this.handle, typeof id === 'number' ? id : this.hitAreas.indexOf(id))); }
  /** The meshes of a hit area (id or index). */
  hitAreaMeshes(id) {
    const index = typeof id === 'number' ? id : this.hitAreas.indexOf(id);
    return Array.from(this.list((at, n) => this.api.p2l_hit_area_meshes(this.handle, index, at, n), Uint32Array));
  }
  /** A clip's name, group ('' for none) and timing: { name, group, duration, fps, looping, fadeIn, fadeOut }. */
  clipInfo(id) {
    const index = typeof id === 'number' ? id : this.clips.indexOf(id);
    const api = this.api;
    const ok = api.p2l_clip_info(this.handle, index, this.vectorAt, this.vectorAt + 4, this.vectorAt + 8, this.vectorAt + 12, this.vectorAt + 16);
    if (!ok) return null;
    const f = new Float32Array(api.memory.buffer, this.vectorAt, 5);
    return { name: this.runtime.string(api.p2l_clip_name(this.handle, index)), group: this.runtime.string(api.p2l_clip_group(this.handle, index)),
             duration: f[0], fps: f[1], looping: new Uint8Array(api.memory.buffer, this.vectorAt + 8, 1)[0] !== 0, fadeIn: f[3], fadeOut: f[4] };
  }
  /** Layer 0's clip index, or -1. */
  clipPlaying() { return this.api.p2l_clip_playing(this.handle); }
  /** An expression's display name (id or index). */
  expressionName(id) { return this.runtime.string(this.api.p2l_expression_name(this.handle, typeof id === 'number' ? id : this.expressions.indexOf(id))); }
  /** The file's generator information: [key, value] pairs in file order. */
  meta() {
    const api = this.api;
    return Array.from({ length: api.p2l_meta_count(this.handle) }, (_, i) =>
      [this.runtime.string(api.p2l_meta_key(this.handle, i)), this.runtime.string(api.p2l_meta_value(this.handle, i))]);
  }

  /** A copy of what a count-then-fill C call gives: fill(at, capacity) returns the total count;
   *  [per] values make one item. */
  list(fill, Type, per = 1) {
    const n = fill(0, 0);
    return this.runtime.scratch(n * per * 4, (at) => {
      fill(at, n);
      return Type.from(new Type(this.api.memory.buffer, at, n * per));
    });
  }

  /** Releases the rig; any further call throws. */
  free() {
    if (!this.handle) return;
    const api = this.runtime.api;
    api.p2l_dealloc(this.orderAt, Math.max(1, this.meshes.length) * 4);
    api.p2l_dealloc(this.vectorAt, 24);
    api.p2l_rig_free(this.handle);
    this.handle = 0;
  }
}
