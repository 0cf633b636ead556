// Live2DModel: a p2lrt rig (a Cubism model imported, or a .p2lrt) as a PixiJS v8 Container, with
// pixi-live2d-display's API (documented in web/pixi.d.ts). It holds a Sprite showing a render
// texture the player's renderer draws the rig into (drawing.js), so Pixi transforms, tints,
// filters, masks and sorts it like any sprite. Its local coordinates are the rig's canvas pixels.
import { Container, Point, Rectangle, RenderTexture, Sprite, Ticker, UPDATE_PRIORITY, ObservablePoint, Matrix } from 'pixi.js';
import { Behavior, Stage } from '../p2l.js';
import { loadRuntime } from '../player/runtimes.js';
import { fitCanvas } from '../player/framing.js';
import { ModelDrawing, hookRenderer, track, untrack } from './drawing.js';
import { MotionPriority, Motions, motionGroups } from './motions.js';
import { decodePages } from '../player/textures.js';
import { loadSource } from './source.js';

export { MotionPriority };

const MAX_SIDE = 4096;
const point = new Point();
const matrix = new Matrix();

export class Live2DModel extends Container {
  /** Loads a model from a URL (.model3.json, .moc3, .p2lrt), files, or a model3.json object
   *  ({ json, files, url }); options in web/pixi.d.ts (Live2DModelOptions). */
  static async from(source, options = {}) {
    const runtime = options.runtime ?? await loadRuntime(options.wasm);
    const loaded = await loadSource(runtime, source, options);
    const warnings = [];
    let bitmaps;
    try {
      bitmaps = await decodePages(loaded.rig, loaded.url, (w) => warnings.push(w));
    } catch (error) {
      loaded.rig.free();
      throw error;
    }
    const model = new this();
    model._setup(runtime, loaded, bitmaps, warnings, options);
    return model;
  }

  constructor(options) {
    super(options);
    this.rig = this.runtime = null;  // public fields: web/pixi.d.ts
    this.importReport = this.warnings = [];
    this.resolution = 'auto';
    this.anchor = new ObservablePoint({ _onUpdate: () => this._placeAnchor() }, 0, 0);
    this._texture = RenderTexture.create({ width: 1, height: 1, dynamic: true, antialias: false });
    this._sprite = new Sprite(this._texture);
    this._sprite.eventMode = 'none';
    this.addChild(this._sprite);
    this._drawing = this._bitmaps = this._voice = this._ticker = null;
    this._dirty = true;
    this._autoUpdate = false;
  }

  _setup(runtime, loaded, bitmaps, warnings, options) {
    const { rig } = loaded;
    this.runtime = runtime;
    this.rig = rig;
    this.importReport = rig.importReport ?? [];
    this.warnings = warnings;
    this._bitmaps = bitmaps;
    this._files = loaded.files;
    this.resolution = options.resolution ?? 'auto';
    this._stages = options.physics === false ? Stage.ALL & ~Stage.PHYSICS : Stage.ALL;
    this._behaviors = options.behaviors ?? (Behavior.BLINK | Behavior.BREATH | Behavior.LOOK);
    rig.behaviors(this._behaviors);
    rig.evaluate();
    const groups = motionGroups(rig, loaded.model3);
    const idle = options.idleMotionGroup === undefined
      ? Object.keys(groups).find((g) => g.toLowerCase() === 'idle') ?? null : options.idleMotionGroup;
    this._motions = new Motions(rig, groups, idle, (type, ...args) => this.emit(type, ...args),
                                (sound) => this._motionSound(sound));
    this._texture.resize(Math.ceil(rig.width), Math.ceil(rig.height), 1);
    this.hitArea = new Rectangle(0, 0, rig.width, rig.height);
    this._placeAnchor();
    const interact = options.autoInteract;
    if (options.autoHitTest ?? interact ?? true) this.on('pointertap', (e) => this.tap(e.global.x, e.global.y));
    if (options.autoFocus ?? interact ?? true) this.on('globalpointermove', (e) => this.focus(e.global.x, e.global.y));
    if (this.listenerCount('pointertap') || this.listenerCount('globalpointermove')) this.eventMode = 'static';
    this._ticker = options.ticker ?? null;
    this.autoUpdate = options.autoUpdate ?? true;
    // A renderer made before the plugin's import hears of the model as it first renders it.
    this.onRender = (renderer) => hookRenderer(renderer);
    track(this);
  }

  /** Updates on every tick of Ticker.shared (or the `ticker` option's). */
  get autoUpdate() { return this._autoUpdate; }
  set autoUpdate(on) {
    const ticker = this._ticker ?? Ticker.shared;
    if (on && !this._autoUpdate && this.rig) ticker.add(this._tick, this, UPDATE_PRIORITY.NORMAL);
    else if (!on && this._autoUpdate) ticker.remove(this._tick, this);
    this._autoUpdate = !!on && !!this.rig;
  }
  _tick(ticker) { this.update(ticker.deltaMS); }

  /** Advances the model by [dt] milliseconds and evaluates it; the next render draws it. */
  update(dt) {
    const rig = this.rig;
    if (!rig) return;
    const seconds = Math.max(0, dt) / 1000;
    this._motions.update();
    const voice = this._voice;
    if (voice) {
      voice.speech.update(seconds);
      rig.speak(voice.speech);
    }
    rig.update(seconds, this._stages);
    if (voice && (voice.speech.finished || voice.ended)) this._endSpeech(true);
    this._dirty = true;
  }

  /** Plays motion [index] of [group] (random without one) at [priority]; resolves to whether it started. */
  motion(group, index, priority = MotionPriority.NORMAL) {
    if (!this.rig) return Promise.resolve(false);
    return Promise.resolve(index === undefined ? this._motions.random(group, priority) : this._motions.start(group, index, priority));
  }

  /** Stops every motion (the idle one comes back at the next update). */
  stopMotions() { this._motions?.stopAll(); }

  /** { group: number of motions }. */
  get motionGroups() {
    return Object.fromEntries(Object.entries(this._motions?.groups ?? {}).map(([g, list]) => [g, list.length]));
  }

  /** Shows expression [id] (name or index; random without one) alone; resolves to whether there was one. */
  expression(id) {
    const list = this.rig?.expressions ?? [];
    let index = typeof id === 'number' ? id : list.indexOf(id);
    if (id === undefined) {
      const others = list.map((_, i) => i).filter((i) => i !== this._expression);
      index = others.length ? others[Math.floor(Math.random() * others.length)] : -1;
    }
    if (!(index >= 0 && index < list.length)) return Promise.resolve(false);
    this.rig.expression(index);
    this._expression = index;
    return Promise.resolve(true);
  }

  /** Fades every expression out. */
  resetExpression() {
    this.rig?.expression(null);
    this._expression = undefined;
  }

  /** Turns the gaze toward a global point (its direction from the model's centre, as pixi-live2d-display). */
  focus(x, y) {
    if (!this.rig) return;
    const local = this.toLocal(point.set(x, y));
    const tx = (local.x / this.rig.width) * 2 - 1, ty = (local.y / this.rig.height) * 2 - 1;
    const radian = Math.atan2(ty, tx);
    this.rig.lookAt(Math.cos(radian), -Math.sin(radian));
  }

  /** The names of the hit areas at a global point (the topmost one), or []. */
  hitTest(x, y) {
    if (!this.rig) return [];
    const local = this.toLocal(point.set(x, y));
    const id = this.rig.hitTest(local.x, local.y);
    return id ? [this.rig.hitAreaName(id) || id] : [];
  }

  /** hitTest(), emitting 'hit' (names) when an area is there. */
  tap(x, y) {
    const names = this.hitTest(x, y);
    if (names.length) this.emit('hit', names);
    return names;
  }

  get parameters() { return this.rig?.parameters ?? []; }
  get parts() { return this.rig?.parts ?? []; }
  /** A parameter's value at the last update. */
  getParameter(id) {
    const i = this.rig ? this.rig.parameterIndex(id) : -1;
    return i >= 0 ? this.rig.current()[i] : NaN;
  }
  /** Sets the host's value of a parameter (motions and expressions apply over it). */
  setParameter(id, value) { this.rig?.setParameter(id, value); }
  /** Moves a parameter toward [value] by [weight] over motions and expressions, until cleared. */
  overrideParameter(id, value, weight = 1) {
    const i = this.rig ? this.rig.parameterIndex(id) : -1;
    return i >= 0 && !!this.rig.api.p2l_set_parameter_override(this.rig.handle, i, value, weight);
  }
  clearParameterOverrides() { this.rig?.api.p2l_clear_parameter_overrides(this.rig.handle); }
  /** The host's opacity of a part (id or index), 1 until set. */
  getPartOpacity(id) {
    const i = typeof id === 'number' ? id : this.parts.indexOf(id);
    return i >= 0 ? this.rig.api.p2l_part_opacity(this.rig.handle, i) : NaN;
  }
  /** Multiplies every mesh under a part by [opacity] from the next update. */
  setPartOpacity(id, opacity) {
    const i = typeof id === 'number' ? id : this.parts.indexOf(id);
    return i >= 0 && !!this.rig.api.p2l_set_part_opacity(this.rig.handle, i, opacity);
  }
  /** Behavior flags. */
  get behaviors() { return this._behaviors; }
  set behaviors(flags) {
    this._behaviors = flags;
    this.rig?.behaviors(this._voice ? flags | Behavior.LIP_SYNC : flags);
  }

  /** Lip sync from a URL, a media element, an AudioBuffer or a MediaStream (web/voice.js) until
   *  it ends or stopSpeaking(); resolves to whether it plays. */
  async speak(source, { volume = 1, vowels = false, context = null, crossOrigin, onFinish, onError } = {}) {
    if (!this.rig) return false;
    this.stopSpeaking();
    const ticket = this._speechTicket = (this._speechTicket ?? 0) + 1;
    let element = null, ownElement = false, input = source;
    if (typeof source === 'string' || (typeof URL !== 'undefined' && source instanceof URL)) {
      element = input = new Audio();
      ownElement = true;
      if (crossOrigin !== undefined) element.crossOrigin = crossOrigin;
      element.src = String(source);
    } else if (typeof HTMLMediaElement !== 'undefined' && source instanceof HTMLMediaElement) {
      element = source;
    }
    if (element) element.volume = volume;
    try {
      const { listen } = await import('../voice.js');
      const voice = await listen(this.runtime, input, { vowels, context });
      if (ticket !== this._speechTicket || !this.rig) {
        voice.stop();
        return false;
      }
      this._voice = { ...voice, element, ownElement, onFinish, ended: false };
      if (element) {
        element.addEventListener('ended', () => { if (this._voice?.element === element) this._voice.ended = true; }, { once: true });
        await element.play();
      }
      this.behaviors = this._behaviors;
      return true;
    } catch (error) {
      if (ticket === this._speechTicket) this._endSpeech(false);
      if (onError) onError(error);
      else console.warn(`p2lrt/pixi: speak: ${error.message ?? error}`);
      return false;
    }
  }

  /** Stops the speech (the mouth closes; its onFinish is not called). */
  stopSpeaking() {
    this._speechTicket = (this._speechTicket ?? 0) + 1;
    this._endSpeech(false);
  }

  _endSpeech(finished) {
    const voice = this._voice;
    this._voice = null;
    if (!voice) return;
    voice.stop();
    if (voice.ownElement) {
      voice.element.pause();
      voice.element.removeAttribute('src');
    }
    if (this.rig) {
      this.rig.behaviors(this._behaviors);
      this.rig.lipSync(0);
    }
    if (finished && voice.onFinish) voice.onFinish();
  }

  // A motion's Sound (model3.json): spoken when the model came from a URL.
  _motionSound(sound) {
    if (!this._files?.base) return undefined;
    const url = new URL(sound, this._files.base).href;
    this.speak(url);
    return url;
  }

  _placeAnchor() {
    if (this.rig) this.pivot.set(this.anchor.x * this.rig.width, this.anchor.y * this.rig.height);
  }

  // Before [renderer] renders [root]: draws the rig if the model shows there and changed.
  _prerender(renderer, root) {
    const rig = this.rig;
    if (!rig) return;
    let inScene = false;
    for (let node = this; node; node = node.parent) {
      if (!node.visible || !node.renderable) return;
      if (node === root) {
        inScene = true;
        break;
      }
    }
    if (!inScene) return;
    if (!this._drawing) {
      if (!this._bitmaps) return;
      this._drawing = new ModelDrawing(renderer, rig, this._bitmaps);
      this._bitmaps = null;
    } else if (this._drawing.renderer !== renderer) {
      return;  // a model draws with the renderer that drew it first
    }
    let scale = this.resolution;
    if (scale === 'auto') {
      const m = this.getGlobalTransform(matrix, false);
      scale = Math.max(Math.hypot(m.a, m.b), Math.hypot(m.c, m.d)) * renderer.resolution;
    }
    const largest = Math.max(rig.width, rig.height) * scale;
    if (largest > MAX_SIDE) scale *= MAX_SIDE / largest;
    if (!(scale > 0)) return;
    const width = Math.max(1, Math.ceil(rig.width * scale - 1e-3)), height = Math.max(1, Math.ceil(rig.height * scale - 1e-3));
    const source = this._texture.source;
    if (source.pixelWidth !== width || source.pixelHeight !== height) {
      this._texture.resize(width, height, 1);
      this._dirty = true;
    }
    if (!this._dirty) return;
    const fit = fitCanvas(rig.width, rig.height, width, height);
    this._drawing.draw(fit, width, height, this._texture);
    this._sprite.scale.set(1 / fit.a, 1 / fit.d);
    this._sprite.position.set(-fit.tx / fit.a, -fit.ty / fit.d);
    this._dirty = false;
  }

  _rendererGone(renderer) {
    if (this._drawing?.renderer !== renderer) return;
    this._drawing.release();
    this._drawing = null;
  }

  /** Frees the rig, the GL objects, the render texture, the speech and the ticker listener. */
  destroy(options) {
    if (this.destroyed) return;
    this.autoUpdate = false;
    this.stopSpeaking();
    untrack(this);
    this.onRender = null;
    if (this._drawing) this._drawing.release();
    this._drawing = null;
    for (const bitmap of this._bitmaps ?? []) bitmap?.close();
    this._bitmaps = null;
    if (this.rig) this.rig.free();
    this.rig = null;
    this._motions = null;
    this.removeChild(this._sprite);
    this._sprite.destroy();
    this._texture.destroy(true);
    super.destroy(options);
  }
}
