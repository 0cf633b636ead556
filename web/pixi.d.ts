// Types for pixi/index.js ('p2lrt/pixi'): Live2DModel, a p2lrt rig (a Cubism model imported, or a
// .p2lrt) as a PixiJS v8 display object, with pixi-live2d-display's API. pixi.js (>= 8) is a peer
// dependency: the plugin imports it by name. Importing the plugin registers a WebGL system with
// PixiJS, so import it before making the renderer (a renderer made earlier draws a model from the
// second frame that shows it). WebGL2 only (preference: 'webgl', PixiJS's default).
import type { Container, ContainerOptions, ObservablePoint, Ticker } from 'pixi.js';
import type { Rig, Runtime, ParameterInfo } from './p2l.js';

export { Behavior } from './p2l.js';

/** Motion priorities, as pixi-live2d-display's: an IDLE motion starts only when nothing plays, a
 *  NORMAL one over an idle one, a FORCE one over anything. */
export declare const MotionPriority: Readonly<{ NONE: 0; IDLE: 1; NORMAL: 2; FORCE: 3 }>;
export type MotionPriorityValue = 0 | 1 | 2 | 3;

/** Files by their path relative to the model3.json's folder: bytes, Blobs (Files), or text. */
export type ModelFiles = File[] | FileList | Map<string, Uint8Array | ArrayBuffer | Blob | string> |
  Record<string, Uint8Array | ArrayBuffer | Blob | string>;

/** What Live2DModel.from() loads:
 *  - a URL (string or URL) of a .model3.json (the files it names are fetched relative to it), a
 *    bare .moc3 (no textures, motions or physics) or a .p2lrt (texture files next to it are fetched);
 *  - files: File[] or a FileList (a folder dropped or chosen: paths from webkitRelativePath), a
 *    Map or an object by name; the .model3.json among them (else the .moc3, else the .p2lrt);
 *  - a model3.json object with its files: { json, files?, url? } (files not given are fetched
 *    relative to url), or the model3.json object itself with a `url` as pixi-live2d-display takes it. */
export type ModelSource = string | URL | ModelFiles |
  { json: object; files?: ModelFiles; url?: string | URL } | { FileReferences: object; url?: string; [key: string]: unknown };

export interface Live2DModelOptions {
  /** Update on every tick of Ticker.shared (or of `ticker`): true. False: call update(dt) yourself. */
  autoUpdate?: boolean;
  /** The ticker autoUpdate uses (e.g. app.ticker); default Ticker.shared. */
  ticker?: Ticker;
  /** A tap (Pixi's pointertap on the model) hit-tests and emits 'hit': true. */
  autoHitTest?: boolean;
  /** The gaze follows the pointer over the stage (globalpointermove): true. */
  autoFocus?: boolean;
  /** Sets autoHitTest and autoFocus together (pixi-live2d-display 0.4's name). */
  autoInteract?: boolean;
  /** The group whose motions play, one at random, whenever nothing plays: the group named "Idle"
   *  (any case); null for none. */
  idleMotionGroup?: string | null;
  /** p2lrt Behavior flags: BLINK | BREATH | LOOK by default (LOOK moves the gaze that focus()
   *  sets; LIP_SYNC is added while the model speaks). */
  behaviors?: number;
  /** Physics (Cubism's physics3.json) run in updates: true. */
  physics?: boolean;
  /** Render texture texels per canvas pixel of the model, or 'auto' (the default): the model's
   *  scale on screen times the renderer's resolution, so that Pixi shows it one texel per pixel.
   *  The texture's larger side stays within 4096. */
  resolution?: number | 'auto';
  /** The p2lrt Runtime to use; else one shared by the page, from `wasm` (default: p2l.wasm next to p2l.js). */
  runtime?: Runtime;
  wasm?: string | URL;
  /** p2l-import.wasm's URL, bytes or module (default: next to p2l.js). */
  importer?: string | URL | BufferSource | WebAssembly.Module;
  /** The Cubism import's flags (p2l_cubism.h): p2lrt's own rules instead of Cubism's. */
  originalRules?: boolean;
  p2lrtPlayback?: boolean;
}

/** The events a Live2DModel emits besides a Container's (model.on(name, listener)). */
export interface Live2DModelEvents {
  /** A tap hit hit areas: their names (the model3.json's HitAreas Name; the topmost area only). */
  hit: [hitAreaNames: string[]];
  /** A motion started: its group and index, and the URL of its Sound when it has one. */
  motionStart: [group: string, index: number, audio: string | undefined];
  /** A motion played to its end (not when another replaced it). */
  motionFinish: [group: string, index: number];
}

export interface SpeakOptions {
  /** 0..1, for a URL or a media element: 1. */
  volume?: number;
  /** Shape the mouth by the vowel too (A I U E O), not only open it. */
  vowels?: boolean;
  /** The AudioContext to use; else one is made per speech. */
  context?: AudioContext | null;
  /** The <audio> element's crossOrigin, for a URL. */
  crossOrigin?: string | null;
  /** Called when the audio ends (not after stopSpeaking()). */
  onFinish?: () => void;
  /** Called when the audio cannot play; without it the reason goes to console.warn. */
  onError?: (error: unknown) => void;
}

export declare class Live2DModel extends Container {
  /** Loads a model; resolves once its rig is made and its texture pages decoded. Throws the
   *  import's message (it names the file and the JSON path at fault) for a model that does not load. */
  static from<T extends typeof Live2DModel>(this: T, source: ModelSource, options?: Live2DModelOptions): Promise<InstanceType<T>>;

  constructor(options?: ContainerOptions);
  /** The p2lrt rig: every parameter, part, clip, expression, hit area and more (p2lrt's Rig); null once destroyed. */
  readonly rig: Rig | null;
  readonly runtime: Runtime | null;
  /** What did not carry over exactly from a Cubism model, one line each. */
  readonly importReport: string[];
  /** Texture pages that cannot be drawn, and why. */
  readonly warnings: string[];
  /** Where the model's origin lies, in fractions of its canvas (0, 0: top left; 0.5, 0.5: centre). Sets the pivot. */
  readonly anchor: ObservablePoint;
  /** Render texture texels per canvas pixel, or 'auto' (see Live2DModelOptions.resolution). */
  resolution: number | 'auto';
  /** Updates on the ticker (see Live2DModelOptions.autoUpdate). */
  autoUpdate: boolean;
  /** The behaviors on: p2lrt Behavior flags. */
  behaviors: number;
  /** The motion groups and how many motions each has. */
  readonly motionGroups: Record<string, number>;
  /** The parameters: { id, name, min, max, default }. */
  readonly parameters: readonly ParameterInfo[];
  /** The parts' ids. */
  readonly parts: readonly string[];

  /** Advances the model by dt milliseconds (motions, expressions, blink, breath, gaze, lip sync,
   *  poses, physics) and evaluates it; the next render draws it. */
  update(dt: number): void;
  /** Plays motion [index] of [group], a random one of the group without an index, at [priority]
   *  (NORMAL by default). Resolves to whether it started. */
  motion(group: string, index?: number, priority?: MotionPriorityValue): Promise<boolean>;
  /** Stops every motion (the idle motion comes back at the next update). */
  stopMotions(): void;
  /** Shows expression [id] (its name or index) alone, fading the others out; without an id a
   *  random one other than the current. Resolves to whether there was such an expression. */
  expression(id?: string | number): Promise<boolean>;
  /** Fades every expression out. */
  resetExpression(): void;
  /** Turns the gaze toward a point in Pixi's global coordinates (the direction from the model's
   *  centre, at full turn, as pixi-live2d-display). */
  focus(x: number, y: number): void;
  /** The names of the hit areas at a point in global coordinates (the topmost area, or none). */
  hitTest(x: number, y: number): string[];
  /** hitTest(), emitting 'hit' with the names when there is one; returns the names. */
  tap(x: number, y: number): string[];
  /** A parameter's value (id or index) at the last update, after motions, expressions,
   *  behaviors and physics; NaN for no such parameter. */
  getParameter(id: string | number): number;
  /** Sets the host's value of a parameter: the pose that motions and expressions apply over. */
  setParameter(id: string | number, value: number): void;
  /** Moves a parameter toward [value] by [weight] (0..1, default 1) over what motions and
   *  expressions give, before behaviors and physics, until cleared (Cubism's
   *  setParameterValueById after the motion update). False for no such parameter. */
  overrideParameter(id: string | number, value: number, weight?: number): boolean;
  clearParameterOverrides(): void;
  /** The host's opacity of a part (id or index): 1 until set. */
  getPartOpacity(id: string | number): number;
  /** Multiplies every mesh under a part by [opacity] from the next update. */
  setPartOpacity(id: string | number, opacity: number): boolean;
  /** Lip sync from audio until it ends or stopSpeaking(): a URL (played in a new <audio>
   *  element), an <audio>/<video> element (played), an AudioBuffer (played) or a MediaStream
   *  (listened to, e.g. the microphone). Resolves to whether it plays. */
  speak(source: string | URL | HTMLMediaElement | AudioBuffer | MediaStream, options?: SpeakOptions): Promise<boolean>;
  /** Stops the speech; the mouth closes. */
  stopSpeaking(): void;
  /** Frees the rig (module memory), its GL objects and render texture, the speech and the ticker listener. */
  destroy(options?: Parameters<Container['destroy']>[0]): void;
}
