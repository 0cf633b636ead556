// What pixi_frames.mjs and pixi_screenshot.mjs share: the client's versions and where the
// packages come from (npm, through scripts/npm_fetch.sh, into ~/.cache/p2lrt: never the
// repository).
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const here = dirname(fileURLToPath(import.meta.url));
export const root = resolve(here, '../..');
export const PIXI_VERSION = '6.5.10';          // the newest pixi.js 6: pixi-live2d-display 0.4.0 peer-depends on @pixi/* ^6
export const DISPLAY_VERSION = '0.4.0';        // npm's latest pixi-live2d-display (MIT)
export const PLAYWRIGHT_VERSION = '1.65.1';    // as scripts/browser_test.sh

/** The folder of npm package [name]@[version] (its package/ folder), fetched once into the cache. */
export function fetchPackage(name, version, check) {
  return join(execFileSync(join(root, 'scripts/npm_fetch.sh'), [name, version, check], { encoding: 'utf8' }).trim(), 'package');
}

/** npm's Haru (live2dcubismcore@1.0.2, scripts/fetch_cubism_core.sh). */
export function defaultModel() {
  const core = execFileSync(join(root, 'scripts/fetch_cubism_core.sh'), { encoding: 'utf8' }).trim();
  return join(core, 'package/characters/haru_greeter_pro_jp/runtime/haru_greeter_t03.model3.json');
}

export function parseOptions(argv, flags = []) {
  const args = { positional: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (flags.includes(a)) args[a.slice(2)] = true;
    else if (a.startsWith('--')) {
      if (argv[i + 1] === undefined) throw new Error(`${a} needs a value`);
      args[a.slice(2)] = argv[++i];
    } else args.positional.push(a);
  }
  return args;
}

export const versionString = (v) => `${v >>> 24}.${(v >> 16) & 0xff}.${v & 0xffff}`;
