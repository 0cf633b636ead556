// The player page (web/index.html): loads the runtime (p2l.wasm next to the page), builds
// the player and its panels, and loads the first rig: ?rig=URL, else the bundled example.
//   ?test=1          deterministic mode for web/test/browser.mjs (see player.js)
//   ?size=WxH        a fixed drawing size (test mode: 512x512 unless given)
import { Runtime } from '../p2l.js';
import { bindControls } from './controls.js';
import { bindLoader } from './loader.js';
import { catchUncaught, showError } from './messages.js';
import { bindOverlay } from './overlay.js';
import { buildPanel } from './panel.js';
import { Player } from './player.js';
import { bindTaps } from './taps.js';
import { exposeForTests } from './test_hooks.js';

const DEFAULT_RIG = 'character.p2lrt';
const PANEL_REFRESH_MS = 120;

function parseSize(text) {
  const match = /^(\d+)x(\d+)$/.exec(text ?? '');
  if (!match) return null;
  const size = [Number(match[1]), Number(match[2])];
  return size.every((n) => n >= 1 && n <= 4096) ? size : null;
}

async function start() {
  catchUncaught();
  const query = new URLSearchParams(location.search);
  const test = query.has('test') && query.get('test') !== '0';
  const size = parseSize(query.get('size')) ?? (test ? [512, 512] : null);
  document.body.classList.toggle('test', test);
  document.body.classList.toggle('fixed-size', !!size);
  const canvas = document.getElementById('canvas');
  if (size) {
    // One CSS pixel per drawing pixel: not stretched, and tests click where they mean.
    canvas.style.width = `${size[0]}px`;
    canvas.style.height = `${size[1]}px`;
  }

  let runtime;
  try {
    runtime = await Runtime.load(new URL('p2l.wasm', location.href));
  } catch (error) {
    document.body.dataset.state = 'error';
    showError(`The runtime (p2l.wasm) did not load: ${error.message ?? error}`);
    return;
  }
  document.getElementById('version').textContent = `p2lrt ${runtime.version}`;
  let player;
  try {
    player = new Player(canvas, runtime, { test, size });
  } catch (error) {
    document.body.dataset.state = 'error';
    showError(error.message ?? String(error));
    return;
  }
  exposeForTests(player);
  bindControls(player);
  bindOverlay(player);
  bindTaps(player);

  // The panel is rebuilt for each rig and follows the values a few times a second.
  const panel = document.getElementById('parameters');
  let showValues = null, shown = 0;
  player.addEventListener('rig', ({ detail: { rig } }) => {
    showValues = rig ? buildPanel(panel, rig, (index, value) => player.setParameter(index, value)) : null;
    if (!rig) panel.replaceChildren();
  });
  player.addEventListener('frame', ({ detail: { rig } }) => {
    const now = performance.now();
    if (!showValues || now - shown < PANEL_REFRESH_MS) return;
    shown = now;
    showValues(rig.values(), rig.current());
  });

  const load = bindLoader(player);
  await load(query.get('rig') ?? DEFAULT_RIG);
}

start();
