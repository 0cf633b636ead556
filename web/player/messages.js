// Messages on the page: the error banner (loading failures with the reader's message, WebGL
// problems, uncaught errors) and notices (texture pages not drawn and the like), so that a
// user sees them without opening the console.

const banner = () => document.getElementById('error');
const notices = () => document.getElementById('notices');

/** Shows [message] in the error banner until the next successful load or a dismissal. */
export function showError(message) {
  const element = banner();
  element.querySelector('.text').textContent = message;
  element.hidden = false;
  document.body.dataset.error = message;
}

export function clearError() {
  banner().hidden = true;
  delete document.body.dataset.error;
}

/** Replaces the notices under the stage with [lines]. */
export function showNotices(lines) {
  const list = notices();
  list.replaceChildren(...lines.map((line) => Object.assign(document.createElement('li'), { textContent: line })));
  list.hidden = lines.length === 0;
}

/** Uncaught errors and rejections reach the banner too. */
export function catchUncaught() {
  window.addEventListener('error', (event) => showError(event.message || String(event.error)));
  window.addEventListener('unhandledrejection', (event) => showError(event.reason?.message ?? String(event.reason)));
  banner().querySelector('button').addEventListener('click', clearError);
}
