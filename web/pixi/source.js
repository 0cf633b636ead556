// What Live2DModel.from() takes (web/pixi.d.ts, ModelSource) turned into a rig; Cubism models go
// through the runtime's import (p2l-import.wasm), as `p2lrt import` does.

// A Cubism 2 model.json or .moc goes the same way as a model3.json or .moc3 (one importer).
const MODEL3 = /\.model3?\.json$/i, MOC3 = /\.moc3?$/i, P2LRT = /\.p2lrt$/i;
const USAGE = 'p2lrt/pixi: from() takes a URL, files, or a model3.json object ({ json, files, url })';
const here = () => (typeof document === 'object' ? document.baseURI : undefined);

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`p2lrt/pixi: ${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function bytesOf(v) {
  if (v == null) return null;
  if (typeof v === 'string') return new TextEncoder().encode(v);
  if (typeof Blob !== 'undefined' && v instanceof Blob) return new Uint8Array(await v.arrayBuffer());
  if (v instanceof ArrayBuffer || ArrayBuffer.isView(v)) return new Uint8Array(v.buffer ?? v, v.byteOffset ?? 0, v.byteLength);
  return new TextEncoder().encode(JSON.stringify(v));  // a JSON object
}

const normal = (name) => decodeURIComponent(new URL(name, 'http://p2l.invalid/').pathname.slice(1));

/** Files by name: those given, else fetched relative to [base]; get() answers a promise, which
 *  importCubism awaits. */
class ModelFiles extends Map {
  constructor(entries, base) {
    super(entries);
    this.base = base;
  }
  get(name) {
    const key = normal(name);
    if (super.has(key)) return bytesOf(super.get(key));
    return this.base ? fetchBytes(new URL(name, this.base)) : null;
  }
}

/** [name, file] pairs: File[] and FileList by webkitRelativePath or name. */
function fileEntries(files) {
  if (files == null) return [];
  if (files instanceof Map) return [...files];
  if (Array.isArray(files) || (typeof FileList !== 'undefined' && files instanceof FileList))
    return Array.from(files, (file) => [file.webkitRelativePath || file.name, file]);
  return Object.entries(files);
}

/** The files inside [folder] ('' or ending in '/'), named relative to it. */
function within(entries, folder) {
  return entries.filter(([name]) => name.startsWith(folder)).map(([name, file]) => [normal(name.slice(folder.length)), file]);
}

const folderOf = (name) => name.slice(0, name.lastIndexOf('/') + 1);
const baseName = (name) => name.slice(name.lastIndexOf('/') + 1);

/** [source] as a rig of [runtime]: { rig, url (of a .p2lrt), model3 (object or null), files }. */
export async function loadSource(runtime, source, { importer, originalRules, p2lrtPlayback } = {}) {
  const importOptions = { originalRules, p2lrtPlayback };
  if (importer) importOptions.importer = importer;
  const cubism = async (files, model, json) => {
    const rig = await runtime.importCubism(files, { ...importOptions, model });
    return { rig, url: files.base ?? null, model3: json, files };
  };

  if (typeof source === 'string' || (typeof URL !== 'undefined' && source instanceof URL)) {
    const url = new URL(source, here());
    const name = decodeURIComponent(baseName(url.pathname));
    if (P2LRT.test(name)) return { rig: runtime.rig(await fetchBytes(url)), url: url.href, model3: null, files: null };
    if (MODEL3.test(name)) {
      const bytes = await fetchBytes(url);
      const json = JSON.parse(new TextDecoder().decode(bytes));
      return cubism(new ModelFiles([[name, bytes]], url.href), name, json);
    }
    if (MOC3.test(name)) return cubism(new ModelFiles([], url.href), name, null);
    throw new Error(`p2lrt/pixi: ${url}: not a .model3.json, .moc3 or .p2lrt`);
  }

  const isFiles = Array.isArray(source) || source instanceof Map ||
    (typeof FileList !== 'undefined' && source instanceof FileList);
  if (isFiles) {
    const entries = fileEntries(source).map(([name, file]) => [name.replace(/\\/g, '/'), file]);
    const pick = (pattern) => entries.map(([name]) => name).filter((n) => pattern.test(n)).sort((a, b) => a.length - b.length)[0];
    const model = pick(MODEL3) ?? pick(MOC3);
    if (model) {
      const files = new ModelFiles(within(entries, folderOf(model)), null);
      const name = baseName(model);
      const json = MODEL3.test(name) ? JSON.parse(new TextDecoder().decode(await files.get(name))) : null;
      return cubism(files, name, json);
    }
    const rigFile = pick(P2LRT);
    if (!rigFile) throw new Error('p2lrt/pixi: no .model3.json, .moc3 or .p2lrt among the files');
    return { rig: runtime.rig(await bytesOf(entries.find(([n]) => n === rigFile)[1])), url: null, model3: null, files: null };
  }

  if (source && typeof source === 'object') {
    const json = source.FileReferences ? source : source.json;
    if (!json?.FileReferences) throw new Error(USAGE);
    const url = source.url != null ? new URL(source.url, here()).href : null;
    const name = url && MODEL3.test(new URL(url).pathname) ? decodeURIComponent(baseName(new URL(url).pathname)) : 'model.model3.json';
    const { url: _u, ...plain } = json;  // pixi-live2d-display's settings carry their url in the object
    const files = new ModelFiles(fileEntries(source.files).map(([n, f]) => [normal(n), f]), url);
    files.set(name, JSON.stringify(plain));
    return cubism(files, name, plain);
  }
  throw new Error(USAGE);
}
