// A two-dimensional control for a joystick pair of the panel (p2l_gui_joysticks): the
// horizontal parameter left to right, the vertical one bottom to top. Drag the knob, use the
// arrow keys, double-click to go back to the defaults.
import { snapValue } from './snapping.js';

const ARROW_STEPS = 50;  // arrow presses from one end to the other

/** The control for parameters [h] and [v] (ParameterInfo with .index and .snaps); [set]
 *  (index, value) changes one. Returns { element, show(values, current) }. */
export function makeJoystick(h, v, set) {
  const element = document.createElement('div');
  element.className = 'joystick';
  element.dataset.parameters = `${h.id} ${v.id}`;
  const pad = document.createElement('div');
  pad.className = 'pad';
  pad.tabIndex = 0;
  pad.setAttribute('role', 'slider');
  pad.setAttribute('aria-label', `${h.name || h.id} and ${v.name || v.id}`);
  const knob = document.createElement('div');
  knob.className = 'knob';
  const live = document.createElement('div');
  live.className = 'live';
  pad.append(live, knob);
  const caption = document.createElement('div');
  caption.className = 'caption';
  const names = document.createElement('div');
  names.className = 'names';
  names.textContent = `${h.name || h.id} / ${v.name || v.id}`;
  names.title = `${h.id} / ${v.id}`;
  const output = document.createElement('output');
  caption.append(names, output);
  element.append(pad, caption);

  let x = h.default, y = v.default;
  const fraction = (p, value) => (p.max > p.min ? (value - p.min) / (p.max - p.min) : 0.5);
  const place = (dot, vx, vy) => {
    dot.style.left = `${fraction(h, vx) * 100}%`;
    dot.style.top = `${(1 - fraction(v, vy)) * 100}%`;
  };
  const apply = (nx, ny) => {
    x = snapValue(h, Math.min(h.max, Math.max(h.min, nx)));
    y = snapValue(v, Math.min(v.max, Math.max(v.min, ny)));
    set(h.index, x);
    set(v.index, y);
    place(knob, x, y);
    output.textContent = `${x.toFixed(1)}, ${y.toFixed(1)}`;
  };
  const fromPointer = (event) => {
    const box = pad.getBoundingClientRect();
    const fx = Math.min(1, Math.max(0, (event.clientX - box.left) / box.width));
    const fy = Math.min(1, Math.max(0, (event.clientY - box.top) / box.height));
    apply(h.min + fx * (h.max - h.min), v.max - fy * (v.max - v.min));
  };
  pad.addEventListener('pointerdown', (event) => {
    pad.setPointerCapture(event.pointerId);
    fromPointer(event);
  });
  pad.addEventListener('pointermove', (event) => {
    if (pad.hasPointerCapture(event.pointerId)) fromPointer(event);
  });
  pad.addEventListener('dblclick', () => apply(h.default, v.default));
  pad.addEventListener('keydown', (event) => {
    const dx = (h.max - h.min) / ARROW_STEPS, dy = (v.max - v.min) / ARROW_STEPS;
    const moves = { ArrowLeft: [-dx, 0], ArrowRight: [dx, 0], ArrowUp: [0, dy], ArrowDown: [0, -dy] };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    apply(x + move[0], y + move[1]);
  });

  /** Shows the host's values ([values]) and, faintly, those the last evaluation used. */
  const show = (values, current) => {
    x = values[h.index];
    y = values[v.index];
    place(knob, x, y);
    place(live, current[h.index], current[v.index]);
    output.textContent = `${x.toFixed(1)}, ${y.toFixed(1)}`;
  };
  return { element, show };
}
