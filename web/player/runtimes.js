// One runtime per module URL, shared by every player and every p2lrt/pixi model of the page.
import { Runtime } from '../p2l.js';

const runtimes = new Map();

/** The runtime of [wasm] (a URL; default p2l.wasm next to p2l.js), loaded once per page. */
export function loadRuntime(wasm) {
  const key = wasm == null ? '' : String(wasm);
  if (!runtimes.has(key)) {
    const loading = wasm == null ? Runtime.load() : Runtime.load(wasm);
    loading.catch(() => runtimes.delete(key));
    runtimes.set(key, loading);
  }
  return runtimes.get(key);
}
