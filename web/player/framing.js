// Where the rig's canvas lies in the drawing: fitted whole and centred, as `p2lrt render`
// frames a pose without --fit (tools/p2lrt/render_command.cpp, framing()), in single
// precision like it, so that the two draw the same pixels. And the mapping between a pointer
// on the page and canvas pixels, for hit tests and gaze.

const f = Math.fround;

/** The affine { a, b, c, d, tx, ty } from canvas pixels to drawing pixels. */
export function fitCanvas(canvasWidth, canvasHeight, width, height) {
  const w = Math.max(f(canvasWidth), f(1e-3)), h = Math.max(f(canvasHeight), f(1e-3));
  const scale = Math.min(f(width / w), f(height / h));
  return {
    a: scale, b: 0, c: 0, d: scale,
    tx: f(f(f(width) - f(w * scale)) * 0.5),
    ty: f(f(f(height) - f(h * scale)) * 0.5),
  };
}

/** Canvas pixels under a client (CSS) point over [element], which shows the drawing. */
export function clientToCanvas(element, transform, drawingWidth, drawingHeight, clientX, clientY) {
  const box = element.getBoundingClientRect();
  const x = (clientX - box.left) * drawingWidth / box.width;
  const y = (clientY - box.top) * drawingHeight / box.height;
  return { x: (x - transform.tx) / transform.a, y: (y - transform.ty) / transform.d };
}

/** The client point over [element] that shows canvas point (x, y). */
export function canvasToClient(element, transform, drawingWidth, drawingHeight, x, y) {
  const box = element.getBoundingClientRect();
  return {
    x: box.left + (transform.a * x + transform.tx) * box.width / drawingWidth,
    y: box.top + (transform.d * y + transform.ty) * box.height / drawingHeight,
  };
}
