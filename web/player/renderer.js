// The WebGL2 renderer: draws a rig's last evaluation by the rules of include/p2l/p2l.h, as
// p2l_render does in software (src/render/renderer.cpp is the reference).
//
//  - Commands: p2l_render_commands, back to front. An isolated group opens a cleared layer
//    (surfaces.js); its closing composites the layer into the surface under it with the
//    group's opacity, colours, masks and blend modes.
//  - Blending: blend_modes.js says which pairs fixed-function blending draws exactly; the
//    others copy the destination under the mesh into a backdrop texture and composite in the
//    shader (shaders.js). Where one mesh's own triangles overlap, its later triangles read the
//    destination from before the mesh, not from its earlier triangles as the software
//    renderer does; meshes do not fold over themselves in practice.
//  - Masks: the software renderer's coverage, as p2l_gl draws it (src/gl/gl_renderer.cpp): a
//    mask buffer cleared to 1 that each mask mesh multiplies by 1 - a (blending ZERO,
//    ONE_MINUS_SRC_COLOR), read by the masked draw as m = 1 - buffer (inverted: buffer). A
//    frame computes each distinct set of mask meshes once and keeps up to four buffers.
//  - Culling: Cubism's front faces are counter-clockwise as the picture shows them (y down),
//    which is clockwise in GL's terms since surfaces hold the picture top row first (see
//    shaders.js); a mirroring transform swaps them.
import { fixedFunctionFactors, normalizeModes } from './blend_modes.js';
import { ATTRIBUTE_POSITION, linkPrograms } from './gl_programs.js';
import { MeshBuffers } from './mesh_buffers.js';
import { programSources } from './shaders.js';
import { MAX_LAYER_DEPTH, Surfaces } from './surfaces.js';
import { loadPages } from './textures.js';

const UNIT_PAGE = 0, UNIT_BACKDROP = 1, UNIT_LAYER = 2, UNIT_MASK = 3;
const MASK_SLOTS = 4;
const clamp01 = (v) => (v > 0 ? (v < 1 ? v : 1) : 0);

export class RigRenderer {
  constructor(gl) {
    this.gl = gl;
    this.programs = linkPrograms(gl, programSources);
    for (const { program, uniforms } of Object.values(this.programs)) {
      gl.useProgram(program);
      if (uniforms.uPage) gl.uniform1i(uniforms.uPage, UNIT_PAGE);
      if (uniforms.uBackdrop) gl.uniform1i(uniforms.uBackdrop, UNIT_BACKDROP);
      if (uniforms.uLayer) gl.uniform1i(uniforms.uLayer, UNIT_LAYER);
      if (uniforms.uMask) gl.uniform1i(uniforms.uMask, UNIT_MASK);
    }
    this.maskSlots = Array.from({ length: MASK_SLOTS }, () => ({ key: null, frame: -1, used: 0 }));
    this.frameNumber = 0;
    this.tick = 0;
    this.surfaces = new Surfaces(gl);
    this.quad = this.makeQuad();
    this.rig = null;
    this.meshes = null;
    this.pages = [];
    this.parts = [];
  }

  // A rectangle drawn as a triangle strip; its corners are written at each use.
  makeQuad() {
    const gl = this.gl;
    const vao = gl.createVertexArray();
    gl.bindVertexArray(vao);
    const buffer = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    gl.bufferData(gl.ARRAY_BUFFER, 32, gl.DYNAMIC_DRAW);
    gl.enableVertexAttribArray(ATTRIBUTE_POSITION);
    gl.vertexAttribPointer(ATTRIBUTE_POSITION, 2, gl.FLOAT, false, 0, 0);
    gl.bindVertexArray(null);
    return { vao, buffer, corners: new Float32Array(8) };
  }

  /** Prepares [rig]'s meshes and pages (decoding them); [warn] hears of pages not drawn. */
  async setRig(rig, baseUrl, warn) {
    this.releaseRig();
    this.useRig(rig, await loadPages(this.gl, rig, baseUrl, warn));
  }

  /** Takes [rig] with its [pages] already made (a WebGL texture or null per page, as
   *  textures.js makes them), at once; the renderer deletes them when it lets go of the rig. */
  useRig(rig, pages) {
    this.releaseRig();
    const gl = this.gl;
    this.meshes = new MeshBuffers(gl, rig);
    this.pages = pages;
    // A part's group style and masks come from the file: read once.
    this.parts = rig.parts.map((_, p) => {
      const group = rig.partGroup(p);
      return { ...group, ...normalizeModes(group.blend, group.alphaBlend), masks: rig.partMasks(p) };
    });
    this.rig = rig;
  }

  releaseRig() {
    if (this.meshes) this.meshes.release();
    for (const page of this.pages) if (page) this.gl.deleteTexture(page);
    this.meshes = null;
    this.pages = [];
    this.rig = null;
  }

  /** Draws the rig's last evaluation into a [width] x [height] drawing buffer through
   *  [transform] (canvas pixels to drawing pixels), then shows it on the canvas; or, given an
   *  [output] framebuffer (at least that size), copies it there top row first (GL row 0), as
   *  the surfaces hold it (and as PixiJS's render textures do). */
  draw(transform, width, height, output = null) {
    const gl = this.gl, rig = this.rig, surfaces = this.surfaces;
    if (!rig) return;
    surfaces.resize(width, height);
    this.meshes.upload(rig);
    this.transform = transform;
    this.size = [width, height];
    gl.viewport(0, 0, width, height);
    gl.disable(gl.DEPTH_TEST);
    gl.disable(gl.SCISSOR_TEST);
    this.frameNumber++;
    gl.frontFace(transform.a * transform.d - transform.b * transform.c < 0 ? gl.CCW : gl.CW);
    gl.cullFace(gl.BACK);
    gl.colorMask(true, true, true, true);
    gl.bindFramebuffer(gl.FRAMEBUFFER, surfaces.frame.framebuffer);
    gl.clearColor(0, 0, 0, 0);
    gl.clear(gl.COLOR_BUFFER_BIT);

    const frame = { surface: surfaces.frame, rect: null };
    const open = [];  // the layers of the groups open, innermost last
    let flattened = 0;  // groups past MAX_LAYER_DEPTH, drawn through
    for (const command of rig.renderCommands()) {
      if (command <= -2) {
        if (open.length === MAX_LAYER_DEPTH) {
          flattened++;
          continue;
        }
        const surface = surfaces.layer(open.length);
        gl.bindFramebuffer(gl.FRAMEBUFFER, surface.framebuffer);
        gl.clear(gl.COLOR_BUFFER_BIT);
        open.push({ surface, rect: emptyRect(), part: -2 - command });
      } else if (command === -1) {
        if (flattened > 0) flattened--;
        else if (open.length > 0) this.closeLayer(open.pop(), open.at(-1) ?? frame);
      } else {
        this.drawMesh(command, open.at(-1) ?? frame);
      }
    }
    while (open.length > 0) this.closeLayer(open.pop(), open.at(-1) ?? frame);

    gl.bindFramebuffer(gl.READ_FRAMEBUFFER, surfaces.frame.framebuffer);
    gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, output);
    // The canvas shows GL's row 0 at the bottom: the frame, top row first, goes in flipped.
    if (output) gl.blitFramebuffer(0, 0, width, height, 0, 0, width, height, gl.COLOR_BUFFER_BIT, gl.NEAREST);
    else gl.blitFramebuffer(0, 0, width, height, 0, height, width, 0, gl.COLOR_BUFFER_BIT, gl.NEAREST);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  }

  drawMesh(m, target) {
    const gl = this.gl, rig = this.rig;
    const info = rig.meshes[m];
    if (!info || !this.meshes.has(m)) return;
    const opacity = clamp01(rig.opacity(m));
    if (!(opacity > 0)) return;
    const page = this.pages[info.texture];
    if (!page) return;
    const rect = this.meshRect(m);
    if (rect.x1 <= rect.x0 || rect.y1 <= rect.y0) return;
    const mask = this.maskSlot(info.masks);
    const { blend, alphaBlend } = normalizeModes(info.blend, info.alphaBlend);
    const program = this.useComposite(target, rect, blend, alphaBlend, 'meshFixed', 'meshBackdrop');
    this.bindMask(program, mask, info.invertMask);
    const { multiply, screen } = rig.colors(m);
    gl.uniform3fv(program.uniforms.uMultiply, multiply);
    gl.uniform3fv(program.uniforms.uScreen, screen);
    gl.uniform1f(program.uniforms.uOpacity, opacity);
    this.setTransform(program, this.transform);
    gl.activeTexture(gl.TEXTURE0 + UNIT_PAGE);
    gl.bindTexture(gl.TEXTURE_2D, page);
    if (info.culling) gl.enable(gl.CULL_FACE);
    else gl.disable(gl.CULL_FACE);
    this.meshes.draw(m);
    if (target.rect) growRect(target.rect, rect);
  }

  // Composites a closed group's layer into [target] (docs/RUNTIME.md, "Isolated groups").
  closeLayer(layer, target) {
    const gl = this.gl;
    const rect = layer.rect;
    if (rect.x1 <= rect.x0 || rect.y1 <= rect.y0) return;
    const part = this.parts[layer.part];
    const composite = this.rig.partComposite(layer.part);
    if (!part || !composite) return;
    const opacity = clamp01(composite.opacity);
    if (!(opacity > 0)) return;
    const mask = this.maskSlot(part.masks);
    const program = this.useComposite(target, rect, part.blend, part.alphaBlend, 'layerFixed', 'layerBackdrop');
    this.bindMask(program, mask, part.invertMask);
    gl.uniform3fv(program.uniforms.uMultiply, composite.multiply);
    gl.uniform3fv(program.uniforms.uScreen, composite.screen);
    gl.uniform1f(program.uniforms.uOpacity, opacity);
    this.setTransform(program, { a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0 });
    gl.activeTexture(gl.TEXTURE0 + UNIT_LAYER);
    gl.bindTexture(gl.TEXTURE_2D, layer.surface.texture);
    gl.disable(gl.CULL_FACE);
    const q = this.quad.corners;
    q.set([rect.x0, rect.y0, rect.x1, rect.y0, rect.x0, rect.y1, rect.x1, rect.y1]);
    gl.bindVertexArray(this.quad.vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.quad.buffer);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, q);
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
    if (target.rect) growRect(target.rect, rect);
  }

  // Selects the program and blending for a blend pair drawing over [rect] of [target]: fixed
  // function where it is exact, else the destination copied for the shader to read.
  useComposite(target, rect, blend, alphaBlend, fixedName, backdropName) {
    const gl = this.gl;
    const factors = fixedFunctionFactors(blend, alphaBlend);
    let program;
    if (factors) {
      gl.bindFramebuffer(gl.FRAMEBUFFER, target.surface.framebuffer);
      program = this.programs[fixedName];
      gl.useProgram(program.program);
      gl.enable(gl.BLEND);
      gl.blendEquation(gl.FUNC_ADD);
      gl.blendFuncSeparate(...factors);
    } else {
      gl.activeTexture(gl.TEXTURE0 + UNIT_BACKDROP);
      this.surfaces.copyToBackdrop(target.surface, rect);
      gl.bindFramebuffer(gl.FRAMEBUFFER, target.surface.framebuffer);
      program = this.programs[backdropName];
      gl.useProgram(program.program);
      gl.disable(gl.BLEND);
      gl.uniform1i(program.uniforms.uBlend, blend);
      gl.uniform1i(program.uniforms.uAlphaBlend, alphaBlend);
    }
    return program;
  }

  // The mask buffer of mask meshes [masks] (computed now if this frame has not: its framebuffer
  // is then bound), or -1 without masks.
  maskSlot(masks) {
    if (masks.length === 0) return -1;
    const gl = this.gl, slots = this.maskSlots;
    const age = (s) => (s.frame === this.frameNumber ? s.used : 0);
    let slot = 0;
    for (let s = 0; s < slots.length; s++) {
      if (slots[s].frame === this.frameNumber && sameList(slots[s].key, masks)) {
        slots[s].used = ++this.tick;
        return s;
      }
      if (age(slots[s]) < age(slots[slot])) slot = s;
    }
    gl.bindFramebuffer(gl.FRAMEBUFFER, this.surfaces.mask(slot).framebuffer);
    gl.clearColor(1, 1, 1, 1);
    gl.clear(gl.COLOR_BUFFER_BIT);
    gl.clearColor(0, 0, 0, 0);
    const program = this.programs.maskCoverage;
    gl.useProgram(program.program);
    this.setTransform(program, this.transform);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ZERO, gl.ONE_MINUS_SRC_COLOR);
    gl.disable(gl.CULL_FACE);  // masks ignore culling
    gl.activeTexture(gl.TEXTURE0 + UNIT_PAGE);
    for (const id of masks) {
      const info = this.rig.meshes[id];
      const page = info ? this.pages[info.texture] : null;
      if (!page || !this.meshes.has(id)) continue;
      gl.bindTexture(gl.TEXTURE_2D, page);
      this.meshes.draw(id);
    }
    Object.assign(slots[slot], { key: masks, frame: this.frameNumber, used: ++this.tick });
    return slot;
  }

  bindMask(program, slot, invert) {
    const gl = this.gl;
    if (slot < 0) {
      gl.uniform1i(program.uniforms.uMaskMode, 0);
      return;
    }
    gl.activeTexture(gl.TEXTURE0 + UNIT_MASK);
    gl.bindTexture(gl.TEXTURE_2D, this.surfaces.mask(slot).texture);
    gl.uniform1i(program.uniforms.uMaskMode, invert ? 2 : 1);
  }

  setTransform(program, t) {
    const gl = this.gl;
    gl.uniform3f(program.uniforms.uRow0, t.a, t.b, t.tx);
    gl.uniform3f(program.uniforms.uRow1, t.c, t.d, t.ty);
    gl.uniform2f(program.uniforms.uSize, this.size[0], this.size[1]);
  }

  // The drawing pixels mesh [m] can touch: its vertices' bounding box, a pixel wider on every
  // side, within the drawing.
  meshRect(m) {
    const v = this.rig.vertices(m);
    const t = this.transform;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (let i = 0; i + 1 < v.length; i += 2) {
      const x = t.a * v[i] + t.b * v[i + 1] + t.tx, y = t.c * v[i] + t.d * v[i + 1] + t.ty;
      if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
    const [width, height] = this.size;
    return {
      x0: Math.max(0, Math.floor(x0) - 1), y0: Math.max(0, Math.floor(y0) - 1),
      x1: Math.min(width, Math.ceil(x1) + 1), y1: Math.min(height, Math.ceil(y1) + 1),
    };
  }

  /** The canvas's pixels as drawn last, premultiplied RGBA8, top row first. Call it in the
   *  same task as draw(): the browser may clear the canvas once it has shown it. */
  readCanvas() {
    const gl = this.gl;
    const [width, height] = this.size;
    const pixels = new Uint8Array(width * height * 4);
    gl.bindFramebuffer(gl.READ_FRAMEBUFFER, null);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    const flipped = new Uint8Array(pixels.length);
    const row = width * 4;
    for (let y = 0; y < height; y++) flipped.set(pixels.subarray((height - 1 - y) * row, (height - y) * row), y * row);
    return flipped;
  }

  release() {
    this.releaseRig();
    this.surfaces.release();
    const gl = this.gl;
    for (const { program } of Object.values(this.programs)) gl.deleteProgram(program);
    gl.deleteVertexArray(this.quad.vao);
    gl.deleteBuffer(this.quad.buffer);
  }
}

function sameList(a, b) {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function emptyRect() { return { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity }; }

function growRect(r, by) {
  r.x0 = Math.min(r.x0, by.x0);
  r.y0 = Math.min(r.y0, by.y0);
  r.x1 = Math.max(r.x1, by.x1);
  r.y1 = Math.max(r.y1, by.y1);
}
