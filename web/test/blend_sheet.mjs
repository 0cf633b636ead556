// A test rig that puts every drawing rule of include/p2l/p2l.h side by side, for comparing the
// player's WebGL renderer with `p2lrt render` (web/test/browser.mjs). Written as the JSON form
// (docs/JSON.md) for `p2lrt build`, with its texture page made here:
//
//  - rows 0..4, one per alpha blend mode (P2L_ALPHA_*), 18 cells each, one per colour blend
//    mode (P2L_BLEND_*): a backdrop whose alpha falls from 1 to 0.15 towards its bottom, and
//    over it, reaching out over nothing on the right, a source whose alpha rises from 0.25 to
//    1 left to right, drawn with the cell's pair; some sources carry multiply and screen
//    colours or an opacity below 1;
//  - row 5: isolated groups of two overlapping meshes (one multiplying over the other inside
//    the layer) composited by various blend pairs, opacities, colours and masks, one of them
//    nested in another; masked meshes (a mask, an inverted mask, two masks); culling on and
//    off over triangles of both windings.
//
// Every mesh is a quad or a few triangles at fixed canvas pixels (origin 0, one pixel per unit).

export const CELL = 40;
const COLUMNS = 18, ROWS = 6;
export const WIDTH = CELL * COLUMNS, HEIGHT = CELL * ROWS;
const PAGE = 256;

// The texture page, straight RGBA8, four 128-texel regions: A backdrop, B source, C a disc
// with a 2-texel soft rim (masks: a pixel wide at the sheet's scale, where a stencil threshold
// would differ from the alpha-weighted coverage the renderers use), D opaque stripes.
function page() {
  const rgba = new Uint8Array(PAGE * PAGE * 4);
  const put = (x, y, r, g, b, a) => {
    const clamp = (v) => Math.round(Math.min(1, Math.max(0, v)) * 255);
    rgba.set([clamp(r), clamp(g), clamp(b), clamp(a)], (y * PAGE + x) * 4);
  };
  for (let y = 0; y < 128; y++) {
    for (let x = 0; x < 128; x++) {
      const fx = x / 127, fy = y / 127;
      put(x, y, fx, fy, 1 - fx, fy < 0.5 ? 1 : 1 - 1.7 * (fy - 0.5));
      put(128 + x, y, 1 - fy, 0.5 + 0.5 * Math.cos(Math.PI * fx), fy, Math.min(1, 0.25 + 1.2 * fx));
      const d = Math.hypot(x - 63.5, y - 63.5) / 64;
      put(x, 128 + y, 1, 1, 1, (0.9 - d) * 32);
      const stripe = Math.floor(x / 16) % 3;
      put(128 + x, 128 + y, stripe === 0 ? 0.9 : 0.2, stripe === 1 ? 0.8 : 0.3, stripe === 2 ? 0.9 : 0.25, 1);
    }
  }
  return { width: PAGE, height: PAGE, rgba };
}

const REGION = { A: [0, 0], B: [0.5, 0], C: [0, 0.5], D: [0.5, 0.5] };

// A quad from (x0, y0) to (x1, y1) showing texture region [name]; culling is off.
function quad(x0, y0, x1, y1, name) {
  const [u, v] = REGION[name];
  // Half a texel in from the region's edges, so that no neighbour bleeds in.
  const e = 0.5 / PAGE, s = 0.5 - 2 * e;
  return {
    positions: [x0, y0, x1, y0, x1, y1, x0, y1],
    uvs: [u + e, v + e, u + e + s, v + e, u + e + s, v + e + s, u + e, v + e + s],
    indices: [0, 1, 2, 0, 2, 3],
  };
}

/** The rig in JSON form ({ json, png: { width, height, rgba } }); [encodePng] makes the page's bytes. */
export function blendSheet(encodePng) {
  const meshes = [], parts = [], groups = [{ part: -1, children: [] }];
  let order = 0;
  const mesh = (id, geometry, extra = {}, into = groups[0]) => {
    meshes.push({ id, texture_page: 0, geometry, draw_order: order++, ...extra });
    if (into) into.children.push({ kind: 'mesh', index: meshes.length - 1 });
    return meshes.length - 1;
  };
  // An isolated part with its own draw group inside [parent]; returns the group.
  const isolated = (id, composite, parent = groups[0]) => {
    parts.push({ id, group_mode: 2, draw_order: order, composite, children: [] });
    const group = { part: parts.length - 1, draw_order: order++, children: [] };
    groups.push(group);
    parent.children.push({ kind: 'group', index: groups.length - 1 });
    return group;
  };

  for (let alpha = 0; alpha < 5; alpha++) {
    for (let blend = 0; blend < 18; blend++) {
      const x = blend * CELL, y = alpha * CELL;
      mesh(`Backdrop${alpha}_${blend}`, quad(x + 2, y + 2, x + 30, y + 38, 'A'));
      const colours = blend % 2 === 0 ? { multiply: [0.9, 0.7, 1], screen: [0.05, 0.1, 0] } : {};
      mesh(`Source${alpha}_${blend}`, quad(x + 10, y + 6, x + 38, y + 34, 'B'),
           { blend, alpha_blend: alpha, opacity: blend % 3 === 0 ? 0.75 : 1, ...colours });
    }
  }

  // Row 5: masks (drawn nowhere themselves: they are in no draw group).
  const y = 5 * CELL;
  const maskAt = (x, id) => mesh(id, quad(x + 4, y + 4, x + 36, y + 36, 'C'), {}, null);
  const cell = (column) => column * CELL;
  const groupCases = [
    { blend: 0, alpha_blend: 0, opacity: 0.5 },
    { blend: 6, alpha_blend: 0, multiply: [1, 0.6, 0.6] },
    { blend: 10, alpha_blend: 1, screen: [0.2, 0.2, 0] },
    { blend: 16, alpha_blend: 0, opacity: 0.8 },
    { blend: 3, alpha_blend: 4 },
    { blend: 0, alpha_blend: 0, mask: false },
    { blend: 7, alpha_blend: 3, mask: true },
  ];
  groupCases.forEach(({ mask, ...style }, k) => {
    const x = cell(k);
    mesh(`GroupBackdrop${k}`, quad(x + 2, y + 2, x + 30, y + 38, 'A'));
    const composite = { ...style };
    if (mask !== undefined) {
      composite.mask_meshes = [maskAt(x, `GroupMask${k}`)];
      composite.invert_mask = mask;
    }
    const group = isolated(`Group${k}`, composite);
    mesh(`GroupFirst${k}`, quad(x + 8, y + 4, x + 34, y + 30, 'B'), {}, group);
    mesh(`GroupSecond${k}`, quad(x + 14, y + 12, x + 38, y + 38, 'D'), { blend: 2, opacity: 0.8 }, group);
  });
  // A group in a group, both faded.
  {
    const x = cell(7);
    mesh('NestedBackdrop', quad(x + 2, y + 2, x + 30, y + 38, 'A'));
    const outer = isolated('NestedOuter', { opacity: 0.7, blend: 5 });
    mesh('NestedOuterMesh', quad(x + 6, y + 4, x + 28, y + 26, 'D'), {}, outer);
    const inner = isolated('NestedInner', { opacity: 0.6, multiply: [0.5, 1, 1] }, outer);
    mesh('NestedInnerMesh', quad(x + 12, y + 10, x + 38, y + 36, 'B'), {}, inner);
  }
  // Masked meshes: a mask, an inverted mask, two masks.
  const masked = (column, invert, count) => {
    const x = cell(column);
    mesh(`MaskedBackdrop${column}`, quad(x + 2, y + 2, x + 30, y + 38, 'A'));
    const masks = [maskAt(x, `Mask${column}a`)];
    if (count > 1) masks.push(mesh(`Mask${column}b`, quad(x + 14, y + 10, x + 40, y + 36, 'C'), {}, null));
    mesh(`Masked${column}`, quad(x + 6, y + 6, x + 38, y + 34, 'D'), { mask_meshes: masks, invert_mask: invert });
  };
  masked(8, false, 1);
  masked(9, true, 1);
  masked(10, false, 2);
  // Culling: four triangles, two front-facing (counter-clockwise as drawn, y down) and two not.
  for (const [column, culling] of [[11, true], [12, false]]) {
    const x = cell(column) + 4, top = y + 4;
    const [u, v] = REGION.D;
    mesh(`Culled${column}`, {
      positions: [x, top, x + 16, top, x + 32, top, x, top + 32, x + 16, top + 32, x + 32, top + 32],
      uvs: [u, v, u + 0.25, v, u + 0.5, v, u, v + 0.5, u + 0.25, v + 0.5, u + 0.5, v + 0.5],
      // 0 3 4 and 0 4 1 run counter-clockwise on screen; 1 2 5 and 1 5 4 clockwise.
      indices: [0, 3, 4, 0, 4, 1, 1, 2, 5, 1, 5, 4],
    }, { culling });
  }

  const texture = page();
  const json = {
    format: 'p2lrt-json', version: 1,
    canvas: { width: WIDTH, height: HEIGHT, origin_x: 0, origin_y: 0, pixels_per_unit: 1 },
    parts, meshes, draw_groups: groups,
    textures: [{ kind: 'png', width: PAGE, height: PAGE, data: Buffer.from(encodePng(texture)).toString('base64') }],
    meta: [{ key: 'title', value: 'Blend sheet (web/test/blend_sheet.mjs)' }],
  };
  return json;
}

/** The canvas rectangles of the sheet's cells, for figures per cell: { name, masked, x0, y0,
 *  x1, y1 }, masked when a mask decides some of the cell's pixels. */
export function sheetCells() {
  const names = ['normal', 'cubism add', 'cubism multiply', 'add', 'add glow', 'darken', 'multiply', 'color burn',
                 'linear burn', 'lighten', 'screen', 'color dodge', 'overlay', 'soft light', 'hard light',
                 'linear light', 'hue', 'color'];
  const alphas = ['over', 'atop', 'out', 'conjoint over', 'disjoint over'];
  const cells = [];
  for (let a = 0; a < 5; a++)
    for (let b = 0; b < 18; b++) cells.push({ name: `${names[b]} × ${alphas[a]}`, masked: false, x0: b * CELL, y0: a * CELL, x1: (b + 1) * CELL, y1: (a + 1) * CELL });
  const extras = ['group normal 0.5', 'group multiply', 'group screen atop', 'group hue', 'group add disjoint',
                  'group masked', 'group color burn conjoint, inverted mask', 'nested groups', 'mask',
                  'inverted mask', 'two masks', 'culling on', 'culling off'];
  extras.forEach((name, k) => cells.push({ name, masked: name.includes('mask'), x0: k * CELL, y0: 5 * CELL, x1: (k + 1) * CELL, y1: 6 * CELL }));
  return cells;
}
