// The renderer's offscreen surfaces, all of the drawing size: the frame itself, one layer per
// level of isolated-group nesting and one buffer per mask slot (made on first use), and the
// backdrop texture the shader reads the destination from. Surfaces are RGBA8 with premultiplied
// colour, the drawing's top row first (GL row 0; see src/gl/shaders/vertex.glsl), as p2l_gl's
// (src/gl/surfaces.cpp).

/** Isolated groups nested deeper than this draw into the layer around them, as the software
 *  renderer does (src/render/renderer.cpp, kMaxLayerDepth). */
export const MAX_LAYER_DEPTH = 16;

function colorTexture(gl, width, height) {
  const texture = gl.createTexture();
  gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA8, width, height);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
  return texture;
}

export class Surfaces {
  constructor(gl) {
    this.gl = gl;
    this.width = 0;
    this.height = 0;
    this.frame = null;
    this.layers = [];
    this.masks = [];
    this.backdrop = null;
  }

  /** Makes the surfaces [width] x [height]; nothing happens at the current size. */
  resize(width, height) {
    if (width === this.width && height === this.height) return;
    this.release();
    const gl = this.gl;
    this.width = width;
    this.height = height;
    this.frame = this.makeSurface();
    this.backdrop = colorTexture(gl, width, height);
  }

  makeSurface() {
    const gl = this.gl;
    const texture = colorTexture(gl, this.width, this.height);
    const framebuffer = gl.createFramebuffer();
    gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
    const status = gl.checkFramebufferStatus(gl.FRAMEBUFFER);
    if (status !== gl.FRAMEBUFFER_COMPLETE && !gl.isContextLost())
      throw new Error(`WebGL: an RGBA8 framebuffer is incomplete (0x${status.toString(16)})`);
    return { texture, framebuffer };
  }

  /** The layer of nesting level [depth] (0: the outermost group). */
  layer(depth) {
    while (this.layers.length <= depth) this.layers.push(this.makeSurface());
    return this.layers[depth];
  }

  /** The buffer of mask slot [slot]. */
  mask(slot) {
    while (this.masks.length <= slot) this.masks.push(this.makeSurface());
    return this.masks[slot];
  }

  /** Copies [rect] ({x0, y0, x1, y1}, pixels, top row 0) of [surface] into the backdrop,
   *  which stays bound to the active texture unit. */
  copyToBackdrop(surface, rect) {
    const gl = this.gl;
    const w = rect.x1 - rect.x0, h = rect.y1 - rect.y0;
    if (w <= 0 || h <= 0) return;
    gl.bindFramebuffer(gl.READ_FRAMEBUFFER, surface.framebuffer);
    gl.bindTexture(gl.TEXTURE_2D, this.backdrop);
    gl.copyTexSubImage2D(gl.TEXTURE_2D, 0, rect.x0, rect.y0, rect.x0, rect.y0, w, h);
  }

  release() {
    const gl = this.gl;
    for (const s of [this.frame, ...this.layers, ...this.masks]) {
      if (!s) continue;
      gl.deleteFramebuffer(s.framebuffer);
      gl.deleteTexture(s.texture);
    }
    if (this.backdrop) gl.deleteTexture(this.backdrop);
    this.frame = this.backdrop = null;
    this.layers = [];
    this.masks = [];
    this.width = this.height = 0;
  }
}
