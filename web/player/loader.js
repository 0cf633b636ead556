// Where rigs come from: a URL (the ?rig= query, or the URL field), a file chosen with the
// file button, or a .p2lrt file dropped anywhere on the page. Failures (HTTP errors, bytes the
// reader refuses, with its message) go to the page's error banner.
import { clearError, showError, showNotices } from './messages.js';

const byId = (id) => document.getElementById(id);

/** Loads rigs into [player] from every source; returns load(url) for the first rig. */
export function bindLoader(player) {
  const field = byId('rig-url');
  const status = (text) => { byId('rig-status').textContent = text; };

  const loadBytes = async (bytes, name, baseUrl) => {
    document.body.dataset.state = 'loading';
    status(`Loading ${name}…`);
    try {
      await player.load(bytes, { name, baseUrl });
      clearError();
      document.body.dataset.state = 'ready';
    } catch (error) {
      document.body.dataset.state = 'error';
      status(player.rig ? player.source : 'No rig loaded');
      showError(`${name}: ${error.message ?? error}`);
    }
  };

  const loadUrl = async (url) => {
    field.value = url;
    let absolute;
    try {
      absolute = new URL(url, location.href);
      const response = await fetch(absolute);
      if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
      const bytes = new Uint8Array(await response.arrayBuffer());
      await loadBytes(bytes, url, absolute.href);
    } catch (error) {
      document.body.dataset.state = 'error';
      showError(`${url}: ${error.message ?? error}`);
    }
  };

  const loadFile = async (file) => {
    await loadBytes(new Uint8Array(await file.arrayBuffer()), file.name, null);
  };

  byId('url-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const url = field.value.trim();
    if (!url) return;
    const query = new URLSearchParams(location.search);
    query.set('rig', url);
    history.replaceState(null, '', `?${query}`);
    loadUrl(url);
  });
  byId('file').addEventListener('change', (event) => {
    const file = event.target.files[0];
    if (file) loadFile(file);
    event.target.value = '';
  });

  // Drag and drop anywhere on the page.
  let depth = 0;
  const overlay = byId('drop-overlay');
  window.addEventListener('dragenter', (event) => {
    if (!event.dataTransfer?.types.includes('Files')) return;
    depth++;
    overlay.hidden = false;
  });
  window.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (depth === 0) overlay.hidden = true;
  });
  window.addEventListener('dragover', (event) => event.preventDefault());
  window.addEventListener('drop', (event) => {
    event.preventDefault();
    depth = 0;
    overlay.hidden = true;
    const file = event.dataTransfer?.files[0];
    if (file) loadFile(file);
  });

  player.addEventListener('rig', ({ detail: { rig, name, warnings } }) => {
    if (!rig) return;
    const title = rig.meta().find(([key]) => key === 'title')?.[1];
    status(`${title || name} · ${rig.width}×${rig.height} · ${rig.meshes.length} meshes · ${rig.parameters.length} parameters`);
    byId('rig-status').title = name;
    showNotices(warnings);
  });
  return loadUrl;
}
