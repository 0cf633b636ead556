// window.p2lPlayer: what web/test/browser.mjs drives in test mode (?test=1). Plain values
// only, since they cross into the test through Playwright.

function base64(bytes) {
  let text = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) text += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(text);
}

/** Exposes [player] to tests. */
export function exposeForTests(player) {
  window.p2lPlayer = {
    /** 'loading', 'ready' or 'error' (the page's state; the message is in error()). */
    state: () => document.body.dataset.state ?? 'loading',
    error: () => document.body.dataset.error ?? '',
    info: () => {
      const rig = player.rig;
      return rig && {
        width: rig.width, height: rig.height, meshes: rig.meshes.length, parameters: rig.parameters.map((p) => p.id),
        hitAreas: rig.hitAreas, drawing: [player.width, player.height], test: player.test,
      };
    },
    setParameter: (id, value) => player.setParameter(player.rig.parameterIndex(id), value),
    /** Evaluates and draws now; the times in milliseconds. */
    renderFrame: () => player.renderFrame(),
    /** The canvas after a fresh frame: { width, height, rgba: base64 premultiplied RGBA8, top row first }. */
    pixels: () => {
      const { width, height, rgba } = player.pixels();
      return { width, height, rgba: base64(rgba) };
    },
    canvasToClient: (x, y) => player.canvasToClient(x, y),
    /** The hit the last click reported ({ id, name, x, y }), or null. */
    lastHit: () => player.lastHit,
    /** Hit-tests canvas point (x, y) as a click there would, reporting it on the page. */
    hit: (x, y) => player.hit(x, y),
    timing: () => ({ ...player.timing }),
  };
}
