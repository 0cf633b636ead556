// The player (player.js) for other pages: a <p2l-player> custom element, and mountPlayer() for
// a host that brings its own element or canvas. It draws one rig with WebGL2 by the same code
// as the player page (web/index.html), without the page's panels. In the npm package this is
// 'p2lrt/player' (web/README.md); the runtime, p2l.wasm, is found next to p2l.js by default.
//
//   <script type="module">import 'p2lrt/player';</script>
//   <p2l-player src="character.p2lrt" clip="idle" style="width: 400px; height: 400px"></p2l-player>
//
//   import { mountPlayer } from 'p2lrt/player';
//   const view = await mountPlayer(document.querySelector('#stage'), { src: 'character.p2lrt', clip: 'wave' });
//   view.play('nod'); view.destroy();
//
// Attributes of the element (read when it is connected; src, clip and expression also later):
//   src          the .p2lrt file's URL (texture files next to it are found relative to it)
//   clip         a clip (id) to play once loaded; expression: an expression to show
//   wasm         the URL of p2l.wasm (default: next to p2l.js)
//   behaviors    "blink breath look lip-sync" (the default, all four), a subset, or "none"
//   no-physics   physics off; no-gaze: the gaze does not follow the pointer
//   size         "WxH": a fixed drawing size instead of the element's size in device pixels
//   still        deterministic drawing (the page's ?test=1): the host's pose alone, no time,
//                no behaviors, clips or physics; drawn again only when something changes
// Events: 'load' (detail { rig, warnings }), 'error' (detail { error }), 'hit' (detail
// { id, name, x, y }: a click on the character; id null off its hit areas).
import { Behavior } from '../p2l.js';
import { Player } from './player.js';
import { loadRuntime } from './runtimes.js';

export { Player, loadRuntime };

const BEHAVIORS = { blink: Behavior.BLINK, breath: Behavior.BREATH, look: Behavior.LOOK, 'lip-sync': Behavior.LIP_SYNC };
const ALL_BEHAVIORS = Behavior.BLINK | Behavior.BREATH | Behavior.LOOK | Behavior.LIP_SYNC;

/** Behavior flags from a number or from names ("blink breath look lip-sync", "none", "all"). */
export function parseBehaviors(value) {
  if (value == null) return ALL_BEHAVIORS;
  if (typeof value === 'number') return value;
  let flags = 0;
  for (const name of String(value).toLowerCase().split(/[\s,|]+/).filter(Boolean)) {
    if (name === 'all') flags |= ALL_BEHAVIORS;
    else if (name !== 'none') {
      if (!(name in BEHAVIORS)) throw new Error(`p2l-player: no behavior "${name}" (blink, breath, look, lip-sync, none, all)`);
      flags |= BEHAVIORS[name];
    }
  }
  return flags;
}

/** "WxH" as [W, H] (1..4096 each), else null. */
function parseSize(text) {
  const match = /^(\d+)x(\d+)$/.exec(text ?? '');
  if (!match) return null;
  const size = [Number(match[1]), Number(match[2])];
  return size.every((n) => n >= 1 && n <= 4096) ? size : null;
}

/** Draws a rig in [target]: a canvas, drawn into as it is laid out, or any other element, which
 *  gets a canvas filling it. Resolves once the runtime is up and options.src (if any) loaded. */
export async function mountPlayer(target, options = {}) {
  const { src, runtime, wasm, clip, expression, behaviors, physics = true, gaze = true, size = null, still = false } = options;
  const ownCanvas = !(target instanceof HTMLCanvasElement);
  const canvas = ownCanvas ? document.createElement('canvas') : target;
  if (ownCanvas) {
    Object.assign(canvas.style, { display: 'block', width: '100%', height: '100%' });
    target.append(canvas);
  }
  let player;
  try {
    player = new Player(canvas, runtime ?? await loadRuntime(wasm), { test: still, size });
  } catch (error) {
    if (ownCanvas) canvas.remove();
    throw error;
  }
  if (size) {
    canvas.style.width = `${size[0]}px`;
    canvas.style.height = `${size[1]}px`;
  }
  if (!still) {
    player.behaviors = parseBehaviors(behaviors);
    player.setPhysics(physics);
    player.gaze = gaze;
  }

  const view = {
    player,
    runtime: player.runtime,
    canvas,
    get rig() { return player.rig; },
    /** Loads another rig: a URL, or the bytes of a .p2lrt file; then plays [clip] and shows
     *  [expression] when given. Resolves to the rig; the current one stays when this one fails. */
    async load(source, { clip, expression } = {}) {
      let bytes, name, baseUrl = null;
      if (typeof source === 'string' || source instanceof URL) {
        const url = new URL(source, document.baseURI);
        const response = await fetch(url);
        if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
        bytes = new Uint8Array(await response.arrayBuffer());
        name = String(source);
        baseUrl = url.href;
      } else {
        bytes = source instanceof Uint8Array ? source : new Uint8Array(source);
        name = 'rig';
      }
      const rig = await player.load(bytes, { name, baseUrl });
      if (clip != null) view.play(clip);
      if (expression != null) view.expression(expression);
      return rig;
    },
    /** Plays a clip (id or index) on layer 0; null stops it. */
    play(id) {
      if (!player.rig) return;
      if (id != null && typeof id !== 'number' && !player.rig.clips.includes(id)) throw new Error(`p2l-player: the rig has no clip "${id}"`);
      player.rig.play(id);
      player.touch();
    },
    /** Shows an expression (id or index) alone; null fades them all out. */
    expression(id) {
      if (!player.rig) return;
      player.rig.expression(id);
      player.touch();
    },
    /** Stops drawing and frees the rig; a canvas the view added is removed. */
    destroy() {
      player.destroy();
      if (ownCanvas) canvas.remove();
    },
  };
  try {
    if (src != null) await view.load(src, { clip, expression });
  } catch (error) {
    view.destroy();
    throw error;
  }
  return view;
}

const Base = globalThis.HTMLElement ?? class {};  // importable outside browsers (node, server rendering)

/** <p2l-player>: see the top of this file. */
export class P2lPlayerElement extends Base {
  static get observedAttributes() { return ['src', 'clip', 'expression']; }

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = ':host { display: inline-block; position: relative; width: 300px; height: 300px; }\n' +
                        ':host([hidden]) { display: none; }\n.stage { width: 100%; height: 100%; }';
    this.sizeStyle = document.createElement('style');  // a size attribute sizes the element too
    this.stage = Object.assign(document.createElement('div'), { className: 'stage' });
    root.append(style, this.sizeStyle, this.stage);
    this.view = null;
    this.mounting = 0;
    this.state = 'idle';
    this.ready = Promise.resolve(this);
  }

  /** The player (player.js), the rig shown and the runtime, once connected and loaded. */
  get player() { return this.view?.player ?? null; }
  get rig() { return this.view?.rig ?? null; }
  get runtime() { return this.view?.runtime ?? null; }

  play(clip) { this.view?.play(clip); }
  expression(id) { this.view?.expression(id); }
  /** Loads a rig from a URL (also what setting src does) or from bytes. */
  load(source) { return this.track(this.view.load(source, { clip: this.getAttribute('clip'), expression: this.getAttribute('expression') })); }

  connectedCallback() {
    const ticket = ++this.mounting;
    const attribute = (name) => this.getAttribute(name);
    const options = {
      wasm: attribute('wasm') ?? undefined,
      behaviors: attribute('behaviors') ?? undefined,
      physics: !this.hasAttribute('no-physics'),
      gaze: !this.hasAttribute('no-gaze'),
      size: parseSize(attribute('size')),
      still: this.hasAttribute('still'),
    };
    this.sizeStyle.textContent = options.size ? `:host { width: ${options.size[0]}px; height: ${options.size[1]}px; }` : '';
    this.track((async () => {
      const view = await mountPlayer(this.stage, options);
      if (ticket !== this.mounting) {  // disconnected meanwhile
        view.destroy();
        return null;
      }
      this.view = view;
      view.player.addEventListener('rig', ({ detail }) => {
        if (detail.rig) this.dispatchEvent(new CustomEvent('load', { detail }));
      });
      view.player.addEventListener('hit', ({ detail }) => this.dispatchEvent(new CustomEvent('hit', { detail })));
      view.player.addEventListener('error', ({ detail }) => this.fail(new Error(detail.message)));
      const src = attribute('src');
      if (src) await view.load(src, { clip: attribute('clip'), expression: attribute('expression') });
      return view;
    })());
  }

  disconnectedCallback() {
    this.mounting++;
    this.view?.destroy();
    this.view = null;
    this.state = 'idle';
    delete this.dataset.state;
  }

  attributeChangedCallback(name, previous, value) {
    if (!this.view || previous === value) return;
    if (name === 'src' && value) this.load(value);
    else if (name === 'clip') this.play(value);
    else if (name === 'expression') this.expression(value);
  }

  // The element's state ('loading', 'ready', 'error'; also data-state) follows [promise];
  // [ready] resolves when it settles (to the element, also after an error, which an 'error'
  // event reports).
  track(promise) {
    this.setState('loading');
    const settled = promise.then(() => { if (this.isConnected) this.setState('ready'); },
                                 (error) => { if (this.isConnected) this.fail(error); });
    this.ready = settled.then(() => this);
    return promise;
  }

  setState(state) {
    this.state = state;
    this.dataset.state = state;
  }

  fail(error) {
    this.setState('error');
    this.error = error;
    this.dispatchEvent(new CustomEvent('error', { detail: { error } }));
  }
}

/** Defines the element under [name] (once); importing this module defines <p2l-player>. */
export function definePlayerElement(name = 'p2l-player') {
  if (typeof customElements === 'undefined' || customElements.get(name)) return;
  customElements.define(name, name === 'p2l-player' ? P2lPlayerElement : class extends P2lPlayerElement {});
}

definePlayerElement();
