// The player: one rig at a time, advanced and drawn on every animation frame, with the
// pointer driving gaze and hit tests. It knows the canvas and nothing else of the page; the
// panels listen to its events.
//
// Test mode (?test=1) is deterministic: no behaviors, no clips, expressions or physics moving
// anything, no time: each frame evaluates the host's pose alone (p2l_evaluate), as
// `p2lrt render` draws a single pose, and only when something changed. Only a speech the test
// hands over (setSpeech) runs time there, and only while it lasts: its lip sync alone moves.
import { Behavior, Stage } from '../p2l.js';
import { canvasToClient, clientToCanvas, fitCanvas } from './framing.js';
import { RigRenderer } from './renderer.js';

const MAX_DRAWING_SIDE = 4096;
const DEFAULT_BEHAVIORS = Behavior.BLINK | Behavior.BREATH | Behavior.LOOK | Behavior.LIP_SYNC;

export class Player extends EventTarget {
  /** [size]: a fixed drawing size [width, height], or null to follow the canvas's layout. */
  constructor(canvas, runtime, { test = false, size = null } = {}) {
    super();
    this.canvas = canvas;
    this.runtime = runtime;
    this.test = test;
    this.fixedSize = size;
    const gl = canvas.getContext('webgl2', {
      alpha: true, premultipliedAlpha: true, antialias: false, depth: false, stencil: false, preserveDrawingBuffer: false,
    });
    if (!gl) throw new Error('This browser gives no WebGL2 context, which the player draws with.');
    this.gl = gl;
    this.renderer = new RigRenderer(gl);
    this.rig = null;
    this.source = '';
    this.behaviors = test ? 0 : DEFAULT_BEHAVIORS;
    this.physics = !test;
    this.gaze = !test;
    this.dirty = true;
    this.last = null;
    this.speech = null;
    this.timing = { update: 0, draw: 0, frames: 0 };
    this.lastHit = null;
    this.transform = fitCanvas(1, 1, 1, 1);
    this.width = this.height = 1;
    this.watchPointer();
    canvas.addEventListener('webglcontextlost', (event) => {
      event.preventDefault();
      this.emit('error', { message: 'The WebGL context was lost; reload the page to draw again.' });
    });
    this.frameRequest = requestAnimationFrame((now) => this.frame(now));
  }

  /** Stops the frame loop and the pointer listeners and lets go of the rig and the GPU
   *  resources (the page never needs it; the <p2l-player> element does when it is removed). */
  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    cancelAnimationFrame(this.frameRequest);
    for (const [target, type, listener] of this.listeners) target.removeEventListener(type, listener);
    this.listeners = [];
    const rig = this.rig;
    this.rig = null;
    if (!this.gl.isContextLost()) this.renderer.release();
    if (rig) rig.free();
  }

  emit(type, detail) { this.dispatchEvent(new CustomEvent(type, { detail })); }

  /** Loads a rig from .p2lrt bytes; [baseUrl] locates texture files stored next to it. The
   *  current rig stays when the bytes are not a rig (the reader's message is thrown). */
  async load(bytes, { name = 'rig', baseUrl = null } = {}) {
    const rig = this.runtime.rig(bytes);
    const warnings = [];
    // The renderer lets go of the current rig's meshes and pages as it takes the new one's.
    const previous = this.rig;
    this.rig = null;
    if (previous) previous.free();
    try {
      await this.renderer.setRig(rig, baseUrl, (w) => warnings.push(w));
    } catch (error) {
      rig.free();
      this.emit('rig', { rig: null, name: '', warnings });
      throw error;
    }
    if (this.destroyed) {
      // destroy() came while the pages were decoding.
      this.renderer.releaseRig();
      rig.free();
      throw new Error('The player was destroyed while the rig loaded.');
    }
    this.rig = rig;
    this.source = name;
    rig.behaviors(this.activeBehaviors());
    this.last = null;
    this.dirty = true;
    this.emit('rig', { rig, name, warnings });
    return rig;
  }

  // --- what the panels change ---
  setParameter(index, value) {
    if (!this.rig) return;
    this.rig.setParameter(index, value);
    this.dirty = true;
  }
  setBehavior(flag, on) {
    this.behaviors = on ? this.behaviors | flag : this.behaviors & ~flag;
    if (this.rig) this.rig.behaviors(this.activeBehaviors());
    if (flag === Behavior.LOOK && !on && this.rig) this.rig.lookAt(0, 0);
  }
  setPhysics(on) { this.physics = on; }
  setGaze(on) {
    this.gaze = on;
    this.setBehavior(Behavior.LOOK, on);
  }
  touch() { this.dirty = true; }
  /** Feeds [speech] (a p2l.js Speech, e.g. web/voice.js listen()'s) to the rig's mouth on every
   *  frame, the lip sync behavior on while it does; null stops (the behaviors as they were, the
   *  mouth at [level], the lip sync slider's). The caller frees the speech after. */
  setSpeech(speech, level = 0) {
    this.speech = speech;
    if (this.rig) {
      this.rig.behaviors(this.activeBehaviors());
      if (!speech) this.rig.lipSync(level);
    }
    this.last = null;
    this.dirty = true;
  }
  // The rig's behaviors: the switches', with lip sync while a speech speaks.
  activeBehaviors() { return this.speech ? this.behaviors | Behavior.LIP_SYNC : this.behaviors; }

  // --- the frame loop ---
  frame(now) {
    this.frameRequest = requestAnimationFrame((t) => this.frame(t));
    if (!this.rig || this.gl.isContextLost()) return;
    this.layout();
    if (this.test && !this.speech) {
      if (this.dirty) this.renderFrame();
      return;
    }
    const elapsed = this.last == null ? 0 : Math.max(0, (now - this.last) / 1000);
    const dt = Math.min(0.1, elapsed);
    this.last = now;
    const start = performance.now();
    if (this.speech) {
      // The speech's clock takes the whole time (after a hidden tab too): it keeps up with the
      // audio, which plays on, and never passes what has been heard.
      this.speech.update(elapsed);
      this.rig.speak(this.speech);
    }
    this.rig.update(dt, this.physics ? Stage.ALL : Stage.ALL & ~Stage.PHYSICS);
    const updated = performance.now();
    this.draw();
    this.note(updated - start, performance.now() - updated);
    this.emit('frame', { rig: this.rig });
  }

  /** Test mode's frame: the host's pose evaluated and drawn at once; returns the times. */
  renderFrame() {
    if (!this.rig) return null;
    this.layout();
    const start = performance.now();
    this.rig.evaluate();
    const evaluated = performance.now();
    this.draw();
    const drawn = performance.now();
    this.dirty = false;
    this.note(evaluated - start, drawn - evaluated);
    this.emit('frame', { rig: this.rig });
    return { update: evaluated - start, draw: drawn - evaluated };
  }

  draw() {
    this.transform = fitCanvas(this.rig.width, this.rig.height, this.width, this.height);
    this.renderer.draw(this.transform, this.width, this.height);
  }

  // Milliseconds per update (with its evaluation) and per draw, averaged over a second or so.
  note(update, draw) {
    const t = this.timing;
    const k = t.frames < 30 ? 1 / (t.frames + 1) : 1 / 30;
    t.update += (update - t.update) * k;
    t.draw += (draw - t.draw) * k;
    t.frames++;
  }

  // The drawing size: fixed, or the canvas's CSS size in device pixels.
  layout() {
    let width, height;
    if (this.fixedSize) {
      [width, height] = this.fixedSize;
    } else {
      const ratio = window.devicePixelRatio || 1;
      const box = this.canvas.getBoundingClientRect();
      width = Math.max(1, Math.min(MAX_DRAWING_SIDE, Math.round(box.width * ratio)));
      height = Math.max(1, Math.min(MAX_DRAWING_SIDE, Math.round(box.height * ratio)));
    }
    if (this.canvas.width !== width || this.canvas.height !== height) {
      this.canvas.width = width;
      this.canvas.height = height;
      this.dirty = true;
    }
    this.width = width;
    this.height = height;
  }

  // --- pointer: gaze and hit tests ---
  watchPointer() {
    this.listeners = [];
    const listen = (target, type, listener) => {
      target.addEventListener(type, listener);
      this.listeners.push([target, type, listener]);
    };
    listen(window, 'pointermove', (event) => {
      if (!this.rig || !this.gaze) return;
      const box = this.canvas.getBoundingClientRect();
      const clamp = (v) => Math.max(-1, Math.min(1, v));
      // x right and y up, -1..1 across the canvas's shorter half-side from its centre.
      const half = Math.max(1, Math.min(box.width, box.height) / 2);
      this.rig.lookAt(clamp((event.clientX - box.left - box.width / 2) / half),
                      clamp(-(event.clientY - box.top - box.height / 2) / half));
    });
    listen(document.documentElement, 'pointerleave', () => {
      if (this.rig && this.gaze) this.rig.lookAt(0, 0);
    });
    listen(this.canvas, 'click', (event) => {
      if (!this.rig) return;
      const point = this.clientToCanvas(event.clientX, event.clientY);
      this.hit(point.x, point.y);
    });
  }

  /** The hit area at canvas point (x, y), reported to listeners: { id, name, x, y } (id null
   *  for none). */
  hit(x, y) {
    const id = this.rig.hitTest(x, y);
    const hit = { id, name: id ? this.rig.hitAreaName(id) || id : null, x, y };
    this.lastHit = hit;
    this.emit('hit', hit);
    return hit;
  }

  clientToCanvas(clientX, clientY) {
    return clientToCanvas(this.canvas, this.transform, this.width, this.height, clientX, clientY);
  }
  canvasToClient(x, y) { return canvasToClient(this.canvas, this.transform, this.width, this.height, x, y); }

  /** The canvas as last drawn: premultiplied RGBA8, top row first (test mode: draws first). */
  pixels() {
    this.renderFrame();
    return { width: this.width, height: this.height, rgba: this.renderer.readCanvas() };
  }
}
