// Types for p2l.js (the p2lrt runtime for JavaScript). See p2l.js for what each call does.

export declare const Behavior: Readonly<{ BLINK: 1; BREATH: 2; LOOK: 4; LIP_SYNC: 8 }>;
export declare const Advanced: Readonly<{ SKIN: 1; EXACT_LINKS: 2; SIM: 4; COLLISION: 8 }>;
export declare const Stage: Readonly<{ CLIPS: 1; EXPRESSIONS: 2; BEHAVIORS: 4; POSES: 8; PHYSICS: 16; SIM: 32; ALL: 63 }>;

export interface ParameterInfo { id: string; name: string; min: number; max: number; default: number; }
export interface MeshInfo {
  id: string; vertexCount: number; texture: number; blend: number; alphaBlend: number; culling: boolean;
  part: number; masks: number[]; invertMask: boolean;
}
export interface ClipEvent { layer: number; clip: string | null; time: number; value: string; }
export interface PartGroup { mode: number; blend: number; alphaBlend: number; invertMask: boolean; }
export interface GroupComposite { opacity: number; multiply: [number, number, number]; screen: [number, number, number]; }
export interface TexturePage { kind: number; width: number; height: number; uri: string; }
export interface PanelNode {
  parameter: number; children: number; open: boolean; id: string; name: string;
  label: { kind: number; preset: string; argb: number };
}
export interface ClipInfo { name: string; group: string; duration: number; fps: number; looping: boolean; fadeIn: number; fadeOut: number; }

export declare class Runtime {
  /** By default p2l.wasm next to p2l.js (import.meta.url); a file: URL is read from disk in node. */
  static load(source?: string | URL | BufferSource | WebAssembly.Module): Promise<Runtime>;
  readonly abi: number;
  readonly version: string;
  rig(bytes: BufferSource, options?: { verifyCrc?: boolean }): Rig;
  /** In node a file: URL is read from disk. */
  fetchRig(url: string | URL, options?: { verifyCrc?: boolean }): Promise<Rig>;
  /** A Cubism model (.model3.json with its side files, or a .moc3), as `p2lrt import` makes it:
   *  from its URL (side files fetched relative to it) or from files by name. */
  importCubism(source: string | URL | Record<string, BufferSource> | Map<string, BufferSource>, options?: CubismImportOptions): Promise<Rig>;
  /** A speech for audio of sampleRate Hz (8000..384000) and 1..32 channels (docs/AUDIO.md). */
  speech(sampleRate: number, channels?: number, options?: { vowels?: boolean }): Speech;
}

export type Vowel = 'A' | 'I' | 'U' | 'E' | 'O' | 'silence';
export declare const Vowels: readonly Vowel[];
/** Audio in, a mouth out: Cubism's RMS level and, with vowels, vowel weights, at each update. */
export declare class Speech {
  readonly sampleRate: number;
  readonly channels: number;
  /** Interleaved samples, whole frames; a Uint8Array is 8-bit unsigned PCM. Throws with the reason when refused. */
  push(samples: Float32Array | Int16Array | Int32Array | Float64Array | Uint8Array): void;
  end(): void;
  /** Advances the clock by dt seconds (never past the audio pushed) and measures what it passed. */
  update(dt: number): void;
  reset(): void;
  setGain(gain: number): boolean;
  readonly level: number;
  /** Weights of A, I, U, E, O and silence (sum 1). */
  readonly vowels: number[];
  readonly vowel: Vowel;
  readonly time: number;
  readonly buffered: number;
  readonly finished: boolean;
  readonly latency: number;
  free(): void;
}

export interface CubismImportOptions {
  /** With files by name: which of them is the model (default: the .model3.json among them, else the .moc3). */
  model?: string;
  /** p2l-import.wasm: URL, bytes or compiled module; by default next to p2l.js. */
  importer?: string | URL | BufferSource | WebAssembly.Module;
  originalRules?: boolean;
  p2lrtPlayback?: boolean;
  externalTextures?: boolean;
}

export declare class Rig {
  readonly width: number;
  readonly height: number;
  readonly parameters: readonly ParameterInfo[];
  readonly meshes: readonly MeshInfo[];
  readonly clips: readonly string[];
  readonly expressions: readonly string[];
  readonly hitAreas: readonly string[];
  readonly bones: readonly string[];
  /** What a Cubism import did not carry over exactly; empty for a rig loaded from a .p2lrt. */
  importReport: string[];
  readonly parts: readonly string[];
  /** Entries per pose group. */
  readonly poseGroups: readonly number[];
  failure(): string;
  parameterIndex(id: string | number): number;
  setParameter(id: string | number, value: number): void;
  /** Views into the module's memory: read them before the next loading or switching call. */
  values(): Float32Array;
  current(): Float32Array;
  update(dt: number, stages?: number): void;
  evaluate(): void;
  vertices(mesh: number): Float32Array;
  uvs(mesh: number): Float32Array;
  indices(mesh: number): Uint32Array;
  opacity(mesh: number): number;
  drawOrder(mesh: number): number;
  colors(mesh: number): { multiply: [number, number, number]; screen: [number, number, number] };
  changes(mesh: number): number;
  renderOrder(): Uint32Array;
  play(clip: string | number | null, layer?: number, priority?: number): void;
  events(): ClipEvent[];
  expression(id: string | number | null): void;
  addExpression(id: string | number): boolean;
  removeExpression(id: string | number): boolean;
  showPose(group: number, entry: number): boolean;
  poseShown(group: number): number;
  behaviors(flags: number): void;
  lookAt(x: number, y: number): void;
  lipSync(level: number): void;
  /** Hands the speech's level and vowels to the mouth for the next updates (LIP_SYNC on). */
  speak(speech: Speech): void;
  bindMouth(slot: 'open' | 'form' | 'a' | 'i' | 'u' | 'e' | 'o', parameter: string | number | null): boolean;
  lipMix: 'floor' | 'add' | 'set';
  hitTest(x: number, y: number): string | null;
  advancedAvailable(): number;
  setAdvanced(features: number): number;
  resetSimulations(): void;
  wind(x: number, y: number): void;
  colliders(): number[][];
  boneTransform(id: string | number): number[] | null;
  /** Mesh indices, -2 - part opening an isolated group's layer, -1 closing it (a copy). */
  renderCommands(): Int32Array;
  partGroup(part: number): PartGroup | null;
  partMasks(part: number): Uint32Array;
  partComposite(part: number): GroupComposite | null;
  textures(): TexturePage[];
  /** An embedded PNG page's bytes (a copy), or null. */
  texturePng(page: number): Uint8Array | null;
  parameterSnaps(id: string | number): number[];
  parameterFlags(id: string | number): number;
  roleParameters(role: string): number[];
  panel(): { nodes: PanelNode[]; joysticks: [number, number][] };
  hitAreaName(id: string | number): string;
  hitAreaMeshes(id: string | number): number[];
  clipInfo(id: string | number): ClipInfo | null;
  clipPlaying(): number;
  expressionName(id: string | number): string;
  meta(): [string, string][];
  free(): void;
}
