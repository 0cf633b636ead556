// The parameter panel, laid out as the file's PGUI says (p2l_gui_*): groups as collapsible
// sections (open as the file marks them, with their label colour), joystick pairs as one
// two-dimensional control, sliders with the file's snap values as ticks. Parameters the tree
// leaves out follow it in file order (docs/FORMAT.md, PGUI); without a PGUI the panel is the
// flat list of parameters.
import { makeJoystick } from './joystick.js';
import { snapValue } from './snapping.js';

const SLIDER_STEPS = 400;

function makeSlider(p, set) {
  const row = document.createElement('div');
  row.className = 'param';
  row.dataset.parameter = p.id;
  const label = document.createElement('label');
  label.textContent = p.name || p.id;
  label.title = `${p.id} (${p.min} … ${p.max}, default ${p.default}); double-click for the default`;
  const track = document.createElement('div');
  track.className = 'track';
  const input = document.createElement('input');
  input.type = 'range';
  input.min = p.min;
  input.max = p.max;
  input.step = p.max > p.min ? (p.max - p.min) / SLIDER_STEPS : 'any';
  input.value = p.default;
  input.id = label.htmlFor = `parameter-${p.index}`;
  input.dataset.parameter = p.id;
  if (p.snaps.length) {
    const list = document.createElement('datalist');
    list.id = `snaps-${p.index}`;
    list.append(...p.snaps.map((value) => Object.assign(document.createElement('option'), { value })));
    input.setAttribute('list', list.id);
    row.append(list);
  }
  const live = document.createElement('div');
  live.className = 'live';
  track.append(input, live);
  const output = document.createElement('output');
  output.htmlFor = input.id;
  const apply = (value) => {
    const v = snapValue(p, value);
    input.value = v;
    output.textContent = v.toFixed(2);
    set(p.index, v);
  };
  input.addEventListener('input', () => apply(Number(input.value)));
  label.addEventListener('dblclick', () => apply(p.default));
  row.append(label, track, output);
  const span = p.max - p.min || 1;
  const show = (values, current) => {
    if (document.activeElement !== input) input.value = values[p.index];
    output.textContent = values[p.index].toFixed(2);
    live.style.left = `${Math.min(1, Math.max(0, (current[p.index] - p.min) / span)) * 100}%`;
  };
  const initial = Object.assign([], { [p.index]: p.default });
  show(initial, initial);
  return { element: row, show };
}

function makeGroup(node) {
  const details = document.createElement('details');
  details.className = 'group';
  details.open = node.open;
  details.dataset.group = node.id;
  if (node.label.kind === 2) {
    const c = node.label.argb >>> 0;
    details.style.setProperty('--label', `rgb(${(c >>> 16) & 255} ${(c >>> 8) & 255} ${c & 255})`);
  }
  const summary = document.createElement('summary');
  summary.textContent = node.name || node.id || 'Group';
  const body = document.createElement('div');
  body.className = 'group-body';
  details.append(summary, body);
  return { details, body };
}

/** Fills [container] with the panel of [rig]; [set](index, value) changes the host's pose.
 *  Returns show(values, current), which moves the controls to the given values. */
export function buildPanel(container, rig, set) {
  const parameters = rig.parameters.map((p, index) => ({ ...p, index, snaps: rig.parameterSnaps(index) }));
  const { nodes, joysticks } = rig.panel();
  const pairOf = new Map();
  for (const pair of joysticks) {
    pairOf.set(pair[0], pair);
    pairOf.set(pair[1], pair);
  }
  const placed = new Set();
  const controls = [];
  // The control of parameter [index], or null when it is already on the panel (a joystick
  // takes both of its parameters where the first of them appears).
  const control = (index) => {
    if (placed.has(index) || !parameters[index]) return null;
    const pair = pairOf.get(index);
    let made;
    if (pair && !placed.has(pair[0]) && !placed.has(pair[1]) && parameters[pair[0]] && parameters[pair[1]]) {
      made = makeJoystick(parameters[pair[0]], parameters[pair[1]], set);
      placed.add(pair[0]);
      placed.add(pair[1]);
    } else {
      made = makeSlider(parameters[index], set);
      placed.add(index);
    }
    controls.push(made);
    return made.element;
  };

  container.replaceChildren();
  // Pre-order: each node is followed by its children; returns the node after the subtree.
  const build = (i, parent) => {
    const node = nodes[i];
    if (node.parameter >= 0) {
      const element = control(node.parameter);
      if (element) parent.append(element);
      return i + 1;
    }
    const { details, body } = makeGroup(node);
    parent.append(details);
    let next = i + 1;
    for (let c = 0; c < node.children && next < nodes.length; c++) next = build(next, body);
    return next;
  };
  for (let i = 0; i < nodes.length;) i = build(i, container);
  const rest = parameters.filter((p) => !placed.has(p.index));
  if (rest.length) {
    let parent = container;
    if (nodes.length) {
      const { details, body } = makeGroup({ id: '', name: 'Other parameters', open: true, label: { kind: 0 } });
      container.append(details);
      parent = body;
    }
    for (const p of rest) {
      const element = control(p.index);
      if (element) parent.append(element);
    }
  }
  return (values, current) => {
    for (const c of controls) c.show(values, current);
  };
}
