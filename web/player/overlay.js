// What the stage shows over the drawing: the frame times (milliseconds per update with its
// evaluation, and per draw: the CPU time of issuing the frame's WebGL calls), and the hit
// area a click landed on.

const REFRESH_MS = 250;

/** Keeps the stage's overlays up to date with [player]. */
export function bindOverlay(player) {
  const stats = document.getElementById('stats');
  const hit = document.getElementById('hit');
  let shown = 0, frames = 0, since = performance.now();
  player.addEventListener('frame', () => {
    frames++;
    const now = performance.now();
    if (now - shown < REFRESH_MS) return;
    const fps = frames * 1000 / (now - since);
    shown = since = now;
    frames = 0;
    const t = player.timing;
    const what = player.test ? 'evaluate' : 'update';
    stats.textContent = `${what} ${t.update.toFixed(2)} ms · draw ${t.draw.toFixed(2)} ms · ` +
      `${player.width}×${player.height}${player.test ? '' : ` · ${fps.toFixed(0)} fps`}`;
  });
  let fade = 0;
  player.addEventListener('hit', ({ detail }) => {
    hit.textContent = detail.id ? `Hit: ${detail.name}` : 'No hit area here';
    hit.title = detail.id ? `${detail.id} at canvas (${detail.x.toFixed(0)}, ${detail.y.toFixed(0)})` : '';
    hit.dataset.hit = detail.id ?? '';
    hit.hidden = false;
    hit.classList.toggle('miss', !detail.id);
    clearTimeout(fade);
    if (!player.test) fade = setTimeout(() => { hit.hidden = true; }, 2500);
  });
}
