// Types for player/element.js ('p2lrt/player'): the <p2l-player> element, mountPlayer() and the
// player they drive. See element.js for what each does.
import type { Rig, Runtime } from '../p2l.js';

/** A click on the character: the hit area's id and display name (null off every hit area), in canvas pixels. */
export interface Hit { id: string | null; name: string | null; x: number; y: number; }
export interface RigEventDetail { rig: Rig | null; name: string; warnings: string[]; }

/** The player: one rig drawn with WebGL2 on every animation frame (web/player/player.js). */
export declare class Player extends EventTarget {
  constructor(canvas: HTMLCanvasElement, runtime: Runtime, options?: { test?: boolean; size?: [number, number] | null });
  readonly canvas: HTMLCanvasElement;
  readonly runtime: Runtime;
  readonly rig: Rig | null;
  /** Deterministic mode: the host's pose alone, no time passing. */
  readonly test: boolean;
  behaviors: number;
  readonly physics: boolean;
  gaze: boolean;
  /** Milliseconds per update and per draw, averaged. */
  readonly timing: { update: number; draw: number; frames: number };
  readonly lastHit: Hit | null;
  /** Loads a rig from .p2lrt bytes (baseUrl locates texture files stored next to it); the current rig stays when they are not one. */
  load(bytes: Uint8Array, options?: { name?: string; baseUrl?: string | null }): Promise<Rig>;
  setParameter(index: number, value: number): void;
  setBehavior(flag: number, on: boolean): void;
  setPhysics(on: boolean): void;
  setGaze(on: boolean): void;
  /** Asks for a new drawing (deterministic mode draws only when something changed). */
  touch(): void;
  hit(x: number, y: number): Hit;
  clientToCanvas(clientX: number, clientY: number): { x: number; y: number };
  canvasToClient(x: number, y: number): { x: number; y: number };
  /** The canvas after a fresh frame of the host's pose: premultiplied RGBA8, top row first. */
  pixels(): { width: number; height: number; rgba: Uint8Array };
  /** Stops the frame loop and the listeners, frees the rig and the GPU resources. */
  destroy(): void;
  addEventListener(type: 'rig', listener: (event: CustomEvent<RigEventDetail>) => void, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: 'frame', listener: (event: CustomEvent<{ rig: Rig }>) => void, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: 'hit', listener: (event: CustomEvent<Hit>) => void, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: 'error', listener: (event: CustomEvent<{ message: string }>) => void, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions): void;
}

export interface PlayerOptions {
  /** The rig: a URL (texture files next to it are found relative to it) or a .p2lrt file's bytes. */
  src?: string | URL | Uint8Array | ArrayBuffer;
  /** A runtime to use; else the one of [wasm], loaded once per page. */
  runtime?: Runtime;
  /** The URL of p2l.wasm (default: next to p2l.js). */
  wasm?: string | URL;
  /** A clip to play once the rig is loaded (id or index). */
  clip?: string | number;
  /** An expression to show once the rig is loaded (id or index). */
  expression?: string | number;
  /** Behavior flags (Behavior.*) or names: "blink breath look lip-sync" (the default), "none". */
  behaviors?: number | string;
  /** Physics on (default true). */
  physics?: boolean;
  /** The gaze follows the pointer (default true). */
  gaze?: boolean;
  /** A fixed drawing size [width, height] instead of the canvas's size in device pixels. */
  size?: [number, number] | null;
  /** Deterministic drawing: the host's pose alone, no time, behaviors, clips or physics. */
  still?: boolean;
}

export interface PlayerView {
  readonly player: Player;
  readonly runtime: Runtime;
  readonly canvas: HTMLCanvasElement;
  readonly rig: Rig | null;
  load(source: string | URL | Uint8Array | ArrayBuffer, options?: { clip?: string | number; expression?: string | number }): Promise<Rig>;
  play(clip: string | number | null): void;
  expression(id: string | number | null): void;
  destroy(): void;
}

/** Draws a rig in [target]: a canvas, or an element that gets a canvas filling it. */
export declare function mountPlayer(target: HTMLElement, options?: PlayerOptions): Promise<PlayerView>;
/** The runtime of [wasm] (default p2l.wasm next to p2l.js), loaded once per page. */
export declare function loadRuntime(wasm?: string | URL): Promise<Runtime>;
/** Behavior flags from a number or names ("blink breath look lip-sync", "none", "all"). */
export declare function parseBehaviors(value?: number | string | null): number;

/** <p2l-player src="..." clip="..." expression="..." wasm="..." behaviors="..." no-physics no-gaze size="WxH" still>. */
export declare class P2lPlayerElement extends HTMLElement {
  static readonly observedAttributes: string[];
  readonly player: Player | null;
  readonly rig: Rig | null;
  readonly runtime: Runtime | null;
  /** 'idle' (not connected), 'loading', 'ready' or 'error' (also the data-state attribute). */
  readonly state: 'idle' | 'loading' | 'ready' | 'error';
  readonly error?: unknown;
  /** Settles (to the element) when the current mount or load has finished, also after an error. */
  readonly ready: Promise<P2lPlayerElement>;
  play(clip: string | number | null): void;
  expression(id: string | number | null): void;
  load(source: string | URL | Uint8Array | ArrayBuffer): Promise<Rig>;
  addEventListener<K extends keyof P2lPlayerEventMap>(type: K, listener: (this: P2lPlayerElement, event: P2lPlayerEventMap[K]) => void, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
}
export interface P2lPlayerEventMap extends HTMLElementEventMap {
  load: CustomEvent<RigEventDetail>;
  hit: CustomEvent<Hit>;
  error: CustomEvent<{ error: unknown }> & ErrorEvent;
}

/** Defines the element under [name] (once); importing the module defines <p2l-player>. */
export declare function definePlayerElement(name?: string): void;

declare global {
  interface HTMLElementTagNameMap { 'p2l-player': P2lPlayerElement; }
}
