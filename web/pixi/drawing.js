// Drawing models in PixiJS's WebGL2 context. Before each render of a scene (the prerender runner:
// before Pixi binds a target or batches), each live model of that scene whose rig changed is drawn
// by the player's renderer (web/player/renderer.js) into the render texture its Sprite shows; then
// renderer.resetState() makes Pixi re-read the GL state it caches.
import { ExtensionType, extensions } from 'pixi.js';
import { RigRenderer } from '../player/renderer.js';
import { uploadPages } from '../player/textures.js';

const models = new Set();  // live models
const hooked = new WeakSet();

export function track(model) { models.add(model); }
export function untrack(model) { models.delete(model); }

/** Makes [renderer] draw the live models of the scenes it renders: called by the plugin's WebGL
 *  system as a renderer starts, and by a model's onRender (a renderer made before the import). */
export function hookRenderer(renderer) {
  if (hooked.has(renderer)) return;
  hooked.add(renderer);
  if (!(typeof WebGL2RenderingContext !== 'undefined' && renderer.gl instanceof WebGL2RenderingContext)) {
    console.error('p2lrt/pixi: Live2DModel needs a WebGL2 renderer (preference: \'webgl\')');
    return;
  }
  renderer.runners.prerender.add({
    prerender(options) {
      for (const model of models) model._prerender(renderer, options.container);
    },
  });
  renderer.runners.destroy.add({
    destroy() {
      for (const model of models) model._rendererGone(renderer);
    },
  });
}

class Live2DSystem {
  constructor(renderer) { this.renderer = renderer; }
  init() { hookRenderer(this.renderer); }
  destroy() {}
}
Live2DSystem.extension = { type: [ExtensionType.WebGLSystem], name: 'p2lrtLive2D' };
extensions.add(Live2DSystem);

/** A model's GPU side: the player's renderer with the rig and its pages, and a framebuffer on the
 *  GL texture of the model's render texture. */
export class ModelDrawing {
  constructor(renderer, rig, bitmaps) {
    this.renderer = renderer;
    const gl = this.gl = renderer.gl;
    try {
      this.rigRenderer = new RigRenderer(gl);
      this.rigRenderer.useRig(rig, uploadPages(gl, bitmaps, (w) => console.warn(`p2lrt/pixi: ${w}`)));
      this.framebuffer = gl.createFramebuffer();
      this.attached = null;
    } finally {
      renderer.resetState();
    }
  }

  /** Draws the rig through [transform] into [texture] (a RenderTexture of [width] x [height]
   *  pixels), top row first as Pixi's render textures hold pictures. */
  draw(transform, width, height, texture) {
    const gl = this.gl, renderer = this.renderer;
    try {
      const target = renderer.texture.getGlSource(texture.source).texture;
      if (this.attached !== target) {
        gl.bindFramebuffer(gl.FRAMEBUFFER, this.framebuffer);
        gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, target, 0);
        this.attached = target;
      }
      gl.bindVertexArray(null);
      this.rigRenderer.draw(transform, width, height, this.framebuffer);
      gl.bindVertexArray(null);
    } finally {
      renderer.resetState();
    }
  }

  /** Frees the GL objects (nothing when the context is gone). */
  release() {
    const gl = this.gl;
    if (!gl.isContextLost()) {
      this.rigRenderer.release();
      gl.deleteFramebuffer(this.framebuffer);
      this.renderer.resetState();
    }
    this.rigRenderer = null;
  }
}
